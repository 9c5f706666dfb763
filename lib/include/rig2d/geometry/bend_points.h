// SPDX-License-Identifier: Apache-2.0
// Where a skinned mesh needs interior vertices: across the middle of each bone and past the joint of
// each tip bone, so every bone has vertices of its own to carry and the triangles between two rows
// span the band where one bone's weight hands over to the next. Elsewhere one bone rules, and large
// triangles deform as well as small ones.
#pragma once

#include <cstdint>
#include <vector>

#include "rig2d/core/types.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"

namespace rig2d {

// A rig's skeleton in image px (+y down): joint positions and each joint's parent (-1 for a root).
struct BendSkeleton {
  std::vector<Vec2> joints;
  std::vector<std::int64_t> parents;
};

// Rows of points across the sprite's alpha (alpha > alpha_threshold) at the middle of every
// parent-child link, and for a joint without children (a tip) half a link beyond it (at the joint
// when that is transparent): each row runs perpendicular to its link from edge to edge of the opaque
// region, with up to 4 points about one link length apart, each at least `clearance` px from the
// edges. Rows whose centre is transparent are left out, and so is a point nearer than half a link to
// an earlier one. Deterministic, in joint order.
RIG2D_EXPORT std::vector<Vec2> bend_points(const Image& image, int alpha_threshold, const BendSkeleton& skeleton,
                                           double clearance);

}  // namespace rig2d
