// SPDX-License-Identifier: Apache-2.0
// Premultiplied source-over on RGBA8, shared by every raster draw. Private to the library.
#pragma once

#include <cstdint>

namespace rig2d::detail {

inline std::uint8_t to_u8(double v) {
  if (!(v > 0)) return 0;  // also NaN
  if (v >= 255) return 255;
  return static_cast<std::uint8_t>(v + 0.5);
}

// dst = src + dst * (1 - src.a); src is premultiplied, channels 0..255.
inline void blend_over(std::uint8_t* dst, double r, double g, double b, double a) {
  const double keep = 1 - a * (1.0 / 255);
  dst[0] = to_u8(r + dst[0] * keep);
  dst[1] = to_u8(g + dst[1] * keep);
  dst[2] = to_u8(b + dst[2] * keep);
  dst[3] = to_u8(a + dst[3] * keep);
}

}  // namespace rig2d::detail
