// SPDX-License-Identifier: Apache-2.0
// The leak check's searches against plain references: the bucketed shortest paths give a priority
// queue's distances to the bit (all of them, and those within a reach), the nearest point gives the
// plain hypot loop's distance, and a run clearly_within accepts is never longer than the search's way.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <queue>
#include <vector>

#include "quality/weight_measures.h"

using namespace rig2d;
using namespace rig2d::detail;

namespace {

struct Lcg {
  std::uint32_t state;
  std::uint32_t next() { return state = state * 1664525u + 1013904223u; }
  double unit() { return static_cast<double>(next() % 1000001) / 1000000; }
};

// A w x h raster whose cells are on the shape with probability `fill`, in blobs and specks.
ShapeRaster random_shape(Lcg& rng, int w, int h, double cell, double fill) {
  ShapeRaster s;
  s.x0 = -3.25;
  s.y0 = 1.5;
  s.cell = cell;
  s.width = w;
  s.height = h;
  s.near.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  for (auto& c : s.near) c = rng.unit() < fill;
  s.solid = s.near;
  return s;
}

// Dijkstra with a priority queue over the same steps, summed in float from the sources outward.
std::vector<float> reference_distances(const ShapeRaster& shape, const std::vector<std::size_t>& sources) {
  const std::size_t w = static_cast<std::size_t>(shape.width), h = static_cast<std::size_t>(shape.height);
  std::vector<float> dist(w * h, std::numeric_limits<float>::infinity());
  using Item = std::pair<float, std::size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (const std::size_t c : sources) {
    if (dist[c] != 0) queue.emplace(dist[c] = 0, c);
  }
  const float straight = static_cast<float>(shape.cell), diagonal = static_cast<float>(shape.cell * std::sqrt(2.0));
  while (!queue.empty()) {
    const auto [d, c] = queue.top();
    queue.pop();
    if (d > dist[c]) continue;
    const std::size_t x = c % w, y = c / w;
    for (std::size_t ny = y > 0 ? y - 1 : y; ny <= y + 1 && ny < h; ++ny) {
      for (std::size_t nx = x > 0 ? x - 1 : x; nx <= x + 1 && nx < w; ++nx) {
        const std::size_t n = ny * w + nx;
        if (n == c || !shape.near[n]) continue;
        const float nd = d + (nx != x && ny != y ? diagonal : straight);
        if (nd < dist[n]) queue.emplace(dist[n] = nd, n);
      }
    }
  }
  return dist;
}

std::size_t cell_of(const ShapeRaster& s, Vec2 p) {
  const auto x = static_cast<std::size_t>(std::floor((p.x - s.x0) / s.cell));
  const auto y = static_cast<std::size_t>(std::floor((p.y - s.y0) / s.cell));
  return y * static_cast<std::size_t>(s.width) + x;
}

Vec2 random_point_in(Lcg& rng, const ShapeRaster& s) {
  return {s.x0 + rng.unit() * 0.999999 * s.width * s.cell, s.y0 + rng.unit() * 0.999999 * s.height * s.cell};
}

}  // namespace

TEST_CASE("leak search: bucketed shortest paths are a priority queue's to the bit", "[quality]") {
  Lcg rng{7};
  int compared = 0, reached = 0;
  for (int round = 0; round < 300; ++round) {
    const int w = 1 + static_cast<int>(rng.next() % 48), h = 1 + static_cast<int>(rng.next() % 48);
    const double cell = round % 3 == 0 ? 1.0 : 0.75 + 3 * rng.unit();
    const ShapeRaster shape = random_shape(rng, w, h, cell, 0.45 + 0.5 * rng.unit());
    std::vector<std::size_t> sources;
    for (std::uint32_t k = 0, n = 1 + rng.next() % 5; k < n; ++k) sources.push_back(rng.next() % shape.near.size());
    const std::vector<float> expected = reference_distances(shape, sources);
    const std::vector<float> all = distances_through_shape(shape, sources);
    REQUIRE(all.size() == expected.size());
    CHECK(std::memcmp(all.data(), expected.data(), all.size() * sizeof(float)) == 0);
    // Within a reach every cell is exact; past it a cell holds its distance or more.
    const double reach = rng.unit() * (w + h) * cell;
    const std::vector<float> near_only = distances_through_shape(shape, sources, reach);
    int wrong = 0;
    for (std::size_t c = 0; c < expected.size(); ++c) {
      if (expected[c] <= reach) {
        wrong += std::memcmp(&near_only[c], &expected[c], sizeof(float)) != 0;
        ++reached;
      } else {
        wrong += !(near_only[c] >= expected[c]);
      }
    }
    CAPTURE(round, w, h, cell, reach);
    CHECK(wrong == 0);
    ++compared;
  }
  CHECK(compared == 300);
  CHECK(reached > 10000);
}

