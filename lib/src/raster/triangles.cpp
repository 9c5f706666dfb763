// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <cstring>

#include "raster/blend.h"
#include "raster/rasterize.h"
#include "raster/sample.h"
#include "raster/textured_draw.h"
#include "raster/textured_pixel.h"
#include "raster/fixed_pixel.h"
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

namespace {

// Textures up to this side, and UVs up to this magnitude, take the fixed-point span path: texel
// coordinates in 32.32 fixed point then stay far inside an int64. Anything else (and a NaN tint)
// takes the per-pixel double path, whose finiteness checks see every overflow.
constexpr int kFixedMaxTextureSide = 8192;
constexpr double kFixedMaxUv = 1e4;
constexpr double kFixedOne = 4294967296.0;  // 2^32
// Spans stepping more texels than this per pixel (slivers with steep UVs) take the double path, so
// a 32.32 coordinate plus two steps stays inside an int64.
constexpr double kFixedMaxStep = 16777216.0;  // 2^24

// The per-pixel double path: any tint, any UV, any texture size.
void draw_textured_pixel_double(const Texture& texture, const double mul[4], bool finite_tint, double u, double v,
                                std::uint8_t* dst) {
  detail::BilinearTaps taps;
  const bool sampled = detail::bilinear_taps(texture, u, v, taps);
  if (!finite_tint) {
    double texel[4] = {0, 0, 0, 0};
    if (sampled) detail::combine_taps(taps, texel);
    detail::blend_over(dst, texel[0] * mul[0], texel[1] * mul[1], texel[2] * mul[2], texel[3] * mul[3]);
  } else if (sampled && !detail::taps_all_zero(taps)) {
    detail::blend_textured_pixel(taps, mul, dst);
  }
  // else: a transparent black sample composites to exactly the pixel that is already there.
}

// Texel addressing of the fixed-point path. A texel coordinate is u * width - 0.5 in 32.32 fixed
// point; clamping it to u in [-1, 2] and the texel indices to the texture picks the same texels as
// bilinear_taps (clamp-to-edge), with the 16 bits below the integer part as the filter weight.
struct FixedSampler {
  const std::uint8_t* texels;
  std::size_t stride;
  int width, height;
  std::int64_t min_x, max_x, min_y, max_y;

  explicit FixedSampler(const Texture& t)
      : texels(t.premultiplied.data()),
        stride(static_cast<std::size_t>(t.width)),
        width(t.width),
        height(t.height),
        min_x(-(2 * std::int64_t{t.width} + 1) << 31),  // u = -1
        max_x((4 * std::int64_t{t.width} - 1) << 31),   // u = 2
        min_y(-(2 * std::int64_t{t.height} + 1) << 31),
        max_y((4 * std::int64_t{t.height} - 1) << 31) {}

  std::int64_t fixed_x(double u) const { return static_cast<std::int64_t>((u * width - 0.5) * kFixedOne); }
  std::int64_t fixed_y(double v) const { return static_cast<std::int64_t>((v * height - 0.5) * kFixedOne); }
  std::int64_t step_x(double du) const { return static_cast<std::int64_t>(du * width * kFixedOne); }
  std::int64_t step_y(double dv) const { return static_cast<std::int64_t>(dv * height * kFixedOne); }

  void taps(std::int64_t x, std::int64_t y, detail::FixedTaps& out) const {
    x = x < min_x ? min_x : x > max_x ? max_x : x;
    y = y < min_y ? min_y : y > max_y ? max_y : y;
    const auto ix = static_cast<int>(x >> 32);  // >> floors negatives (C++20)
    const auto iy = static_cast<int>(y >> 32);
    out.fx = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(x >> 16) & 0xFFFF);
    out.fy = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(y >> 16) & 0xFFFF);
    auto clampi = [](int i, int n) { return i < 0 ? 0 : i > n - 1 ? n - 1 : i; };
    const auto x0 = static_cast<std::size_t>(clampi(ix, width));
    const auto x1 = static_cast<std::size_t>(clampi(ix + 1, width));
    const std::uint8_t* row0 = texels + 4 * static_cast<std::size_t>(clampi(iy, height)) * stride;
    const std::uint8_t* row1 = texels + 4 * static_cast<std::size_t>(clampi(iy + 1, height)) * stride;
    out.p00 = row0 + 4 * x0;
    out.p10 = row0 + 4 * x1;
    out.p01 = row1 + 4 * x0;
    out.p11 = row1 + 4 * x1;
  }
};

// One span of the fixed-point path: pixels dst[0..count), texel coordinates x + k * dx, y + k * dy.
void shade_span(detail::PixelKernel kernel, const FixedSampler& sampler, const detail::FixedTint& tint,
                std::int64_t x, std::int64_t y, std::int64_t dx, std::int64_t dy, int count, std::uint8_t* dst) {
  int k = 0;
#if defined(__SSE2__)
  if (kernel == detail::PixelKernel::packed) {
    const __m128i lanes = detail::tint_lanes(tint);
    for (; k + 1 < count; k += 2) {
      detail::FixedTaps a, b;
      sampler.taps(x, y, a);
      sampler.taps(x + dx, y + dy, b);
      detail::blend_fixed_pair_sse2(a, b, lanes, dst + 4 * k);
      x += 2 * dx;
      y += 2 * dy;
    }
  }
#else
  (void)kernel;
#endif
  for (; k < count; ++k, x += dx, y += dy) {
    detail::FixedTaps a;
    sampler.taps(x, y, a);
    detail::blend_fixed_pixel_portable(a, tint, dst + 4 * k);
  }
}

