// SPDX-License-Identifier: Apache-2.0
// The shape skeleton of a sprite whose coverage a pipeline already tested pixel by pixel (autorig_file's
// sheet guess keeps it). Internal.
#pragma once

#include <cstdint>
#include <vector>

#include "rig2d/skeleton/shape_skeleton.h"

namespace rig2d::detail {

// shape_skeleton(image, options, stats), given the image's coverage (alpha > options.alpha_threshold,
// one 0/1 byte a pixel, row-major), which it takes over instead of testing every pixel again; when
// `covered` is not width * height bytes (empty), it tests them itself.
Result<std::vector<Bone>> shape_skeleton_covered(const Image& image, const ShapeSkeletonOptions& options,
                                                 ShapeSkeletonStats* stats, std::vector<std::uint8_t> covered);

}  // namespace rig2d::detail
