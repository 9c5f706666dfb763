// SPDX-License-Identifier: Apache-2.0
// The textured pixel in 16-bit fixed point, as GPUs and llvmpipe filter: bilinear sample, tint and
// premultiplied source-over with every channel an 8.8 fixed-point value in a 16-bit lane. It is
// within 1 LSB of the double reference (blend_textured_pixel_scalar): the truncations below sum to
// well under 0.1 LSB before the final rounding (tests/unit/raster measures it).
// There are two implementations of the same integer arithmetic: a portable one and an SSE2 one that
// does two pixels per register. Integer arithmetic has no rounding modes or contraction, so both
// write the same bytes on every machine (the tests force each and compare). Private to the library.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "raster/sample.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig2d::detail {

// The four texels of a bilinear sample and 16-bit weights: fx, fy in [1, 65535] are the weights of
// the right and bottom texels out of 65536 (0 is stored as 1: an error of 2^-16, 0.004 LSB at most).
struct FixedTaps {
  const std::uint8_t* p00;
  const std::uint8_t* p10;
  const std::uint8_t* p01;
  const std::uint8_t* p11;
  std::uint32_t fx, fy;
};

// The premultiplied tint (r*a, g*a, b*a, a; 0..1) as 16-bit factors out of 65536.
struct FixedTint {
  std::uint16_t m[4];
};

inline FixedTint fixed_tint(const double mul[4]) {
  FixedTint t{};
  for (int c = 0; c < 4; ++c) {
    const double scaled = mul[c] * 65536 + 0.5;
    t.m[c] = static_cast<std::uint16_t>(scaled >= 65535 ? 65535 : scaled > 0 ? scaled : 0);
  }
  return t;
}

inline std::uint32_t mulhi16(std::uint32_t a, std::uint32_t b) { return (a * b) >> 16; }

// dst = sample * tint over dst, one pixel, portable integer code. A transparent black sample
// leaves dst as it is (the blend below would too: this only saves the work).
inline void blend_fixed_pixel_portable(const FixedTaps& t, const FixedTint& tint, std::uint8_t* dst) {
  if (taps_all_zero(t)) return;
  const std::uint32_t gx = 65536 - t.fx, gy = 65536 - t.fy;
  std::uint32_t src[4];
  for (int c = 0; c < 4; ++c) {
    const std::uint32_t top = mulhi16(t.p00[c] << 8, gx) + mulhi16(t.p10[c] << 8, t.fx);
    const std::uint32_t bottom = mulhi16(t.p01[c] << 8, gx) + mulhi16(t.p11[c] << 8, t.fx);
    src[c] = mulhi16(mulhi16(top, gy) + mulhi16(bottom, t.fy), tint.m[c]);
  }
  // keep = 1 - a/255 in 16 bits: 65536 - A - A/255 with A the 8.8 alpha, rounded down.
  const std::uint32_t keep = 65535 - src[3] - (src[3] >> 8);
  for (int c = 0; c < 4; ++c) {
    std::uint32_t r = std::min<std::uint32_t>(65535, src[c] + mulhi16(static_cast<std::uint32_t>(dst[c]) << 8, keep));
    r = std::min<std::uint32_t>(65535, r + 128);
    dst[c] = static_cast<std::uint8_t>(r >> 8);
  }
}

#if defined(__SSE2__)
// Texels of two pixels (4 bytes each) side by side.
inline __m128i texel_pair(const std::uint8_t* a, const std::uint8_t* b) {
  std::uint32_t ba, bb;
  std::memcpy(&ba, a, 4);
  std::memcpy(&bb, b, 4);
  return _mm_unpacklo_epi32(_mm_cvtsi32_si128(static_cast<int>(ba)), _mm_cvtsi32_si128(static_cast<int>(bb)));
}
// Bytes to 8.8 values in 16-bit lanes (byte b -> b << 8).
inline __m128i widen_8_8(__m128i bytes) { return _mm_unpacklo_epi8(_mm_setzero_si128(), bytes); }

// The same arithmetic as blend_fixed_pixel_portable on two pixels at once; dst holds both, adjacent.
inline void blend_fixed_pair_sse2(const FixedTaps& t0, const FixedTaps& t1, __m128i tint, std::uint8_t* dst) {
  const __m128i q00 = texel_pair(t0.p00, t1.p00), q10 = texel_pair(t0.p10, t1.p10);
  const __m128i q01 = texel_pair(t0.p01, t1.p01), q11 = texel_pair(t0.p11, t1.p11);
  const __m128i any = _mm_or_si128(_mm_or_si128(q00, q10), _mm_or_si128(q01, q11));
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(any, _mm_setzero_si128())) == 0xFFFF) return;  // both transparent
  const auto w = [](std::uint32_t a, std::uint32_t b) {  // a in lanes 0-3, b in lanes 4-7
    return _mm_unpacklo_epi64(_mm_set1_epi16(static_cast<short>(a)), _mm_set1_epi16(static_cast<short>(b)));
  };
  const __m128i fx = w(t0.fx, t1.fx), gx = w(65536 - t0.fx, 65536 - t1.fx);
  const __m128i fy = w(t0.fy, t1.fy), gy = w(65536 - t0.fy, 65536 - t1.fy);
  const __m128i top = _mm_add_epi16(_mm_mulhi_epu16(widen_8_8(q00), gx), _mm_mulhi_epu16(widen_8_8(q10), fx));
  const __m128i bottom = _mm_add_epi16(_mm_mulhi_epu16(widen_8_8(q01), gx), _mm_mulhi_epu16(widen_8_8(q11), fx));
  const __m128i src = _mm_mulhi_epu16(_mm_add_epi16(_mm_mulhi_epu16(top, gy), _mm_mulhi_epu16(bottom, fy)), tint);
  const __m128i alpha = _mm_shufflehi_epi16(_mm_shufflelo_epi16(src, 0xFF), 0xFF);
  const __m128i keep = _mm_sub_epi16(_mm_sub_epi16(_mm_set1_epi16(-1), alpha), _mm_srli_epi16(alpha, 8));
  const __m128i back = _mm_unpacklo_epi8(_mm_setzero_si128(), _mm_loadl_epi64(reinterpret_cast<const __m128i*>(dst)));
  __m128i r = _mm_adds_epu16(src, _mm_mulhi_epu16(back, keep));
  r = _mm_srli_epi16(_mm_adds_epu16(r, _mm_set1_epi16(128)), 8);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(dst), _mm_packus_epi16(r, r));
}

inline __m128i tint_lanes(const FixedTint& t) {
  return _mm_set_epi16(static_cast<short>(t.m[3]), static_cast<short>(t.m[2]), static_cast<short>(t.m[1]),
                       static_cast<short>(t.m[0]), static_cast<short>(t.m[3]), static_cast<short>(t.m[2]),
                       static_cast<short>(t.m[1]), static_cast<short>(t.m[0]));
}
#endif

}  // namespace rig2d::detail
