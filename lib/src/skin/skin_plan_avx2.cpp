// SPDX-License-Identifier: Apache-2.0
// skin_vertices(SkinPlan) in AVX2 registers. Vertices with different bones go two per step: the low
// 128 bits hold one vertex's (x, y), the high 128 bits the other's. Vertices sharing their bones go
// four per step, as two such pairs reading each matrix once. Each half evaluates the engine's scalar
// expression in its order, with no contraction:
//   acc = 0; for each kept slot: acc += w * ((a*px + c*py) + e)   (y: b, d, f)
// The plan has already dropped the slots the engine skips, and the caller has checked every bone
// index is in range, so a step has no branch. Only functions marked RIG2D_AVX2 use the instructions;
// the caller checks the CPU first.
#include "rig2d/skin/skin_plan.h"
#include "skin/lbs_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

namespace rig2d::detail {
namespace {

#define RIG2D_AVX2 __attribute__((target("avx2")))

static_assert(sizeof(Affine2) == 6 * sizeof(double), "the kernel reads Affine2 as 6 doubles");

// Columns (a, b), (c, d) or (e, f) of two bones, one per 128-bit half.
RIG2D_AVX2 inline __m256d columns(const char* skin, const std::uint64_t* offsets, int column) {
  const auto* lo = reinterpret_cast<const double*>(skin + offsets[0]) + 2 * column;
  const auto* hi = reinterpret_cast<const double*>(skin + offsets[1]) + 2 * column;
  return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(lo)), _mm_loadu_pd(hi), 1);
}

template <int kKept, bool kFloat32>
RIG2D_AVX2 void skin_group(const SkinPlan::Group& g, const Affine2* matrices, Vec2* out) {
  const char* skin = reinterpret_cast<const char*>(matrices);
  const double* pos = g.positions.data();
  const double* w = g.weights.data();
  const std::uint64_t* bones = g.offsets.data();
  for (std::size_t step = 0; 2 * step < g.vertices.size(); ++step, pos += 8) {
    const __m256d px = _mm256_loadu_pd(pos), py = _mm256_loadu_pd(pos + 4);
    __m256d acc = _mm256_setzero_pd();
    for (int k = 0; k < kKept; ++k, w += 4, bones += 2) {
      const auto* m0 = reinterpret_cast<const double*>(skin + bones[0]);
      const auto* m1 = reinterpret_cast<const double*>(skin + bones[1]);
      const __m256d abcd0 = _mm256_loadu_pd(m0), abcd1 = _mm256_loadu_pd(m1);
      const __m256d ab = _mm256_permute2f128_pd(abcd0, abcd1, 0x20), cd = _mm256_permute2f128_pd(abcd0, abcd1, 0x31);
      const __m256d ef = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(m0 + 4)), _mm_loadu_pd(m1 + 4), 1);
      const __m256d xy = _mm256_add_pd(_mm256_mul_pd(ab, px), _mm256_mul_pd(cd, py));
      acc = _mm256_add_pd(acc, _mm256_mul_pd(_mm256_loadu_pd(w), _mm256_add_pd(xy, ef)));
    }
    if constexpr (kFloat32) acc = _mm256_cvtps_pd(_mm256_cvtpd_ps(acc));
    _mm_storeu_pd(&out[g.vertices[2 * step]].x, _mm256_castpd256_pd128(acc));
    _mm_storeu_pd(&out[g.vertices[2 * step + 1]].x, _mm256_extractf128_pd(acc, 1));
  }
}

// Two pairs per step whose slots share one matrix: (a b a b), (c d c d) and (e f e f) are broadcast
// loads, no shuffle, shared by both pairs.
template <int kKept, bool kFloat32>
RIG2D_AVX2 void skin_shared_group(const SkinPlan::SharedGroup& g, const Affine2* matrices, Vec2* out) {
  const char* skin = reinterpret_cast<const char*>(matrices);
  const double* pos = g.positions.data();
  const double* w = g.weights.data();
  const std::uint64_t* bones = g.offsets.data();
  const std::uint32_t* vertex = g.vertices.data();
  for (std::size_t step = 0; 4 * step < g.vertices.size(); ++step, pos += 16, vertex += 4) {
    const __m256d px01 = _mm256_loadu_pd(pos), py01 = _mm256_loadu_pd(pos + 4);
    const __m256d px23 = _mm256_loadu_pd(pos + 8), py23 = _mm256_loadu_pd(pos + 12);
    __m256d acc01 = _mm256_setzero_pd(), acc23 = _mm256_setzero_pd();
    for (int k = 0; k < kKept; ++k, w += 8, ++bones) {
      const auto* m = reinterpret_cast<const double*>(skin + *bones);
      const __m256d ab = _mm256_broadcast_pd(reinterpret_cast<const __m128d*>(m));
      const __m256d cd = _mm256_broadcast_pd(reinterpret_cast<const __m128d*>(m + 2));
      const __m256d ef = _mm256_broadcast_pd(reinterpret_cast<const __m128d*>(m + 4));
      const __m256d xy01 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ab, px01), _mm256_mul_pd(cd, py01)), ef);
      const __m256d xy23 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ab, px23), _mm256_mul_pd(cd, py23)), ef);
      acc01 = _mm256_add_pd(acc01, _mm256_mul_pd(_mm256_loadu_pd(w), xy01));
      acc23 = _mm256_add_pd(acc23, _mm256_mul_pd(_mm256_loadu_pd(w + 4), xy23));
    }
    if constexpr (kFloat32) {
      acc01 = _mm256_cvtps_pd(_mm256_cvtpd_ps(acc01));
      acc23 = _mm256_cvtps_pd(_mm256_cvtpd_ps(acc23));
    }
    _mm_storeu_pd(&out[vertex[0]].x, _mm256_castpd256_pd128(acc01));
    _mm_storeu_pd(&out[vertex[1]].x, _mm256_extractf128_pd(acc01, 1));
    _mm_storeu_pd(&out[vertex[2]].x, _mm256_castpd256_pd128(acc23));
    _mm_storeu_pd(&out[vertex[3]].x, _mm256_extractf128_pd(acc23, 1));
  }
}

template <int kKept, bool kFloat32>
void skin_kept(const SkinPlan& plan, const Affine2* skin, Vec2* out) {
  skin_shared_group<kKept, kFloat32>(plan.shared_group(kKept), skin, out);
  skin_group<kKept, kFloat32>(plan.group(kKept), skin, out);
}

template <bool kFloat32>
void skin_groups(const SkinPlan& plan, const Affine2* skin, Vec2* out) {
  skin_kept<0, kFloat32>(plan, skin, out);
  skin_kept<1, kFloat32>(plan, skin, out);
  skin_kept<2, kFloat32>(plan, skin, out);
  skin_kept<3, kFloat32>(plan, skin, out);
  skin_kept<4, kFloat32>(plan, skin, out);
}

}  // namespace

void skin_plan_avx2(const SkinPlan& plan, const Affine2* skin, Vec2* out, bool float32) {
  if (float32)
    skin_groups<true>(plan, skin, out);
  else
    skin_groups<false>(plan, skin, out);
}

}  // namespace rig2d::detail

#else

namespace rig2d::detail {
void skin_plan_avx2(const SkinPlan&, const Affine2*, Vec2*, bool) {}
}  // namespace rig2d::detail

#endif
