// SPDX-License-Identifier: Apache-2.0
#include "rig2d/geometry/outline_mesh.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "geometry/outline_stages.h"
#include "geometry/predicates.h"
#include "rig2d/core/limits.h"
#include "rig2d/geometry/contour.h"
#include "rig2d/geometry/simplify.h"
#include "rig2d/geometry/triangulate.h"

namespace rig2d {
namespace {

Unexpected bad_option(const std::string& name, const std::string& limit) {
  return make_error("outline.options", name + " must be " + limit);
}

bool in_range(double v, double lo, double hi) { return v >= lo && v <= hi; }

}  // namespace

double detail_tolerance(MeshDetail detail, int width, int height, double asked) {
  const double side = std::max(1, std::max(width, height));
  switch (detail) {
    case MeshDetail::High: return asked;
    case MeshDetail::Medium: return std::max(asked, std::clamp(std::sqrt(side / 64), 1.0, 1.5));
    case MeshDetail::Low: return std::max(asked, std::clamp(1.25 * std::sqrt(side / 64), 1.25, 1.5));
  }
  return asked;
}

Result<void> check_outline_options(const OutlineMeshOptions& options) {
  if (options.alpha_threshold < 0 || options.alpha_threshold > 254) return bad_option("alpha threshold", "within 0..254");
  if (!in_range(options.margin, 0, 64)) return bad_option("margin", "within 0..64 px");
  if (!in_range(options.tolerance, 0, 64)) return bad_option("outline tolerance", "within 0..64 px");
  if (!in_range(options.min_area, 0, 1e12)) return bad_option("min area", "within 0..1e12 px^2");
  if (!in_range(options.min_angle_deg, 0, 34)) return bad_option("min angle", "within 0..34 degrees");
  if (!in_range(options.max_edge, 0, 1e6)) return bad_option("max edge", "within 0..1e6 px (0 = no bound)");
  if (!in_range(options.min_refine_edge, 0, 1e6)) return bad_option("min refine edge", "within 0..1e6 px");
  if (options.max_vertices < 3 || options.max_vertices > kMaxVertices)
    return bad_option("max vertices", "within 3.." + std::to_string(kMaxVertices));
  if (!in_range(options.pivot_x, 0, 1) || !in_range(options.pivot_y, 0, 1)) return bad_option("pivot", "within 0..1");
  if (options.interior_points.size() > kMaxVertices)
    return bad_option("interior points", "at most " + std::to_string(kMaxVertices));

  return {};
}

namespace detail {

Result<TracedOutline> trace_outline(const Image& image, const OutlineMeshOptions& options, OutlineMeshStats& st,
                                    double smaller_margin, bool measure_length) {
  const bool both = smaller_margin >= 0 && smaller_margin < options.margin;
  const double margins[2] = {options.margin, smaller_margin};
  double length = -1;
  // The grown masks (a byte a pixel each) are read only by the fit score.
  auto traced = trace_alpha_contours_at(image, options.alpha_threshold, std::span(margins, both ? 2 : 1),
                                        options.score_coverage, measure_length ? &length : nullptr);
  if (!traced) return Unexpected{traced.error()};
  const std::vector<Ring>& rings = (*traced)[0].rings;
  if (rings.empty())
    return make_error("outline.empty", "no pixel has alpha above " + std::to_string(options.alpha_threshold));
  st.contour_rings = rings.size();
  st.contour_points = 0;
  for (const Ring& r : rings) st.contour_points += r.size();
  TracedOutline out;
  out.alpha_outline_length = length;
  out.rings = drop_small_rings(rings, options.min_area);
  out.grown = std::move((*traced)[0].grown);
  if (both && !(*traced)[1].rings.empty()) {
    auto smaller = std::make_shared<TracedOutline>();
    smaller->rings = drop_small_rings((*traced)[1].rings, options.min_area);
    smaller->grown = std::move((*traced)[1].grown);
    smaller->alpha_outline_length = length;
    out.smaller_margin = smaller_margin;
    out.at_smaller_margin = std::move(smaller);
  }
  return out;
}

std::vector<Ring> simplify_outline(const Image& image, const TracedOutline& traced, const OutlineMeshOptions& options,
                                   OutlineMeshStats& st) {
  std::vector<Ring> rings = simplify_rings(
      traced.rings, options.tolerance, ClipFrame{static_cast<double>(image.width), static_cast<double>(image.height)});
  st.simplified_rings = rings.size();
  st.margin = options.margin;
  st.tolerance = options.tolerance;
  st.simplified_points = 0;
  for (const Ring& r : rings) st.simplified_points += r.size();
  return rings;
}

Result<Mesh> mesh_outline(const Image& image, const TracedOutline& traced, const std::vector<Ring>& rings,
                          const OutlineMeshOptions& options, OutlineMeshStats& st, bool score) {
  TriangulateOptions to;
  to.refine = options.min_angle_deg > 0 || options.max_edge > 0;
  to.min_angle_deg = options.min_angle_deg;
  to.max_edge = options.max_edge;
  to.min_refine_edge = options.min_refine_edge;
  to.max_vertices = options.max_vertices;
  to.interior_points = options.interior_points;
  to.angle_stats = options.angle_stats;
  TriangulateStats ts;
  auto tri = triangulate_polygons(rings, to, &ts);
  if (!tri) return Unexpected{tri.error()};

  // Texture space exactly as the engine's grid computes it: (u - pivot) * size with u = px / size.
  Mesh mesh;
  const double w = image.width, h = image.height;
  mesh.verts.reserve(tri->vertices.size());
  mesh.uvs.reserve(tri->vertices.size());
  for (const Vec2& p : tri->vertices) {
    const double u = std::clamp(p.x, 0.0, w) / w, v = std::clamp(p.y, 0.0, h) / h;
    mesh.verts.push_back({(u - options.pivot_x) * w, (v - options.pivot_y) * h});
    mesh.uvs.push_back({u, v});
  }
  mesh.tris = std::move(tri->triangles);

  st.vertices = ts.vertices;
  st.interior_points = ts.interior_points;
  st.triangles = ts.triangles;
  st.min_angle_deg = ts.min_angle_deg;
  st.skinny_triangles = ts.skinny_triangles;
  st.budget_reached = ts.budget_reached;
  st.coverage = {};
  st.fit = {};
  st.yardstick = {};
  if (score) {  // scoring rasterizes the mesh: only when someone reads it
    st.coverage = mesh_coverage(mesh, image, options.alpha_threshold);
    st.fit = mesh_coverage(mesh, image.width, image.height, traced.grown);
    st.yardstick = outline_yardstick(mesh, image, options.alpha_threshold);
  }
  return mesh;
}

}  // namespace detail

Result<Mesh> outline_mesh(const Image& image, const OutlineMeshOptions& options, OutlineMeshStats* stats) {
  if (auto ok = check_outline_options(options); !ok) return Unexpected{ok.error()};
  OutlineMeshStats st;
  auto traced = detail::trace_outline(image, options, st);
  if (!traced) return Unexpected{traced.error()};
  const std::vector<Ring> rings = detail::simplify_outline(image, *traced, options, st);
  auto mesh = detail::mesh_outline(image, *traced, rings, options, st, stats && options.score_coverage);
  if (mesh && stats) *stats = st;
  return mesh;
}

}  // namespace rig2d
