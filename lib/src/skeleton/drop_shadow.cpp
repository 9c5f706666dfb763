// SPDX-License-Identifier: Apache-2.0
#include "skeleton/drop_shadow.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace rig2d::detail {
namespace {

constexpr int kShadowMaxChannel = 96;     // darker than this in every channel (straight, not premultiplied)
constexpr int kShadowDepth = 3;           // px (chessboard distance) from the nearest uncovered pixel
constexpr double kShadowMinShare = 0.02;  // of the covered pixels: a patch, not a dark rim
constexpr double kShadowMinSolid = 0.5;   // of the covered pixels: the figure casting it

// out[k] = 1 where the window of 2r + 1 samples centred on k is all 1, r = kShadowDepth - 1 (samples
// beyond the row's ends count as 0; `out` zeroed): the AND of the row shifted by -r .. r, in a loop
// over the whole row that vectorizes (the samples are 0/1).
static_assert(kShadowDepth == 3, "erode_row ANDs the 5 samples of a window");
void erode_row(const std::uint8_t* in, std::uint8_t* out, std::size_t length) {
  for (std::size_t k = 2; k + 2 < length; ++k) out[k] = in[k - 2] & in[k - 1] & in[k] & in[k + 1] & in[k + 2];
}

struct Counts {
  std::size_t covered = 0, solid = 0, shadow = 0;
};

bool is_shadow_pixel(const std::uint8_t* p, int alpha_threshold, int half) {
  return p[3] > alpha_threshold && p[3] <= half && p[0] <= kShadowMaxChannel && p[1] <= kShadowMaxChannel &&
         p[2] <= kShadowMaxChannel;
}

int highest_alpha(const std::uint8_t* px, std::size_t n) {
  std::size_t i = 0;
  int highest = 0;
#if defined(__SSE2__)
  // 16 pixels a step; nothing is above 255, so the scan stops at the first block that has it.
  __m128i most = _mm_setzero_si128();
  const __m128i alpha_bytes = _mm_set1_epi32(static_cast<int>(0xff000000u));
  for (; i + 16 <= n; i += 16) {
    const auto* p = reinterpret_cast<const __m128i*>(px + 4 * i);
    const __m128i block = _mm_max_epu8(_mm_max_epu8(_mm_loadu_si128(p), _mm_loadu_si128(p + 1)),
                                       _mm_max_epu8(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3)));
    most = _mm_max_epu8(most, block);
    if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(block, alpha_bytes), alpha_bytes)) != 0) return 255;
  }
  for (; i + 4 <= n; i += 4) most = _mm_max_epu8(most, _mm_loadu_si128(reinterpret_cast<const __m128i*>(px + 4 * i)));
  alignas(16) std::uint8_t bytes[16];
  _mm_store_si128(reinterpret_cast<__m128i*>(bytes), most);
  highest = std::max({bytes[3], bytes[7], bytes[11], bytes[15]});
#endif
  for (; i < n; ++i) highest = std::max(highest, int{px[4 * i + 3]});
  return highest;
}

#if defined(__x86_64__)
#define RIG2D_SHADOW_AVX2 __attribute__((target("avx2")))

// The alpha bytes (or any byte per lane) of 4 x 8 pixels' 32-bit lanes packed to bytes, lane-wise: the
// pixels out of order, which counting does not mind.
RIG2D_SHADOW_AVX2 inline __m256i pack_lanes(__m256i a, __m256i b, __m256i c, __m256i d) {
  return _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
}

RIG2D_SHADOW_AVX2 inline std::size_t byte_total(__m256i tally) {
  const __m256i s = _mm256_sad_epu8(tally, _mm256_setzero_si256());
  return static_cast<std::size_t>(_mm256_extract_epi64(s, 0) + _mm256_extract_epi64(s, 1) +
                                  _mm256_extract_epi64(s, 2) + _mm256_extract_epi64(s, 3));
}

