// SPDX-License-Identifier: Apache-2.0
// The files rig2d-autorig reads besides the PNG: the texture's `.meta.json` sidecar (its GUID and
// usage type, ENGINE-SPEC §1.4), a hand-placed bones file, and the id of a rig written by an earlier
// run. Every error names the file and, for JSON, the pointer and line:col.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

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

// Hand-placed bones: a JSON array of bones, or an object with a `bones` array (so a .rig2d.json can be
// reused). Bone: {name: non-empty unique string, parent?: integer, -1 (default) or another bone's
// index, x?, y?: px, rot?: radians (finite numbers, default 0)}; other keys are ignored. Parents may
// come in any order but must not form a cycle. Errors (with pointer and line:col): json.syntax,
// json.too_deep, bones.root, bones.empty, bones.too_many (over kMaxBones), bones.type (a field of the
// wrong type or not finite), bones.name (empty or duplicate), bones.parent (out of range or a cycle).
RIG2D_EXPORT Result<std::vector<Bone>> parse_bones_json(std::string_view text, const std::string& path);
// Reads and parses a bones file (io.* errors, then parse_bones_json's).
RIG2D_EXPORT Result<std::vector<Bone>> read_bones_file(const std::string& path);

// The GUID `id` of an existing rig file, so a re-run keeps it. nullopt when the file does not exist,
// is not JSON, or has no GUID-shaped string `id` (the caller then derives one).
RIG2D_EXPORT std::optional<std::string> existing_rig_id(const std::string& rig_path);

}  // namespace rig2d
