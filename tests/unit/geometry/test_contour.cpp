// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

#include "geometry/predicates.h"
#include "masks.h"
#include "rig2d/geometry/contour.h"
#include "rig2d/geometry/simplify.h"
#include "support/test_math.h"

using rig2d::Ring;
using rig2d::Vec2;
using rig2d::ring_signed_area;
using rig2d::trace_alpha_contours;

namespace {

bool segments_cross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  using rig2d::detail::orient2d;
  const double o1 = orient2d(a, b, c), o2 = orient2d(a, b, d), o3 = orient2d(c, d, a), o4 = orient2d(c, d, b);
  return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

// Any proper crossing between edges of the rings (adjacent edges of one ring excluded).
bool any_crossing(const std::vector<Ring>& rings) {
  for (std::size_t r1 = 0; r1 < rings.size(); ++r1)
    for (std::size_t r2 = r1; r2 < rings.size(); ++r2)
      for (std::size_t i = 0; i < rings[r1].size(); ++i)
        for (std::size_t j = r1 == r2 ? i + 1 : 0; j < rings[r2].size(); ++j) {
          const std::size_t n1 = rings[r1].size(), n2 = rings[r2].size();
          if (r1 == r2 && (j == i + 1 || (i == 0 && j == n1 - 1))) continue;
          if (segments_cross(rings[r1][i], rings[r1][(i + 1) % n1], rings[r2][j], rings[r2][(j + 1) % n2])) return true;
        }
  return false;
}

bool inside(Vec2 p, const Ring& ring) {
  bool in = false;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++)
    if ((ring[i].y > p.y) != (ring[j].y > p.y) &&
        p.x < (ring[j].x - ring[i].x) * (p.y - ring[i].y) / (ring[j].y - ring[i].y) + ring[i].x)
      in = !in;
  return in;
}

}  // namespace

TEST_CASE("contour: a hard-edged disk traces one island at the threshold iso-line", "[geometry][contour]") {
  const auto disk = rig2d::test::make_sprite(64, 64, [](double x, double y) { return std::hypot(x - 32, y - 32) <= 20; }, false);
  auto rings = trace_alpha_contours(disk, {8, 0.0});
  REQUIRE(rings);
  REQUIRE(rings->size() == 1);
  const double area = ring_signed_area((*rings)[0]);
  CHECK(area < 0);  // islands wind CCW as seen with y down
  // Covered centres reach radius 20; the level 8.5 crossing sits 247/255 of the way to the next
  // (transparent) centre, so the traced radius is about 20.5 +- 0.5.
  CHECK(-area > kPi * 20.0 * 20.0);
  CHECK(-area < kPi * 21.0 * 21.0);
  for (const Vec2& p : (*rings)[0]) {
    const double r = std::hypot(p.x - 32, p.y - 32);
    CHECK(r > 19.5);
    CHECK(r < 21.5);
  }
}

TEST_CASE("contour: ring with a hole, two islands, orientation and margin", "[geometry][contour]") {
  const auto ring = rig2d::test::make_sprite(96, 96, [](double x, double y) {
    const double d = std::hypot(x - 48, y - 48);
    return d <= 40 && d >= 20;
  });
  auto r0 = trace_alpha_contours(ring, {8, 0.0});
  REQUIRE(r0);
  REQUIRE(r0->size() == 2);
  int islands = 0, holes = 0;
  for (const Ring& r : *r0) (ring_signed_area(r) < 0 ? islands : holes)++;
  CHECK(islands == 1);
  CHECK(holes == 1);
  CHECK_FALSE(any_crossing(*r0));

  // A 2 px margin moves the outer boundary out and the hole boundary in by 2 px, from the threshold
  // iso-line, which itself sits up to about a pixel beyond the antialiased edge (the faintest covered
  // pixels have alpha 16 of 255).
  auto r2 = trace_alpha_contours(ring, {8, 2.0});
  REQUIRE(r2);
  REQUIRE(r2->size() == 2);
  for (const Ring& r : *r2) {
    const bool island = ring_signed_area(r) < 0;
    for (const Vec2& p : r) {
      const double d = std::hypot(p.x - 48, p.y - 48);
      const double beyond = island ? d - 40 : 20 - d;
      CHECK(beyond >= 1.9);
      CHECK(beyond <= 3.3);
    }
  }

  // Two islands 6 px apart stay apart with a 2 px margin and merge with a 4 px one.
  const auto two = rig2d::test::make_sprite(80, 40, [](double x, double y) { return std::hypot(x - 20, y - 20) <= 14 || std::hypot(x - 60, y - 20) <= 20 && x >= 40; });
  auto apart = trace_alpha_contours(two, {8, 2.0});
  auto merged = trace_alpha_contours(two, {8, 4.0});
  REQUIRE(apart);
  REQUIRE(merged);
  CHECK(apart->size() == 2);
  CHECK(merged->size() == 1);
}

