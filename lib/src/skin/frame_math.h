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
