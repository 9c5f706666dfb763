// SPDX-License-Identifier: Apache-2.0
// The coverage mask from a coverage already tested pixel by pixel, for a pipeline that has one (the
// sheet guess keeps it). Internal.
#pragma once

#include <cstdint>
#include <vector>

#include "rig2d/image/coverage.h"

namespace rig2d::detail {

// coverage_mask(image, {threshold, max_side}) of a width x height image whose pixels `covered` holds
// as 0/1 bytes (alpha > threshold, row-major, width * height of them); sizes and max_side within
// coverage_mask's limits.
CoverageMask coverage_mask_of_pixels(int width, int height, const std::vector<std::uint8_t>& covered,
                                     int max_side = kMaxCoverageSide);

}  // namespace rig2d::detail
