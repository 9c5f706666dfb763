// SPDX-License-Identifier: Apache-2.0
#include "rig2d/geometry/outline_mesh.h"

#include <algorithm>
#include <cmath>
#include <string>

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

CoverageScore mesh_coverage(const Mesh& mesh, const Image& image, int alpha_threshold) {
  const int w = image.width, h = image.height;
  if (w <= 0 || h <= 0 || image.rgba.size() != 4ull * static_cast<std::size_t>(w) * static_cast<std::size_t>(h))
    return {};
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = image.rgba[4 * i + 3] > alpha_threshold;
  return mesh_coverage(mesh, w, h, mask);
}

CoverageScore mesh_coverage(const Mesh& mesh, int w, int h, const std::vector<std::uint8_t>& mask_in) {
  CoverageScore score;
  if (w <= 0 || h <= 0 || mask_in.size() != static_cast<std::size_t>(w) * static_cast<std::size_t>(h)) return score;
  std::vector<std::uint8_t> covered(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  const std::size_t n = std::min(mesh.uvs.size(), mesh.verts.size());
  for (std::size_t t = 0; t + 2 < mesh.tris.size(); t += 3) {
    if (mesh.tris[t] >= n || mesh.tris[t + 1] >= n || mesh.tris[t + 2] >= n) continue;
    Vec2 p[3];
    for (int k = 0; k < 3; ++k) {
      const Vec2 uv = mesh.uvs[mesh.tris[t + static_cast<std::size_t>(k)]];
      p[k] = {uv.x * w, uv.y * h};
    }
    // Scanline: on each row of pixel centres, the triangle is the x-interval between its edges.
    const double ymin = std::min({p[0].y, p[1].y, p[2].y}), ymax = std::max({p[0].y, p[1].y, p[2].y});
    const int y0 = std::max(0, static_cast<int>(std::ceil(ymin - 0.5)));
    const int y1 = std::min(h - 1, static_cast<int>(std::floor(ymax - 0.5)));
    for (int y = y0; y <= y1; ++y) {
      const double cy = y + 0.5;
      double xl = HUGE_VAL, xr = -HUGE_VAL;
      for (int k = 0; k < 3; ++k) {
        const Vec2 a = p[k], b = p[(k + 1) % 3];
        if ((a.y <= cy && b.y >= cy) || (b.y <= cy && a.y >= cy)) {
          if (a.y == b.y) {
            xl = std::min({xl, a.x, b.x});
            xr = std::max({xr, a.x, b.x});
          } else {
            const double x = a.x + (cy - a.y) * (b.x - a.x) / (b.y - a.y);
            xl = std::min(xl, x);
            xr = std::max(xr, x);
          }
        }
      }
      if (!(xl <= xr)) continue;
      const int x0 = std::max(0, static_cast<int>(std::ceil(xl - 0.5)));
      const int x1 = std::min(w - 1, static_cast<int>(std::floor(xr - 0.5)));
      if (x0 <= x1)
        std::fill(covered.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x0)),
                  covered.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x1) + 1),
                  std::uint8_t{1});
    }
  }
  for (std::size_t i = 0; i < covered.size(); ++i) {
    const bool mask = mask_in[i] != 0;
    score.mask_pixels += mask;
    score.mesh_pixels += covered[i];
    score.both += mask && covered[i];
  }
  const std::size_t uni = score.mask_pixels + score.mesh_pixels - score.both;
  score.iou = uni == 0 ? 1.0 : static_cast<double>(score.both) / static_cast<double>(uni);
  score.recall = score.mask_pixels == 0 ? 1.0 : static_cast<double>(score.both) / static_cast<double>(score.mask_pixels);
  return score;
}

Result<void> check_outline_options(const OutlineMeshOptions& options) {
  if (options.alpha_threshold < 0 || options.alpha_threshold > 254) return bad_option("alpha threshold", "within 0..254");
  if (!in_range(options.margin, 0, 64)) return bad_option("margin", "within 0..64 px");
  if (!in_range(options.tolerance, 0, 64)) return bad_option("outline tolerance", "within 0..64 px");
  if (!in_range(options.min_area, 0, 1e12)) return bad_option("min area", "within 0..1e12 px^2");
  if (!in_range(options.min_angle_deg, 0, 34)) return bad_option("min angle", "within 0..34 degrees");
  if (!in_range(options.max_edge, 0, 1e6)) return bad_option("max edge", "within 0..1e6 px (0 = no bound)");
  if (options.max_vertices < 3 || options.max_vertices > kMaxVertices)
    return bad_option("max vertices", "within 3.." + std::to_string(kMaxVertices));
  if (!in_range(options.pivot_x, 0, 1) || !in_range(options.pivot_y, 0, 1)) return bad_option("pivot", "within 0..1");

  return {};
}

Result<Mesh> outline_mesh(const Image& image, const OutlineMeshOptions& options, OutlineMeshStats* stats) {
  if (auto ok = check_outline_options(options); !ok) return Unexpected{ok.error()};
  OutlineMeshStats st;
  ContourOptions co;
  co.alpha_threshold = options.alpha_threshold;
  co.margin = options.margin;
  std::vector<std::uint8_t> grown;
  auto traced = trace_alpha_contours(image, co, &grown);
  if (!traced) return Unexpected{traced.error()};
  if (traced->empty())
    return make_error("outline.empty", "no pixel has alpha above " + std::to_string(options.alpha_threshold));
  st.contour_rings = traced->size();
  for (const Ring& r : *traced) st.contour_points += r.size();

  const std::vector<Ring> kept = drop_small_rings(*traced, options.min_area);
  const std::vector<Ring> rings = simplify_rings(kept, options.tolerance);
  st.simplified_rings = rings.size();
  for (const Ring& r : rings) st.simplified_points += r.size();

  TriangulateOptions to;
  to.refine = options.min_angle_deg > 0 || options.max_edge > 0;
  to.min_angle_deg = options.min_angle_deg;
  to.max_edge = options.max_edge;
  to.max_vertices = options.max_vertices;
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
  st.triangles = ts.triangles;
  st.min_angle_deg = ts.min_angle_deg;
  st.skinny_triangles = ts.skinny_triangles;
  st.budget_reached = ts.budget_reached;
  if (stats && options.score_coverage) {
    st.coverage = mesh_coverage(mesh, image, options.alpha_threshold);
    st.fit = mesh_coverage(mesh, image.width, image.height, grown);
  }
  if (stats) *stats = st;
  return mesh;
}

}  // namespace rig2d
