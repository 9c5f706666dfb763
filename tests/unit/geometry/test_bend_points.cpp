// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "masks.h"
#include "rig2d/geometry/bend_points.h"
#include "rig2d/geometry/triangulate.h"

using namespace rig2d;

TEST_CASE("bend_points: rows across a vertical bar at the middle of each link and past the tip", "[outline][bend]") {
  // A 20 px wide bar from x = 10 to 30, y = 0 to 100; a chain 0 -> 1 -> 2 down its axis.
  const Image bar = test::make_sprite(40, 100, [](double x, double) { return x >= 10 && x <= 30; }, false);
  BendSkeleton sk;
  sk.joints = {{20, 10}, {20, 50}, {20, 90}};
  sk.parents = {-1, 0, 1};
  const std::vector<Vec2> p = bend_points(bar, 8, sk, 2.0);
  // Links of 40 px: spacing 40 > width 20 -> one point per row, on the bar's centre line: the middles
  // (y 30, y 70) and, bone 2 being a tip, a row half a link beyond its joint (y 110 is outside, so at
  // the joint, y 90).
  REQUIRE(p.size() == 3);
  std::vector<double> ys;
  for (const Vec2& q : p) {
    CHECK(q.x == Approx(20).margin(0.5));  // the middle of the 20 px width (found in half-pixel steps)
    ys.push_back(q.y);
  }
  std::sort(ys.begin(), ys.end());
  CHECK(ys[0] == Approx(30));
  CHECK(ys[1] == Approx(70));
  CHECK(ys[2] == Approx(90));
}

TEST_CASE("bend_points: a wide part gets several points a row, each clear of the edges", "[outline][bend]") {
  const Image slab = test::make_sprite(120, 40, [](double x, double y) { return x >= 0 && y >= 2 && y <= 38; }, false);
  BendSkeleton sk;
  sk.joints = {{60, 4}, {60, 24}};  // a short vertical link across a wide part
  sk.parents = {-1, 0};
  const std::vector<Vec2> p = bend_points(slab, 8, sk, 3.0);
  REQUIRE(p.size() >= 2);
  for (const Vec2& q : p) {
    CHECK(q.x >= 3.0);
    CHECK(q.x <= 117.0);
  }
}

TEST_CASE("bend_points: no parent, no link, transparent centres: no points", "[outline][bend]") {
  const Image empty = test::make_sprite(32, 32, [](double, double) { return false; }, false);
  BendSkeleton sk;
  sk.joints = {{16, 4}, {16, 28}};
  sk.parents = {-1, 0};
  CHECK(bend_points(empty, 8, sk, 1.0).empty());
  const Image full = test::make_sprite(32, 32, [](double, double) { return true; }, false);
  sk.parents = {-1, -1};
  CHECK(bend_points(full, 8, sk, 1.0).empty());
  sk.parents = {-1, 0};
  sk.joints = {{16, 16}, {16, 16}};  // zero length
  CHECK(bend_points(full, 8, sk, 1.0).empty());
  CHECK(bend_points(Image{}, 8, sk, 1.0).empty());
}

TEST_CASE("triangulate_polygons: interior points become vertices, the others are left out", "[outline][triangulate]") {
  const std::vector<Ring> square = {{{0, 0}, {10, 0}, {10, 10}, {0, 10}}};
  TriangulateOptions o;
  o.interior_points = {{5, 5}, {20, 20}, {10, 5}, {0, 0}, {std::nan(""), 1}, {2.5, 7.5}};
  TriangulateStats st;
  auto m = triangulate_polygons(square, o, &st);
  REQUIRE(m);
  CHECK(st.interior_points == 2);  // (5, 5) and (2.5, 7.5): outside, on the ring, on a vertex and NaN are not
  CHECK(m->vertices.size() == 6);
  CHECK(std::count(m->vertices.begin(), m->vertices.end(), Vec2{5, 5}) == 1);
  CHECK(std::count(m->vertices.begin(), m->vertices.end(), Vec2{2.5, 7.5}) == 1);
  double area = 0;
  for (std::size_t t = 0; t < m->triangles.size(); t += 3) {
    const Vec2 a = m->vertices[m->triangles[t]], b = m->vertices[m->triangles[t + 1]], c = m->vertices[m->triangles[t + 2]];
    area += -0.5 * ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));  // CCW with y down
  }
  CHECK(area == Approx(100));
  // Within the budget: with room for the outline only, none is added.
  o.max_vertices = 4;
  auto capped = triangulate_polygons(square, o, &st);
  REQUIRE(capped);
  CHECK(capped->vertices.size() == 4);
  CHECK(st.interior_points == 0);
}
