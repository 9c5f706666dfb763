// SPDX-License-Identifier: Apache-2.0
// Basic value types and the coordinate conventions every module shares.
//
// Texture space (rig space): origin at the sprite pivot, units are sprite pixels, +x right, +y DOWN.
// Angles are radians; a positive rotation turns +x toward +y, which is clockwise on screen.
// Pixel space (images, masks): origin at the top-left corner, pixel (i, j) covers [i, i+1) x [j, j+1),
// so its centre is at (i + 0.5, j + 0.5). UV space: u right, v down, (0,0) the sprite's top-left.
// Triangles are wound counter-clockwise as seen in the +y-down frame (the engine's grid winding),
// i.e. clockwise when drawn on a y-up plot.
#pragma once

#include <cmath>
#include <cstdint>

namespace rig2d {

struct Vec2 {
  double x = 0;
  double y = 0;
  friend bool operator==(const Vec2&, const Vec2&) = default;
};

// Both coordinates finite (neither NaN nor infinite).
inline bool is_finite(Vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// The engine stores some values in float32 (verts, uvs, weights, skinned positions); rounding to float
// happens only at those storage points, all intermediate math is double.
inline double round_to_float(double v) { return static_cast<double>(static_cast<float>(v)); }

}  // namespace rig2d
