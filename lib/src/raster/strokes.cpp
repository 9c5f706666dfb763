// SPDX-License-Identifier: Apache-2.0
// Anti-aliased strokes and discs by 4x4 supersampled coverage. A draw call's shapes are merged into
// one bit mask per pixel (one bit per subsample) before blending, so overlapping pieces of one path
// paint their union once, as a canvas stroke() does. The mask is built in bands of rows to keep the
// memory small on large canvases.
#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "raster/blend.h"
#include "rig2d/raster/draw.h"

namespace rig2d {
namespace {

constexpr int kGrid = 4;           // subsamples per pixel side
constexpr int kBandRows = 32;

// Every subsample lies within this distance of its pixel's centre (sqrt(2) * 0.375 = 0.5303...),
// with slack for rounding: a pixel whose centre is farther than that outside a shape has no sample
// inside it, and one whose centre is that deep inside has all 16 inside.
constexpr double kSampleReach = 0.54;

enum class PixelTest { None, All, Some };

struct Shape {
  enum Kind { SegmentShape, DiscShape, RingShape } kind;
  Vec2 a, b;          // segment ends, or a = centre
  double r0 = 0, r1 = 0;  // segment: half width; disc: radius; ring: inner, outer radius
  double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  double length = 0;  // segment length

  // A conservative verdict from the pixel centre; Some means "test the samples".
  PixelTest classify(double cx, double cy) const {
    switch (kind) {
      case SegmentShape: {
        const double dx = b.x - a.x, dy = b.y - a.y;
        const double px = cx - a.x, py = cy - a.y;
        const double cross = std::fabs(px * dy - py * dx);
        const double along = px * dx + py * dy;
        const double reach = kSampleReach * length;
        if (cross > (r0 * length + reach) || along < -reach || along > length * length + reach) return PixelTest::None;
        return PixelTest::Some;
      }
      case DiscShape: {
        const double d = std::sqrt((cx - a.x) * (cx - a.x) + (cy - a.y) * (cy - a.y));
        if (d > r0 + kSampleReach) return PixelTest::None;
        return d + kSampleReach <= r0 ? PixelTest::All : PixelTest::Some;
      }
      case RingShape: {
        const double d = std::sqrt((cx - a.x) * (cx - a.x) + (cy - a.y) * (cy - a.y));
        if (d > r1 + kSampleReach || d + kSampleReach < r0) return PixelTest::None;
        return d - kSampleReach >= r0 && d + kSampleReach <= r1 ? PixelTest::All : PixelTest::Some;
      }
    }
    return PixelTest::Some;
  }

