// SPDX-License-Identifier: Apache-2.0
// skin_vertices, 8 vertices per step in AVX-512 registers (one vertex per lane, x and y apart).
// Each lane evaluates the engine's scalar expression in its order, with no contraction:
//   acc = 0; for k: if (w != 0 && idx < bones) acc += w * ((a*px + c*py) + e)
// The skip is a masked add (the lane keeps acc), so the bits are those of the scalar loop.
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
// bone (8, 16 or 32 bones), or a gather from memory for larger skeletons.
enum class Pick { table8, table16, table32, gather };

// Component c (0..5 = a..f) of each lane's bone. `col` holds the component of bones 0..31, four
// registers of 8; out-of-range lanes read garbage, which the keep mask discards.
template <Pick kPick>
RIG2D_AVX512 inline __m512d component(const __m512d* col, const double* base, __m512i idx, __m512i idx6,
                                      __mmask8 keep) {
  if constexpr (kPick == Pick::table8) {
    return _mm512_permutexvar_pd(idx, col[0]);
  } else if constexpr (kPick == Pick::table16) {
    return _mm512_permutex2var_pd(col[0], idx, col[1]);
  } else if constexpr (kPick == Pick::table32) {
    const __m512d lo = _mm512_permutex2var_pd(col[0], idx, col[1]);
    const __m512d hi = _mm512_permutex2var_pd(col[2], idx, col[3]);
    return _mm512_mask_blend_pd(_mm512_test_epi64_mask(idx, _mm512_set1_epi64(16)), lo, hi);
  } else {
    // Masked: a skipped lane (index out of range) never touches memory.
    return _mm512_mask_i64gather_pd(_mm512_setzero_pd(), keep, idx6, base, 8);
  }
}

// The 8 weights of slot k (k = 0..3) from four registers of two vertices x four slots each.
struct SlotWeights {
  __m512d w[4];
};

RIG2D_AVX512 inline SlotWeights transpose_weights(const double* w) {
  const __m512d w0 = _mm512_loadu_pd(w), w1 = _mm512_loadu_pd(w + 8);
  const __m512d w2 = _mm512_loadu_pd(w + 16), w3 = _mm512_loadu_pd(w + 24);
  // Slots 0|1 and 2|3 of vertices 0-3, then of vertices 4-7 (4 lanes each).
  const __m512i s01 = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);
  const __m512i s23 = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
  const __m512d a01 = _mm512_permutex2var_pd(w0, s01, w1), a23 = _mm512_permutex2var_pd(w0, s23, w1);
  const __m512d b01 = _mm512_permutex2var_pd(w2, s01, w3), b23 = _mm512_permutex2var_pd(w2, s23, w3);
  SlotWeights out;
  out.w[0] = _mm512_shuffle_f64x2(a01, b01, _MM_SHUFFLE(1, 0, 1, 0));
  out.w[1] = _mm512_shuffle_f64x2(a01, b01, _MM_SHUFFLE(3, 2, 3, 2));
  out.w[2] = _mm512_shuffle_f64x2(a23, b23, _MM_SHUFFLE(1, 0, 1, 0));
  out.w[3] = _mm512_shuffle_f64x2(a23, b23, _MM_SHUFFLE(3, 2, 3, 2));
  return out;
}

// The bone index of slot k for 8 vertices, zero-extended to 64-bit lanes.
RIG2D_AVX512 inline __m512i slot_index(__m512i i0, __m512i i1, int k) {
  const __m512i pick = _mm512_add_epi32(_mm512_set_epi32(0, 28, 0, 24, 0, 20, 0, 16, 0, 12, 0, 8, 0, 4, 0, 0),
                                        _mm512_set1_epi32(k));
  return _mm512_maskz_permutex2var_epi32(0x5555, i0, pick, i1);
}

