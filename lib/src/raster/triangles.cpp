// SPDX-License-Identifier: Apache-2.0
#include <cmath>

#include "raster/blend.h"
#include "raster/rasterize.h"
#include "raster/sample.h"
#include "raster/textured_pixel.h"
#include "rig2d/raster/draw.h"

namespace rig2d {
namespace {

// Calls draw(tri, triangle_index, FixedTriangle) for every drawable triangle, counting skips.
template <typename Draw>
void for_each_triangle(std::span<const Vec2> positions, std::span<const std::uint32_t> indices, RasterStats* stats,
                       Draw&& draw) {
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    const std::uint32_t i0 = indices[t], i1 = indices[t + 1], i2 = indices[t + 2];
    detail::FixedTriangle tri;
    if (i0 >= positions.size() || i1 >= positions.size() || i2 >= positions.size() ||
        !detail::setup_triangle(positions[i0], positions[i1], positions[i2], tri)) {
      if (stats) ++stats->triangles_skipped;
      continue;
    }
    if (stats) ++stats->triangles;
    const std::uint32_t ids[3] = {i0, i1, i2};
    draw(t / 3, tri, ids);
  }
}

}  // namespace

void draw_textured_triangles(Canvas& canvas, std::span<const Vec2> positions, std::span<const Vec2> uvs,
                             std::span<const std::uint32_t> indices, const Texture& texture, Paint tint,
                             RasterStats* stats) {
  const double alpha = tint.alpha < 0 ? 0 : tint.alpha > 1 ? 1 : tint.alpha;
  const double mul[4] = {tint.r / 255.0 * alpha, tint.g / 255.0 * alpha, tint.b / 255.0 * alpha, alpha};
  const bool finite_tint = std::isfinite(alpha);  // a NaN alpha turns every covered pixel to 0
  std::uint64_t pixels = 0;
  const auto stride = static_cast<std::size_t>(canvas.width);
  for_each_triangle(positions, indices, stats, [&](std::size_t, const detail::FixedTriangle& tri, const std::uint32_t* ids) {
    Vec2 uv[3];
    for (int i = 0; i < 3; ++i) {
      const std::uint32_t id = ids[tri.vertex[i]];
      uv[i] = id < uvs.size() ? uvs[id] : Vec2{};
    }
    const double inv_area = 1.0 / static_cast<double>(tri.area2);
    detail::scan_triangle(tri, canvas.width, canvas.height, [&](int x, int y, std::int64_t w0, std::int64_t w1, std::int64_t w2) {
      const double l0 = static_cast<double>(w0) * inv_area;
      const double l1 = static_cast<double>(w1) * inv_area;
      const double l2 = static_cast<double>(w2) * inv_area;
      std::uint8_t* dst = &canvas.rgba[4 * (static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x))];
      detail::BilinearTaps taps;
      const double u = l0 * uv[0].x + l1 * uv[1].x + l2 * uv[2].x;
      const double v = l0 * uv[0].y + l1 * uv[1].y + l2 * uv[2].y;
      const bool sampled = detail::bilinear_taps(texture, u, v, taps);
      if (!finite_tint) {
        double texel[4] = {0, 0, 0, 0};
        if (sampled) detail::combine_taps(taps, texel);
        detail::blend_over(dst, texel[0] * mul[0], texel[1] * mul[1], texel[2] * mul[2], texel[3] * mul[3]);
      } else if (sampled && !detail::taps_all_zero(taps)) {
        detail::blend_textured_pixel(taps, mul, dst);
      }
      // else: a transparent black sample composites to exactly the pixel that is already there.
      ++pixels;
    });
  });
  if (stats) stats->pixels += pixels;
}

void fill_triangles(Canvas& canvas, std::span<const Vec2> positions, std::span<const std::uint32_t> indices,
                    std::span<const Paint> paints, RasterStats* stats) {
  if (paints.empty()) return;
  std::uint64_t pixels = 0;
  const auto stride = static_cast<std::size_t>(canvas.width);
  for_each_triangle(positions, indices, stats, [&](std::size_t t, const detail::FixedTriangle& tri, const std::uint32_t*) {
    const std::size_t which = paints.size() == 1 ? 0 : t;
    if (which >= paints.size()) return;
    const Paint& p = paints[which];
    const double a = p.alpha < 0 ? 0 : p.alpha > 1 ? 1 : p.alpha;
    const double src[4] = {p.r * a, p.g * a, p.b * a, 255 * a};
    detail::scan_triangle(tri, canvas.width, canvas.height, [&](int x, int y, std::int64_t, std::int64_t, std::int64_t) {
      std::uint8_t* dst = &canvas.rgba[4 * (static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x))];
      detail::blend_over(dst, src[0], src[1], src[2], src[3]);
      ++pixels;
    });
  });
  if (stats) stats->pixels += pixels;
}

void accumulate_coverage(std::span<std::uint32_t> counts, int width, int height, std::span<const Vec2> positions,
                         std::span<const std::uint32_t> indices) {
  if (width < 1 || height < 1 || counts.size() < static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) return;
  for_each_triangle(positions, indices, nullptr, [&](std::size_t, const detail::FixedTriangle& tri, const std::uint32_t*) {
    detail::scan_triangle(tri, width, height, [&](int x, int y, std::int64_t, std::int64_t, std::int64_t) {
      ++counts[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
    });
  });
}

}  // namespace rig2d