// count_pixels' steps over a known coverage, 32 pixels per AVX2 step (the caller checked the CPU has
// it); adds to `c` and returns the number of pixels done.
RIG2D_SHADOW_AVX2 std::size_t count_known_avx2(const std::uint8_t* px, std::size_t n, int alpha_threshold, int half,
                                                const std::uint8_t* known, Counts& c) {
  const __m256i above_threshold = _mm256_set1_epi8(static_cast<char>(alpha_threshold + 1));
  const __m256i above_half = _mm256_set1_epi8(static_cast<char>(half + 1));
  const __m256i dark_limit = _mm256_set1_epi8(static_cast<char>(kShadowMaxChannel));
  const __m256i low_byte = _mm256_set1_epi32(0xff);
  __m256i tally_in = _mm256_setzero_si256(), tally_solid = tally_in, tally_shadow = tally_in;
  std::size_t i = 0;
  for (int steps = 0; i + 32 <= n; i += 32) {
    const __m256i k = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(known + i));
    if (_mm256_testz_si256(k, k)) continue;  // nothing covered: nothing to count
    const auto* p = reinterpret_cast<const __m256i*>(px + 4 * i);
    const __m256i v0 = _mm256_loadu_si256(p), v1 = _mm256_loadu_si256(p + 1);
    const __m256i v2 = _mm256_loadu_si256(p + 2), v3 = _mm256_loadu_si256(p + 3);
    const __m256i a = pack_lanes(_mm256_srli_epi32(v0, 24), _mm256_srli_epi32(v1, 24), _mm256_srli_epi32(v2, 24),
                                 _mm256_srli_epi32(v3, 24));
    const __m256i in = _mm256_cmpeq_epi8(_mm256_max_epu8(a, above_threshold), a);
    const __m256i solid = _mm256_cmpeq_epi8(_mm256_max_epu8(a, above_half), a);
    tally_in = _mm256_sub_epi8(tally_in, in);
    tally_solid = _mm256_sub_epi8(tally_solid, solid);
    const __m256i faint = _mm256_andnot_si256(solid, in);
    if (_mm256_movemask_epi8(faint) != 0) {
      __m256i b[4];
      const __m256i v[4] = {v0, v1, v2, v3};
      for (int q = 0; q < 4; ++q) {
        const __m256i rgb = _mm256_max_epu8(_mm256_max_epu8(v[q], _mm256_srli_epi32(v[q], 8)), _mm256_srli_epi32(v[q], 16));
        b[q] = _mm256_and_si256(rgb, low_byte);
      }
      const __m256i brightest = pack_lanes(b[0], b[1], b[2], b[3]);
      const __m256i dark = _mm256_cmpeq_epi8(_mm256_min_epu8(brightest, dark_limit), brightest);
      tally_shadow = _mm256_sub_epi8(tally_shadow, _mm256_and_si256(faint, dark));
    }
    if (++steps == 255) {
      c.covered += byte_total(tally_in), c.solid += byte_total(tally_solid), c.shadow += byte_total(tally_shadow);
      tally_in = tally_solid = tally_shadow = _mm256_setzero_si256();
      steps = 0;
    }
  }
  c.covered += byte_total(tally_in), c.solid += byte_total(tally_solid), c.shadow += byte_total(tally_shadow);
  return i;
}
#endif

#if defined(__SSE2__)
// The per-pixel tests of is_shadow_pixel on 16 pixels at once (four registers of R G B A lanes): alpha
// and the brightest colour channel packed to a byte each, then compared as bytes. count_pixels and
// mark_shadow share them.
struct ShadowTests16 {
  ShadowTests16(int alpha_threshold, int half)
      : above_threshold(_mm_set1_epi8(static_cast<char>(alpha_threshold + 1))),
        above_half(_mm_set1_epi8(static_cast<char>(half + 1))),
        dark_limit(_mm_set1_epi8(static_cast<char>(kShadowMaxChannel))) {}