TEST_CASE("contour: grown outline is clipped to the image and the grown mask matches it", "[geometry][contour]") {
  const auto opaque = rig2d::test::make_sprite(10, 6, [](double, double) { return true; }, false);
  std::vector<std::uint8_t> mask;
  auto rings = trace_alpha_contours(opaque, {8, 3.0}, &mask);
  REQUIRE(rings);
  REQUIRE(rings->size() == 1);
  CHECK(ring_signed_area((*rings)[0]) == -60.0);
  for (const Vec2& p : (*rings)[0]) {
    CHECK(p.x >= 0);
    CHECK(p.x <= 10);
    CHECK(p.y >= 0);
    CHECK(p.y <= 6);
  }
  CHECK(mask == std::vector<std::uint8_t>(60, 1));
  const auto clear = rig2d::test::make_sprite(5, 5, [](double, double) { return false; });
  auto none = trace_alpha_contours(clear, {8, 1.0});
  REQUIRE(none);
  CHECK(none->empty());
  rig2d::Image bad;
  bad.width = 4;
  bad.height = 4;
  bad.rgba.resize(10);
  auto err = trace_alpha_contours(bad, {});
  REQUIRE_FALSE(err);
  CHECK(err.error().code == "contour.image");
  auto opt = trace_alpha_contours(opaque, {300, 1.0});
  REQUIRE_FALSE(opt);
  CHECK(opt.error().code == "contour.options");
}

TEST_CASE("simplify: within tolerance, fewer points, no crossing, holes stay inside", "[geometry][simplify]") {
  // A wavy outline with a wavy hole hugging it at 1.5 px: a careless shortcut would cross over.
  Ring outer, hole;
  for (int k = 0; k < 720; ++k) {
    const double a = -2 * kPi * k / 720;  // islands: CCW as seen with y down (negative area)
    const double r = 40 + 1.2 * std::sin(12 * a);
    outer.push_back({50 + r * std::cos(a), 50 + r * std::sin(a)});
  }
  for (int k = 0; k < 720; ++k) {
    const double a = 2 * kPi * k / 720;
    const double r = 37 + 1.2 * std::sin(12 * a + 1.0);
    hole.push_back({50 + r * std::cos(a), 50 + r * std::sin(a)});
  }
  const std::vector<Ring> input{outer, hole};
  REQUIRE_FALSE(any_crossing(input));
  for (double tol : {0.25, 1.0, 3.0}) {
    INFO("tolerance " << tol);
    const auto out = rig2d::simplify_rings(input, tol);
    REQUIRE(out.size() == 2);
    CHECK(out[0].size() < outer.size());
    CHECK(out[0].size() >= 3);
    CHECK(out[1].size() >= 3);
    CHECK_FALSE(any_crossing(out));
    for (const Vec2& p : out[1]) CHECK(inside(p, out[0]));
    // Every original point stays within the tolerance of its simplified ring.
    for (std::size_t r = 0; r < 2; ++r)
      for (const Vec2& p : input[r]) {
        double best = 1e9;
        for (std::size_t i = 0; i < out[r].size(); ++i) {
          const Vec2 a = out[r][i], b = out[r][(i + 1) % out[r].size()];
          const double dx = b.x - a.x, dy = b.y - a.y;
          const double t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
          best = std::min(best, std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy));
        }
        CHECK(best <= tol + 1e-9);
      }
  }
  // Tolerance 0 keeps every point.
  CHECK(rig2d::simplify_rings(input, 0)[0].size() == outer.size());
}

TEST_CASE("simplify: specks and what they enclose are dropped, the largest island kept", "[geometry][simplify]") {
  auto square = [](double x, double y, double s, bool island) {
    Ring r{{x, y}, {x, y + s}, {x + s, y + s}, {x + s, y}};  // negative shoelace = island
    if (!island) std::reverse(r.begin(), r.end());
    return r;
  };
  const std::vector<Ring> rings{
      square(0, 0, 100, true),    // big island
      square(10, 10, 1, false),   // speck hole in it: filled
      square(40, 40, 30, false),  // real hole
      square(50, 50, 1.5, true),  // speck island inside the hole: dropped
      square(200, 0, 1, true),    // speck island on its own: dropped
  };
  const auto kept = rig2d::drop_small_rings(rings, 4.0);
  REQUIRE(kept.size() == 2);
  CHECK(kept[0] == rings[0]);
  CHECK(kept[1] == rings[2]);
  // Everything tiny: the largest island survives.
  const auto only = rig2d::drop_small_rings({square(0, 0, 1, true), square(5, 5, 1.5, true)}, 4.0);
  REQUIRE(only.size() == 1);
  CHECK(only[0] == square(5, 5, 1.5, true));
}

