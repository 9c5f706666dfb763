// SPDX-License-Identifier: Apache-2.0
#include "rig2d/core/affine.h"

#include <cmath>
#include <initializer_list>
#include <limits>

#include "core/js_trig.h"

namespace rig2d {

Affine2 compose(double x, double y, double rot, double sx, double sy) {
  const SinCos t = js_sincos(rot);  // Math.cos / Math.sin bits, not libm's
  return {t.cos * sx, t.sin * sx, -t.sin * sy, t.cos * sy, x, y};
}

Affine2 multiply(const Affine2& m1, const Affine2& m2) {
  return {m1.a * m2.a + m1.c * m2.b,        m1.b * m2.a + m1.d * m2.b,
          m1.a * m2.c + m1.c * m2.d,        m1.b * m2.c + m1.d * m2.d,
          m1.a * m2.e + m1.c * m2.f + m1.e, m1.b * m2.e + m1.d * m2.f + m1.f};
}

Affine2 invert(const Affine2& m) {
  const double det = m.a * m.d - m.b * m.c;
  if (det == 0 || !std::isfinite(det)) return {};
  const double inv = 1 / det;
  const double ia = m.d * inv;
  const double ib = -m.b * inv;
  const double ic = -m.c * inv;
  const double id = m.a * inv;
  return {ia, ib, ic, id, -(ia * m.e + ic * m.f), -(ib * m.e + id * m.f)};
}

Vec2 apply(const Affine2& m, Vec2 p) { return {m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f}; }

Affine2 remove_scale(const Affine2& m) {
  double sx = js_hypot(m.a, m.b);
  double sy = js_hypot(m.c, m.d);
  if (sx == 0 || std::isnan(sx)) sx = 1;  // JS `|| 1`
  if (sy == 0 || std::isnan(sy)) sy = 1;
  return {m.a / sx, m.b / sx, m.c / sy, m.d / sy, m.e, m.f};
}

double js_hypot(double x, double y) {
  const double ax = std::fabs(x);
  const double ay = std::fabs(y);
  const double max = ax > ay ? ax : ay;
  if (ax == std::numeric_limits<double>::infinity() || ay == std::numeric_limits<double>::infinity()) {
    return std::numeric_limits<double>::infinity();
  }
  if (std::isnan(ax) || std::isnan(ay)) return std::numeric_limits<double>::quiet_NaN();
  if (max == 0) return 0;
  // Kahan-compensated sum of the scaled squares, as V8 does.
  double sum = 0;
  double comp = 0;
  for (const double v : {ax, ay}) {
    const double n = v / max;
    const double summand = n * n - comp;
    const double pre = sum + summand;
    comp = (pre - sum) - summand;
    sum = pre;
  }
  return std::sqrt(sum) * max;
}

double js_round(double x) {
  if (!std::isfinite(x)) return x;
  const double r = std::floor(x);
  return (x - r >= 0.5) ? r + 1 : r;
}

}  // namespace rig2d
