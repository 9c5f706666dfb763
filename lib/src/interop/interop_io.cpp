// SPDX-License-Identifier: Apache-2.0
// The writer for what an import produces besides the rig and its clips: texture sidecars.
#include <algorithm>

#include "interop/common.h"
#include "asset/sidecar_json.h"

namespace rig2d {

using detail::Json;

Result<std::string> write_texture_sidecar(const TextureSheet& sheet, std::string_view existing,
                                          const std::string& existing_path) {
  Json doc = Json::object();
  if (!existing.empty()) {
    auto parsed = detail::parse_json(existing, existing_path);
    if (!parsed) return Unexpected{parsed.error()};
    if (!parsed->is_object()) {
      return make_error("convert.sidecar.parse", "the existing sidecar is not a JSON object", Location{existing_path, "", 1, 1});
    }
    doc = std::move(*parsed);
  } else {
    doc["version"] = 2;
    doc["id"] = sheet.texture_guid;
  }
  if (!doc.contains("type")) doc["type"] = "2d";
  const bool writes_slices = std::any_of(sheet.slices.begin(), sheet.slices.end(), [](const SliceOut& s) { return s.x >= 0; });
  if (sheet.whole_image && !writes_slices) return detail::to_js_json(doc, true);
  doc["spriteSheet"] = Json{{"width", sheet.width}, {"height", sheet.height}};
  Json sprites = doc.contains("sprites") && doc["sprites"].is_array() ? doc["sprites"] : Json::array();
  for (const SliceOut& slice : sheet.slices) {
    if (slice.x < 0) continue;  // known from the sidecar but not used by this import: left as it is
    Json entry = detail::slice_json({slice.guid, slice.name, slice.x, slice.y, slice.w, slice.h});
    auto same = std::find_if(sprites.begin(), sprites.end(), [&](const Json& s) {
      return s.is_object() && s.contains("name") && s["name"] == slice.name;
    });
    if (same != sprites.end()) {
      if (same->contains("pivot")) entry["pivot"] = (*same)["pivot"];
      if (same->contains("border")) entry["border"] = (*same)["border"];
      *same = std::move(entry);
    } else {
      sprites.push_back(std::move(entry));
    }
  }
  doc["sprites"] = std::move(sprites);
  return detail::to_js_json(doc, true);
}

}  // namespace rig2d