namespace {

// drop_small_rings as first written: every ring's parent found by scanning all rings, then each ring
// dropped with any dropped ancestor. The library now skips the parents it can prove unneeded.
std::vector<Ring> drop_small_rings_reference(const std::vector<Ring>& rings, double min_area) {
  const std::size_t n = rings.size();
  std::vector<double> area(n);
  for (std::size_t r = 0; r < n; ++r) area[r] = std::fabs(ring_signed_area(rings[r]));
  std::vector<std::size_t> parent(n, n);
  for (std::size_t r = 0; r < n; ++r) {
    double best = HUGE_VAL;
    for (std::size_t k = 0; k < n; ++k)
      if (k != r && area[k] > area[r] && area[k] < best && inside(rings[r][0], rings[k])) best = area[k], parent[r] = k;
  }
  std::size_t largest = n;
  for (std::size_t r = 0; r < n; ++r)
    if (ring_signed_area(rings[r]) < 0 && (largest == n || area[r] > area[largest])) largest = r;
  std::vector<Ring> out;
  for (std::size_t r = 0; r < n; ++r) {
    bool dropped = false;
    for (std::size_t k = r; k != n; k = parent[k]) dropped = dropped || (area[k] < min_area && k != largest);
    if (!dropped) out.push_back(rings[r]);
  }
  return out;
}

}  // namespace

TEST_CASE("simplify: dropping small rings matches the all-parents reference on random nestings",
          "[geometry][simplify]") {
  std::uint32_t state = 12345u;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  auto square = [](double x, double y, double side, bool island) {
    Ring r{{x, y}, {x, y + side}, {x + side, y + side}, {x + side, y}};  // negative shoelace = island
    if (!island) std::reverse(r.begin(), r.end());
    return r;
  };
  int differing_kept = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // Squares nested in a 4 x 4 pattern, alternating island / hole with depth, sides shrinking by a
    // random factor, so some fall under min_area at every depth; sometimes a lone hole ring around
    // everything (a caller's own rings; traced rings never have one).
    std::vector<Ring> rings;
    const bool orphan_hole = next() % 4 == 0;
    std::function<void(double, double, double, bool, int)> nest = [&](double x, double y, double side, bool island,
                                                                      int depth) {
      rings.push_back(square(x, y, side, island));
      if (depth == 0) return;
      const double cell = side / 4;
      for (int k = 0; k < 16; ++k) {
        if (next() % 3 != 0) continue;
        const double inner = cell * (0.2 + 0.6 * static_cast<double>(next() % 1000) / 1000.0);
        nest(x + cell * (k % 4) + 0.5 * (cell - inner), y + cell * (k / 4) + 0.5 * (cell - inner), inner, !island,
             depth - 1);
      }
    };
    const int islands = 1 + static_cast<int>(next() % 3);
    double right = 0, top = 0;
    for (int i = 0; i < islands; ++i) {
      const double side = 3.0 * (1 + next() % 10);
      nest(right + 0.25, 0.25, side, true, 3);
      right += side + 1, top = std::max(top, side + 1);
    }
    double min_area = 0.05 * static_cast<double>(next() % 40);
    if (orphan_hole) {  // around everything; min_area from a fraction of it to twice it
      const double side = std::max(right, top) + 2 + static_cast<double>(next() % 4);
      rings.insert(rings.begin() + static_cast<std::ptrdiff_t>(next() % (rings.size() + 1)),
                   square(-1, -1, side, false));
      min_area = side * side * (0.5 + 1.5 * static_cast<double>(next() % 1000) / 1000.0);
    }
    const auto kept = rig2d::drop_small_rings(rings, min_area);
    const auto expected = drop_small_rings_reference(rings, min_area);
    INFO("trial " << trial << ": " << rings.size() << " rings, min_area " << min_area);
    REQUIRE(kept == expected);
    differing_kept += kept.size() != rings.size() && !kept.empty();
  }
  CHECK(differing_kept > 100);  // the trials do drop rings
}

TEST_CASE("contour: with no margin the grown mask is exactly alpha > threshold, at any row length",
          "[geometry][contour]") {
  // Widths around the 16-pixel steps and the 64-bit words of the sign rows, random alpha.
  std::uint32_t state = 12345;
  auto next = [&state] { return (state = state * 1664525u + 1013904223u) >> 24; };
  for (const int w : {1, 2, 7, 15, 16, 17, 31, 47, 62, 63, 64, 65, 66, 79, 127, 128, 130}) {
    for (const int threshold : {0, 8, 128, 254}) {
      rig2d::Image image;
      image.width = w;
      image.height = 5;
      image.rgba.resize(4 * static_cast<std::size_t>(w) * 5);
      for (std::uint8_t& byte : image.rgba) byte = static_cast<std::uint8_t>(next());
      std::vector<std::uint8_t> mask;
      REQUIRE(trace_alpha_contours(image, {threshold, 0.0}, &mask));
      std::vector<std::uint8_t> expected(static_cast<std::size_t>(w) * 5);
      for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = image.rgba[4 * i + 3] > threshold ? 1 : 0;
      INFO("width " << w << ", threshold " << threshold);
      CHECK(mask == expected);
    }
  }
}
