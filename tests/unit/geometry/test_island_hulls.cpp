// SPDX-License-Identifier: Apache-2.0
// island_hulls: hand-computed hulls and their cut corners, and on many islands the invariants (each
// contains its island, stays in the frame, within its corners; no two overlap).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "rig2d/geometry/island_hulls.h"

using namespace rig2d;

namespace {

double hulls_test_shoelace(const Ring& r) {
  double s = 0;
  for (std::size_t i = 0, n = r.size(); i < n; ++i) s += r[i].x * r[(i + 1) % n].y - r[(i + 1) % n].x * r[i].y;
  return s;
}

// Wound as an island: a negative shoelace sum.
Ring hulls_test_island(Ring r) {
  if (hulls_test_shoelace(r) > 0) std::reverse(r.begin(), r.end());
  return r;
}

Ring hulls_test_moved(Ring r, double dx, double dy) {
  for (Vec2& p : r) p = {p.x + dx, p.y + dy};
  return r;
}

// p inside or on the convex ring h (wound as an island).
bool hulls_test_contains(const Ring& h, Vec2 p) {
  for (std::size_t i = 0, n = h.size(); i < n; ++i) {
    const Vec2 a = h[i], b = h[(i + 1) % n];
    if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) > 1e-9) return false;
  }
  return true;
}

const Ring kHullsTestL{{0, 0}, {0, 10}, {10, 10}, {10, 6}, {4, 6}, {4, 0}};

}  // namespace

TEST_CASE("island_hulls: an L's hull loses the corner that adds least area, within the frame", "[outline][hulls]") {
  // The L's hull is (0,0) (0,10) (10,10) (10,6) (4,0): 100 - 18 = 82 px^2, 5 corners.
  const Ring l = hulls_test_island(kHullsTestL);
  const auto five = island_hulls({l}, 5, ClipFrame{10, 10});
  REQUIRE(five.size() == 1);
  CHECK(five[0].size() == 5);
  CHECK(-0.5 * hulls_test_shoelace(five[0]) == Approx(82));
  // Four corners in a 10 x 10 frame: the edges along x = 10 and y = 0 meet at (10,0), adding 18; the
  // cheaper cuts (8 px^2 each, at (14,10) or (0,-4)) leave the frame. The square itself.
  const auto framed = island_hulls({l}, 4, ClipFrame{10, 10});
  REQUIRE(framed.size() == 1);
  CHECK(framed[0].size() == 4);
  CHECK(-0.5 * hulls_test_shoelace(framed[0]) == Approx(100));
  // With room around it, one of the 8 px^2 cuts: 90.
  const auto free = island_hulls({hulls_test_moved(l, 20, 20)}, 4, ClipFrame{50, 50});
  REQUIRE(free.size() == 1);
  CHECK(free[0].size() == 4);
  CHECK(-0.5 * hulls_test_shoelace(free[0]) == Approx(90));
  // A triangle is as few as it goes; a hole (wound the other way) adds no hull of its own.
  Ring hole = hulls_test_island({{2, 2}, {3, 2}, {3, 3}});
  std::reverse(hole.begin(), hole.end());
  const auto tri = island_hulls({hulls_test_moved(l, 20, 20), hulls_test_moved(hole, 20, 20)}, 3, ClipFrame{100, 100});
  REQUIRE(tri.size() == 1);
  CHECK(tri[0].size() == 3);
  for (const Vec2& p : hulls_test_moved(l, 20, 20)) CHECK(hulls_test_contains(tri[0], p));
}

TEST_CASE("island_hulls: hulls that would overlap become one, apart, each keeps its own", "[outline][hulls]") {
  const Ring l = hulls_test_island(kHullsTestL);
  // A square in the L's notch: outside the L, inside its hull.
  const Ring notch = hulls_test_island({{6, 1}, {9, 1}, {9, 4}, {6, 4}});
  const auto merged = island_hulls({l, notch}, 8, ClipFrame{10, 10});
  REQUIRE(merged.size() == 1);
  for (const Ring* r : {&l, &notch})
    for (const Vec2& p : *r) CHECK(hulls_test_contains(merged[0], p));
  // Far apart: two squares, each its own 4-corner hull of 16 px^2.
  const Ring sq = hulls_test_island({{0, 0}, {4, 0}, {4, 4}, {0, 4}});
  const auto apart = island_hulls({hulls_test_moved(sq, 1, 1), hulls_test_moved(sq, 20, 1)}, 8, ClipFrame{30, 10});
  REQUIRE(apart.size() == 2);
  for (const Ring& h : apart) {
    CHECK(h.size() == 4);
    CHECK(-0.5 * hulls_test_shoelace(h) == Approx(16));
  }
  CHECK(apart[0][0].x < 10);  // in the order of their islands
}

TEST_CASE("island_hulls: 400 star islands, each hull contains its star, within the frame, none overlapping",
          "[outline][hulls]") {
  // Stars of radius 19.5 px, 100 px apart (room for a triangle around each) and 40 px apart (not).
  for (const double cell : {100.0, 40.0}) {
    std::vector<Ring> stars;
    std::vector<Vec2> centres;
    for (int r = 0; r < 20; ++r)
      for (int c = 0; c < 20; ++c) {
        Ring s;
        const int spikes = 3 + (r * 20 + c) % 9;
        centres.push_back({(c + 0.5) * cell, (r + 0.5) * cell});
        for (int k = 0; k < 2 * spikes; ++k) {
          const double a = 3.14159265358979 * k / spikes + 0.1 * c, rad = k % 2 ? 6 : 19.5;
          s.push_back({centres.back().x + rad * std::cos(a), centres.back().y + rad * std::sin(a)});
        }
        stars.push_back(hulls_test_island(s));
      }
    const ClipFrame frame{20 * cell, 20 * cell};
    for (const std::size_t corners : {std::size_t{3}, std::size_t{5}, std::size_t{10}}) {
      const auto hulls = island_hulls(stars, corners, frame);
      REQUIRE(hulls.size() == stars.size());  // no two stars' own hulls overlap
      std::size_t over = 0, unwound = 0, outside = 0, off_frame = 0, overlaps = 0;
      for (std::size_t i = 0; i < hulls.size(); ++i) {
        over += hulls[i].size() > std::max<std::size_t>(corners, 4);  // a parallelogram stops at 4
        unwound += !(hulls_test_shoelace(hulls[i]) < 0);
        for (const Vec2& p : stars[i]) outside += !hulls_test_contains(hulls[i], p);
        for (const Vec2& p : hulls[i])
          off_frame += !(p.x >= 0 && p.y >= 0 && p.x <= frame.width && p.y <= frame.height);
        // No hull reaches another star's tips.
        for (std::size_t j = 0; j < hulls.size(); ++j)
          if (i != j && std::hypot(centres[i].x - centres[j].x, centres[i].y - centres[j].y) < 2 * cell)
            for (const Vec2& p : stars[i]) overlaps += hulls_test_contains(hulls[j], p);
      }
      INFO("cell " << cell << ", corners " << corners);
      if (cell == 100.0) CHECK(over == 0);  // 40 px apart, a triangle or pentagon would reach a neighbour
      CHECK(unwound == 0);
      CHECK(outside == 0);
      CHECK(off_frame == 0);
      CHECK(overlaps == 0);
    }
  }
}
