// SPDX-License-Identifier: Apache-2.0
// 2x3 affine matrices, exactly as the engine's rig2dMath: Affine2{a,b,c,d,e,f} maps
// (x, y) -> (a*x + c*y + e, b*x + d*y + f). Columns (a,b) and (c,d) are the images of +x and +y.
// Every expression is evaluated in the engine's order so results match it bit for bit (build with
// -ffp-contract=off).
#pragma once

#include "rig2d/core/types.h"
#include "rig2d/export.h"

namespace rig2d {

struct Affine2 {
  double a = 1, b = 0, c = 0, d = 1, e = 0, f = 0;
  friend bool operator==(const Affine2&, const Affine2&) = default;
};

// T * R * S: scale first, then rotate by `rot` radians, then translate by (x, y).
RIG2D_EXPORT Affine2 compose(double x, double y, double rot, double sx = 1, double sy = 1);
// m1 * m2 (m2 is applied first). A child's root-local matrix is multiply(parent, child_local).
RIG2D_EXPORT Affine2 multiply(const Affine2& m1, const Affine2& m2);
// Inverse; a singular or non-finite determinant gives the identity (the engine's fallback).
RIG2D_EXPORT Affine2 invert(const Affine2& m);
RIG2D_EXPORT Vec2 apply(const Affine2& m, Vec2 p);
// Normalizes each column separately (a zero-length column is left alone); shear is kept.
RIG2D_EXPORT Affine2 remove_scale(const Affine2& m);

// ECMAScript Math.hypot as V8 computes it (scaled Kahan sum), which differs from libm hypot and from
// sqrt(x*x + y*y) in the last bit. Used wherever the engine uses Math.hypot.
RIG2D_EXPORT double js_hypot(double x, double y);
// Math.round: round half toward +infinity.
RIG2D_EXPORT double js_round(double x);

}  // namespace rig2d
