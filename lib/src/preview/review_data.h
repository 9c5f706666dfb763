// SPDX-License-Identifier: Apache-2.0
// The review page's data: one rig as JSON (its list entry and the viewer's data), and the textures
// the rigs share (each PNG once, as a data: URI or a relative link).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rig2d/anim/clip.h"
#include "rig2d/preview/review_page.h"
#include "rig2d/validate/validate.h"

namespace rig2d {

// Every texture of the page, numbered in first-use order.
class ReviewTextures {
 public:
  ReviewTextures(bool link, std::string page_path) : link_(link), page_path_(std::move(page_path)) {}
  // The number of the PNG at `path` (read and encoded on first use), or -1 when it cannot be read.
  int add(const std::string& path);
  std::size_t embedded_bytes() const { return bytes_; }
  // Each texture's JSON string (script-safe): "data:image/png;base64,..." or a relative URL.
  std::vector<std::string> take_uris() { return std::move(uris_); }

 private:
  bool link_;
  std::string page_path_;
  std::map<std::string, int> numbers_;
  std::vector<std::string> uris_;
  std::size_t bytes_ = 0;
};

struct ReviewRig {
  nlohmann::json summary;  // the list entry: name, path, error, counts, codes
  nlohmann::json detail;   // the viewer's data: bones, parts, clip channels, figures, findings
};

// Reads, validates (unless the input has a report) and describes one rig. A rig that cannot be read
// gets an entry with its error; its warning goes to page.diagnostics, files read to page.inputs.
ReviewRig review_rig(const ReviewInput& input, const ReviewPageOptions& options, const Clip* clip,
                     const Validator* validator, ReviewTextures& textures, ReviewPage& page);

// Standard base64 (RFC 4648, padded).
std::string base64(std::string_view bytes);
// A path as a relative URL: every byte but unreserved characters and '/' percent-encoded.
std::string url_path(const std::string& path);

}  // namespace rig2d
