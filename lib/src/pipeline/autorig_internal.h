// SPDX-License-Identifier: Apache-2.0
// Pieces of autorig_image (autorig.cpp) that the layout pipeline shares.
#pragma once

#include <chrono>
#include <vector>

#include "rig2d/pipeline/autorig.h"

namespace rig2d {

namespace detail {
// Milliseconds since `start`, for the stage timings in AutorigStats.
inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace detail

// The bones autorig_image weights: hand-placed, the shape skeleton, or the engine's chain over the
// coverage mask (`inside`).
Result<std::vector<Bone>> autorig_bones(const Image& image, const AutorigOptions& o, const UvPredicate& inside,
                                        AutorigStats& st);

// The outline options autorig_image meshes with: its threshold and pivot, edges short enough to bend
// between the bones.
OutlineMeshOptions outline_options(const AutorigOptions& o, const std::vector<Bone>& bones);

}  // namespace rig2d
