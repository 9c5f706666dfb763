// SPDX-License-Identifier: Apache-2.0
// Spine skeleton JSON (4.x) to and from rig2d. Import bakes Spine's setup-pose world transforms
// (scale, shear and inherit modes included) into the bind vertices, so every setup-pose vertex lands
// where Spine draws it, y flipped to +y down. Export writes Spine 4.2 JSON with weighted meshes.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/interop/atlas.h"
#include "rig2d/interop/interop.h"

namespace rig2d {

// True when `text` parses as a JSON object with "skeleton" and "bones" members (a Spine export), and
// when it is valid JSON our reader refuses (nested too deep, too large): import_spine then reports
// that error (json.too_deep with its line:col) instead of the file being called something else.
RIG2D_EXPORT bool looks_like_spine_json(std::string_view text);

// What import_spine reads beyond ImportOptions: which skins the setup pose shows.
struct SpineImportOptions : ImportOptions {
  SpineImportOptions() = default;
  SpineImportOptions(ImportOptions base) : ImportOptions(std::move(base)) {}  // NOLINT: plain options convert
  // Skins combined over the default skin in this order, as Spine's Skin.addSkin combines them: a later
  // skin's attachment replaces an earlier one's of the same slot and name, and a slot shows its
  // setup attachment from these skins, else from the default skin ({} = the default skin alone).
  std::vector<std::string> skins;
};

// The names of the skins of a Spine skeleton, in file order (4.x array or 3.x object; {} when it has
// none). Errors: json.* (not JSON).
RIG2D_EXPORT Result<std::vector<std::string>> spine_skin_names(std::string_view text, const std::string& path);

// Imports a Spine skeleton. `atlas` (nullptr = none) supplies the regions: each attachment's region
// becomes a slice of its page's texture sheet and the part's sprite is that slice's GUID; without an
// atlas parts get no sprite and their UVs stay in the region's own 0..1. Errors (file, JSON pointer,
// line:col): json.*, spine.root, spine.bone.*, spine.slot.*, spine.skin.* (spine.skin.unknown: a skin
// of options.skins the file lacks), spine.attachment.*, spine.limit. A linked mesh becomes the mesh
// Spine builds from it: its parent mesh's vertices, weights, uvs and triangles with its own region.
// Everything that cannot be represented is a convert.spine.* warning in ImportResult::diagnostics.
RIG2D_EXPORT Result<ImportResult> import_spine(std::string_view text, const std::string& path,
                                               const Atlas* atlas, const SpineImportOptions& options);

// import_spine once per entry of `options` (each with its own skins, rig id and sidecars), the text
// parsed once: results[i] is what import_spine(text, path, atlas, options[i]) returns. The first
// entry that fails is the error.
RIG2D_EXPORT Result<std::vector<ImportResult>> import_spine_each(std::string_view text, const std::string& path,
                                                                 const Atlas* atlas,
                                                                 const std::vector<SpineImportOptions>& options);

// Exports a rig (v1 or v2, as read_rig_strict accepts it) to Spine 4.2 JSON and, where the sprites
// resolve, an atlas whose regions are the sprites' rects. Clips become animations (rz -> rotate,
// x/y -> translatex/translatey). Errors: convert.rig.bones (a parent cycle or an index out of range).
RIG2D_EXPORT Result<ExportResult> export_spine(const Rig& rig, const ExportOptions& options);

}  // namespace rig2d
