// SPDX-License-Identifier: Apache-2.0
// skin_vertices, 8 vertices per step in AVX-512 registers (one vertex per lane, x and y apart).
// Each lane evaluates the engine's scalar expression in its order, with no contraction:
//   acc = 0; for k: if (w != 0 && idx < bones) acc += w * ((a*px + c*py) + e)
// The skip is a masked add (the lane keeps acc), so the bits are those of the scalar loop. (Skipping
// a slot for the whole step when no lane keeps it measured slower: the branch splits the schedule.)
// Only functions marked RIG2D_AVX512 use the instructions; the caller checks the CPU first.
#include "skin/lbs_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's own _mm512_undefined_pd (`__m512d __Y = __Y;`) trips -Wmaybe-uninitialized once inlined.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

namespace rig2d::detail {
namespace {

#define RIG2D_AVX512 __attribute__((target("avx512f")))

static_assert(sizeof(Affine2) == 6 * sizeof(double) && sizeof(Vec2) == 2 * sizeof(double),
              "the kernel reads Affine2 as 6 doubles and Vec2 as 2");

// How a lane finds its bone's matrix: a permute across registers holding one component of every
// bone (8, 16, 24 or 32 bones; 24 is its own case because 4 table registers per component crowd the
// 32 zmm registers, which measured 12% slower at 20 bones). Larger skeletons stay on the portable
// loop: hardware gathers measured 3.5x slower than it (8.7 against 2.3 ns per vertex at 20 bones).
enum class Pick { table8, table16, table24, table32 };

// Component c (0..5 = a..f) of each lane's bone. `col` holds the component of bones 0..31, four
// registers of 8; out-of-range lanes read another bone's value, which the keep mask discards.
template <Pick kPick>
RIG2D_AVX512 inline __m512d component(const __m512d* col, __m512i idx) {
  if constexpr (kPick == Pick::table8) {
    return _mm512_permutexvar_pd(idx, col[0]);
  } else if constexpr (kPick == Pick::table16) {
    return _mm512_permutex2var_pd(col[0], idx, col[1]);
  } else if constexpr (kPick == Pick::table24) {
    // Bones 16-23 overwrite their lanes: a masked one-register permute, no separate blend.
    const __m512d lo = _mm512_permutex2var_pd(col[0], idx, col[1]);
    return _mm512_mask_permutexvar_pd(lo, _mm512_test_epi64_mask(idx, _mm512_set1_epi64(16)), idx, col[2]);
  } else {
    const __m512d lo = _mm512_permutex2var_pd(col[0], idx, col[1]);
    const __m512d hi = _mm512_permutex2var_pd(col[2], idx, col[3]);
    return _mm512_mask_blend_pd(_mm512_test_epi64_mask(idx, _mm512_set1_epi64(16)), lo, hi);
  }
}

// Lanes hold vertices 0 2 1 3 4 6 5 7 of the step: the order in which in-lane unpacks and one
// 128-bit shuffle transpose the weights (cheaper than full permutes). Indices, positions and the
// stored result follow the same order.

// The 8 weights of slot k (k = 0..3) from four registers of two vertices x four slots each.
struct SlotWeights {
  __m512d w[4];
};

RIG2D_AVX512 inline SlotWeights transpose_weights(const double* w) {
  const __m512d w0 = _mm512_loadu_pd(w), w1 = _mm512_loadu_pd(w + 8);
  const __m512d w2 = _mm512_loadu_pd(w + 16), w3 = _mm512_loadu_pd(w + 24);
  // 128-bit blocks: (v0k0 v2k0) (v0k2 v2k2) (v1k0 v3k0) (v1k2 v3k2) and so on.
  const __m512d lo01 = _mm512_unpacklo_pd(w0, w1), hi01 = _mm512_unpackhi_pd(w0, w1);
  const __m512d lo23 = _mm512_unpacklo_pd(w2, w3), hi23 = _mm512_unpackhi_pd(w2, w3);
  SlotWeights out;
  out.w[0] = _mm512_shuffle_f64x2(lo01, lo23, _MM_SHUFFLE(2, 0, 2, 0));
  out.w[1] = _mm512_shuffle_f64x2(hi01, hi23, _MM_SHUFFLE(2, 0, 2, 0));
  out.w[2] = _mm512_shuffle_f64x2(lo01, lo23, _MM_SHUFFLE(3, 1, 3, 1));
  out.w[3] = _mm512_shuffle_f64x2(hi01, hi23, _MM_SHUFFLE(3, 1, 3, 1));
  return out;
}

// The bone indices of slots 0-3 for 8 vertices, zero-extended to 64-bit lanes: one permute takes
// the 64-bit (slot 0 | slot 1 << 32) halves of the 8 vertices, another the (slot 2 | slot 3) ones.
struct SlotIndices {
  __m512i bone[4];
};

RIG2D_AVX512 inline SlotIndices slot_indices(const std::uint32_t* idx) {
  const __m512i i0 = _mm512_loadu_si512(idx), i1 = _mm512_loadu_si512(idx + 16);
  const __m512i s01 = _mm512_permutex2var_epi64(i0, _mm512_set_epi64(14, 10, 12, 8, 6, 2, 4, 0), i1);
  const __m512i s23 = _mm512_permutex2var_epi64(i0, _mm512_set_epi64(15, 11, 13, 9, 7, 3, 5, 1), i1);
  const __m512i low = _mm512_set1_epi64(0xffffffffll);
  SlotIndices out;
  out.bone[0] = _mm512_and_si512(s01, low);
  out.bone[1] = _mm512_srli_epi64(s01, 32);
  out.bone[2] = _mm512_and_si512(s23, low);
  out.bone[3] = _mm512_srli_epi64(s23, 32);
  return out;
}

// One register per (component, 8 bones); zero beyond the skeleton (at most 32 bones).
struct BoneTables {
  __m512d col[6][4];
};

RIG2D_AVX512 inline BoneTables bone_tables(const Affine2* skin, std::size_t bones) {
  BoneTables t;
  for (int c = 0; c < 6; ++c) {
    for (int r = 0; r < 4; ++r) {
      alignas(64) double lane[8] = {};
      for (std::size_t j = 0; j < 8; ++j) {
        const std::size_t bone = 8 * static_cast<std::size_t>(r) + j;
        if (bone < bones) lane[j] = reinterpret_cast<const double*>(skin + bone)[c];
      }
      t.col[c][r] = _mm512_load_pd(lane);
    }
  }
  return t;
}

template <Pick kPick, bool kFloat32>
RIG2D_AVX512 void skin_groups(const double* bind, const std::uint32_t* idx, const double* w, const Affine2* skin,
                              std::size_t bones, double* out, std::size_t groups) {
  const BoneTables t = bone_tables(skin, bones);
  const auto& col = t.col;
  const __m512i bone_count = _mm512_set1_epi64(static_cast<long long>(bones));
  const __m512i xs = _mm512_set_epi64(14, 10, 12, 8, 6, 2, 4, 0), ys = _mm512_set_epi64(15, 11, 13, 9, 7, 3, 5, 1);
  const __m512i lo_pairs = _mm512_set_epi64(11, 3, 9, 1, 10, 2, 8, 0);
  const __m512i hi_pairs = _mm512_set_epi64(15, 7, 13, 5, 14, 6, 12, 4);
  const __m512d zero = _mm512_setzero_pd();
  for (std::size_t g = 0; g < groups; ++g, bind += 16, idx += 32, w += 32, out += 16) {
    const __m512d p0 = _mm512_loadu_pd(bind), p1 = _mm512_loadu_pd(bind + 8);
    const __m512d px = _mm512_permutex2var_pd(p0, xs, p1), py = _mm512_permutex2var_pd(p0, ys, p1);
    const SlotIndices si = slot_indices(idx);
    const SlotWeights sw = transpose_weights(w);
    __m512d ax = zero, ay = zero;
    for (int k = 0; k < 4; ++k) {
      const __m512i bi = si.bone[k];
      const __mmask8 keep = _mm512_cmp_pd_mask(sw.w[k], zero, _CMP_NEQ_UQ) & _mm512_cmplt_epu64_mask(bi, bone_count);
      const __m512d a = component<kPick>(col[0], bi);
      const __m512d b = component<kPick>(col[1], bi);
      const __m512d c = component<kPick>(col[2], bi);
      const __m512d d = component<kPick>(col[3], bi);
      const __m512d e = component<kPick>(col[4], bi);
      const __m512d f = component<kPick>(col[5], bi);
      const __m512d mx = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(a, px), _mm512_mul_pd(c, py)), e);
      const __m512d my = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(b, px), _mm512_mul_pd(d, py)), f);
      ax = _mm512_mask_add_pd(ax, keep, ax, _mm512_mul_pd(sw.w[k], mx));
      ay = _mm512_mask_add_pd(ay, keep, ay, _mm512_mul_pd(sw.w[k], my));
    }
    // The engine's float32 vertex buffer, then x/y interleaved back.
    const __m512d rx = kFloat32 ? _mm512_cvtps_pd(_mm512_cvtpd_ps(ax)) : ax;
    const __m512d ry = kFloat32 ? _mm512_cvtps_pd(_mm512_cvtpd_ps(ay)) : ay;
    _mm512_storeu_pd(out, _mm512_permutex2var_pd(rx, lo_pairs, ry));
    _mm512_storeu_pd(out + 8, _mm512_permutex2var_pd(rx, hi_pairs, ry));
  }
}

