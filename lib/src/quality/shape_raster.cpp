// SPDX-License-Identifier: Apache-2.0
#include "quality/shape_raster.h"

#include <algorithm>
#include <cmath>

namespace rig2d::detail {
namespace {

// Calls visit(i, j, l0, l1, l2) for every cell (i, j) of a w x h grid whose centre (i + 0.5,
// j + 0.5) lies in triangle abc (grid units), with its barycentric coordinates. Edges are inclusive
// (a small tolerance), so a centre on an edge shared by two triangles is never missed.
template <class Visit>
void scan_triangle(Vec2 a, Vec2 b, Vec2 c, int w, int h, Visit&& visit) {
  const double area2 = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  if (!(std::abs(area2) > 1e-12) || !std::isfinite(area2)) return;
  const double lo_x = std::min({a.x, b.x, c.x}), hi_x = std::max({a.x, b.x, c.x});
  const double lo_y = std::min({a.y, b.y, c.y}), hi_y = std::max({a.y, b.y, c.y});
  // Clamped in double first: a far-away vertex must not overflow the int conversion.
  const auto index = [](double v, int n) { return static_cast<int>(std::clamp(v, -1.0, static_cast<double>(n))); };
  const int i0 = std::max(0, index(std::floor(lo_x - 0.5), w));
  const int i1 = std::min(w - 1, index(std::ceil(hi_x - 0.5), w));
  const int j0 = std::max(0, index(std::floor(lo_y - 0.5), h));
  const int j1 = std::min(h - 1, index(std::ceil(hi_y - 0.5), h));
  constexpr double kEdge = -1e-9;
  for (int j = j0; j <= j1; ++j) {
    for (int i = i0; i <= i1; ++i) {
      const Vec2 p{i + 0.5, j + 0.5};
      const double l0 = ((b.x - p.x) * (c.y - p.y) - (b.y - p.y) * (c.x - p.x)) / area2;
      const double l1 = ((c.x - p.x) * (a.y - p.y) - (c.y - p.y) * (a.x - p.x)) / area2;
      const double l2 = 1 - l0 - l1;
      if (l0 >= kEdge && l1 >= kEdge && l2 >= kEdge) visit(i, j, l0, l1, l2);
    }
  }
}

bool valid_triangle(const Mesh& mesh, std::size_t t) {
  const std::size_t n = mesh.verts.size();
  return mesh.tris[3 * t] < n && mesh.tris[3 * t + 1] < n && mesh.tris[3 * t + 2] < n;
}

std::uint8_t alpha_at(const AlphaMap& alpha, double u, double v) {
  const int x = static_cast<int>(std::clamp(std::floor(u * alpha.width), 0.0, alpha.width - 1.0));
  const int y = static_cast<int>(std::clamp(std::floor(v * alpha.height), 0.0, alpha.height - 1.0));
  return alpha.alpha[static_cast<std::size_t>(y) * static_cast<std::size_t>(alpha.width) + static_cast<std::size_t>(x)];
}

bool usable(const AlphaMap* alpha) {
  return alpha && alpha->width > 0 && alpha->height > 0 &&
         alpha->alpha.size() == static_cast<std::size_t>(alpha->width) * static_cast<std::size_t>(alpha->height);
}

}  // namespace

bool ShapeRaster::solid_at(Vec2 p) const {
  const Vec2 c = cell_at(p);
  return has_cell(c.x, c.y) && solid[cell_index(c.x, c.y)] != 0;
}

bool ShapeRaster::near_solid(Vec2 p) const {
  const Vec2 c = cell_at(p);
  return has_cell(c.x, c.y) && !near.empty() && near[cell_index(c.x, c.y)] != 0;
}

void dilate_rim(ShapeRaster& shape, double rim) {
  const int r = std::isfinite(rim) && rim > 0 ? static_cast<int>(std::min(64.0, std::ceil(rim / shape.cell))) : 0;
  const std::size_t w = static_cast<std::size_t>(shape.width);
  // Separable square dilation: rows, then columns.
  std::vector<std::uint8_t> rows(shape.solid.size(), 0);
  for (int y = 0; y < shape.height; ++y) {
    for (int x = 0; x < shape.width; ++x) {
      if (!shape.solid[static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x)]) continue;
      for (int k = std::max(0, x - r); k <= std::min(shape.width - 1, x + r); ++k) rows[static_cast<std::size_t>(y) * w + static_cast<std::size_t>(k)] = 1;
    }
  }
  shape.near.assign(shape.solid.size(), 0);
  for (int y = 0; y < shape.height; ++y) {
    for (int x = 0; x < shape.width; ++x) {
      if (!rows[static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x)]) continue;
      for (int k = std::max(0, y - r); k <= std::min(shape.height - 1, y + r); ++k) shape.near[static_cast<std::size_t>(k) * w + static_cast<std::size_t>(x)] = 1;
    }
  }
}

