// SPDX-License-Identifier: Apache-2.0
#include "rig2d/geometry/triangulate.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "geometry/cdt.h"
#include "rig2d/core/limits.h"

namespace rig2d {
namespace {

// Position along a Hilbert curve over a 2^16 grid: inserting points in this order keeps each point
// location walk short.
std::uint64_t hilbert_index(std::uint32_t x, std::uint32_t y) {
  constexpr std::uint32_t kN = 1u << 16;
  std::uint64_t d = 0;
  for (std::uint32_t s = kN / 2; s > 0; s /= 2) {
    const std::uint32_t rx = (x & s) ? 1 : 0;
    const std::uint32_t ry = (y & s) ? 1 : 0;
    d += static_cast<std::uint64_t>(s) * s * ((3 * rx) ^ ry);
    if (ry == 0) {
      if (rx == 1) {
        x = kN - 1 - x;
        y = kN - 1 - y;
      }
      std::swap(x, y);
    }
  }
  return d;
}

std::uint32_t quantize(double v, double lo, double hi) {
  if (!(hi > lo)) return 0;
  const double t = (v - lo) / (hi - lo) * 65535.0;
  return static_cast<std::uint32_t>(std::clamp(t, 0.0, 65535.0));
}

}  // namespace

double triangle_min_angle_deg(Vec2 a, Vec2 b, Vec2 c) {
  const double la = std::hypot(b.x - c.x, b.y - c.y), lb = std::hypot(a.x - c.x, a.y - c.y),
               lc = std::hypot(a.x - b.x, a.y - b.y);
  if (la == 0 || lb == 0 || lc == 0) return 0.0;
  auto angle = [](double opp, double s1, double s2) {
    return std::acos(std::clamp((s1 * s1 + s2 * s2 - opp * opp) / (2 * s1 * s2), -1.0, 1.0));
  };
  const double m = std::min({angle(la, lb, lc), angle(lb, la, lc), angle(lc, la, lb)});
  return m * 180.0 / 3.14159265358979323846;
}

Result<TriangleMesh> triangulate_polygons(const std::vector<Ring>& rings, const TriangulateOptions& options,
                                          TriangulateStats* stats) {
  std::size_t total = 0;
  for (const Ring& r : rings) total += r.size();
  if (total > kMaxVertices)
    return make_error("geometry.polygon.too_large",
                      "polygon has " + std::to_string(total) + " points, over the limit of " +
                          std::to_string(kMaxVertices));
  Vec2 lo{HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL};
  for (std::size_t r = 0; r < rings.size(); ++r)
    for (std::size_t k = 0; k < rings[r].size(); ++k) {
      const Vec2 p = rings[r][k];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || std::fabs(p.x) > kMaxPolygonCoordinate ||
          std::fabs(p.y) > kMaxPolygonCoordinate)
        return make_error("geometry.polygon.nonfinite", "ring " + std::to_string(r) + " point " + std::to_string(k) +
                                                            " is not finite or exceeds 1e30");
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
      hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
    }

  TriangulateStats st;
  st.input_points = total;
  TriangleMesh mesh;
  if (total == 0) {
    if (stats) *stats = st;
    return mesh;
  }

