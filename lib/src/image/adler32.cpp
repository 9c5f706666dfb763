// SPDX-License-Identifier: Apache-2.0
#include "image/adler32.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig2d::detail {

namespace {

constexpr std::size_t kLanes = 16;

// Over `groups` 16-byte groups: a[l] = the sum of lane l's bytes; returns the sum over lanes of p[l],
// lane l's sum after each group added up. At most kMaxGroups groups: a[l] then fits an int16.
constexpr std::size_t kMaxGroups = 128;

#if defined(__SSE2__)
std::uint64_t lane_sums(const unsigned char* data, std::size_t groups, std::uint32_t* a) {
  const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi16(1);
  __m128i a_lo = zero, a_hi = zero, p = zero;
  for (std::size_t j = 0; j < groups; ++j, data += kLanes) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data));
    a_lo = _mm_add_epi16(a_lo, _mm_unpacklo_epi8(bytes, zero));
    a_hi = _mm_add_epi16(a_hi, _mm_unpackhi_epi8(bytes, zero));
    p = _mm_add_epi32(p, _mm_add_epi32(_mm_madd_epi16(a_lo, ones), _mm_madd_epi16(a_hi, ones)));
  }
  alignas(16) std::uint16_t lanes[kLanes];
  alignas(16) std::uint32_t parts[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), a_lo);
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes + 8), a_hi);
  _mm_store_si128(reinterpret_cast<__m128i*>(parts), p);
  for (std::size_t l = 0; l < kLanes; ++l) a[l] = lanes[l];
  return std::uint64_t(parts[0]) + parts[1] + parts[2] + parts[3];
}
#else
std::uint64_t lane_sums(const unsigned char* data, std::size_t groups, std::uint32_t* a) {
  std::uint64_t p = 0;
  for (std::size_t j = 0; j < groups; ++j, data += kLanes) {
    for (std::size_t l = 0; l < kLanes; ++l) {
      a[l] += data[l];
      p += a[l];
    }
  }
  return p;
}
#endif

}  // namespace

std::uint32_t adler32(std::uint32_t adler, const unsigned char* data, std::size_t n) {
  constexpr std::uint64_t kMod = 65521;
  std::uint64_t s1 = adler & 0xffff, s2 = adler >> 16;
  while (n >= kLanes) {
    // Over K groups of 16 bytes b[j][l], s1 gains sum b and s2 gains 16K * s1 + sum (16K - 16j - l) b[j][l]
    // = 16K * s1 + 16 * sum_l p[l] - sum_l l * a[l] (lane_sums' a and p): adds only, no multiply per byte.
    const std::size_t groups = std::min(n / kLanes, kMaxGroups);
    std::uint32_t a[kLanes] = {};
    const std::uint64_t p = lane_sums(data, groups, a);
    data += groups * kLanes;
    std::uint64_t sum = 0, weighted = kLanes * p;
    for (std::size_t l = 0; l < kLanes; ++l) {
      sum += a[l];
      weighted -= l * std::uint64_t(a[l]);
    }
    s2 = (s2 + groups * kLanes * s1 + weighted) % kMod;
    s1 = (s1 + sum) % kMod;
    n -= groups * kLanes;
  }
  for (; n > 0; --n) {
    s1 += *data++;
    s2 += s1;
  }
  return static_cast<std::uint32_t>(((s2 % kMod) << 16) | (s1 % kMod));
}

}  // namespace rig2d::detail
