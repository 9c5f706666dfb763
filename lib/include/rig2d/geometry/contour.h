// SPDX-License-Identifier: Apache-2.0
// Sub-pixel outlines of a sprite's alpha: marching squares on the alpha field sampled at pixel centres
// (pixel (i, j) -> (i + 0.5, j + 0.5)), at the iso-level threshold + 0.5, so exactly the centres with
// alpha > threshold are inside; then grown outward by a margin and clipped to the image rectangle.
//
// Rings are in pixel space (x right, y down, origin at the image's top-left corner, units px), closed
// implicitly, and never touch or cross each other. Islands are wound counter-clockwise as seen in the
// +y-down frame (negative shoelace sum, like the mesh triangles) and holes clockwise (positive).
#pragma once

#include <cstdint>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/geometry/triangulate.h"
#include "rig2d/image/image.h"

namespace rig2d {

inline constexpr double kMaxContourMargin = 64.0;  // px

struct ContourOptions {
  int alpha_threshold = 8;  // [Limit: 0..254] a pixel is inside when its alpha > threshold
  double margin = 1.0;      // [Limit: 0..kMaxContourMargin] [Units: px] outward growth of the
                            // iso-contour, so antialiased fringes (alpha <= threshold) stay covered
};

// Traces every island and hole. The margin offsets the iso-contour by a true Euclidean distance
// (distance field to the contour, re-contoured at `margin`), so corners round off and nearby islands
// merge when closer than 2 * margin. Errors: contour.image (empty image, or rgba size != 4*w*h),
// contour.options (threshold or margin out of range). An image with nothing above the threshold
// gives no rings. With `grown_mask` set it receives w*h bytes, 1 where the pixel centre lies inside
// the grown outline (the region the rings bound, before any simplification).
RIG2D_EXPORT Result<std::vector<Ring>> trace_alpha_contours(const Image& image, const ContourOptions& options = {},
                                                            std::vector<std::uint8_t>* grown_mask = nullptr);

// Length (px) of the sprite's alpha outline: the iso-line at threshold + 0.5 that the rings above are
// grown from, leaving out where it runs along the image border (opaque pixels on the border: nothing
// lies beyond). 0 for an empty or inconsistent image or a threshold outside 0..254.
RIG2D_EXPORT double alpha_outline_length(const Image& image, int alpha_threshold);

// Half the shoelace sum: negative for islands, positive for holes (px^2).
RIG2D_EXPORT double ring_signed_area(const Ring& ring);

}  // namespace rig2d