  static __m128i load(const std::uint8_t* px, int k) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(px) + k);
  }
  static __m128i pack(const __m128i (&v)[4]) {
    return _mm_packus_epi16(_mm_packs_epi32(v[0], v[1]), _mm_packs_epi32(v[2], v[3]));
  }
  static __m128i alphas(const __m128i (&v)[4]) {
    const __m128i a[4] = {_mm_srli_epi32(v[0], 24), _mm_srli_epi32(v[1], 24), _mm_srli_epi32(v[2], 24),
                          _mm_srli_epi32(v[3], 24)};
    return pack(a);
  }
  static __m128i brightest(const __m128i (&v)[4]) {
    __m128i b[4];
    for (int k = 0; k < 4; ++k) {
      const __m128i rgb = _mm_max_epu8(_mm_max_epu8(v[k], _mm_srli_epi32(v[k], 8)), _mm_srli_epi32(v[k], 16));
      b[k] = _mm_and_si128(rgb, _mm_set1_epi32(0xff));
    }
    return pack(b);
  }
  // 0xff per byte where the test holds.
  __m128i covered(__m128i alpha) const { return _mm_cmpeq_epi8(_mm_max_epu8(alpha, above_threshold), alpha); }
  __m128i solid(__m128i alpha) const { return _mm_cmpeq_epi8(_mm_max_epu8(alpha, above_half), alpha); }
  __m128i dark(__m128i brightest) const { return _mm_cmpeq_epi8(_mm_min_epu8(brightest, dark_limit), brightest); }

  __m128i above_threshold, above_half, dark_limit;
};
#endif

// Covered (alpha > alpha_threshold < half), solid (alpha > half) and shadow pixels among n, and, when
// `covered` is given, 1 in covered[i] where pixel i is covered (else 0). This runs on every sprite, so
// 16 pixels per SSE2 step: alpha and the brightest colour channel packed to a byte each and compared
// at once. With `known`, the pixels' coverage found before, a step whose 16 pixels are all uncovered
// has nothing to count and is skipped (a sprite's clear margins and gaps), and where the CPU has AVX2,
// 32 pixels a step.
Counts count_pixels(const std::uint8_t* px, std::size_t n, int alpha_threshold, int half, std::uint8_t* covered,
                    const std::uint8_t* known = nullptr) {
  Counts c;
  std::size_t i = 0;
#if defined(__x86_64__)
  if (known != nullptr && covered == nullptr && __builtin_cpu_supports("avx2"))
    i = count_known_avx2(px, n, alpha_threshold, half, known, c);
#endif
#if defined(__SSE2__)
  const ShadowTests16 test(alpha_threshold, half);
  const __m128i one = _mm_set1_epi8(1);
  // Per-byte tallies (a true compare is -1, so subtracting it counts), summed every 255 steps.
  __m128i tally_in = _mm_setzero_si128(), tally_solid = tally_in, tally_shadow = tally_in;
  auto flush = [&] {
    auto sum = [](__m128i t) {
      const __m128i s = _mm_sad_epu8(t, _mm_setzero_si128());
      return static_cast<std::size_t>(_mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(s, s)));
    };
    c.covered += sum(tally_in), c.solid += sum(tally_solid), c.shadow += sum(tally_shadow);
    tally_in = tally_solid = tally_shadow = _mm_setzero_si128();
  };
  for (int steps = 0; i + 16 <= n; i += 16) {
    if (known != nullptr) {
      std::uint64_t first = 0, second = 0;
      std::memcpy(&first, known + i, 8);
      std::memcpy(&second, known + i + 8, 8);
      if ((first | second) == 0) continue;
    }
    const std::uint8_t* block = px + 4 * i;
    const __m128i v[4] = {test.load(block, 0), test.load(block, 1), test.load(block, 2), test.load(block, 3)};
    const __m128i a = test.alphas(v);
    const __m128i in = test.covered(a);
    if (covered != nullptr) _mm_storeu_si128(reinterpret_cast<__m128i*>(covered + i), _mm_and_si128(in, one));
    const __m128i solid = test.solid(a);
    tally_in = _mm_sub_epi8(tally_in, in);
    tally_solid = _mm_sub_epi8(tally_solid, solid);
    // Only covered pixels at most half opaque can be shadow: most steps (opaque or clear) have none,
    // and skip the colour channels.
    const __m128i faint = _mm_andnot_si128(solid, in);
    if (_mm_movemask_epi8(faint) != 0)
      tally_shadow = _mm_sub_epi8(tally_shadow, _mm_and_si128(faint, test.dark(test.brightest(v))));
    if (++steps == 255) flush(), steps = 0;
  }
  flush();
#endif
  for (; i < n; ++i) {
    const std::uint8_t* p = px + 4 * i;
    if (covered != nullptr) covered[i] = p[3] > alpha_threshold ? 1 : 0;
    c.covered += p[3] > alpha_threshold;
    c.solid += p[3] > half;
    c.shadow += is_shadow_pixel(p, alpha_threshold, half);
  }
  return c;
}

