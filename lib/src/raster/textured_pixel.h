// SPDX-License-Identifier: Apache-2.0
// One textured pixel: a bilinear sample, times the tint, composited source-over onto an RGBA8 pixel.
// The SSE2 version evaluates the very same per-channel double expressions as combine_taps and
// blend_over, two channels per register, so it writes the same bytes (tests/unit/raster checks this);
// it only saves instructions. Private to the library.
#pragma once

#include <cstdint>
#include <cstring>

#include "raster/blend.h"
#include "raster/sample.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig2d::detail {

// dst = sample * tint over dst. `tint` is premultiplied (r*a, g*a, b*a, a), channels scaled to 0..1.
inline void blend_textured_pixel_scalar(const BilinearTaps& taps, const double tint[4], std::uint8_t* dst) {
  double texel[4];
  combine_taps(taps, texel);
  blend_over(dst, texel[0] * tint[0], texel[1] * tint[1], texel[2] * tint[2], texel[3] * tint[3]);
}

#if defined(__SSE2__)
// Four 8-bit channels widened to four 32-bit lanes.
inline __m128i widen_rgba8(const std::uint8_t* p) {
  std::uint32_t bits;
  std::memcpy(&bits, p, 4);
  const __m128i zero = _mm_setzero_si128();
  return _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(bits)), zero), zero);
}
inline __m128d low_pair(__m128i q) { return _mm_cvtepi32_pd(q); }                     // channels 0, 1
inline __m128d high_pair(__m128i q) { return _mm_cvtepi32_pd(_mm_srli_si128(q, 8)); }  // channels 2, 3

// (p00 * gx + p10 * fx) * gy + (p01 * gx + p11 * fx) * fy for one pair of channels.
inline __m128d bilinear_pair(__m128d p00, __m128d p10, __m128d p01, __m128d p11, const BilinearTaps& t) {
  const __m128d gx = _mm_set1_pd(t.gx), fx = _mm_set1_pd(t.fx);
  const __m128d top = _mm_add_pd(_mm_mul_pd(p00, gx), _mm_mul_pd(p10, fx));
  const __m128d bottom = _mm_add_pd(_mm_mul_pd(p01, gx), _mm_mul_pd(p11, fx));
  return _mm_add_pd(_mm_mul_pd(top, _mm_set1_pd(t.gy)), _mm_mul_pd(bottom, _mm_set1_pd(t.fy)));
}

// to_u8 on two lanes: NaN and v <= 0 give 0, v >= 255 gives 255, else v + 0.5 truncated.
inline __m128i to_u8_pair(__m128d v) {
  v = _mm_max_pd(v, _mm_setzero_pd());  // NaN -> 0 (max returns its second operand)
  v = _mm_min_pd(v, _mm_set1_pd(255));
  return _mm_cvttpd_epi32(_mm_add_pd(v, _mm_set1_pd(0.5)));
}

inline void blend_textured_pixel(const BilinearTaps& taps, const double tint[4], std::uint8_t* dst) {
  const __m128i q00 = widen_rgba8(taps.p00), q10 = widen_rgba8(taps.p10);
  const __m128i q01 = widen_rgba8(taps.p01), q11 = widen_rgba8(taps.p11);
  const __m128d src_rg = _mm_mul_pd(
      bilinear_pair(low_pair(q00), low_pair(q10), low_pair(q01), low_pair(q11), taps), _mm_loadu_pd(tint));
  const __m128d src_ba = _mm_mul_pd(
      bilinear_pair(high_pair(q00), high_pair(q10), high_pair(q01), high_pair(q11), taps), _mm_loadu_pd(tint + 2));
  const double alpha = _mm_cvtsd_f64(_mm_unpackhi_pd(src_ba, src_ba));
  const __m128d keep = _mm_set1_pd(1 - alpha * (1.0 / 255));
  const __m128i d = widen_rgba8(dst);
  const __m128i rg = to_u8_pair(_mm_add_pd(src_rg, _mm_mul_pd(low_pair(d), keep)));
  const __m128i ba = to_u8_pair(_mm_add_pd(src_ba, _mm_mul_pd(high_pair(d), keep)));
  const __m128i words = _mm_packs_epi32(_mm_unpacklo_epi64(rg, ba), _mm_setzero_si128());
  const auto bits = static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_packus_epi16(words, words)));
  std::memcpy(dst, &bits, 4);
}
#else
inline void blend_textured_pixel(const BilinearTaps& taps, const double tint[4], std::uint8_t* dst) {
  blend_textured_pixel_scalar(taps, tint, dst);
}
#endif

}  // namespace rig2d::detail
