// SPDX-License-Identifier: Apache-2.0
// The pieces under the heat weights: bone segments, geodesic distances, the ramped influence cut.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include "heat_fixtures.h"
#include "rig2d/weights/bone_segments.h"
#include "weights/geodesic.h"
#include "weights/influence_cut.h"
#include "weights/mesh_graph.h"

using namespace rig2d;
using namespace rig2d::test;
using Catch::Matchers::WithinAbs;

TEST_CASE("bone segments: joint to child joint, a leaf runs on through the mesh", "[weights][heat]") {
  const Mesh bar = grid_mesh(32, 192, 8, [](double, double) { return true; });
  SECTION("chain ending at the mesh edge: the leaf is a point there") {
    const auto s = bone_segments(chain_bones(), bar);
    REQUIRE(s.size() == 3);
    CHECK(s[0].bone == 0);
    CHECK(s[0].a == Vec2{0, -96});
    CHECK(s[0].b == Vec2{0, 0});
    CHECK(s[1].a == Vec2{0, 0});
    CHECK(s[1].b == Vec2{0, 96});
    CHECK(s[2].a == Vec2{0, 96});
    CHECK(s[2].b == Vec2{0, 96});
    CHECK(s[2].leaf);
    CHECK_FALSE(s[0].leaf);
    // Unless a default length is given.
    const auto d = bone_segments(chain_bones(), bar, 10);
    CHECK(d[2].b == Vec2{0, 106});
  }
  SECTION("a leaf inside the mesh reaches the far edge along the parent's direction") {
    const std::vector<Bone> bones{{"root", -1, 0, -96, 0}, {"leaf", 0, 0, 60, 0}};  // leaf joint at y = -36
    const auto s = bone_segments(bones, bar);
    REQUIRE(s.size() == 2);
    CHECK(s[1].a == Vec2{0, -36});
    CHECK_THAT(s[1].b.x, WithinAbs(0, 1e-9));
    CHECK_THAT(s[1].b.y, WithinAbs(96, 1e-6));
  }
  SECTION("a lone root uses its own +x axis") {
    const std::vector<Bone> bones{{"root", -1, 0, 0, 1.5707963267948966}};  // +x turned to +y
    const auto s = bone_segments(bones, bar);
    REQUIRE(s.size() == 1);
    CHECK_THAT(s[0].b.x, WithinAbs(0, 1e-9));
    CHECK_THAT(s[0].b.y, WithinAbs(96, 1e-6));
  }
  SECTION("a bone with two children gets one segment to each") {
    const auto s = bone_segments(two_leg_bones(), grid_mesh(80, 120, 4, two_leg_inside));
    REQUIRE(s.size() == 8);  // pelvis x2, hip, knee, foot (leaf) on each side
    CHECK(s[0].bone == 0);
    CHECK(s[1].bone == 0);
    CHECK(s[0].b == Vec2{-25, -25});
    CHECK(s[1].b == Vec2{25, -25});
    // The feet run from the ankle joint (y 55) to the sole (y 60).
    CHECK(s[4].bone == 3);
    CHECK_THAT(s[4].b.y, WithinAbs(60, 1e-6));
  }
  SECTION("bad triangles are skipped, not trusted") {
    Mesh broken = bar;
    broken.tris.push_back(12345);
    broken.tris.push_back(0);
    const auto s = bone_segments(chain_bones(), broken);
    CHECK(s.size() == 3);
  }
}

