// SPDX-License-Identifier: Apache-2.0
// The mesh graph's neighbour and shortest-path lists against sets built straight from its triangles.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "heat_fixtures.h"
#include "weights/mesh_graph.h"

namespace {

using rig2d::Mesh;
using rig2d::Vec2;

std::vector<std::set<std::uint32_t>> mesh_graph_lists_of(const std::vector<std::uint32_t>& offsets,
                                                         const std::vector<std::uint32_t>& list, std::size_t n,
                                                         bool& sorted_unique) {
  std::vector<std::set<std::uint32_t>> out(n);
  sorted_unique = offsets.size() == n + 1 && offsets.back() == list.size();
  for (std::size_t v = 0; v < n && sorted_unique; ++v)
    for (std::uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
      sorted_unique = sorted_unique && (k == offsets[v] || list[k - 1] < list[k]);
      out[v].insert(list[k]);
    }
  return out;
}

}  // namespace

TEST_CASE("mesh graph: neighbour and path lists are the sets the triangles give", "[weights][heat]") {
  std::uint64_t state = 0x6A09E667F3BCC909ull;
  auto jitter = [&state](double amount) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return amount * (static_cast<double>(state % 2001) / 1000.0 - 1.0);
  };
  std::vector<Mesh> meshes;
  meshes.push_back(rig2d::test::grid_mesh(60, 90, 6, rig2d::test::two_leg_inside));
  for (const double amount : {0.0, 1.5, 2.9}) {
    Mesh m = rig2d::test::grid_mesh(70, 40, 5, [](double x, double y) { return x * x + y * y < 900 || y > 8; });
    for (Vec2& p : m.verts) p = {p.x + jitter(amount), p.y + jitter(amount)};
    meshes.push_back(std::move(m));
  }
  meshes.push_back(rig2d::test::cdt_mesh({{0, 0}, {90, 0}, {90, 12}, {15, 12}, {15, 70}, {0, 70}}, 10));
  {  // a non-manifold fan: three triangles on one edge, and an isolated vertex
    Mesh m;
    m.verts = {{0, 0}, {10, 0}, {5, 8}, {5, -8}, {12, 6}, {40, 40}};
    m.tris = {0, 1, 2, 0, 1, 3, 1, 0, 4};
    meshes.push_back(std::move(m));
  }
  for (const Mesh& m : meshes) {
    const rig2d::detail::MeshGraph g = rig2d::detail::build_mesh_graph(m.verts, m.tris);
    const std::size_t n = g.vertex_count;
    std::vector<std::set<std::uint32_t>> nbr(n), path(n);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> opposite;
    for (const auto& t : g.triangles)
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t a = t[k], b = t[(k + 1) % 3];
        nbr[a].insert(b), nbr[b].insert(a);
        opposite[{std::min(a, b), std::max(a, b)}].push_back(t[(k + 2) % 3]);
      }
    path = nbr;
    std::size_t links = 0;
    for (const auto& [edge, far] : opposite) {
      if (far.size() != 2) continue;
      const Vec2 p = m.verts[edge.first], q = m.verts[edge.second], r = m.verts[far[0]], s = m.verts[far[1]];
      using rig2d::detail::cross2;
      if (cross2(p, q, r) * cross2(p, q, s) < 0 && cross2(r, s, p) * cross2(r, s, q) < 0) {
        links += path[far[0]].insert(far[1]).second;
        path[far[1]].insert(far[0]);
      }
    }
    bool nbr_sorted = false, path_sorted = false;
    CHECK(mesh_graph_lists_of(g.nbr_offsets, g.nbr_list, n, nbr_sorted) == nbr);
    CHECK(mesh_graph_lists_of(g.path_offsets, g.path_list, n, path_sorted) == path);
    CHECK(nbr_sorted);
    CHECK(path_sorted);
    CHECK(g.path_length.size() == g.path_list.size());
    if (m.verts.size() > 100) CHECK(links > 0);
  }
}
