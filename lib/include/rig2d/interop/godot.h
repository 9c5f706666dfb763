// SPDX-License-Identifier: Apache-2.0
// Godot 4 text scenes (.tscn) with a Skeleton2D, Bone2D nodes and skinned Polygon2D nodes, to and
// from rig2d. Godot 2D shares rig2d's conventions (+y down, radians, clockwise-positive rotation),
// so bones and vertices carry over without a flip.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/interop/interop.h"

namespace rig2d {

// What an ext_resource texture path resolves to, for the importer.
struct GodotTexture {
  int width = 0, height = 0;  // px (Polygon2D uv are texture pixels, rig2d uv are 0..1 of the sprite)
};

struct GodotImportOptions : ImportOptions {
  // Looks up a texture by its ext_resource path (e.g. "res://hero.png" or "hero.png"); nullopt when
  // unknown. Called before `sidecars` is read, so it may append the texture's existing sidecar there
  // (KnownSidecar::image = the resource path).
  std::function<std::optional<GodotTexture>(const std::string& resource_path)> resolve_texture;
};

// Imports the first Skeleton2D and every Polygon2D skinned to it. Each texture becomes a sheet; a part's
// sprite is the texture's whole-image sprite, or, when its sidecar already has slices, a whole-image
// slice named after the image; a scene written by
// export_godot carries rig2d metadata (rig id, layout, sprite GUID and its rect) and comes back as it
// was. Errors (file, line:col, code): godot.syntax, godot.skeleton (no Skeleton2D), godot.bone
// (a Bone2D outside the bone tree), godot.polygon.* (bad arrays or bone paths), godot.limit.
// n-gon polygons are triangulated, weights keep the 4 largest per vertex and are renormalized;
// what changes is reported as convert.godot.* / convert.weights.* warnings.
RIG2D_EXPORT Result<ImportResult> import_godot(std::string_view text, const std::string& path,
                                               const GodotImportOptions& options);

// A scene: Node2D root, Skeleton2D with nested Bone2D (rest = bind), one Polygon2D per part with
// polygon, uv (texture px), polygons, bones + weights, and rig2d metadata for a lossless re-import.
RIG2D_EXPORT Result<ExportResult> export_godot(const Rig& rig, const ExportOptions& options);

}  // namespace rig2d
