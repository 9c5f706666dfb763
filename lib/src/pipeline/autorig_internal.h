// SPDX-License-Identifier: Apache-2.0
// Pieces of autorig_image (autorig.cpp) that the layout pipeline shares.
#pragma once

#include <vector>

#include "rig2d/pipeline/autorig.h"

namespace rig2d {

// The bones autorig_image weights: hand-placed, the shape skeleton, or the engine's chain over the
// coverage mask (`inside`).
Result<std::vector<Bone>> autorig_bones(const Image& image, const AutorigOptions& o, const UvPredicate& inside,
                                        AutorigStats& st);

// The outline options autorig_image meshes with: its threshold and pivot, edges short enough to bend
// between the bones.
OutlineMeshOptions outline_options(const AutorigOptions& o, const std::vector<Bone>& bones);

}  // namespace rig2d
