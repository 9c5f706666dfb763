// SPDX-License-Identifier: Apache-2.0
#include "rig2d/skin/lbs.h"

#include <algorithm>

#include "skin/lbs_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig2d {
namespace {

static_assert(sizeof(Affine2) == 6 * sizeof(double) && sizeof(Vec2) == 2 * sizeof(double),
              "the packed path reads Affine2 columns and Vec2 as plain double pairs");

#if defined(__SSE2__)
using Pair = __m128d;  // (x, y)

// The body of skin_vertex, inline so the per-vertex loop makes no call through the symbol table.
// Both lanes evaluate exactly the engine's scalar expression, in the same order and without
// contraction, so results are bit-identical to it. (A branch-free select for skipped slots measured
// slower than these well-predicted branches.)
inline Pair skin_pair(Vec2 p, const std::uint32_t* idx, const double* w, const Affine2* skin, std::size_t bones) {
  const __m128d px = _mm_set1_pd(p.x);
  const __m128d py = _mm_set1_pd(p.y);
  __m128d acc = _mm_setzero_pd();
  for (int k = 0; k < 4; ++k) {
    if (w[k] == 0 || idx[k] >= bones) continue;
    const double* m = &skin[idx[k]].a;  // a b | c d | e f: the images of x, y and the translation
    const __m128d moved = _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_loadu_pd(m), px), _mm_mul_pd(_mm_loadu_pd(m + 2), py)),
                                     _mm_loadu_pd(m + 4));
    acc = _mm_add_pd(acc, _mm_mul_pd(_mm_set1_pd(w[k]), moved));
  }
  return acc;
}

inline Vec2 to_vec2(Pair v) {
  Vec2 out;
  _mm_storeu_pd(&out.x, v);
  return out;
}

// The float32 round trip of the engine's vertex buffer, both lanes at once.
inline Vec2 to_vec2_float32(Pair v) { return to_vec2(_mm_cvtps_pd(_mm_cvtpd_ps(v))); }
#else
struct Pair {
  double x, y;
};

inline Pair skin_pair(Vec2 p, const std::uint32_t* idx, const double* w, const Affine2* skin, std::size_t bones) {
  double ox = 0;
  double oy = 0;
  for (int k = 0; k < 4; ++k) {
    const double wk = w[k];
    if (wk == 0 || idx[k] >= bones) continue;
    const Affine2& m = skin[idx[k]];
    ox += wk * (m.a * p.x + m.c * p.y + m.e);
    oy += wk * (m.b * p.x + m.d * p.y + m.f);
  }
  return {ox, oy};
}

inline Vec2 to_vec2(Pair v) { return {v.x, v.y}; }
inline Vec2 to_vec2_float32(Pair v) { return {round_to_float(v.x), round_to_float(v.y)}; }
#endif

}  // namespace

Vec2 skin_vertex(Vec2 p, const std::uint32_t* idx, const double* w, std::span<const Affine2> skin) {
  return to_vec2(skin_pair(p, idx, w, skin.data(), skin.size()));
}

void skin_vertices(std::span<const Vec2> bind, std::span<const std::uint32_t> skin_indices,
                   std::span<const double> skin_weights, std::span<const Affine2> skin, std::span<Vec2> out) {
  const std::size_t n =
      std::min({bind.size(), out.size(), skin_indices.size() / 4, skin_weights.size() / 4});
  static const detail::SkinKernel kernel = detail::best_skin_kernel();
  detail::skin_with(kernel, bind.data(), skin_indices.data(), skin_weights.data(), skin.data(), skin.size(),
                    out.data(), n);
  for (std::size_t v = n; v < out.size(); ++v) out[v] = {};
}

namespace detail {

bool skin_kernel_available(SkinKernel kernel) {
  if (kernel == SkinKernel::portable) return true;
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();  // may run before libgcc's constructor (static initialization)
  return __builtin_cpu_supports("avx512f") != 0;  // also checks that the OS saves the zmm state
#else
  return false;
#endif
}

SkinKernel best_skin_kernel() {
  return skin_kernel_available(SkinKernel::avx512) ? SkinKernel::avx512 : SkinKernel::portable;
}

void skin_with(SkinKernel kernel, const Vec2* bind, const std::uint32_t* idx, const double* w, const Affine2* skin,
               std::size_t bones, Vec2* out, std::size_t n, bool float32) {
  std::size_t v = kernel == SkinKernel::avx512 ? skin_avx512(bind, idx, w, skin, bones, out, n, float32) : 0;
  for (; v < n; ++v) {
    const Pair p = skin_pair(bind[v], idx + 4 * v, w + 4 * v, skin, bones);
    out[v] = float32 ? to_vec2_float32(p) : to_vec2(p);
  }
}

}  // namespace detail

}  // namespace rig2d
