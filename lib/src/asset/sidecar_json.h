// SPDX-License-Identifier: Apache-2.0
// A sidecar's text parsed as the JSON object every sidecar reader starts from, and one slice as the
// sidecar lists it. Internal.
#pragma once

#include <string>
#include <string_view>

#include "json/json_util.h"
#include "rig2d/core/result.h"
#include "rig2d/asset/sprite_meta.h"

namespace rig2d::detail {

// Errors: json.syntax / json.too_deep, meta.root (the text is not a JSON object).
inline Result<Json> parse_meta_object(std::string_view text, const std::string& path) {
  auto json = parse_json(text, path);
  if (!json) return Unexpected{json.error()};
  if (!json->is_object()) return located_error("meta.root", "sidecar is not a JSON object", text, path, "");
  return json;
}

// One `sprites` entry: {guid, name, rect {x, y, w, h}, pivot {x, y}}, in the editor's key order.
inline Json slice_json(const SpriteSlice& s) {
  return {{"guid", s.guid},
          {"name", s.name},
          {"rect", {{"x", s.x}, {"y", s.y}, {"w", s.w}, {"h", s.h}}},
          {"pivot", {{"x", s.pivot_x}, {"y", s.pivot_y}}}};
}

}  // namespace rig2d::detail
