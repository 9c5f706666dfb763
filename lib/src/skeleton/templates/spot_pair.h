// SPDX-License-Identifier: Apache-2.0
// A pair of small dark spots drawn inside a round part, level and mirrored about its middle (the eyes
// in a face), for a template's `spot` bones. Internal to the skeleton module.
#pragma once

#include <optional>
#include <utility>

#include "rig2d/core/types.h"
#include "rig2d/image/image.h"
#include "skeleton/shape_axis.h"

namespace rig2d::detail {

// Searches the covered pixels within `radius` px of `centre` (the part's largest inscribed disc) for
// two spots much darker than the part (luminance under kSpotDark of its median), each a compact blob
// that touches neither the outline nor the disc's rim, of like size, either side of the line through
// `centre` along `up` (the part's axis, a unit vector), level across it and about as far from it.
// The biggest such pair, its centroids in image px; none when the art shows no pair.
std::optional<std::pair<Vec2, Vec2>> find_spot_pair(const Image& image, const ShapeAxis& shape, Vec2 centre,
                                                    double radius, Vec2 up);

}  // namespace rig2d::detail
