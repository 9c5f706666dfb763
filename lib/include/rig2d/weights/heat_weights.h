// SPDX-License-Identifier: Apache-2.0
// Shape-aware automatic skin weights: bone-heat diffusion over the triangle mesh (after Baran &
// Popovic 2007), with distances measured through the mesh rather than in a straight line, so a limb
// is not pulled by bones across a gap in the sprite. See docs/weights.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"
#include "rig2d/weights/skin_weights.h"

namespace rig2d {

struct HeatWeightsOptions {
  int max_influences = 4;        // bones kept per vertex. [Limit: 1..4]
  double min_weight = 0.01;      // weights below this fraction of the vertex's top-K sum are dropped;
                                 // every kept weight is lowered by it first, so a weight fades to 0
                                 // instead of stepping where it is cut (and can come out smaller than
                                 // min_weight). [Limit: 0 <= w < 0.25]
  int smooth_passes = 0;         // extra Laplacian smoothing passes over each bone's weight field,
                                 // before the influence cut. [Limit: 0..100]
  double default_leaf_length = 0;  // px, for a leaf bone whose joint is not inside the mesh
                                   // (0 = a point). [Limit: >= 0, finite]
  std::vector<std::uint8_t> bone_mask;  // nonzero = the bone may weight this mesh; empty = every bone.
                                        // A masked bone gets no weight and lends no heat (one part of a
                                        // multi-part rig is weighted by the bones over it only).
                                        // [Limit: empty, or one entry per bone with one nonzero]
  std::vector<std::uint8_t> over_body;  // nonzero = the bone lies over the rest of the figure (an arm
                                        // drawn against the torso, as a template fit places it): it is
                                        // the nearest bone only of vertices close to it and much closer
                                        // to it than to the other bones, its leaf stops near its joint,
                                        // and it blends softly. Empty = none (docs/weights.md).
                                        // [Limit: empty, or one entry per bone]
  double fold_relief_angle = 1.0471975511965976;  // radians (60 degrees, rig2d-validate --deform's bend):
                                        // where bending a bone by +- this turns a triangle inside out,
                                        // the corner that follows the bend most hands part of its
                                        // weight to the bone's parent (docs/weights.md). 0 = off.
                                        // [Limit: 0..pi]
};

struct HeatWeightsStats {
  std::size_t islands = 0;               // connected pieces of the mesh (isolated vertices included)
  std::size_t degenerate_triangles = 0;  // zero-area or repeated-index triangles, ignored
  std::size_t isolated_vertices = 0;     // vertices in no usable triangle
  std::size_t bones_outside = 0;         // bones touching no triangle, attached to the nearest one
  std::size_t solved_bones = 0;          // bones nearest to at least one vertex (one solve each)
  bool solver_fallback = false;          // the factorization failed: nearest-bone weights were used
  std::size_t folds_relieved = 0;        // folded triangles (summed over the bends) fold relief mended
};

struct HeatWeights {
  SkinWeights weights;                // 4 slots per vertex (see skin_weights.h)
  std::vector<Diagnostic> warnings;   // Severity::Warning: how a degenerate input was handled
  HeatWeightsStats stats;
};

// Skin weights for `mesh.verts` (rig space px; `mesh.tris` CCW or CW, both work) from the bind pose
// of `bones`. Every vertex gets 1..max_influences weights > 0 summing to 1, slots sorted by weight.
// Each connected piece of the mesh is weighted by the bones that cross it, or by the nearest bones if
// none does. Deterministic, and invariant (to rounding) under moving or rotating mesh and bones.
// Errors: weights.heat.options, weights.heat.no_bones, weights.heat.limit, weights.heat.non_finite,
// weights.heat.tris_count, weights.heat.index (pointer /mesh/... or /bones/i). An empty mesh gives
// empty weights. Degenerate pieces degrade to nearest-bone weights with a warning, never a crash.
RIG2D_EXPORT Result<HeatWeights> compute_heat_weights(const Mesh& mesh, std::span<const Bone> bones,
                                                      const HeatWeightsOptions& options = {});

}  // namespace rig2d