ShapeRaster rasterize_shape(const Mesh& mesh, const AlphaMap* alpha, int gap_alpha) {
  ShapeRaster r;
  double lo_x = HUGE_VAL, lo_y = HUGE_VAL, hi_x = -HUGE_VAL, hi_y = -HUGE_VAL;
  for (const Vec2 v : mesh.verts) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y)) continue;
    lo_x = std::min(lo_x, v.x), hi_x = std::max(hi_x, v.x);
    lo_y = std::min(lo_y, v.y), hi_y = std::max(hi_y, v.y);
  }
  if (!(lo_x <= hi_x && lo_y <= hi_y)) return r;
  const double span_x = hi_x - lo_x + 2, span_y = hi_y - lo_y + 2;  // one cell of slack each side
  // Cells of at least 1 px, at most kMaxShapeCells of them, and no side over kMaxShapeSide
  // (a long thin mesh must not make a raster of one enormous row).
  r.cell = std::max({1.0, std::sqrt(span_x * span_y / kMaxShapeCells), std::max(span_x, span_y) / kMaxShapeSide});
  if (!std::isfinite(r.cell)) return r;
  r.x0 = lo_x - r.cell;
  r.y0 = lo_y - r.cell;
  r.width = static_cast<int>(std::ceil(span_x / r.cell)) + 1;
  r.height = static_cast<int>(std::ceil(span_y / r.cell)) + 1;
  r.solid.assign(static_cast<std::size_t>(r.width) * static_cast<std::size_t>(r.height), 0);
  const bool with_alpha = usable(alpha);
  const auto grid = [&](Vec2 p) { return Vec2{(p.x - r.x0) / r.cell, (p.y - r.y0) / r.cell}; };
  for (std::size_t t = 0; t < mesh.tris.size() / 3; ++t) {
    if (!valid_triangle(mesh, t)) continue;
    const std::uint32_t* i = &mesh.tris[3 * t];
    const bool uvs = with_alpha && i[0] < mesh.uvs.size() && i[1] < mesh.uvs.size() && i[2] < mesh.uvs.size();
    scan_triangle(grid(mesh.verts[i[0]]), grid(mesh.verts[i[1]]), grid(mesh.verts[i[2]]), r.width, r.height,
                  [&](int x, int y, double l0, double l1, double l2) {
                    std::uint8_t& cell = r.solid[static_cast<std::size_t>(y) * static_cast<std::size_t>(r.width) +
                                                 static_cast<std::size_t>(x)];
                    if (cell) return;
                    if (!with_alpha) {
                      cell = 1;
                      return;
                    }
                    if (!uvs) return;  // no UVs to look the texel up: not known to be opaque
                    const Vec2 &ua = mesh.uvs[i[0]], &ub = mesh.uvs[i[1]], &uc = mesh.uvs[i[2]];
                    const double u = l0 * ua.x + l1 * ub.x + l2 * uc.x, v = l0 * ua.y + l1 * ub.y + l2 * uc.y;
                    cell = (std::isfinite(u) && std::isfinite(v) && alpha_at(*alpha, u, v) > gap_alpha) ? 1 : 0;
                  });
  }
  return r;
}

void measure_coverage(const Mesh& mesh, const AlphaMap& alpha, int visible_alpha, PartDeformStats& stats) {
  if (!usable(&alpha)) return;
  stats.has_alpha = true;
  const std::size_t w = static_cast<std::size_t>(alpha.width);
  std::vector<std::uint8_t> covered(alpha.alpha.size(), 0);
  const auto texel = [&](Vec2 uv) { return Vec2{uv.x * alpha.width, uv.y * alpha.height}; };
  for (std::size_t t = 0; t < mesh.tris.size() / 3; ++t) {
    const std::uint32_t* i = &mesh.tris[3 * t];
    if (i[0] >= mesh.uvs.size() || i[1] >= mesh.uvs.size() || i[2] >= mesh.uvs.size()) continue;
    scan_triangle(texel(mesh.uvs[i[0]]), texel(mesh.uvs[i[1]]), texel(mesh.uvs[i[2]]), alpha.width, alpha.height,
                  [&](int x, int y, double, double, double) {
                    covered[static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x)] = 1;
                  });
  }
  for (std::size_t k = 0; k < alpha.alpha.size(); ++k) {
    if (alpha.alpha[k] <= visible_alpha) continue;
    ++stats.visible_pixels;
    if (covered[k]) continue;
    ++stats.uncovered_pixels;
    stats.uncovered_max_alpha = std::max<int>(stats.uncovered_max_alpha, alpha.alpha[k]);
  }
}

}  // namespace rig2d::detail
