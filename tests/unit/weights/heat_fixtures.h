// SPDX-License-Identifier: Apache-2.0
// Shapes built in code for the weight tests: grid meshes over a predicate (the engine's grid layout
// and winding), an ear-clipped outline mesh (boundary vertices only, long thin triangles), bones,
// and checks every weight set must pass.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "rig2d/geometry/triangulate.h"
#include "rig2d/rig/rig.h"
#include "rig2d/weights/skin_weights.h"

namespace rig2d::test {

// Grid of `cell` px squares over [-w/2, w/2] x [-h/2, h/2]; a cell is kept when `inside` holds at
// its centre. Vertices are emitted row-major for kept cells only; triangles a,d,b / b,d,e.
inline Mesh grid_mesh(double w, double h, double cell, const std::function<bool(double, double)>& inside) {
  const int cols = static_cast<int>(std::lround(w / cell));
  const int rows = static_cast<int>(std::lround(h / cell));
  auto vx = [&](int c) { return -w / 2 + c * cell; };
  auto vy = [&](int r) { return -h / 2 + r * cell; };
  std::vector<int> keep(static_cast<std::size_t>(cols * rows), 0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) keep[static_cast<std::size_t>(r * cols + c)] = inside(vx(c) + cell / 2, vy(r) + cell / 2);
  std::vector<int> index(static_cast<std::size_t>((cols + 1) * (rows + 1)), -1);
  Mesh m;
  auto used = [&](int r, int c) {
    for (int dr = -1; dr <= 0; ++dr)
      for (int dc = -1; dc <= 0; ++dc) {
        const int rr = r + dr, cc = c + dc;
        if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && keep[static_cast<std::size_t>(rr * cols + cc)]) return true;
      }
    return false;
  };
  for (int r = 0; r <= rows; ++r)
    for (int c = 0; c <= cols; ++c)
      if (used(r, c)) {
        index[static_cast<std::size_t>(r * (cols + 1) + c)] = static_cast<int>(m.verts.size());
        m.verts.push_back({vx(c), vy(r)});
        m.uvs.push_back({c / double(cols), r / double(rows)});
      }
  auto at = [&](int r, int c) { return static_cast<std::uint32_t>(index[static_cast<std::size_t>(r * (cols + 1) + c)]); };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      if (!keep[static_cast<std::size_t>(r * cols + c)]) continue;
      const auto a = at(r, c), b = at(r, c + 1), d = at(r + 1, c), e = at(r + 1, c + 1);
      m.tris.insert(m.tris.end(), {a, d, b, b, d, e});
    }
  return m;
}

// Ear clipping of a simple polygon (any winding), after subdividing each edge into pieces of at most
// `step` px: only boundary vertices, so the triangles are long and thin like an outline tessellation.
inline Mesh outline_mesh(const std::vector<Vec2>& corners, double step) {
  Mesh m;
  for (std::size_t i = 0; i < corners.size(); ++i) {
    const Vec2 a = corners[i], b = corners[(i + 1) % corners.size()];
    const int pieces = std::max(1, static_cast<int>(std::ceil(std::hypot(b.x - a.x, b.y - a.y) / step)));
    for (int k = 0; k < pieces; ++k) m.verts.push_back({a.x + (b.x - a.x) * k / pieces, a.y + (b.y - a.y) * k / pieces});
  }
  double area = 0;
  for (std::size_t i = 0; i < m.verts.size(); ++i) {
    const Vec2 a = m.verts[i], b = m.verts[(i + 1) % m.verts.size()];
    area += a.x * b.y - b.x * a.y;
  }
  const double orient = area > 0 ? 1 : -1;
  auto cross = [](Vec2 a, Vec2 b, Vec2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); };
  std::vector<std::uint32_t> ring(m.verts.size());
  for (std::uint32_t i = 0; i < ring.size(); ++i) ring[i] = i;
  while (ring.size() > 3) {
    bool clipped = false;
    for (std::size_t i = 0; i < ring.size() && !clipped; ++i) {
      const std::uint32_t ia = ring[(i + ring.size() - 1) % ring.size()], ib = ring[i], ic = ring[(i + 1) % ring.size()];
      const Vec2 a = m.verts[ia], b = m.verts[ib], c = m.verts[ic];
      if (orient * cross(a, b, c) <= 1e-9) continue;  // reflex or flat corner
      bool empty = true;
      for (const std::uint32_t j : ring) {
        if (j == ia || j == ib || j == ic) continue;
        const Vec2 p = m.verts[j];
        if (orient * cross(a, b, p) >= 0 && orient * cross(b, c, p) >= 0 && orient * cross(c, a, p) >= 0) {
          empty = false;
          break;
        }
      }
      if (!empty) continue;
      m.tris.insert(m.tris.end(), {ia, ib, ic});
      ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(i));
      clipped = true;
    }
    REQUIRE(clipped);
  }
  m.tris.insert(m.tris.end(), {ring[0], ring[1], ring[2]});
  m.uvs.assign(m.verts.size(), {});
  return m;
}

