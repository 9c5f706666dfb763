// SPDX-License-Identifier: Apache-2.0
// The triangle scan converter shared by every triangle draw: fixed-point vertices, integer edge
// functions evaluated at pixel centres, the top-left fill rule. Private to the library.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "rig2d/core/types.h"

namespace rig2d::detail {

inline constexpr int kSubpixelBits = 8;
inline constexpr std::int64_t kSubpixel = 1 << kSubpixelBits;
// |coordinate| limit in px. With 8 subpixel bits the edge products stay below 2^61.
inline constexpr double kMaxRasterCoord = 2097152.0;  // 2^21

struct FixedTriangle {
  std::int64_t x[3];
  std::int64_t y[3];
  std::int64_t area2;   // twice the signed area after normalization, > 0
  int vertex[3];        // vertex[i] = which input vertex (0..2) slot i holds
};

inline bool snap(double v, std::int64_t& out) {
  if (!(std::fabs(v) <= kMaxRasterCoord)) return false;  // also rejects NaN
  out = static_cast<std::int64_t>(std::floor(v * static_cast<double>(kSubpixel) + 0.5));
  return true;
}

// Edge function of a->b at p: > 0 on the inside of a positively oriented triangle.
inline std::int64_t edge(std::int64_t ax, std::int64_t ay, std::int64_t bx, std::int64_t by, std::int64_t px,
                         std::int64_t py) {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

// Snaps and orients a triangle (swapping two vertices when the winding is negative). False for a
// degenerate or unrepresentable triangle.
inline bool setup_triangle(Vec2 a, Vec2 b, Vec2 c, FixedTriangle& t) {
  const Vec2 v[3] = {a, b, c};
  for (int i = 0; i < 3; ++i) {
    if (!snap(v[i].x, t.x[i]) || !snap(v[i].y, t.y[i])) return false;
    t.vertex[i] = i;
  }
  t.area2 = edge(t.x[0], t.y[0], t.x[1], t.y[1], t.x[2], t.y[2]);
  if (t.area2 == 0) return false;
  if (t.area2 < 0) {
    std::swap(t.x[1], t.x[2]);
    std::swap(t.y[1], t.y[2]);
    std::swap(t.vertex[1], t.vertex[2]);
    t.area2 = -t.area2;
  }
  return true;
}

// Calls span(y, xa, xb, w) for every row y that the triangle covers, with the covered pixels
// xa..xb (inclusive, left to right) and w[3] the edge functions at (xa, y) stepping by step_x[i]
// per pixel to the right. w_i >= 0 is the (unnormalized) barycentric weight of slot i:
// w0 + w1 + w2 == t.area2. The span ends are solved exactly in integers (the same pixels as
// testing every pixel of the bounding box against the edges and the top-left rule).
template <typename Span>
void scan_spans(const FixedTriangle& t, int width, int height, Span&& span) {
  const std::int64_t min_fx = std::min({t.x[0], t.x[1], t.x[2]});
  const std::int64_t max_fx = std::max({t.x[0], t.x[1], t.x[2]});
  const std::int64_t min_fy = std::min({t.y[0], t.y[1], t.y[2]});
  const std::int64_t max_fy = std::max({t.y[0], t.y[1], t.y[2]});
  // Conservative pixel bounds (>> on negatives floors in C++20); the edge tests decide coverage.
  const std::int64_t x0 = std::max<std::int64_t>(0, (min_fx >> kSubpixelBits) - 1);
  const std::int64_t x1 = std::min<std::int64_t>(width - 1, (max_fx >> kSubpixelBits) + 1);
  const std::int64_t y0 = std::max<std::int64_t>(0, (min_fy >> kSubpixelBits) - 1);
  const std::int64_t y1 = std::min<std::int64_t>(height - 1, (max_fy >> kSubpixelBits) + 1);
  if (x0 > x1 || y0 > y1) return;

  // Edge i is opposite slot i: e0 = v1->v2, e1 = v2->v0, e2 = v0->v1.
  const int from[3] = {1, 2, 0};
  const int to[3] = {2, 0, 1};
  std::int64_t step_x[3], step_y[3], row[3], bias[3];
  const std::int64_t px0 = x0 * kSubpixel + kSubpixel / 2;
  const std::int64_t py0 = y0 * kSubpixel + kSubpixel / 2;
  for (int i = 0; i < 3; ++i) {
    const std::int64_t ax = t.x[from[i]], ay = t.y[from[i]];
    const std::int64_t dx = t.x[to[i]] - ax, dy = t.y[to[i]] - ay;
    step_x[i] = -dy * kSubpixel;
    step_y[i] = dx * kSubpixel;
    row[i] = edge(ax, ay, t.x[to[i]], t.y[to[i]], px0, py0);
    // Top-left rule (y down, positive orientation): a left edge runs upward, a top edge runs right
    // along a row. Points exactly on other edges belong to the neighbour.
    const bool top_left = dy < 0 || (dy == 0 && dx > 0);
    bias[i] = top_left ? 0 : -1;
  }
  const std::int64_t last = x1 - x0;
  for (std::int64_t y = y0; y <= y1; ++y) {
    // Pixel x0 + k is inside edge i when row[i] + bias[i] + k * step_x[i] >= 0.
    std::int64_t lo = 0, hi = last;
    for (int i = 0; i < 3 && lo <= hi; ++i) {
      const std::int64_t a = row[i] + bias[i], s = step_x[i];
      if (s > 0) {
        if (a < 0) lo = std::max(lo, (-a + s - 1) / s);
      } else if (s < 0) {
        hi = a < 0 ? -1 : std::min(hi, a / -s);
      } else if (a < 0) {
        hi = -1;
      }
    }
    if (lo <= hi) {
      const std::int64_t w[3] = {row[0] + lo * step_x[0], row[1] + lo * step_x[1], row[2] + lo * step_x[2]};
      span(static_cast<int>(y), static_cast<int>(x0 + lo), static_cast<int>(x0 + hi), w, step_x);
    }
    row[0] += step_y[0];
    row[1] += step_y[1];
    row[2] += step_y[2];
  }
}

// Calls fn(x, y, w0, w1, w2) for every covered pixel, row by row, left to right (see scan_spans).
template <typename Fn>
void scan_triangle(const FixedTriangle& t, int width, int height, Fn&& fn) {
  scan_spans(t, width, height, [&](int y, int xa, int xb, const std::int64_t* w_at_xa, const std::int64_t* step_x) {
    std::int64_t w[3] = {w_at_xa[0], w_at_xa[1], w_at_xa[2]};
    for (int x = xa; x <= xb; ++x) {
      fn(x, y, w[0], w[1], w[2]);
      w[0] += step_x[0];
      w[1] += step_x[1];
      w[2] += step_x[2];
    }
  });
}

}  // namespace rig2d::detail
