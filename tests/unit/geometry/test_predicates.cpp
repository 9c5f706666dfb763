// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "geometry/predicates.h"

using rig2d::Vec2;
using rig2d::detail::incircle;
using rig2d::detail::incircle_exact;
using rig2d::detail::orient2d;
using rig2d::detail::orient2d_exact;

namespace {
int sign(double v) { return (v > 0) - (v < 0); }
}  // namespace

TEST_CASE("predicates: orient2d signs on plain input", "[geometry][predicates]") {
  CHECK(orient2d({0, 0}, {1, 0}, {0, 1}) > 0);
  CHECK(orient2d({0, 0}, {0, 1}, {1, 0}) < 0);
  CHECK(orient2d({0, 0}, {1, 1}, {2, 2}) == 0);
  CHECK(orient2d({0, 0}, {1, 0}, {0, 1}) == 1.0);
}

TEST_CASE("predicates: orient2d is exact near collinear points", "[geometry][predicates]") {
  // Shewchuk's classic failure case for the naive formula: points on the line y = x nudged by one
  // ulp. The exact sign follows from the nudge direction.
  const Vec2 a{12.0, 12.0}, b{24.0, 24.0};
  for (int k = 0; k < 64; ++k) {
    const double x = 0.5 + k * std::ldexp(1.0, -53);
    const Vec2 on{x, x};
    CHECK(orient2d(a, b, on) == 0);
    const Vec2 above{x, std::nextafter(x, 1.0)};
    const Vec2 below{x, std::nextafter(x, 0.0)};
    CHECK(orient2d(a, b, above) > 0);  // left of a->b with y up
    CHECK(orient2d(a, b, below) < 0);
  }
}

TEST_CASE("predicates: filtered and exact paths agree on a lattice of near-degenerate cases", "[geometry][predicates]") {
  std::uint64_t state = 12345;
  auto next = [&]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * std::ldexp(1.0, -53);
  };
  int nonzero_orient = 0, nonzero_circle = 0;
  for (int i = 0; i < 2000; ++i) {
    // Points on a line / circle, perturbed by a few ulps.
    const double t = next();
    const Vec2 a{next(), next()}, b{a.x + 1, a.y + 2};
    const Vec2 c{a.x + t * 1 + (next() - 0.5) * 1e-15, a.y + t * 2};
    CHECK(sign(orient2d(a, b, c)) == sign(orient2d_exact(a, b, c)));
    nonzero_orient += orient2d(a, b, c) != 0;
    const double th = next() * 6.283185307179586;
    const Vec2 p{std::cos(0.0), std::sin(0.0)}, q{std::cos(2.0), std::sin(2.0)}, r{std::cos(4.0), std::sin(4.0)};
    const Vec2 d{std::cos(th), std::sin(th)};
    CHECK(sign(incircle(p, q, r, d)) == sign(incircle_exact(p, q, r, d)));
    nonzero_circle += incircle(p, q, r, d) != 0;
  }
  CHECK(nonzero_orient > 0);
  CHECK(nonzero_circle > 0);
}

TEST_CASE("predicates: incircle on exact cocircular points", "[geometry][predicates]") {
  // (±5, 0), (0, ±5), (3, 4), (4, -3) all lie exactly on the circle of radius 5.
  const Vec2 a{5, 0}, b{0, 5}, c{-5, 0};
  CHECK(incircle(a, b, c, {0, -5}) == 0);
  CHECK(incircle(a, b, c, {3, 4}) == 0);
  CHECK(incircle(a, b, c, {4, -3}) == 0);
  CHECK(incircle(a, b, c, {0, 0}) > 0);
  CHECK(incircle(a, b, c, {6, 0}) < 0);
  // One ulp inside / outside along the x axis.
  CHECK(incircle(a, b, c, {std::nextafter(5.0, 0.0), 0}) > 0);
  CHECK(incircle(a, b, c, {std::nextafter(5.0, 10.0), 0}) < 0);
  // Scaled far from the origin, where the naive formula loses every bit.
  const double o = 1e9;
  CHECK(incircle({o + 5, o}, {o, o + 5}, {o - 5, o}, {o + 3, o + 4}) == 0);
  CHECK(incircle({o + 5, o}, {o, o + 5}, {o - 5, o}, {o, o - 5}) == 0);
}
