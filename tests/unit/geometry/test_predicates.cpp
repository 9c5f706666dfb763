// SPDX-License-Identifier: Apache-2.0
#include <array>
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

TEST_CASE("predicates: exact signs match integer arithmetic on lattice points, degenerate or not",
          "[geometry][predicates]") {
  // Coordinates m * 2^-s with |m| < 2^20 around an offset (so differences and products are exact in
  // 128-bit integers after scaling by 2^s), drawn on and near circles and lines through lattice
  // points: the cases where the filters give up and the exact paths decide.
  std::uint64_t state = 99;
  auto next = [&state](int bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::int64_t>((state >> 33) % static_cast<std::uint64_t>(2 * bound + 1)) - bound;
  };
  __extension__ typedef __int128 I;  // exact for these sizes; GCC and Clang have it
  auto isign = [](I v) { return (v > 0) - (v < 0); };
  int zero_circle = 0, zero_line = 0, exact_used = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int shift = static_cast<int>(next(15)) + 15;  // 0..30
    const std::int64_t off = next(1 << 18);
    const std::int64_t cx = off + next(64), cy = off + next(64);
    // Pythagorean radius 5k or 13k: the points (±3k, ±4k), (±5k, 0), (±12k, ±5k), ... lie exactly on it.
    static constexpr std::int64_t kOnCircle5[][2] = {{5, 0}, {0, 5},  {-5, 0}, {0, -5},
                                                     {3, 4}, {-3, 4}, {4, -3}, {-4, -3}};
    const std::int64_t k = 1 + next(100) % 100;
    auto on = [&](int i) {
      const auto& o = kOnCircle5[(i % 8 + 8) % 8];
      return std::array<std::int64_t, 2>{cx + k * o[0], cy + k * o[1]};
    };
    std::array<std::array<std::int64_t, 2>, 4> p{on(0), on(1), on(2), on(static_cast<int>(next(7)) + 3)};
    if (trial % 3 == 1) p[3][static_cast<std::size_t>(trial & 1)] += next(1);  // one unit in, out or on
    if (trial % 3 == 2)
      for (auto& q : p) q = {q[0] + next(3), q[1] + next(3)};
    const double unit = std::ldexp(1.0, -shift);
    Vec2 v[4];
    for (int i = 0; i < 4; ++i)
      v[i] = {static_cast<double>(p[static_cast<std::size_t>(i)][0]) * unit,
              static_cast<double>(p[static_cast<std::size_t>(i)][1]) * unit};
    const I adx = p[0][0] - p[3][0], ady = p[0][1] - p[3][1], bdx = p[1][0] - p[3][0], bdy = p[1][1] - p[3][1];
    const I cdx = p[2][0] - p[3][0], cdy = p[2][1] - p[3][1];
    const I det = (adx * adx + ady * ady) * (bdx * cdy - bdy * cdx) +
                  (bdx * bdx + bdy * bdy) * (cdx * ady - cdy * adx) + (cdx * cdx + cdy * cdy) * (adx * bdy - ady * bdx);
    INFO("trial " << trial);
    REQUIRE(sign(incircle_exact(v[0], v[1], v[2], v[3])) == isign(det));
    REQUIRE(sign(incircle(v[0], v[1], v[2], v[3])) == isign(det));
    zero_circle += det == 0;
    // orient2d of the first three against a point on or next to the line through two of them.
    const std::int64_t t = next(8);
    const std::array<std::int64_t, 2> on_line{p[0][0] + t * (p[1][0] - p[0][0]) + next(1),
                                              p[0][1] + t * (p[1][1] - p[0][1])};
    const Vec2 w{static_cast<double>(on_line[0]) * unit, static_cast<double>(on_line[1]) * unit};
    const I o =
        (I(p[0][0]) - on_line[0]) * (I(p[1][1]) - on_line[1]) - (I(p[0][1]) - on_line[1]) * (I(p[1][0]) - on_line[0]);
    REQUIRE(sign(orient2d_exact(v[0], v[1], w)) == isign(o));
    REQUIRE(sign(orient2d(v[0], v[1], w)) == isign(o));
    zero_line += o == 0;
    exact_used += std::fabs(incircle(v[0], v[1], v[2], v[3])) < 1e-300 || det == 0;
  }
  CHECK(zero_circle > 3000);  // the exact paths decided many ties and near-ties
  CHECK(zero_line > 3000);
  CHECK(exact_used > 3000);
}
