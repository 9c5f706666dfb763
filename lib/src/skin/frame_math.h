// SPDX-License-Identifier: Apache-2.0
// compose and multiply (core/affine.h) inline, for the loops that run every frame: a call per bone
// and a 48-byte result through memory cost about as much as the arithmetic. The same expressions in
// the same order, compiled without contraction like the rest of the library, so the same bits; the
// tests compare the per-frame paths with the ones that call core/affine.
#pragma once

#include <cstddef>

#include "core/js_trig.h"
#include "rig2d/core/affine.h"
#include "rig2d/skin/skeleton.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig2d::detail {

// compose(l.x, l.y, l.rot, l.sx, l.sy) given c = js_cos(l.rot) and s = js_sin(l.rot).
inline Affine2 frame_local(const BoneLocal& l, double c, double s) {
  return {c * l.sx, s * l.sx, -s * l.sy, c * l.sy, l.x, l.y};
}

// compose(l.x, l.y, l.rot, l.sx, l.sy).
inline Affine2 frame_compose(const BoneLocal& l) {
  const SinCos t = js_sincos(l.rot);
  return frame_local(l, t.cos, t.sin);
}

// multiply(m1, m2).
inline Affine2 frame_multiply(const Affine2& m1, const Affine2& m2) {
  return {m1.a * m2.a + m1.c * m2.b,        m1.b * m2.a + m1.d * m2.b,
          m1.a * m2.c + m1.c * m2.d,        m1.b * m2.c + m1.d * m2.d,
          m1.a * m2.e + m1.c * m2.f + m1.e, m1.b * m2.e + m1.d * m2.f + m1.f};
}

// An Affine2 as its three columns (a b | c d | e f), a pair of doubles each: multiply's six
// expressions are three pairs of the same operations in the same order, lane by lane, so a product
// costs half the instructions with the same bits.
#if defined(__SSE2__)
struct FrameColumns {
  __m128d x, y, t;
};

inline FrameColumns frame_columns(const Affine2& m) {
  return {_mm_loadu_pd(&m.a), _mm_loadu_pd(&m.c), _mm_loadu_pd(&m.e)};
}

inline void frame_store(Affine2& out, const FrameColumns& m) {
  _mm_storeu_pd(&out.a, m.x);
  _mm_storeu_pd(&out.c, m.y);
  _mm_storeu_pd(&out.e, m.t);
}

// frame_local(l, c, s).
inline FrameColumns frame_local_columns(const BoneLocal& l, double c, double s) {
  return {_mm_mul_pd(_mm_set_pd(s, c), _mm_set1_pd(l.sx)), _mm_mul_pd(_mm_set_pd(c, -s), _mm_set1_pd(l.sy)),
          _mm_set_pd(l.y, l.x)};
}

// multiply(m1, m2).
inline FrameColumns frame_multiply_columns(const FrameColumns& m1, const Affine2& m2) {
  return {_mm_add_pd(_mm_mul_pd(m1.x, _mm_set1_pd(m2.a)), _mm_mul_pd(m1.y, _mm_set1_pd(m2.b))),
          _mm_add_pd(_mm_mul_pd(m1.x, _mm_set1_pd(m2.c)), _mm_mul_pd(m1.y, _mm_set1_pd(m2.d))),
          _mm_add_pd(_mm_add_pd(_mm_mul_pd(m1.x, _mm_set1_pd(m2.e)), _mm_mul_pd(m1.y, _mm_set1_pd(m2.f))), m1.t)};
}
#else
struct FrameColumns {
  Affine2 m;
};
inline FrameColumns frame_columns(const Affine2& m) { return {m}; }
inline void frame_store(Affine2& out, const FrameColumns& m) { out = m.m; }
inline FrameColumns frame_local_columns(const BoneLocal& l, double c, double s) { return {frame_local(l, c, s)}; }
inline FrameColumns frame_multiply_columns(const FrameColumns& m1, const Affine2& m2) {
  return {frame_multiply(m1.m, m2)};
}
#endif

// out[step.bone] from the bone's local transform and its parent's matrix (out[step.parent]), as
// pose_root_local places it: a root, or a parent outside the first n, takes the local transform as it
// is; a no_scale bone its parent's matrix without the scale.
inline void frame_place(const PoseStep& step, bool no_scale, const Affine2& local, Affine2* out, std::size_t n) {
  if (step.parent < 0 || static_cast<std::size_t>(step.parent) >= n) {
    out[step.bone] = local;
    return;
  }
  const Affine2& parent = out[static_cast<std::size_t>(step.parent)];
  out[step.bone] = no_scale ? multiply(remove_scale(parent), local) : frame_multiply(parent, local);
}

}  // namespace rig2d::detail
