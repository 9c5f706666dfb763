// SPDX-License-Identifier: Apache-2.0
// The shape skeleton of a layered figure, part by part. Internal to the autorig module.
#pragma once

#include <vector>

#include "rig2d/autorig/autorig.h"
#include "rig2d/autorig/layout.h"

namespace rig2d::detail {

// One skeleton for a layered figure from every part's own shape (AutorigOptions::shape, threshold and
// pivot), in canvas px from the rig origin. The largest part is rigged first and keeps the plain names
// ("root", "spine_1", ...). Each other part, largest first, is rooted on its own medial axis where it
// overlaps the parts already rigged (an arm at its shoulder), that root parented to the nearest bone
// already placed, and its bones named "<part>_<name>". The bone budget is shared by area; a part left
// with fewer than two bones of budget gets none (its nearest bones weight it).
Result<std::vector<Bone>> layout_skeleton(const std::vector<PlacedPart>& parts, int width, int height,
                                          const AutorigOptions& options);

}  // namespace rig2d::detail