  detail::Cdt cdt(lo, hi);
  cdt.reserve(total + options.interior_points.size());
  struct Ref {
    std::uint64_t h;
    std::size_t ring, index;
  };
  std::vector<Ref> order;
  order.reserve(total);
  for (std::size_t r = 0; r < rings.size(); ++r)
    for (std::size_t k = 0; k < rings[r].size(); ++k)
      order.push_back({hilbert_index(quantize(rings[r][k].x, lo.x, hi.x), quantize(rings[r][k].y, lo.y, hi.y)), r, k});
  std::stable_sort(order.begin(), order.end(), [](const Ref& a, const Ref& b) { return a.h < b.h; });
  std::vector<std::vector<int>> ids(rings.size());
  for (std::size_t r = 0; r < rings.size(); ++r) ids[r].assign(rings[r].size(), -1);
  for (const Ref& ref : order) {
    const int id = cdt.insert_point(rings[ref.ring][ref.index], detail::Cdt::Kind::Input);
    if (id < 0) return make_error("geometry.triangulate.degenerate", "point location failed");
    ids[ref.ring][ref.index] = id;
  }
  for (std::size_t r = 0; r < rings.size(); ++r) {
    const std::size_t n = rings[r].size();
    for (std::size_t k = 0; k < n; ++k) {
      const int a = ids[r][k], b = ids[r][(k + 1) % n];
      const std::int64_t klass =
          options.fill == FillRule::OutlineMinusHoles && r > 0 ? detail::Cdt::kClassB : detail::Cdt::kClassA;
      if (a != b && !cdt.insert_segment(a, b, klass))
        return make_error("geometry.triangulate.degenerate",
                          "could not recover the edge from point " + std::to_string(k) + " of ring " +
                              std::to_string(r));
    }
  }
  cdt.classify_and_clean(options.fill == FillRule::EvenOdd ? detail::Cdt::Rule::EvenOdd
                                                          : detail::Cdt::Rule::AMinusB);
  const std::size_t budget = options.max_vertices > 0 ? std::min(options.max_vertices, kMaxVertices) : kMaxVertices;
  for (const Vec2& p : options.interior_points) {
    if (cdt.real_vertex_count() >= budget) break;
    const bool in_bounds = p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;  // NaN fails too
    if (in_bounds && cdt.insert_interior(p)) ++st.interior_points;
  }
  if (options.refine) {
    detail::Cdt::RefineOptions ro;
    ro.min_angle_deg = options.min_angle_deg;
    ro.max_edge = options.max_edge;
    ro.min_edge = options.min_refine_edge;
    ro.max_vertices = budget;
    st.steiner_points = cdt.refine(ro, st.budget_reached);
  }
  st.crossing_points = cdt.crossing_points();

  // Output: inside triangles in slot order, vertices renumbered in order of vertex id.
  const auto& pts = cdt.points();
  const auto& tris = cdt.triangles();
  std::vector<int> remap(pts.size(), -1);
  for (const auto& t : tris)
    if (t.alive && t.inside)
      for (int v : t.v) remap[static_cast<std::size_t>(v)] = 0;
  for (std::size_t v = 0; v < pts.size(); ++v)
    if (remap[v] == 0) {
      remap[v] = static_cast<int>(mesh.vertices.size());
      mesh.vertices.push_back(pts[v]);
    }
  st.min_angle_deg = 180.0;
  for (const auto& t : tris) {
    if (!t.alive || !t.inside) continue;
    // Internally counter-clockwise with y up; the output winding is counter-clockwise with y down.
    mesh.triangles.push_back(static_cast<std::uint32_t>(remap[static_cast<std::size_t>(t.v[0])]));
    mesh.triangles.push_back(static_cast<std::uint32_t>(remap[static_cast<std::size_t>(t.v[2])]));
    mesh.triangles.push_back(static_cast<std::uint32_t>(remap[static_cast<std::size_t>(t.v[1])]));
    if (!options.angle_stats) continue;
    const double angle = triangle_min_angle_deg(pts[static_cast<std::size_t>(t.v[0])], pts[static_cast<std::size_t>(t.v[1])],
                                                pts[static_cast<std::size_t>(t.v[2])]);
    st.min_angle_deg = std::min(st.min_angle_deg, angle);
    // Off-centers land exactly on the bound; a rounding hair below it is not a miss. Triangles left
    // alone for their short edge (min_refine_edge) count too.
    if (options.refine && angle < options.min_angle_deg - 1e-6) ++st.skinny_triangles;
  }
  st.vertices = mesh.vertices.size();
  st.triangles = mesh.triangles.size() / 3;
  if (st.triangles == 0 || !options.angle_stats) st.min_angle_deg = 0.0;
  if (stats) *stats = st;
  return mesh;
}

}  // namespace rig2d