template <Pick kPick>
RIG2D_AVX512 void skin_groups(const double* bind, const std::uint32_t* idx, const double* w, const Affine2* skin,
                              std::size_t bones, double* out, std::size_t groups) {
  // One register per (component, 8 bones); zero beyond the skeleton.
  __m512d col[6][4];
  for (int c = 0; c < 6; ++c) {
    for (int r = 0; r < 4; ++r) {
      alignas(64) double lane[8] = {};
      for (std::size_t j = 0; j < 8; ++j) {
        const std::size_t bone = 8 * static_cast<std::size_t>(r) + j;
        if (bone < bones) lane[j] = reinterpret_cast<const double*>(skin + bone)[c];
      }
      col[c][r] = _mm512_load_pd(lane);
    }
  }
  const double* base = reinterpret_cast<const double*>(skin);
  const __m512i bone_count = _mm512_set1_epi64(static_cast<long long>(bones));
  const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
  const __m512i lo_pairs = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
  const __m512i hi_pairs = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
  const __m512d zero = _mm512_setzero_pd();
  for (std::size_t g = 0; g < groups; ++g, bind += 16, idx += 32, w += 32, out += 16) {
    const __m512d p0 = _mm512_loadu_pd(bind), p1 = _mm512_loadu_pd(bind + 8);
    const __m512d px = _mm512_permutex2var_pd(p0, even, p1), py = _mm512_permutex2var_pd(p0, odd, p1);
    const __m512i i0 = _mm512_loadu_si512(idx), i1 = _mm512_loadu_si512(idx + 16);
    const SlotWeights sw = transpose_weights(w);
    __m512d ax = zero, ay = zero;
    for (int k = 0; k < 4; ++k) {
      const __m512i bi = slot_index(i0, i1, k);
      const __mmask8 keep = _mm512_cmp_pd_mask(sw.w[k], zero, _CMP_NEQ_UQ) & _mm512_cmplt_epu64_mask(bi, bone_count);
      const __m512i bi6 = _mm512_add_epi64(_mm512_slli_epi64(bi, 2), _mm512_slli_epi64(bi, 1));
      const __m512d a = component<kPick>(col[0], base + 0, bi, bi6, keep);
      const __m512d b = component<kPick>(col[1], base + 1, bi, bi6, keep);
      const __m512d c = component<kPick>(col[2], base + 2, bi, bi6, keep);
      const __m512d d = component<kPick>(col[3], base + 3, bi, bi6, keep);
      const __m512d e = component<kPick>(col[4], base + 4, bi, bi6, keep);
      const __m512d f = component<kPick>(col[5], base + 5, bi, bi6, keep);
      const __m512d mx = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(a, px), _mm512_mul_pd(c, py)), e);
      const __m512d my = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(b, px), _mm512_mul_pd(d, py)), f);
      ax = _mm512_mask_add_pd(ax, keep, ax, _mm512_mul_pd(sw.w[k], mx));
      ay = _mm512_mask_add_pd(ay, keep, ay, _mm512_mul_pd(sw.w[k], my));
    }
    // The engine's float32 vertex buffer, then x/y interleaved back.
    const __m512d rx = _mm512_cvtps_pd(_mm512_cvtpd_ps(ax)), ry = _mm512_cvtps_pd(_mm512_cvtpd_ps(ay));
    _mm512_storeu_pd(out, _mm512_permutex2var_pd(rx, lo_pairs, ry));
    _mm512_storeu_pd(out + 8, _mm512_permutex2var_pd(rx, hi_pairs, ry));
  }
}

}  // namespace

std::size_t skin_avx512(const Vec2* bind, const std::uint32_t* idx, const double* w, const Affine2* skin,
                        std::size_t bones, Vec2* out, std::size_t n) {
  const std::size_t groups = n / 8;
  const double* b = reinterpret_cast<const double*>(bind);
  double* o = reinterpret_cast<double*>(out);
  if (bones <= 8) {
    skin_groups<Pick::table8>(b, idx, w, skin, bones, o, groups);
  } else if (bones <= 16) {
    skin_groups<Pick::table16>(b, idx, w, skin, bones, o, groups);
  } else if (bones <= 32) {
    skin_groups<Pick::table32>(b, idx, w, skin, bones, o, groups);
  } else {
    skin_groups<Pick::gather>(b, idx, w, skin, bones, o, groups);
  }
  return 8 * groups;
}

}  // namespace rig2d::detail

#else

namespace rig2d::detail {
std::size_t skin_avx512(const Vec2*, const std::uint32_t*, const double*, const Affine2*, std::size_t, Vec2*,
                        std::size_t) {
  return 0;
}
}  // namespace rig2d::detail

#endif
