// SPDX-License-Identifier: Apache-2.0
// A texture's `.meta.json` sidecar (ENGINE-SPEC §1.4): its GUID, usage type and `sprites` slices, the
// GUIDs derived from it, and new or updated sidecar text. Every error names the file and, for JSON, the
// pointer and line:col.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

// Texture usage type (§1.4). Only 2d and ui textures get a whole-image sprite GUID.
enum class TextureType { ThreeD, TwoD, Ui };

struct SpriteMeta {
  std::string texture_guid;  // the sidecar's `id`, as written
  TextureType type = TextureType::ThreeD;  // `type`, else 2d for texture.format png/webp, else 3d
  bool type_explicit = false;              // the sidecar has a `type` key
  bool has_slices = false;                 // `sprites` is there and not an empty array: a sheet, whose
                                           // slices the engine knows instead of a whole-image sprite
};

// "<asset>.meta.json".
RIG2D_EXPORT std::string sidecar_path(const std::string& asset_path);

// Parses sidecar text. Errors: json.syntax / json.too_deep, meta.root (not an object), meta.id (no `id`
// or not a GUID), meta.type (`type` not one of "3d", "2d", "ui").
RIG2D_EXPORT Result<SpriteMeta> parse_sprite_meta(std::string_view text, const std::string& path);
// Reads and parses a sidecar file. Errors: meta.missing (no such file), io.*, and parse_sprite_meta's.
RIG2D_EXPORT Result<SpriteMeta> read_sprite_meta(const std::string& path);

// The texture's derived whole-image sprite GUID: derive_guid("sprite:" + lowercase(texture_guid)).
RIG2D_EXPORT std::string whole_image_sprite_guid(std::string_view texture_guid);

// The namespace --write-meta mints texture GUIDs in (UUID v5).
inline constexpr std::string_view kTextureIdNamespace = "8f3c2a61-7d4e-5b09-a1c6-3e5f7a9b2d40";

// Deterministic texture GUID for a new sidecar: uuid_v5(kTextureIdNamespace, relative_path + "\n" +
// content), where relative_path is the PNG's path under its asset root ('/' separators) and content
// its bytes. The same file at the same place always gets the same GUID; copies elsewhere differ.
RIG2D_EXPORT std::string mint_texture_guid(std::string_view relative_path, std::string_view content);

// A new sidecar: {"version": 2, "id": <guid>, "type": "2d"}, JSON.stringify(..., null, 2) layout.
RIG2D_EXPORT std::string new_sprite_meta_text(std::string_view texture_guid);
// An existing sidecar with `type` set to "2d": other keys keep their order and values, a missing
// `type` is appended. Errors: as parse_sprite_meta.
RIG2D_EXPORT Result<std::string> sprite_meta_with_2d_type(std::string_view text, const std::string& path);

struct SpriteSlice {
  std::string guid;                 // the slice's sprite GUID, lowercased
  std::string name;                 // as written ("" when absent)
  int x = 0, y = 0, w = 0, h = 0;   // rect in source px, top-left origin
  double pivot_x = 0.5;             // 0..1 within the rect, 0 = left
  double pivot_y = 0.5;             // 0..1 within the rect, 0 = top
};

// The `sprites` slices of a sidecar's text, in file order (none when the key is absent). Rect values
// must be whole numbers. Errors (pointer and line:col): json.*, meta.root, meta.sprites (not an array),
// meta.slice.guid (not a GUID, or another slice's), meta.slice.rect (missing, not whole numbers, x/y < 0 or w/h <= 0),
// meta.slice.pivot (outside 0..1).
RIG2D_EXPORT Result<std::vector<SpriteSlice>> parse_sprite_slices(std::string_view sidecar_text,
                                                                  const std::string& path);
// The same from a sidecar file; a missing file has no slices. Errors: io.*, then as above.
RIG2D_EXPORT Result<std::vector<SpriteSlice>> read_sprite_slices(const std::string& sidecar_path);

}  // namespace rig2d
