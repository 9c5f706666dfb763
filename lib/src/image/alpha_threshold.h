// SPDX-License-Identifier: Apache-2.0
// The one per-pixel coverage test (alpha > threshold) as 0/1 bytes, for the passes that need a whole
// row or image of it: the coverage mask, the sheet guess, the shape skeleton. Internal.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace rig2d::detail {

#if defined(__SSE2__)
// The alpha bytes of the 16 RGBA pixels at `rgba`, in pixel order: shifted down and packed.
inline __m128i alpha_bytes_16(const std::uint8_t* rgba) {
  const auto* p = reinterpret_cast<const __m128i*>(rgba);
  const __m128i a0 = _mm_srli_epi32(_mm_loadu_si128(p), 24), a1 = _mm_srli_epi32(_mm_loadu_si128(p + 1), 24);
  const __m128i a2 = _mm_srli_epi32(_mm_loadu_si128(p + 2), 24), a3 = _mm_srli_epi32(_mm_loadu_si128(p + 3), 24);
  return _mm_packus_epi16(_mm_packs_epi32(a0, a1), _mm_packs_epi32(a2, a3));
}

// 0xFF in byte i where pixel i of the 16 RGBA pixels at `rgba` has alpha >= `above` (threshold + 1),
// else 0: their alpha bytes compared unsigned through max.
inline __m128i alpha_at_least_16(const std::uint8_t* rgba, __m128i above) {
  const __m128i alpha = alpha_bytes_16(rgba);
  return _mm_cmpeq_epi8(_mm_max_epu8(alpha, above), alpha);
}
#endif

#if defined(__x86_64__)
// alpha_at_least_16 for the 32 RGBA pixels at `rgba`, in AVX2 (the caller checked the CPU has it). The
// packs work within each 128-bit lane, so the groups of 4 pixels come out interleaved and one
// permutation puts them back in order.
__attribute__((target("avx2"))) inline __m256i alpha_at_least_32(const std::uint8_t* rgba, __m256i above) {
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const auto* p = reinterpret_cast<const __m256i*>(rgba);
  const __m256i a0 = _mm256_srli_epi32(_mm256_loadu_si256(p), 24), a1 = _mm256_srli_epi32(_mm256_loadu_si256(p + 1), 24);
  const __m256i a2 = _mm256_srli_epi32(_mm256_loadu_si256(p + 2), 24), a3 = _mm256_srli_epi32(_mm256_loadu_si256(p + 3), 24);
  const __m256i alpha =
      _mm256_permutevar8x32_epi32(_mm256_packus_epi16(_mm256_packs_epi32(a0, a1), _mm256_packs_epi32(a2, a3)), order);
  return _mm256_cmpeq_epi8(_mm256_max_epu8(alpha, above), alpha);
}

// threshold_alpha's steps 32 pixels at a time in AVX2 (the caller checked the CPU has it); the number
// of pixels done.
__attribute__((target("avx2"))) inline std::size_t threshold_alpha_avx2(const std::uint8_t* rgba, std::size_t count,
                                                                        std::uint8_t t, std::uint8_t* out) {
  const __m256i above = _mm256_set1_epi8(static_cast<char>(t + 1)), one = _mm256_set1_epi8(1);
  std::size_t i = 0;
  for (; i + 32 <= count; i += 32) {
    const __m256i high = alpha_at_least_32(rgba + 4 * i, above);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_and_si256(high, one));
  }
  return i;
}
#endif

// out[i] = 1 where pixel i of `count` RGBA pixels has alpha > threshold, else 0 (every pixel for a
// threshold below 0, none above 254). 32 pixels per AVX2 step where the CPU has it, else 16 per SSE2
// step (the stride-4 alpha bytes kept the compiler from vectorizing the plain loop: ~4 instructions a
// pixel), then the plain loop.
inline void threshold_alpha(const std::uint8_t* rgba, std::size_t count, int threshold, std::uint8_t* out) {
  if (threshold < 0 || threshold > 254) {
    std::fill(out, out + count, static_cast<std::uint8_t>(threshold < 0 ? 1 : 0));
    return;
  }
  const auto t = static_cast<std::uint8_t>(threshold);
  std::size_t i = 0;
#if defined(__x86_64__)
  if (count >= 32 && __builtin_cpu_supports("avx2")) i = threshold_alpha_avx2(rgba, count, t, out);
#endif
#if defined(__SSE2__)
  const __m128i above = _mm_set1_epi8(static_cast<char>(t + 1)), one = _mm_set1_epi8(1);
  for (; i + 16 <= count; i += 16)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_and_si128(alpha_at_least_16(rgba + 4 * i, above), one));
#endif
  for (; i < count; ++i) out[i] = rgba[4 * i + 3] > t ? 1 : 0;
}

}  // namespace rig2d::detail