bool finite_within(Vec2 p, double limit) { return std::fabs(p.x) <= limit && std::fabs(p.y) <= limit; }

// The UV at barycentric weights (w0, w1, w2) * inv_area, as the double path has always computed it.
Vec2 mix_uv(const Vec2 uv[3], double inv_area, double w0, double w1, double w2) {
  const double l0 = w0 * inv_area, l1 = w1 * inv_area, l2 = w2 * inv_area;
  return {l0 * uv[0].x + l1 * uv[1].x + l2 * uv[2].x, l0 * uv[0].y + l1 * uv[1].y + l2 * uv[2].y};
}

// Everything one textured draw needs per span.
struct TexturedDraw {
  detail::PixelKernel kernel;
  const Texture& texture;
  double mul[4];
  bool finite_tint;
  bool fixed_texture;  // the fixed-point path applies to this texture and tint
  FixedSampler sampler;
  detail::FixedTint tint;

  TexturedDraw(detail::PixelKernel k, const Texture& t, Paint paint)
      : kernel(k), texture(t), sampler(t) {
    const double alpha = paint.alpha < 0 ? 0 : paint.alpha > 1 ? 1 : paint.alpha;
    mul[0] = paint.r / 255.0 * alpha;
    mul[1] = paint.g / 255.0 * alpha;
    mul[2] = paint.b / 255.0 * alpha;
    mul[3] = alpha;
    finite_tint = std::isfinite(alpha);  // a NaN alpha turns every covered pixel to 0
    fixed_texture = finite_tint && t.width > 0 && t.height > 0 && t.width <= kFixedMaxTextureSide &&
                    t.height <= kFixedMaxTextureSide;
    tint = detail::fixed_tint(mul);
  }

  bool fixed_triangle(const Vec2 uv[3]) const {
    return fixed_texture && finite_within(uv[0], kFixedMaxUv) && finite_within(uv[1], kFixedMaxUv) &&
           finite_within(uv[2], kFixedMaxUv);
  }

  // Pixels dst[0..count) with edge functions w + k * step.
  void span(const Vec2 uv[3], double inv_area, bool fixed, const std::int64_t* w, const std::int64_t* step, int count,
            std::uint8_t* dst) const {
    if (fixed) {
      const Vec2 at = mix_uv(uv, inv_area, static_cast<double>(w[0]), static_cast<double>(w[1]), static_cast<double>(w[2]));
      const Vec2 d = mix_uv(uv, inv_area, static_cast<double>(step[0]), static_cast<double>(step[1]),
                            static_cast<double>(step[2]));
      if (std::fabs(d.x) * texture.width <= kFixedMaxStep && std::fabs(d.y) * texture.height <= kFixedMaxStep) {
        shade_span(kernel, sampler, tint, sampler.fixed_x(at.x), sampler.fixed_y(at.y), sampler.step_x(d.x),
                   sampler.step_y(d.y), count, dst);
        return;
      }
    }
    for (int k = 0; k < count; ++k) {  // the double path's per-pixel arithmetic, exactly
      const Vec2 at = mix_uv(uv, inv_area, static_cast<double>(w[0] + k * step[0]),
                             static_cast<double>(w[1] + k * step[1]), static_cast<double>(w[2] + k * step[2]));
      draw_textured_pixel_double(texture, mul, finite_tint, at.x, at.y, dst + 4 * k);
    }
  }
};

}  // namespace

namespace detail {

void draw_textured_triangles_with(PixelKernel kernel, Canvas& canvas, std::span<const Vec2> positions,
                                  std::span<const Vec2> uvs, std::span<const std::uint32_t> indices,
                                  const Texture& texture, Paint tint, RasterStats* stats) {
  const TexturedDraw draw(kernel, texture, tint);
  std::uint64_t pixels = 0;
  const auto stride = static_cast<std::size_t>(canvas.width);
  for_each_triangle(positions, indices, stats, [&](std::size_t, const FixedTriangle& tri, const std::uint32_t* ids) {
    Vec2 uv[3];
    for (int i = 0; i < 3; ++i) {
      const std::uint32_t id = ids[tri.vertex[i]];
      uv[i] = id < uvs.size() ? uvs[id] : Vec2{};
    }
    const bool fixed = draw.fixed_triangle(uv);
    const double inv_area = 1.0 / static_cast<double>(tri.area2);
    scan_spans(tri, canvas.width, canvas.height, [&](int y, int xa, int xb, const std::int64_t* w, const std::int64_t* step) {
      std::uint8_t* dst = &canvas.rgba[4 * (static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(xa))];
      draw.span(uv, inv_area, fixed, w, step, xb - xa + 1, dst);
      pixels += static_cast<std::uint64_t>(xb - xa + 1);
    });
  });
  if (stats) stats->pixels += pixels;
}

}  // namespace detail

void draw_textured_triangles(Canvas& canvas, std::span<const Vec2> positions, std::span<const Vec2> uvs,
                             std::span<const std::uint32_t> indices, const Texture& texture, Paint tint,
                             RasterStats* stats) {
  detail::draw_textured_triangles_with(detail::PixelKernel::packed, canvas, positions, uvs, indices, texture, tint,
                                       stats);
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

void fill_rect(Canvas& canvas, double x0, double y0, double x1, double y1, Paint paint) {
  const Vec2 corners[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  const std::uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
  fill_triangles(canvas, corners, idx, std::span<const Paint>(&paint, 1));
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