// The library's quality outline tessellation (constrained Delaunay, refined to 20 degrees and
// `max_edge` px): what `--mesh outline` produces from a traced contour.
inline Mesh cdt_mesh(const std::vector<Vec2>& outline, double max_edge) {
  TriangulateOptions o;
  o.refine = max_edge > 0;
  o.max_edge = max_edge;
  auto t = triangulate_polygons({outline}, o);
  REQUIRE(t);
  Mesh m;
  m.verts = t->vertices;
  m.tris = t->triangles;
  m.uvs.assign(m.verts.size(), {});
  return m;
}

// The two-leg sprite: a 80 x 120 px body whose lower 80 px split into legs with a 20 px gap.
inline bool two_leg_inside(double x, double y) {
  if (x < -40 || x > 40 || y < -60 || y > 60) return false;
  return y < -20 || std::abs(x) > 10;
}
inline std::vector<Vec2> two_leg_outline() {
  return {{-40, -60}, {40, -60}, {40, 60}, {10, 60}, {10, -20}, {-10, -20}, {-10, 60}, {-40, 60}};
}
// pelvis (0,-45) -> hip_l (-25,-25) -> knee_l (-25,15) -> foot_l (-25,55), and the same on the right.
inline std::vector<Bone> two_leg_bones() {
  return {{"pelvis", -1, 0, -45, 0},  {"hip_l", 0, -25, 20, 0}, {"knee_l", 1, 0, 40, 0}, {"foot_l", 2, 0, 40, 0},
          {"hip_r", 0, 25, 20, 0},    {"knee_r", 4, 0, 40, 0},  {"foot_r", 5, 0, 40, 0}};
}

// A vertical chain: root at (0,-96), bone1 at (0,0), bone2 at (0,96), as suggestBones places it.
inline std::vector<Bone> chain_bones() { return {{"root", -1, 0, -96, 0}, {"bone1", 0, 0, 96, 0}, {"bone2", 1, 0, 96, 0}}; }

// Weight of `bone` at vertex v (0 if it is in no slot).
inline double weight_of(const SkinWeights& w, std::size_t v, std::uint32_t bone) {
  double sum = 0;
  for (int k = 0; k < 4; ++k)
    if (w.indices[v * 4 + static_cast<std::size_t>(k)] == bone) sum += w.weights[v * 4 + static_cast<std::size_t>(k)];
  return sum;
}

// Invariants of every weight set: >= 0, sum 1, at most K used slots first and sorted descending,
// unused slots 0/0, indices in range.
inline void check_weights(const SkinWeights& w, std::size_t vertex_count, std::size_t bone_count, int max_influences) {
  REQUIRE(w.indices.size() == vertex_count * 4);
  REQUIRE(w.weights.size() == vertex_count * 4);
  for (std::size_t v = 0; v < vertex_count; ++v) {
    INFO("vertex " << v);
    double sum = 0;
    int used = 0;
    for (int k = 0; k < 4; ++k) {
      const double x = w.weights[v * 4 + static_cast<std::size_t>(k)];
      const std::uint32_t b = w.indices[v * 4 + static_cast<std::size_t>(k)];
      CHECK(x >= 0);
      CHECK(b < bone_count);
      if (x > 0) {
        CHECK(used == k);  // used slots first
        ++used;
      } else {
        CHECK(b == 0);
      }
      if (k > 0) CHECK(x <= w.weights[v * 4 + static_cast<std::size_t>(k) - 1]);
      sum += x;
    }
    CHECK(used >= 1);
    CHECK(used <= max_influences);
    CHECK(std::abs(sum - 1) <= 1e-12);
  }
}

// Weights as {bone -> weight} per vertex, to compare two runs independent of slot order.
inline std::vector<std::map<std::uint32_t, double>> as_maps(const SkinWeights& w) {
  std::vector<std::map<std::uint32_t, double>> out(w.weights.size() / 4);
  for (std::size_t v = 0; v < out.size(); ++v)
    for (std::size_t k = 0; k < 4; ++k)
      if (w.weights[v * 4 + k] > 0) out[v][w.indices[v * 4 + k]] += w.weights[v * 4 + k];
  return out;
}

}  // namespace rig2d::test
