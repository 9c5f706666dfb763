// SPDX-License-Identifier: Apache-2.0
// A template's ground bone (SkeletonTemplate::ground): where a figure stands, and the bones hung from
// it. The fit puts it into TemplateFit::bones; rig2d-autorig takes it out to mesh and weight the
// figure's own bones and puts it back into the rig. Internal.
#pragma once

#include <vector>

#include "rig2d/core/types.h"
#include "rig2d/image/image.h"
#include "rig2d/rig/rig.h"

namespace rig2d::detail {

// Where a figure stands: on the shape's lowest row of covered pixels (alpha above the threshold, a
// drawn shadow included), the pixel centre nearest the point of that row under `under_x`, the
// nearest rows above it looked at too (the first in scan order on a tie). Image px; the image has a
// covered pixel.
Vec2 ground_point(const Image& image, int alpha_threshold, double under_x);

// `ground` (its x, y relative to the rig origin) put first in `bones` as the parent of every root,
// whose offsets then run from it. Each old bone's index moves up by one.
void stand_on(std::vector<Bone>& bones, Bone ground);

// stand_on undone: the first bone of `bones` (the ground bone) taken out and returned (its x, y
// relative to the rig origin), the roots it held hung from the rig origin again. Each other bone's
// index moves down by one. `bones` is not empty.
Bone step_off(std::vector<Bone>& bones);

}  // namespace rig2d::detail
