// SPDX-License-Identifier: Apache-2.0
// The engine's computeAutoWeights (ENGINE-SPEC §3.2): nearest-joint inverse-distance weights, top-K,
// normalized, with the nearest bone as the fallback.
#pragma once

#include <span>

#include "rig2d/core/types.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"
#include "rig2d/weights/skin_weights.h"

namespace rig2d {

struct JointWeightOptions {
  double falloff = 2;         // distance exponent (unitless); 2 = the engine default
  double radius = 0;          // px; > 0 bounds the influence: w = (1 - d/R)^falloff for d < R, else 0.
                              // 0, negative or NaN = unbounded: w = 1 / (d^falloff + 1e-4)
  double max_influences = 4;  // slots kept per vertex: max(1, min(4, floor(x))); NaN keeps none, so
                              // every vertex takes the nearest-bone fallback (engine behaviour)
};

// For each vertex: distances (V8 Math.hypot) to every bone joint (the translation of its bind
// root-local matrix), scores as above, scores > 0 stably sorted descending (ties keep bone order),
// the first K kept and divided by their sum. A vertex with no score > 0 (outside every radius, or no
// bones) gets slot 0 = (nearest bone, 1); unused slots are (0, 0). Sizes: 4 * verts.size() each.
RIG2D_EXPORT SkinWeights compute_joint_weights(std::span<const Vec2> verts, std::span<const Bone> bones,
                                               const JointWeightOptions& options = {});

}  // namespace rig2d
