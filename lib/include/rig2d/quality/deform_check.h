// SPDX-License-Identifier: Apache-2.0
// Deformation quality: will this rig fold over, stretch or leak when an animator bends it?
//
// check_deformation bends every bone of a rig in turn by +angle and -angle about its joint (the
// bone's local rotation, skinned exactly as the engine's skin2DSystem: anim/skin_rig.h)
// and measures each part's mesh against its bind pose; it also measures the weights themselves
// (dominant bones, rigid area, weight that reaches across a transparent gap) and, where the part's
// texture alpha is given, the visible pixels the mesh does not cover. Every figure is defined in
// docs/quality.md. Findings are Diagnostics with the codes deform.* (see deform_codes()), a JSON
// pointer into the rig file and the figures in the message. Deterministic; never prints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rig2d/asset/asset_index.h"
#include "rig2d/core/error.h"
#include "rig2d/core/types.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

// One part's sprite alpha: the pixels the part's UVs span (a slice's rect, else the whole texture),
// row-major, top-left origin. uv (0,0) is the top-left corner of pixel (0,0), uv (1,1) the
// bottom-right corner of the last pixel.
struct AlphaMap {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> alpha;  // width * height values, 0..255
};

// Limits above which a figure becomes a finding. Each is compared to the figure named the same way
// in PartDeformStats (the worst bend's figure where the figure is per bend).
struct DeformThresholds {
  double max_flip_fraction = 0.01;   // deform.flip: flipped / triangles in the worst bend [0, 1]
  double min_area_ratio = 0.2;       // deform.area: posed / bind area of a triangle that did not flip
  double max_area_ratio = 5;         // deform.area
  double max_edge_stretch = 3;       // deform.stretch: posed / bind length of an edge
  double max_rigid_fraction = 0.98;  // deform.rigid: rigid area / mesh area, rigs with >= 2 used bones
  double max_leak_fraction = 0.005;  // deform.leak: leaked weight / total weight [0, 1]
  std::size_t max_uncovered_pixels = 0;  // deform.uncovered: visible pixels outside the mesh
};

struct DeformOptions {
  double angle = 1.0471975511965976;  // radians (60 degrees): each bend is +angle and -angle [Limit: finite]
  int visible_alpha = 127;    // a pixel is visible (must be covered) when alpha > this [0, 255]
  int gap_alpha = 8;          // a pixel is transparent (part of a gap) when alpha <= this [0, 255]
  double gap_rim = 2;         // px: points this close to the opaque shape count as on it [0, 64]
  double gap_detour = 2;      // a weight leaks when its bone is farther than gap_detour * the
  double gap_tolerance = 2;   // straight distance + gap_tolerance px going through the shape
  double rigid_weight = 0.999;  // a vertex is bound to one bone when that bone's weight >= this
  DeformThresholds thresholds;
  Severity severity = Severity::Warning;  // of every deform.* finding (Error for a CI gate)
};

// Triangle measures of one posed mesh against its bind mesh. Triangles whose bind area is below
// 1e-9 px^2, or with an index out of range, are skipped (not counted in `triangles`).
struct TriangleChange {
  std::size_t triangles = 0;     // measured triangles
  std::size_t flipped = 0;       // signed area changed sign (turned inside out)
  double min_area_ratio = 1;     // posed / bind signed area over the triangles that did not flip
  double max_area_ratio = 1;     // (both start at 1: "unchanged" when none shrinks / grows)
  double max_edge_stretch = 1;   // max posed / bind edge length (edges of measured triangles)
  double min_edge_ratio = 1;     // min posed / bind edge length
  std::vector<bool> flips;       // #tris/3: true where the triangle flipped
};
// Sizes: bind.size() == posed.size(); tris holds 3 indices per triangle.
RIG2D_EXPORT TriangleChange measure_triangles(std::span<const Vec2> bind, std::span<const Vec2> posed,
                                              std::span<const std::uint32_t> tris);

// One bend: bone `bone` rotated by `angle` radians on top of its bind rotation.
struct Bend {
  std::int64_t bone = -1;  // -1 = none (no bones)
  double angle = 0;        // radians
};

