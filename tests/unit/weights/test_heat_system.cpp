// SPDX-License-Identifier: Apache-2.0
// The heat system assembled in place against the triplet assembly it replaced, entry by entry.
#include <catch2/catch.hpp>

#include <Eigen/Sparse>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "heat_fixtures.h"
#include "weights/heat_system.h"
#include "weights/mesh_graph.h"

namespace {

using rig2d::Mesh;
using rig2d::Vec2;

// The assembly heat weights used before: triplets for both triangles, the sources last, summed by
// setFromTriplets (kept verbatim as the reference).
Eigen::SparseMatrix<double> heat_system_reference(std::span<const Vec2> verts, const rig2d::detail::MeshGraph& g,
                                                  double max_cot, std::vector<double>& mass,
                                                  const std::vector<double>& source) {
  const std::size_t n = g.vertex_count;
  mass.assign(n, 0);
  std::vector<Eigen::Triplet<double>> triplets;
  for (const auto& t : g.triangles) {
    const std::array<Vec2, 3> p{verts[t[0]], verts[t[1]], verts[t[2]]};
    const double area2 = std::abs(rig2d::detail::cross2(p[0], p[1], p[2]));
    std::array<double, 3> cot{};
    double largest = 0;
    for (int k = 0; k < 3; ++k) {
      const Vec2 e1{p[(k + 1) % 3].x - p[k].x, p[(k + 1) % 3].y - p[k].y};
      const Vec2 e2{p[(k + 2) % 3].x - p[k].x, p[(k + 2) % 3].y - p[k].y};
      cot[static_cast<std::size_t>(k)] = (e1.x * e2.x + e1.y * e2.y) / area2;
      largest = std::max(largest, std::abs(cot[static_cast<std::size_t>(k)]));
    }
    const double shrink = largest > max_cot ? max_cot / largest : 1.0;
    for (int k = 0; k < 3; ++k) {
      const double w = 0.5 * cot[static_cast<std::size_t>(k)] * shrink;
      const auto i = static_cast<int>(t[(k + 1) % 3]);
      const auto j = static_cast<int>(t[(k + 2) % 3]);
      triplets.emplace_back(i, j, -w);
      triplets.emplace_back(j, i, -w);
      triplets.emplace_back(i, i, w);
      triplets.emplace_back(j, j, w);
    }
    for (int k = 0; k < 3; ++k) mass[t[k]] += area2 / 6;
  }
  for (std::size_t v = 0; v < n; ++v) triplets.emplace_back(static_cast<int>(v), static_cast<int>(v), source[v]);
  Eigen::SparseMatrix<double> a(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  a.setFromTriplets(triplets.begin(), triplets.end());
  return a;
}

bool heat_system_same_bits(const Eigen::SparseMatrix<double>& a, const Eigen::SparseMatrix<double>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols() || a.nonZeros() != b.nonZeros() || !a.isCompressed() ||
      !b.isCompressed())
    return false;
  const auto nnz = static_cast<std::size_t>(a.nonZeros());
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.cols() + 1, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + nnz, b.innerIndexPtr()) &&
         std::memcmp(a.valuePtr(), b.valuePtr(), nnz * sizeof(double)) == 0;
}

}  // namespace

TEST_CASE("heat system: assembled in place, every entry as the triplet assembly's", "[weights][heat]") {
  std::uint64_t state = 0x853C49E6748FEA9Bull;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  auto jitter = [&](double amount) { return amount * (static_cast<double>(next() % 2001) / 1000.0 - 1.0); };
  std::vector<Mesh> meshes;
  meshes.push_back(rig2d::test::grid_mesh(60, 90, 6, rig2d::test::two_leg_inside));
  for (const double amount : {0.5, 2.5, 2.9}) {  // jittered grids: flips, slivers, steep cotangents
    Mesh m = rig2d::test::grid_mesh(80, 50, 5, [](double x, double y) { return x * x + y * y < 1600 || y > 10; });
    for (Vec2& p : m.verts) p = {p.x + jitter(amount), p.y + jitter(amount)};
    meshes.push_back(std::move(m));
  }
  meshes.push_back(rig2d::test::cdt_mesh({{0, 0}, {120, 0}, {120, 15}, {20, 15}, {20, 80}, {0, 80}}, 12));
  {  // a degenerate triangle, a repeated corner and an isolated vertex
    Mesh m = rig2d::test::grid_mesh(20, 20, 5, [](double, double) { return true; });
    m.verts.push_back({100, 100});
    m.verts.push_back({0.0, -10.0});
    m.tris.insert(m.tris.end(), {0, 1, 1, 0, 1, 2});
    meshes.push_back(std::move(m));
  }
  int compared = 0;
  for (const Mesh& m : meshes) {
    const rig2d::detail::MeshGraph g = rig2d::detail::build_mesh_graph(m.verts, m.tris);
    for (const double max_cot : {1e5, 2.0}) {  // the heat solve's cap, and one every sliver reaches
      std::vector<double> source(g.vertex_count);
      for (double& s : source) s = next() % 5 == 0 ? 0.0 : static_cast<double>(next() % 1000) / 7.0;
      std::vector<double> mass;
      const Eigen::SparseMatrix<double> want = heat_system_reference(m.verts, g, max_cot, mass, source);
      rig2d::detail::HeatSystem system(m.verts, g, max_cot);
      CHECK(std::memcmp(system.mass().data(), mass.data(), mass.size() * sizeof(double)) == 0);
      const Eigen::SparseMatrix<double> got = system.with_sources(source);
      CAPTURE(compared, g.flipped_edges, g.degenerate_triangles);
      CHECK(heat_system_same_bits(got, want));
      ++compared;
    }
  }
  CHECK(compared == 12);
}
