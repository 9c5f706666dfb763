// SPDX-License-Identifier: Apache-2.0
// The bilinear texture sampler, inline for the per-pixel loops. Private to the library.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "rig2d/raster/canvas.h"

namespace rig2d::detail {

// floor() for |v| well inside the int range, without a libm call.
inline int floor_int(double v) {
  const int i = static_cast<int>(v);
  return v < i ? i - 1 : i;
}

// The four texels a bilinear sample reads and their weights: the sample is, per channel c,
// (p00[c] * gx + p10[c] * fx) * gy + (p01[c] * gx + p11[c] * fx) * fy.
struct BilinearTaps {
  const std::uint8_t* p00;
  const std::uint8_t* p10;
  const std::uint8_t* p01;
  const std::uint8_t* p11;
  double fx, fy, gx, gy;
};

// False (the sample is transparent black) for an empty texture or a non-finite coordinate.
inline bool bilinear_taps(const Texture& texture, double u, double v, BilinearTaps& t) {
  if (texture.width <= 0 || texture.height <= 0 || !std::isfinite(u) || !std::isfinite(v)) return false;
  // Clamp-to-edge makes every UV outside [-1, 2] equivalent; clamping first keeps the casts safe.
  u = u < -1 ? -1 : u > 2 ? 2 : u;
  v = v < -1 ? -1 : v > 2 ? 2 : v;
  const double x = u * texture.width - 0.5;
  const double y = v * texture.height - 0.5;
  const int ix = floor_int(x);
  const int iy = floor_int(y);
  t.fx = x - ix;
  t.fy = y - iy;
  auto clampi = [](int i, int n) { return i < 0 ? 0 : i > n - 1 ? n - 1 : i; };
  const auto x0 = static_cast<std::size_t>(clampi(ix, texture.width));
  const auto x1 = static_cast<std::size_t>(clampi(ix + 1, texture.width));
  const auto y0 = static_cast<std::size_t>(clampi(iy, texture.height));
  const auto y1 = static_cast<std::size_t>(clampi(iy + 1, texture.height));
  const auto stride = static_cast<std::size_t>(texture.width);
  t.p00 = &texture.premultiplied[4 * (y0 * stride + x0)];
  t.p10 = &texture.premultiplied[4 * (y0 * stride + x1)];
  t.p01 = &texture.premultiplied[4 * (y1 * stride + x0)];
  t.p11 = &texture.premultiplied[4 * (y1 * stride + x1)];
  t.gx = 1 - t.fx;
  t.gy = 1 - t.fy;
  return true;
}

// True when all four texels are transparent black (premultiplied), so the sample is exactly 0.
// Any taps with texel pointers p00, p10, p01, p11 (the double and the fixed-point kinds).
template <class Taps>
inline bool taps_all_zero(const Taps& t) {
  std::uint32_t a, b, c, d;
  std::memcpy(&a, t.p00, 4);
  std::memcpy(&b, t.p10, 4);
  std::memcpy(&c, t.p01, 4);
  std::memcpy(&d, t.p11, 4);
  return (a | b | c | d) == 0;
}

inline void combine_taps(const BilinearTaps& t, double out[4]) {
  for (int c = 0; c < 4; ++c) {
    const double top = t.p00[c] * t.gx + t.p10[c] * t.fx;
    const double bottom = t.p01[c] * t.gx + t.p11[c] * t.fx;
    out[c] = top * t.gy + bottom * t.fy;
  }
}

inline void sample_bilinear_inline(const Texture& texture, double u, double v, double out[4]) {
  BilinearTaps t;
  if (!bilinear_taps(texture, u, v, t)) {
    out[0] = out[1] = out[2] = out[3] = 0;
    return;
  }
  combine_taps(t, out);
}

}  // namespace rig2d::detail
