// SPDX-License-Identifier: Apache-2.0
// A sidecar's text parsed as the JSON object every sidecar reader starts from. Internal.
#pragma once

#include <string>
#include <string_view>

#include "json/json_util.h"
#include "rig2d/core/result.h"

namespace rig2d::detail {

// Errors: json.syntax / json.too_deep, meta.root (the text is not a JSON object).
inline Result<Json> parse_meta_object(std::string_view text, const std::string& path) {
  auto json = parse_json(text, path);
  if (!json) return Unexpected{json.error()};
  if (!json->is_object()) return located_error("meta.root", "sidecar is not a JSON object", text, path, "");
  return json;
}

}  // namespace rig2d::detail
