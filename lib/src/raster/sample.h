// SPDX-License-Identifier: Apache-2.0
// The bilinear texture sampler, inline for the per-pixel loops. Private to the library.
#pragma once

#include <cmath>
#include <cstdint>

#include "rig2d/raster/canvas.h"

namespace rig2d::detail {

// floor() for |v| well inside the int range, without a libm call.
inline int floor_int(double v) {
  const int i = static_cast<int>(v);
  return v < i ? i - 1 : i;
}

inline void sample_bilinear_inline(const Texture& texture, double u, double v, double out[4]) {
  out[0] = out[1] = out[2] = out[3] = 0;
  if (texture.width <= 0 || texture.height <= 0 || !std::isfinite(u) || !std::isfinite(v)) return;
  // Clamp-to-edge makes every UV outside [-1, 2] equivalent; clamping first keeps the casts safe.
  u = u < -1 ? -1 : u > 2 ? 2 : u;
  v = v < -1 ? -1 : v > 2 ? 2 : v;
  const double x = u * texture.width - 0.5;
  const double y = v * texture.height - 0.5;
  const int ix = floor_int(x);
  const int iy = floor_int(y);
  const double fx = x - ix;
  const double fy = y - iy;
  auto clampi = [](int i, int n) { return i < 0 ? 0 : i > n - 1 ? n - 1 : i; };
  const auto x0 = static_cast<std::size_t>(clampi(ix, texture.width));
  const auto x1 = static_cast<std::size_t>(clampi(ix + 1, texture.width));
  const auto y0 = static_cast<std::size_t>(clampi(iy, texture.height));
  const auto y1 = static_cast<std::size_t>(clampi(iy + 1, texture.height));
  const auto stride = static_cast<std::size_t>(texture.width);
  const std::uint8_t* p00 = &texture.premultiplied[4 * (y0 * stride + x0)];
  const std::uint8_t* p10 = &texture.premultiplied[4 * (y0 * stride + x1)];
  const std::uint8_t* p01 = &texture.premultiplied[4 * (y1 * stride + x0)];
  const std::uint8_t* p11 = &texture.premultiplied[4 * (y1 * stride + x1)];
  const double gx = 1 - fx, gy = 1 - fy;
  for (int c = 0; c < 4; ++c) {
    const double top = p00[c] * gx + p10[c] * fx;
    const double bottom = p01[c] * gx + p11[c] * fx;
    out[c] = top * gy + bottom * fy;
  }
}

}  // namespace rig2d::detail