TEST_CASE("geodesic: straight distances on an open grid, around the gap on the two-leg shape", "[weights][heat]") {
  SECTION("open grid: never shorter than the straight line, at most the 8-neighbour chamfer excess") {
    const Mesh m = grid_mesh(100, 100, 5, [](double, double) { return true; });
    const auto g = detail::build_mesh_graph(m.verts, m.tris);
    std::uint32_t centre = 0;
    while (!(m.verts[centre] == Vec2{0, 0})) ++centre;
    const std::vector<detail::GeodesicSeed> seeds{{centre, 0}};
    std::vector<double> d(m.verts.size());
    detail::GeodesicScratch scratch;
    detail::geodesic_distances(g, seeds, d, scratch);
    double worst = 0;
    for (std::size_t v = 0; v < m.verts.size(); ++v) {
      const double straight = std::hypot(m.verts[v].x, m.verts[v].y);
      CHECK(d[v] >= straight - 1e-9);
      if (straight > 0) worst = std::max(worst, d[v] / straight - 1);
    }
    INFO("worst relative excess " << worst);
    CHECK(worst <= 0.0825);  // 1 / cos(22.5 deg) - 1 = 8.24%: straight links over one and two cells
  }
  SECTION("two legs: from one foot to the other goes over the crotch") {
    const Mesh m = grid_mesh(80, 120, 4, two_leg_inside);
    const auto g = detail::build_mesh_graph(m.verts, m.tris);
    CHECK(g.island_count == 1);
    std::uint32_t left = 0, right = 0;
    for (std::uint32_t v = 0; v < m.verts.size(); ++v) {
      if (m.verts[v] == Vec2{-12, 60}) left = v;
      if (m.verts[v] == Vec2{12, 60}) right = v;
    }
    const std::vector<detail::GeodesicSeed> seeds{{left, 0}};
    std::vector<double> d(m.verts.size());
    detail::GeodesicScratch scratch;
    detail::geodesic_distances(g, seeds, d, scratch);
    // Up 80 px to the crotch corner (-10,-20), across 20 px, down 80 px: 2*hypot(2,80) + 20.
    const double around = 2 * std::hypot(2.0, 80.0) + 20;
    CHECK(d[right] >= around - 1e-6);
    CHECK(d[right] <= around * 1.03);
  }
}

namespace {

// Dijkstra as geodesic_distances ran it before its queue held each vertex once: every shorter path
// pushes another (distance, vertex) entry, stale ones are popped and skipped.
void geodesic_stale_entry_reference(const detail::MeshGraph& g, std::span<const detail::GeodesicSeed> seeds,
                                    std::span<double> out, std::span<const double> cutoff) {
  std::fill(out.begin(), out.end(), std::numeric_limits<double>::infinity());
  std::vector<std::uint8_t> done(g.vertex_count, 0);
  std::vector<std::pair<double, std::uint32_t>> heap;
  const auto later = std::greater<std::pair<double, std::uint32_t>>();
  auto push = [&](std::uint32_t v, double d) {
    if (d < out[v] && (cutoff.empty() || d <= cutoff[v])) {
      out[v] = d;
      heap.emplace_back(d, v);
      std::push_heap(heap.begin(), heap.end(), later);
    }
  };
  for (const auto& s : seeds) push(s.vertex, s.distance);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const auto [du, u] = heap.back();
    heap.pop_back();
    if (done[u] || du > out[u]) continue;
    done[u] = 1;
    for (std::uint32_t k = g.path_offsets[u]; k < g.path_offsets[u + 1]; ++k)
      if (!done[g.path_list[k]]) push(g.path_list[k], du + g.path_length[k]);
  }
}

}  // namespace

TEST_CASE("geodesic: the same distances, bit for bit, as a queue of stale entries", "[weights][heat]") {
  // Jittered and exact grids (many equal path sums: ties between vertices), several seeds with
  // repeated vertices, cutoffs from an earlier bone, one scratch reused across calls.
  std::mt19937 rng(4242);
  detail::GeodesicScratch scratch;
  for (int round = 0; round < 60; ++round) {
    INFO("round " << round);
    const double jitter = round % 3 == 0 ? 0.0 : 0.35;
    std::uniform_real_distribution<double> shake(-jitter, jitter);
    const Mesh m = grid_mesh(60, 40, 4, [&](double x, double y) { return (x * x + y * y < 900) || (round % 2 && y > 0); });
    Mesh moved = m;
    for (Vec2& p : moved.verts) p = {p.x + 4 * shake(rng), p.y + 4 * shake(rng)};
    const auto g = detail::build_mesh_graph(moved.verts, moved.tris);
    std::vector<detail::GeodesicSeed> seeds;
    const int seed_count = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < seed_count; ++k) {
      const auto v = static_cast<std::uint32_t>(rng() % moved.verts.size());
      seeds.push_back({v, std::uniform_real_distribution<double>(0, 5)(rng)});
      if (rng() % 2) seeds.push_back({v, std::uniform_real_distribution<double>(0, 5)(rng)});  // again, nearer or not
    }
    std::vector<double> cutoff;
    if (round % 4 == 1) {
      cutoff.assign(moved.verts.size(), 0);
      for (double& c : cutoff) c = std::uniform_real_distribution<double>(0, 40)(rng);
    }
    std::vector<double> got(moved.verts.size()), want(moved.verts.size());
    detail::geodesic_distances(g, seeds, got, scratch, cutoff);
    geodesic_stale_entry_reference(g, seeds, want, cutoff);
    for (std::size_t v = 0; v < got.size(); ++v) {
      INFO("vertex " << v);
      CHECK(std::memcmp(&got[v], &want[v], sizeof(double)) == 0);
    }
  }
}