  bool inside(double qx, double qy) const {
    switch (kind) {
      case SegmentShape: {
        const double dx = b.x - a.x, dy = b.y - a.y;
        const double len2 = dx * dx + dy * dy;
        const double px = qx - a.x, py = qy - a.y;
        const double along = px * dx + py * dy;
        if (along < 0 || along > len2) return false;  // butt caps
        const double cross = px * dy - py * dx;
        return cross * cross <= r0 * r0 * len2;
      }
      case DiscShape: {
        const double dx = qx - a.x, dy = qy - a.y;
        return dx * dx + dy * dy <= r0 * r0;
      }
      case RingShape: {
        const double dx = qx - a.x, dy = qy - a.y;
        const double d2 = dx * dx + dy * dy;
        return d2 >= r0 * r0 && d2 <= r1 * r1;
      }
    }
    return false;
  }
};


void paint_shapes(Canvas& canvas, const std::vector<Shape>& shapes, Paint paint) {
  if (shapes.empty() || canvas.width < 1 || canvas.height < 1) return;
  const double alpha = paint.alpha < 0 ? 0 : paint.alpha > 1 ? 1 : paint.alpha;
  if (alpha == 0) return;
  double min_x = shapes[0].min_x, min_y = shapes[0].min_y, max_x = shapes[0].max_x, max_y = shapes[0].max_y;
  for (const Shape& s : shapes) {
    min_x = std::min(min_x, s.min_x);
    min_y = std::min(min_y, s.min_y);
    max_x = std::max(max_x, s.max_x);
    max_y = std::max(max_y, s.max_y);
  }
  auto pixel_lo = [](double v, int n) { return static_cast<int>(std::clamp(std::floor(v), 0.0, double(n))); };
  auto pixel_hi = [](double v, int n) { return static_cast<int>(std::clamp(std::floor(v), -1.0, double(n - 1))); };
  const int x0 = pixel_lo(min_x, canvas.width), x1 = pixel_hi(max_x, canvas.width);
  const int y0 = pixel_lo(min_y, canvas.height), y1 = pixel_hi(max_y, canvas.height);
  if (x0 > x1 || y0 > y1) return;
  const int band_w = x1 - x0 + 1;
  std::vector<std::uint16_t> bits;
  const auto stride = static_cast<std::size_t>(canvas.width);
  for (int band_y = y0; band_y <= y1; band_y += kBandRows) {
    const int band_end = std::min(y1, band_y + kBandRows - 1);
    bits.assign(static_cast<std::size_t>(band_w) * static_cast<std::size_t>(band_end - band_y + 1), 0);
    for (const Shape& s : shapes) {
      const int sx0 = std::max(x0, pixel_lo(s.min_x, canvas.width)), sx1 = std::min(x1, pixel_hi(s.max_x, canvas.width));
      const int sy0 = std::max(band_y, pixel_lo(s.min_y, canvas.height));
      const int sy1 = std::min(band_end, pixel_hi(s.max_y, canvas.height));
      for (int y = sy0; y <= sy1; ++y) {
        for (int x = sx0; x <= sx1; ++x) {
          const PixelTest verdict = s.classify(x + 0.5, y + 0.5);
          if (verdict == PixelTest::None) continue;
          std::uint16_t mask = verdict == PixelTest::All ? 0xffff : 0;
          for (int j = 0; j < kGrid && verdict == PixelTest::Some; ++j) {
            const double qy = y + (j + 0.5) / kGrid;
            for (int i = 0; i < kGrid; ++i) {
              if (s.inside(x + (i + 0.5) / kGrid, qy)) mask = static_cast<std::uint16_t>(mask | (1u << (j * kGrid + i)));
            }
          }
          bits[static_cast<std::size_t>(y - band_y) * static_cast<std::size_t>(band_w) + static_cast<std::size_t>(x - x0)] |= mask;
        }
      }
    }
    for (int y = band_y; y <= band_end; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const std::uint16_t mask = bits[static_cast<std::size_t>(y - band_y) * static_cast<std::size_t>(band_w) + static_cast<std::size_t>(x - x0)];
        if (mask == 0) continue;
        const double a = alpha * std::popcount(mask) / double(kGrid * kGrid);
        std::uint8_t* dst = &canvas.rgba[4 * (static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x))];
        detail::blend_over(dst, paint.r * a, paint.g * a, paint.b * a, 255 * a);
      }
    }
  }
}

}  // namespace

void stroke_segments(Canvas& canvas, std::span<const Segment> segments, double width, Paint paint) {
  if (!(width > 0)) return;
  const double hw = width / 2;
  std::vector<Shape> shapes;
  shapes.reserve(segments.size());
  for (const Segment& s : segments) {
    if (!is_finite(s.a) || !is_finite(s.b) || (s.a.x == s.b.x && s.a.y == s.b.y)) continue;
    Shape shape{Shape::SegmentShape, s.a, s.b, hw, 0};
    shape.length = std::sqrt((s.b.x - s.a.x) * (s.b.x - s.a.x) + (s.b.y - s.a.y) * (s.b.y - s.a.y));
    shape.min_x = std::min(s.a.x, s.b.x) - hw;
    shape.max_x = std::max(s.a.x, s.b.x) + hw;
    shape.min_y = std::min(s.a.y, s.b.y) - hw;
    shape.max_y = std::max(s.a.y, s.b.y) + hw;
    shapes.push_back(shape);
  }
  paint_shapes(canvas, shapes, paint);
}

void fill_disc(Canvas& canvas, Vec2 centre, double radius, Paint paint) {
  if (!is_finite(centre) || !(radius > 0)) return;
  Shape s{Shape::DiscShape, centre, centre, radius, 0};
  s.min_x = centre.x - radius;
  s.max_x = centre.x + radius;
  s.min_y = centre.y - radius;
  s.max_y = centre.y + radius;
  paint_shapes(canvas, {s}, paint);
}

void stroke_circle(Canvas& canvas, Vec2 centre, double radius, double width, Paint paint) {
  if (!is_finite(centre) || !(radius >= 0) || !(width > 0)) return;
  const double outer = radius + width / 2;
  Shape s{Shape::RingShape, centre, centre, std::max(0.0, radius - width / 2), outer};
  s.min_x = centre.x - outer;
  s.max_x = centre.x + outer;
  s.min_y = centre.y - outer;
  s.max_y = centre.y + outer;
  paint_shapes(canvas, {s}, paint);
}

}  // namespace rig2d
