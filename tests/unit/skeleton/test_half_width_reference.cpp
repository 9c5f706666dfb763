// SPDX-License-Identifier: Apache-2.0
// Template auto's half-width field as it was first written (the two chamfer passes taking all five
// neighbours at once, and the line scan across the shape sampling every half pixel of its reach),
// kept as the reference the faster field must reproduce bit for bit, on random blobs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "skeleton/templates/template_auto.h"

namespace {

using rig2d::Vec2;
using rig2d::detail::HalfWidthField;
using rig2d::detail::ShapeAxis;

ShapeAxis half_width_blobs(int w, int h, std::mt19937& rng) {
  ShapeAxis s;
  s.width = w, s.height = h;
  s.in.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  std::uniform_real_distribution<double> u(0, 1);
  for (int k = 0; k < 4; ++k) {
    const double cx = u(rng) * w, cy = u(rng) * h, r = 2 + u(rng) * std::min(w, h) / 2.5;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (std::hypot(x + 0.5 - cx, y + 0.5 - cy) < r) s.in[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] = 1;
  }
  // The coverage's bounding box, as shape_axis gives it.
  s.x0 = w, s.y0 = h, s.x1 = 0, s.y1 = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (s.in[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)])
        s.x0 = std::min(s.x0, x), s.y0 = std::min(s.y0, y), s.x1 = std::max(s.x1, x + 1), s.y1 = std::max(s.y1, y + 1);
  return s;
}

std::vector<float> half_width_reference(const ShapeAxis& s) {
  const int w = s.width, h = s.height;
  const auto at = [&](int x, int y) { return static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(w + 2) + static_cast<std::size_t>(x + 1); };
  std::vector<float> d(static_cast<std::size_t>(w + 2) * static_cast<std::size_t>(h + 2), 0.0f);
  constexpr float kFar = 1e9f, kDiag = 1.41421356f;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (s.in[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)]) d[at(x, y)] = kFar;
  const std::ptrdiff_t row = w + 2;
  for (int y = 0; y < h; ++y) {
    float* v = &d[at(0, y)];
    for (int x = 0; x < w; ++x, ++v)
      if (*v > 0) *v = std::min({*v, v[-1] + 1, v[-row] + 1, v[-row - 1] + kDiag, v[-row + 1] + kDiag});
  }
  for (int y = h - 1; y >= 0; --y) {
    float* v = &d[at(w - 1, y)];
    for (int x = w - 1; x >= 0; --x, --v)
      if (*v > 0) *v = std::min({*v, v[1] + 1, v[row] + 1, v[row + 1] + kDiag, v[row - 1] + kDiag});
  }
  std::vector<float> out(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] = d[at(x, y)];
  return out;
}

double across_reference(const HalfWidthField& f, Vec2 p, Vec2 d, double reach) {
  const Vec2 n{-d.y, d.x};
  double lo = 1e300, hi = -1e300;
  for (double t = -reach; t <= reach; t += 0.5)
    if (f.inside({p.x + n.x * t, p.y + n.y * t})) lo = std::min(lo, t), hi = std::max(hi, t);
  return hi < lo ? 0 : hi - lo + 1;
}

}  // namespace

TEST_CASE("half-width field: the chamfer distances and line extents of the first version, bit for bit") {
  std::mt19937 rng(20261206);
  std::uniform_real_distribution<double> u(0, 1);
  int lines = 0, covered_lines = 0;
  for (int round = 0; round < 40; ++round) {
    const int w = 1 + static_cast<int>(u(rng) * 90), h = 1 + static_cast<int>(u(rng) * 90);
    const ShapeAxis s = half_width_blobs(w, h, rng);
    const HalfWidthField field(s);
    const std::vector<float> want = half_width_reference(s);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) REQUIRE(field.at({x + 0.5, y + 0.5}) == want[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)]);
    for (int k = 0; k < 60; ++k) {
      const double a = u(rng) * 6.283185307179586;
      // Axis-parallel lines too (a zero component), points outside the image, and reaches of whole,
      // quarter and arbitrary pixels (the last take the plain scan).
      const Vec2 d = k % 5 == 0 ? Vec2{0, 1} : k % 5 == 1 ? Vec2{1, 0} : Vec2{std::cos(a), std::sin(a)};
      const Vec2 p{u(rng) * (w + 20) - 10, u(rng) * (h + 20) - 10};
      const double reach = k % 3 == 0 ? w + h : k % 3 == 1 ? std::floor(u(rng) * 40) / 4 : u(rng) * 30;
      const double got = field.across(p, d, reach);
      REQUIRE(got == across_reference(field, p, d, reach));
      ++lines;
      covered_lines += got > 0;
    }
  }
  CHECK(covered_lines > lines / 4);  // the lines do cross the blobs, not only empty space
}