TEST_CASE("leak search: the nearest point's distance is the plain hypot loop's", "[quality]") {
  Lcg rng{11};
  for (int round = 0; round < 2000; ++round) {
    std::vector<Vec2> points;
    const Vec2 p{rng.unit() * 200 - 100, rng.unit() * 200 - 100};
    for (std::uint32_t k = 0, n = 1 + rng.next() % 40; k < n; ++k) {
      // Some points repeat or mirror others about p, so ties between candidates happen.
      if (!points.empty() && rng.next() % 4 == 0) {
        const Vec2 q = points[rng.next() % points.size()];
        points.push_back(rng.next() % 2 ? q : Vec2{2 * p.x - q.x, 2 * p.y - q.y});
      } else {
        points.push_back({rng.unit() * 200 - 100, rng.unit() * 200 - 100});
      }
    }
    double plain = HUGE_VAL;
    for (const Vec2 q : points) plain = std::min(plain, std::hypot(q.x - p.x, q.y - p.y));
    const NearestPoint n = nearest_point(points, p);
    CHECK(std::memcmp(&n.distance, &plain, sizeof(double)) == 0);
    CHECK(std::hypot(n.point.x - p.x, n.point.y - p.y) == n.distance);
  }
  CHECK(nearest_point({}, {1, 2}).distance == HUGE_VAL);
}

TEST_CASE("leak search: a run clearly_within accepts is never shorter than the way found", "[quality]") {
  Lcg rng{5};
  int accepted = 0;
  for (int round = 0; round < 400; ++round) {
    const int w = 2 + static_cast<int>(rng.next() % 40), h = 2 + static_cast<int>(rng.next() % 40);
    const double cell = round % 2 ? 1.0 : 0.8 + 2 * rng.unit();
    const ShapeRaster shape = random_shape(rng, w, h, cell, round % 4 == 0 ? 1.0 : 0.6 + 0.4 * rng.unit());
    for (int k = 0; k < 10; ++k) {
      const Vec2 p = random_point_in(rng, shape), q = random_point_in(rng, shape);
      const double straight = std::hypot(p.x - q.x, p.y - q.y);
      const double allowed = (1 + rng.unit()) * straight + 2 * rng.unit() * cell;
      if (!clearly_within(shape, p, q, allowed)) continue;
      ++accepted;
      const std::vector<float> from_q = reference_distances(shape, {cell_of(shape, q)});
      CHECK(from_q[cell_of(shape, p)] <= allowed);
    }
  }
  CHECK(accepted > 300);  // not a test that accepts nothing
  // A wall of off-shape cells between them: no straight run joins the two sides.
  Lcg one{3};
  ShapeRaster walled = random_shape(one, 9, 3, 1, 1.0);
  for (int y = 0; y < 3; ++y) walled.near[static_cast<std::size_t>(y) * 9 + 4] = 0;
  CHECK_FALSE(clearly_within(walled, {walled.x0 + 0.5, walled.y0 + 1.5}, {walled.x0 + 8.5, walled.y0 + 1.5}, 1e9));
  CHECK(clearly_within(walled, {walled.x0 + 0.5, walled.y0 + 1.5}, {walled.x0 + 3.5, walled.y0 + 0.5}, 8));
}