// out[i] = is_shadow_pixel of pixel i, for the n pixels: count_pixels' faint and dark tests, 16 pixels
// per SSE2 step.
void mark_shadow(const std::uint8_t* px, std::size_t n, int alpha_threshold, int half, std::uint8_t* out) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const ShadowTests16 test(alpha_threshold, half);
  const __m128i one = _mm_set1_epi8(1);
  for (; i + 16 <= n; i += 16) {
    const std::uint8_t* block = px + 4 * i;
    const __m128i v[4] = {test.load(block, 0), test.load(block, 1), test.load(block, 2), test.load(block, 3)};
    const __m128i a = test.alphas(v);
    const __m128i faint = _mm_andnot_si128(test.solid(a), test.covered(a));
    const __m128i shadow = _mm_and_si128(faint, test.dark(test.brightest(v)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_and_si128(shadow, one));
  }
#endif
  for (; i < n; ++i) out[i] = is_shadow_pixel(px + 4 * i, alpha_threshold, half) ? 1 : 0;
}

// The number of 1 bytes among n 0/1 bytes, in byte blocks that cannot overflow (a loop that vectorizes).
std::size_t ones(const std::uint8_t* bytes, std::size_t n) {
  std::size_t total = 0;
  for (std::size_t begin = 0; begin < n; begin += 255) {
    std::uint8_t block = 0;
    for (std::size_t i = begin, end = std::min(n, begin + 255); i < end; ++i) block = static_cast<std::uint8_t>(block + bytes[i]);
    total += block;
  }
  return total;
}

}  // namespace

DropShadow find_drop_shadow(const Image& image, int alpha_threshold, const std::uint8_t* covered_pixels) {
  const auto w = static_cast<std::size_t>(std::max(image.width, 0)),
             h = static_cast<std::size_t>(std::max(image.height, 0));
  const std::size_t n = w * h;
  if (n == 0 || image.rgba.size() != 4 * n) return {};
  const std::uint8_t* px = image.rgba.data();
  const int half = highest_alpha(px, n) / 2;
  if (half <= alpha_threshold) return {};  // no alpha level between the threshold and half the highest

  DropShadow out;
  if (covered_pixels == nullptr) out.coverage.resize(n);
  const Counts counts = covered_pixels == nullptr ? count_pixels(px, n, alpha_threshold, half, out.coverage.data())
                                                 : count_pixels(px, n, alpha_threshold, half, nullptr, covered_pixels);
  out.covered = counts.covered, out.solid = counts.solid, out.shadow_pixels = counts.shadow;
  const auto share_of = [&](std::size_t count) {
    return static_cast<double>(count) / static_cast<double>(counts.covered);
  };
  if (counts.covered == 0 || share_of(counts.shadow) < kShadowMinShare || share_of(counts.solid) < kShadowMinSolid)
    return out;

  const std::uint8_t* covered = covered_pixels != nullptr ? covered_pixels : out.coverage.data();
  std::vector<std::uint8_t> shadow(n);
  mark_shadow(px, n, alpha_threshold, half, shadow.data());
  // Depth: erode the coverage by a (2 * kShadowDepth - 1)-wide square, rows then columns: a shadow pixel
  // is deep when its row's eroded bytes and those of the r rows either side are all 1 (0/1 bytes ANDed
  // over whole rows, then counted).
  const std::size_t r = kShadowDepth - 1;
  std::vector<std::uint8_t> rows(n, 0), deep(w);
  for (std::size_t y = 0; y < h; ++y) erode_row(covered + y * w, rows.data() + y * w, w);
  std::size_t deep_count = 0;
  for (std::size_t y = r; y + r < h; ++y) {
    std::copy(shadow.begin() + static_cast<std::ptrdiff_t>(y * w), shadow.begin() + static_cast<std::ptrdiff_t>((y + 1) * w),
              deep.begin());
    for (std::size_t ny = y - r; ny <= y + r; ++ny) {
      const std::uint8_t* e = rows.data() + ny * w;
      for (std::size_t x = 0; x < w; ++x) deep[x] &= e[x];
    }
    deep_count += ones(deep.data(), w);
  }
  if (share_of(deep_count) < kShadowMinShare) return out;
  out.pixels = std::move(shadow);
  out.share = share_of(deep_count);
  return out;
}

}  // namespace rig2d::detail
