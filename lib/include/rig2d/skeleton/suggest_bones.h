// SPDX-License-Identifier: Apache-2.0
// The engine's suggestBones (ENGINE-SPEC §3.3): an evenly spaced parent chain along the sprite's
// principal axis, confined to the covered extent.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

enum class BoneAxis {
  Auto,  // vertical when height >= width (a square goes vertical)
  X,     // horizontal chain, left to right
  Y,     // vertical chain, top to bottom
};

struct SuggestBonesOptions {
  double width = 0;              // px, sprite width
  double height = 0;             // px, sprite height
  std::optional<double> count;   // bones; clamped to 2..6. Unset: max(2, round(L / 96) + 1), L = the
                                 // axis length in px. A fractional count behaves as in the engine.
  double pivot_x = 0.5;          // pivot, fraction of the width
  double pivot_y = 0.5;          // pivot, fraction of the height
  BoneAxis axis = BoneAxis::Auto;
};

// Bones "root", "bone1", ... each the child of the previous one, rot 0, on the pivot line; joint k at
// (t_k - pivot) * L with t_k spread evenly over the covered extent [lo, hi]: the min/max of the 33
// along-axis rows a = i/32 in which any of 9 across-axis samples b = j/8 is inside. Without a
// predicate, or with fewer than two distinct covered rows, the extent is [0, 1]. Never fails.
RIG2D_EXPORT std::vector<Bone> suggest_bones(const SuggestBonesOptions& options,
                                             const std::function<bool(double u, double v)>& is_inside = {});

}  // namespace rig2d
