// SPDX-License-Identifier: Apache-2.0
// Invariant checks for triangle meshes produced by the outline tessellator (after CDT's
// verifyTopology): indices in range, every triangle strictly CCW in the +y-down frame (exact
// predicate), no duplicate vertex, edge-manifold with consistent orientation, and no fold across an
// interior edge. Returns "" when every check passes, else the first problem found.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "geometry/predicates.h"
#include "rig2d/core/types.h"

namespace rig2d::test {

inline std::string check_triangulation(const std::vector<Vec2>& verts, const std::vector<std::uint32_t>& tris) {
  if (tris.size() % 3 != 0) return "index count not a multiple of 3";
  std::map<std::pair<double, double>, std::size_t> seen;
  for (std::size_t v = 0; v < verts.size(); ++v)
    if (!seen.emplace(std::make_pair(verts[v].x, verts[v].y), v).second)
      return "duplicate vertex " + std::to_string(v);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> directed;  // edge -> triangle
  for (std::size_t t = 0; t < tris.size() / 3; ++t) {
    const std::uint32_t a = tris[3 * t], b = tris[3 * t + 1], c = tris[3 * t + 2];
    if (a >= verts.size() || b >= verts.size() || c >= verts.size()) return "index out of range in triangle " + std::to_string(t);
    // CCW as seen with y down == negative orientation in the y-up sense.
    if (!(detail::orient2d(verts[a], verts[b], verts[c]) < 0)) return "triangle " + std::to_string(t) + " is degenerate or wound backwards";
    for (auto [u, v] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}})
      if (!directed.emplace(std::make_pair(u, v), t).second)
        return "edge used twice in the same direction (non-manifold or overlapping) at triangle " + std::to_string(t);
  }
  // No fold: across each interior edge the two opposite vertices lie on opposite sides.
  for (const auto& [edge, t] : directed) {
    const auto e = edge;  // a copy the lambda below can capture (a structured binding it cannot, before C++20 in clang)
    auto it = directed.find({e.second, e.first});
    if (it == directed.end()) continue;
    auto apex = [&](std::size_t tri) {
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t v = tris[3 * tri + static_cast<std::size_t>(k)];
        if (v != e.first && v != e.second) return v;
      }
      return e.first;
    };
    const double s1 = detail::orient2d(verts[e.first], verts[e.second], verts[apex(t)]);
    const double s2 = detail::orient2d(verts[e.first], verts[e.second], verts[apex(it->second)]);
    if (!((s1 > 0 && s2 < 0) || (s1 < 0 && s2 > 0))) return "fold across an interior edge";
  }
  return "";
}

// Twice the absolute area of every triangle, summed as earcut's deviation() does.
inline double earcut_triangles_area(const std::vector<Vec2>& v, const std::vector<std::uint32_t>& tris) {
  double sum = 0;
  for (std::size_t i = 0; i < tris.size(); i += 3) {
    const Vec2 a = v[tris[i]], b = v[tris[i + 1]], c = v[tris[i + 2]];
    const double cross = (a.x - c.x) * (b.y - a.y) - (a.x - b.x) * (c.y - a.y);
    sum += cross < 0 ? -cross : cross;
  }
  return sum;
}

// earcut's signedArea(): twice the signed area of a ring.
inline double earcut_signed_area(const std::vector<Vec2>& ring) {
  double sum = 0;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++)
    sum += (ring[j].x - ring[i].x) * (ring[i].y + ring[j].y);
  return sum;
}

}  // namespace rig2d::test
