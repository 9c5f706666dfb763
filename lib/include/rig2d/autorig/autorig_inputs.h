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