struct PartDeformStats {
  std::size_t vertices = 0;
  std::size_t triangles = 0;        // measured triangles (see TriangleChange)
  // Folding, stretching: the worst bend for each figure.
  double flip_fraction = 0;         // worst over bends of flipped / triangles
  std::size_t flipped = 0;          // flipped triangles in that bend
  Bend flip_bend;                   // the bend that flipped most (first on ties)
  double min_area_ratio = 1;        // over all bends
  double max_area_ratio = 1;
  Bend area_bend;                   // the bend of the area ratio farthest from 1 (by |log|)
  double max_edge_stretch = 1;
  double min_edge_ratio = 1;
  Bend stretch_bend;                // the bend of max_edge_stretch
  // Weights.
  // A triangle is rigid when its 3 vertices are bound to the same bone (that bone's summed weight
  // >= rigid_weight): it moves as one solid piece in every pose.
  double rigid_fraction = 0;        // bind area of rigid triangles / bind area
  // A slot weight leaks when the way from its vertex to its bone through the shape (opaque
  // cells grown by gap_rim) is longer than gap_detour * the straight distance + gap_tolerance,
  // or does not exist. Pieces no bone touches and bones entirely off the shape are not judged.
  double leak_fraction = 0;         // leaked weight / total weight
  double leaked_weight = 0;         // sum of leaked slot weights
  double total_weight = 0;          // sum of all slot weights
  std::int64_t leak_bone = -1;      // the bone with the most leaked weight, -1 = none
  // Texture coverage (only when the part's alpha was given).
  bool has_alpha = false;
  std::size_t visible_pixels = 0;   // alpha > visible_alpha
  std::size_t uncovered_pixels = 0; // visible pixels whose centre no triangle covers
  int uncovered_max_alpha = 0;      // the largest alpha among them
};

struct DeformStats {
  std::size_t bends = 0;             // bends tried (2 per bone)
  std::vector<PartDeformStats> parts;  // rig.parts order
  // Rig-wide figures over every part's vertices / triangles.
  double flip_fraction = 0;          // worst bend: flipped triangles of all parts / all triangles
  Bend flip_bend;
  std::vector<double> bone_share;    // #bones: fraction of all vertices the bone dominates
  std::vector<std::uint32_t> unused_bones;  // bones dominating no vertex, ascending; not a bone no vertex
                                            // is weighted to at all that has bones under it (a root
                                            // placing the figure: posing it moves them all)
  double rigid_fraction = 0;         // area-weighted over parts
  double leak_fraction = 0;          // leaked / total weight over parts
};

struct DeformReport {
  DeformStats stats;
  // deform.* at DeformOptions::severity with pointer (Location::file left empty), then one
  // deform.summary note with the rig-wide figures (pointer "").
  std::vector<Diagnostic> findings;
};

// Bends and measures `rig`. alpha[p] is part p's sprite alpha (missing or nullopt = the coverage
// figures are skipped and gaps are measured against the mesh alone). Never fails: a part without
// a usable mesh measures as empty. Cost: 2 * #bones skinning passes plus one path walk per weight.
RIG2D_EXPORT DeformReport check_deformation(const Rig& rig, std::span<const std::optional<AlphaMap>> alpha,
                                            const DeformOptions& options = {});

// Each part's sprite alpha, resolved through `assets` as the engine resolves sprite GUIDs (§1.9):
// the slice rect of the texture, or the whole texture. A part whose sprite is empty, unknown or
// whose PNG cannot be read gets nullopt and one note in `notes` (deform.texture, pointer to the
// part's sprite).
RIG2D_EXPORT std::vector<std::optional<AlphaMap>> load_part_alpha(const Rig& rig, const AssetIndex& assets,
                                                                  std::vector<Diagnostic>& notes);

struct DeformCodeInfo {
  const char* code;
  const char* summary;  // one line, used as the SARIF rule description
};
// Every deform.* code with its meaning.
RIG2D_EXPORT const std::vector<DeformCodeInfo>& deform_codes();

}  // namespace rig2d