template <bool kFloat32>
std::size_t skin_avx512_as(const Vec2* bind, const std::uint32_t* idx, const double* w, const Affine2* skin,
                           std::size_t bones, Vec2* out, std::size_t n) {
  const std::size_t groups = n / 8;
  const double* b = reinterpret_cast<const double*>(bind);
  double* o = reinterpret_cast<double*>(out);
  if (bones <= 8) {
    skin_groups<Pick::table8, kFloat32>(b, idx, w, skin, bones, o, groups);
  } else if (bones <= 16) {
    skin_groups<Pick::table16, kFloat32>(b, idx, w, skin, bones, o, groups);
  } else if (bones <= 24) {
    skin_groups<Pick::table24, kFloat32>(b, idx, w, skin, bones, o, groups);
  } else if (bones <= 32) {
    skin_groups<Pick::table32, kFloat32>(b, idx, w, skin, bones, o, groups);
  } else {
    return 0;
  }
  return 8 * groups;
}

}  // namespace

std::size_t skin_avx512(const Vec2* bind, const std::uint32_t* idx, const double* w, const Affine2* skin,
                        std::size_t bones, Vec2* out, std::size_t n, bool float32) {
  return float32 ? skin_avx512_as<true>(bind, idx, w, skin, bones, out, n)
                 : skin_avx512_as<false>(bind, idx, w, skin, bones, out, n);
}

}  // namespace rig2d::detail

#else

namespace rig2d::detail {
std::size_t skin_avx512(const Vec2*, const std::uint32_t*, const double*, const Affine2*, std::size_t, Vec2*,
                        std::size_t, bool) {
  return 0;
}
}  // namespace rig2d::detail

#endif
