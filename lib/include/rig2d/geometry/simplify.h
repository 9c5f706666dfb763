// SPDX-License-Identifier: Apache-2.0
// Outline clean-up before tessellation: dropping specks and simplifying rings within a tolerance
// while keeping their topology (no ring ever crosses itself or another, and no ring changes sides
// of another).
#pragma once

#include <vector>

#include "rig2d/export.h"
#include "rig2d/geometry/triangulate.h"

namespace rig2d {

// Drops rings enclosing less than `min_area` (px^2, islands and holes alike) together with every
// ring nested inside them, so the even-odd region stays consistent. The largest island is always
// kept, so a sprite never loses its whole outline. Input rings must be disjoint (as traced).
RIG2D_EXPORT std::vector<Ring> drop_small_rings(const std::vector<Ring>& rings, double min_area);

// Douglas-Peucker on each closed ring with `tolerance` (px; <= 0 keeps every point), then repair:
// while a simplified edge crosses or touches another edge, or sweeps over a vertex of another ring,
// the original point farthest from that edge is put back. The result stays within `tolerance` of the
// input, keeps at least 3 points per ring, and never self-intersects when the input does not.
RIG2D_EXPORT std::vector<Ring> simplify_rings(const std::vector<Ring>& rings, double tolerance);

// The rectangle [0, width] x [0, height] rings were clipped to (trace_alpha_contours clips to the
// image). Along it an outline has no margin left to give; a frame with no area is no frame.
struct ClipFrame {
  double width = 0, height = 0;  // [Units: px]
};

// Same, and no shortcut passes inside a point lying on the frame (x = 0, y = 0, x = width or
// y = height): where a ring runs along the frame it stays exactly on it, so pixels on the image
// border, which the margin could not grow past, keep their whole area.
RIG2D_EXPORT std::vector<Ring> simplify_rings(const std::vector<Ring>& rings, double tolerance, const ClipFrame& frame);

}  // namespace rig2d
