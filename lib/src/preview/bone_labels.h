// SPDX-License-Identifier: Apache-2.0
// The `names` overlay of rig2d-pose: each bone's name in a small dark box beside its joint, placed so
// that no two boxes overlap and none covers another joint while a free place is left.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "rig2d/core/affine.h"
#include "rig2d/raster/canvas.h"

namespace rig2d::detail {

struct LabelBox {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // px, x1/y1 exclusive
  bool placed = false;                    // false: the joint is not finite, no label
};

// One box of `sizes[i]` (width, height) px per joint, in joint order (parents first, so the root's
// name gets the first choice): the first of eight places around the joint (right, left, above, below,
// then the diagonals), `gap` px clear of it, that stays on the `width` x `height` canvas and
// overlaps neither a box placed before it nor another joint's disc of `joint_radius`; when none is
// free, the place on the canvas that overlaps the least (each hidden joint counting as a whole
// label), else the right-hand one.
std::vector<LabelBox> place_joint_labels(std::span<const Vec2> joints, std::span<const Vec2> sizes, double joint_radius,
                                         double gap, int width, int height);

// Draws names[i] beside joints[i] (px) as place_joint_labels lays them out.
void draw_joint_labels(Canvas& canvas, std::span<const Vec2> joints, std::span<const std::string> names,
                       double joint_radius);

}  // namespace rig2d::detail