TEST_CASE("influence cut: keeps K, ramps instead of stepping, renormalizes", "[weights][heat]") {
  std::uint32_t idx[4];
  double w[4];
  SECTION("top 2 of 3, faded by the third") {
    const std::uint32_t b[] = {4, 2, 7};
    const double x[] = {0.6, 0.3, 0.1};
    detail::cut_influences(b, x, 2, 0, 9, idx, w);
    CHECK(idx[0] == 4);
    CHECK(idx[1] == 2);
    // w * (1 - (0.1 / w)^4): 0.6 * 1295/1296 and 0.3 * 80/81, renormalized.
    const double a = 0.6 * 1295.0 / 1296.0, c = 0.3 * 80.0 / 81.0;
    CHECK_THAT(w[0], WithinAbs(a / (a + c), 1e-14));
    CHECK_THAT(w[1], WithinAbs(c / (a + c), 1e-14));
    // Weights well above the cut keep their ratio almost unchanged (a subtracted 0.1 made it 2.5).
    CHECK(w[0] / w[1] < 2.03);
    CHECK(w[2] == 0);
    CHECK(idx[2] == 0);
  }
  SECTION("continuous where the 2nd and 3rd bones swap rank") {
    auto second_weight = [&](double a, double c) {
      const std::uint32_t b[] = {0, 1, 2};
      const double x[] = {0.6, std::max(a, c), std::min(a, c)};
      detail::cut_influences(b, x, 2, 0, 0, idx, w);
      return w[1];
    };
    CHECK(second_weight(0.2, 0.2) == 0);  // at the swap the cut bone has already faded out
    CHECK(second_weight(0.2 + 1e-9, 0.2) < 1e-8);
  }
  SECTION("min_weight fades small weights out") {
    const std::uint32_t b[] = {0, 1};
    const double x[] = {0.985, 0.015};
    detail::cut_influences(b, x, 4, 0.01, 0, idx, w);
    // tau = 0.01: 0.015 * (1 - (2/3)^4) = 0.015 * 65/81 next to 0.985 * (1 - (0.01/0.985)^4).
    const double kept = 0.015 * 65.0 / 81.0, top = 0.985 * (1 - std::pow(0.01 / 0.985, 4));
    CHECK_THAT(w[1], WithinAbs(kept / (kept + top), 1e-14));
    CHECK(w[1] < 0.015);
    const double y[] = {0.995, 0.005};
    detail::cut_influences(b, y, 4, 0.01, 0, idx, w);
    CHECK(w[0] == 1);
    CHECK(w[1] == 0);
  }
  SECTION("all equal: the plain top K") {
    const std::uint32_t b[] = {0, 1, 2};
    const double x[] = {0.25, 0.25, 0.25};
    detail::cut_influences(b, x, 2, 0, 0, idx, w);
    CHECK(w[0] == 0.5);
    CHECK(w[1] == 0.5);
  }
  SECTION("nothing ranked: the fallback bone") {
    detail::cut_influences({}, {}, 4, 0.01, 3, idx, w);
    CHECK(idx[0] == 3);
    CHECK(w[0] == 1);
  }
  SECTION("TopWeights ranks by weight, then bone index") {
    detail::TopWeights top(1, 3);
    top.offer(0, 0, 0.1);
    top.offer(0, 1, 0.5);
    top.offer(0, 2, 0.1);
    top.offer(0, 3, 0.3);
    top.offer(0, 4, 0.0);
    top.offer(0, 5, 0.1);
    REQUIRE(top.bones(0).size() == 3);
    CHECK(top.bones(0)[0] == 1);
    CHECK(top.bones(0)[1] == 3);
    CHECK(top.bones(0)[2] == 0);
  }
}
