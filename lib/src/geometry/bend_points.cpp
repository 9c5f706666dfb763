// SPDX-License-Identifier: Apache-2.0
#include "rig2d/geometry/bend_points.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace rig2d {
namespace {

constexpr int kMaxRowPoints = 4;  // across one row: more is refinement's job, not the bend's

struct Mask {
  const Image& image;
  int threshold;
  bool inside(Vec2 p) const {
    if (!(p.x >= 0 && p.y >= 0 && p.x < image.width && p.y < image.height)) return false;
    const std::size_t i = static_cast<std::size_t>(static_cast<int>(p.y)) * static_cast<std::size_t>(image.width) +
                          static_cast<std::size_t>(static_cast<int>(p.x));
    return image.rgba[i * 4 + 3] > threshold;
  }
  // px from p along unit d until the first transparent sample (half-pixel steps).
  double reach(Vec2 p, Vec2 d) const {
    const double limit = image.width + image.height;
    double t = 0;
    while (t < limit && inside({p.x + d.x * (t + 0.5), p.y + d.y * (t + 0.5)})) t += 0.5;
    return t;
  }
};

Vec2 unit(Vec2 v) {
  const double n = std::hypot(v.x, v.y);
  return n > 1e-9 ? Vec2{v.x / n, v.y / n} : Vec2{0, 0};
}

// One row across the opaque region through `centre`, perpendicular to `along`, `spacing` apart.
void add_row(const Mask& mask, Vec2 centre, Vec2 along, double spacing, double clearance, std::vector<Vec2>& out) {
  if (!mask.inside(centre) || (along.x == 0 && along.y == 0) || !(spacing > 0)) return;
  const Vec2 n{-along.y, along.x};
  const double plus = mask.reach(centre, n), minus = mask.reach(centre, {-n.x, -n.y});
  const double width = plus + minus;
  int k = std::clamp(static_cast<int>(std::lround(width / spacing)), 1, kMaxRowPoints);
  while (k > 0 && width / (2.0 * k) < clearance) --k;  // the outermost points keep their clearance
  for (int j = 0; j < k; ++j) {
    const double s = -minus + width * (j + 0.5) / k;
    const Vec2 p{centre.x + n.x * s, centre.y + n.y * s};
    const bool crowded = std::any_of(out.begin(), out.end(), [&](const Vec2& q) {
      return std::hypot(p.x - q.x, p.y - q.y) < 0.5 * spacing;
    });
    if (!crowded) out.push_back(p);
  }
}

}  // namespace

std::vector<Vec2> bend_points(const Image& image, int alpha_threshold, const BendSkeleton& skeleton,
                              double clearance) {
  std::vector<Vec2> out;
  const std::size_t n = std::min(skeleton.joints.size(), skeleton.parents.size());
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4)
    return out;
  const Mask mask{image, alpha_threshold};
  auto parent_of = [&](std::size_t i) -> std::ptrdiff_t {
    const std::int64_t p = skeleton.parents[i];
    return p >= 0 && static_cast<std::size_t>(p) < n && static_cast<std::size_t>(p) != i ? static_cast<std::ptrdiff_t>(p)
                                                                                          : -1;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::ptrdiff_t p = parent_of(i);
    if (p < 0) continue;
    const Vec2 a = skeleton.joints[static_cast<std::size_t>(p)], b = skeleton.joints[i];
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    if (!std::isfinite(length) || length < 1e-9) continue;
    const Vec2 d = unit({b.x - a.x, b.y - a.y});
    const double spacing = length;
    add_row(mask, {0.5 * (a.x + b.x), 0.5 * (a.y + b.y)}, d, spacing, clearance, out);
    // A tip bone rules its limb's end, beyond its joint: a row there gives it vertices of its own.
    const bool tip = std::none_of(skeleton.parents.begin(), skeleton.parents.begin() + static_cast<std::ptrdiff_t>(n),
                                  [&](std::int64_t q) { return q == static_cast<std::int64_t>(i); });
    if (tip) {
      const Vec2 beyond{b.x + 0.5 * (b.x - a.x), b.y + 0.5 * (b.y - a.y)};
      add_row(mask, mask.inside(beyond) ? beyond : b, d, spacing, clearance, out);
    }
  }
  return out;
}

}  // namespace rig2d
