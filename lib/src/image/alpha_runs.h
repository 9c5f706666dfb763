// SPDX-License-Identifier: Apache-2.0
// Sums and counts over a run of RGBA pixels' alpha bytes, 16 pixels per SSE2 step (then 4) where the
// plain loop (a stride-4 byte) would take several instructions a pixel: for passes that need a row's
// alpha only as totals (the yardstick's alpha mass over a run of equal coverage). Internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "image/alpha_threshold.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig2d::detail {

// The sum of the alpha bytes of `count` RGBA pixels.
inline std::uint64_t alpha_sum(const std::uint8_t* rgba, std::size_t count) {
  std::uint64_t sum = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i alpha_bytes = _mm_set1_epi32(static_cast<int>(0xFF000000u)), zero = _mm_setzero_si128();
  __m128i acc = zero;  // two 64-bit lanes of byte sums
  for (; i + 4 <= count; i += 4) {
    const __m128i px = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rgba + 4 * i));
    acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_and_si128(px, alpha_bytes), zero));
  }
  sum = static_cast<std::uint64_t>(_mm_cvtsi128_si64(acc)) +
        static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc)));
#endif
  for (; i < count; ++i) sum += rgba[4 * i + 3];
  return sum;
}

// How many of `count` RGBA pixels have alpha >= 128.
inline std::size_t alpha_high_bit_count(const std::uint8_t* rgba, std::size_t count) {
  std::size_t n = 0, i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  __m128i acc = zero;
  for (; i + 4 <= count; i += 4) {  // each pixel's top alpha bit shifted down to 0 or 1, then summed
    const __m128i px = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rgba + 4 * i));
    acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_srli_epi32(px, 31), zero));
  }
  n = static_cast<std::size_t>(_mm_cvtsi128_si64(acc)) + static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc)));
#endif
  for (; i < count; ++i) n += rgba[4 * i + 3] >= 128;
  return n;
}

// alpha_sum and alpha_high_bit_count of `count` RGBA pixels in one pass, 16 pixels a step, added to
// `sum` and `high`.
inline void alpha_sum_and_high_count(const std::uint8_t* rgba, std::size_t count, std::uint64_t& sum,
                                     std::uint64_t& high) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi8(1);
  __m128i sums = zero, highs = zero;
  for (; i + 16 <= count; i += 16) {
    const __m128i alpha = alpha_bytes_16(rgba + 4 * i);
    sums = _mm_add_epi64(sums, _mm_sad_epu8(alpha, zero));
    highs = _mm_add_epi64(highs, _mm_sad_epu8(_mm_and_si128(_mm_srli_epi16(alpha, 7), ones), zero));
  }
  for (; i + 4 <= count; i += 4) {  // the rest four pixels a step: each alpha, and its top bit, shifted down
    const __m128i px = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rgba + 4 * i));
    sums = _mm_add_epi64(sums, _mm_sad_epu8(_mm_srli_epi32(px, 24), zero));
    highs = _mm_add_epi64(highs, _mm_sad_epu8(_mm_srli_epi32(px, 31), zero));
  }
  sum += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sums)) +
         static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  high += static_cast<std::uint64_t>(_mm_cvtsi128_si64(highs)) +
          static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(highs, highs)));
#endif
  for (; i < count; ++i) {
    sum += rgba[4 * i + 3];
    high += rgba[4 * i + 3] >> 7;
  }
}

// How many of `count` pixels are flagged (a nonzero byte of `flags`) and have alpha <= `threshold` in
// `rgba`.
inline std::size_t flagged_at_most(const std::uint8_t* rgba, const std::uint8_t* flags, std::size_t count,
                                   int threshold) {
  std::size_t n = 0, i = 0;
#if defined(__SSE2__)
  const __m128i above = _mm_set1_epi8(static_cast<char>(threshold + 1)), zero = _mm_setzero_si128();
  const __m128i one = _mm_set1_epi8(1);
  __m128i acc = zero;  // byte counts summed in two 64-bit lanes
  for (; threshold >= 0 && threshold <= 254 && i + 16 <= count; i += 16) {
    const __m128i high = alpha_at_least_16(rgba + 4 * i, above);  // alpha > threshold
    const __m128i unflagged = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(flags + i)), zero);
    const __m128i counted = _mm_andnot_si128(_mm_or_si128(high, unflagged), one);
    acc = _mm_add_epi64(acc, _mm_sad_epu8(counted, zero));
  }
  n = static_cast<std::size_t>(_mm_cvtsi128_si64(acc)) + static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc)));
  // The last up to 15 four pixels a step (a row's run ends in some): alpha and flags widened to 32-bit
  // lanes, where a signed compare takes any threshold; each lane counts down by one per pixel skipped.
  const __m128i limit = _mm_set1_epi32(threshold);
  __m128i skipped = zero;
  const std::size_t four_from = i;
  for (; count - i < 16 && i + 4 <= count; i += 4) {
    const __m128i alpha = _mm_srli_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rgba + 4 * i)), 24);
    std::int32_t four_flags = 0;
    std::memcpy(&four_flags, flags + i, 4);
    const __m128i flag = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(four_flags), zero), zero);
    skipped = _mm_sub_epi32(skipped, _mm_or_si128(_mm_cmpgt_epi32(alpha, limit), _mm_cmpeq_epi32(flag, zero)));
  }
  skipped = _mm_add_epi32(skipped, _mm_shuffle_epi32(skipped, 0x4E));
  skipped = _mm_add_epi32(skipped, _mm_shuffle_epi32(skipped, 0xB1));
  n += (i - four_from) - static_cast<std::uint32_t>(_mm_cvtsi128_si32(skipped));
#endif
  for (; i < count; ++i) n += flags[i] != 0 && rgba[4 * i + 3] <= threshold;
  return n;
}

}  // namespace rig2d::detail
