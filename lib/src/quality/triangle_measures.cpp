// SPDX-License-Identifier: Apache-2.0
// Per-triangle change between a bind mesh and a posed one: orientation, area, edge lengths.
#include <algorithm>
#include <cmath>

#include "rig2d/quality/deform_check.h"

namespace rig2d {
namespace {

// Below this bind area (px^2) a triangle has no orientation worth tracking.
constexpr double kMinBindArea = 1e-9;

double signed_area(Vec2 a, Vec2 b, Vec2 c) { return 0.5 * ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)); }
double length(Vec2 a, Vec2 b) { return std::hypot(b.x - a.x, b.y - a.y); }

}  // namespace

TriangleChange measure_triangles(std::span<const Vec2> bind, std::span<const Vec2> posed,
                                 std::span<const std::uint32_t> tris) {
  TriangleChange out;
  out.flips.assign(tris.size() / 3, false);
  const std::size_t n = std::min(bind.size(), posed.size());
  for (std::size_t t = 0; t < tris.size() / 3; ++t) {
    const std::uint32_t i[3] = {tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]};
    if (i[0] >= n || i[1] >= n || i[2] >= n) continue;
    const double a0 = signed_area(bind[i[0]], bind[i[1]], bind[i[2]]);
    const double a1 = signed_area(posed[i[0]], posed[i[1]], posed[i[2]]);
    if (!(std::abs(a0) >= kMinBindArea) || !std::isfinite(a1)) continue;
    ++out.triangles;
    const double ratio = a1 / a0;  // > 0 while the orientation holds, whatever the winding
    if (ratio < 0) {
      ++out.flipped;
      out.flips[t] = true;
    } else {
      out.min_area_ratio = std::min(out.min_area_ratio, ratio);
      out.max_area_ratio = std::max(out.max_area_ratio, ratio);
    }
    for (int k = 0; k < 3; ++k) {
      const double l0 = length(bind[i[k]], bind[i[(k + 1) % 3]]);
      if (!(l0 > 0)) continue;
      const double r = length(posed[i[k]], posed[i[(k + 1) % 3]]) / l0;
      out.max_edge_stretch = std::max(out.max_edge_stretch, r);
      out.min_edge_ratio = std::min(out.min_edge_ratio, r);
    }
  }
  return out;
}

}  // namespace rig2d
