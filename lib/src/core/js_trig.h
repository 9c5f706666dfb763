// SPDX-License-Identifier: Apache-2.0
// Math.sin and Math.cos as the engine's JavaScript VM (V8, base::ieee754) computes them: fdlibm's
// method, which glibc's libm does not follow bit for bit. Reduce x by pi/2 to r in [-pi/4, pi/4] as a
// head+tail pair (Cody-Waite with split pi/2 for |x| <= 2^19*pi/2, Payne-Hanek with the binary
// digits of 2/pi beyond), then fdlibm's minimax polynomials on r with the tail correction. The
// header holds the common path so per-frame loops inline it; huge arguments go out of line.
// Build with -ffp-contract=off: every expression is evaluated as written. Internal.
#pragma once

#include <bit>
#include <cstdint>

namespace rig2d {

struct SinCos {
  double sin = 0, cos = 1;
};

namespace detail {

inline std::uint32_t js_trig_high(double x) { return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(x) >> 32); }
inline double js_trig_from_high(std::uint32_t high) { return std::bit_cast<double>(std::uint64_t{high} << 32); }

// sin(x + y) for |x| <= pi/4, y the tail of x (below half an ulp of x); has_tail == false ignores y.
inline double js_kernel_sin(double x, double y, bool has_tail) {
  constexpr double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                   S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                   S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
  if ((js_trig_high(x) & 0x7fffffffu) < 0x3e400000u) return x;  // |x| < 2^-27: sin x rounds to x
  const double z = x * x;
  const double v = z * x;
  const double r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (!has_tail) return x + v * (S1 + z * r);
  return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

// cos(x + y) for |x| <= pi/4. Above 0.3, 1 - x^2/2 is split as (1 - q) - (x^2/2 - q) with q about
// x^2/8 (exact in a few bits) so the subtraction loses no accuracy.
inline double js_kernel_cos(double x, double y) {
  constexpr double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                   C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                   C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
  const std::uint32_t ix = js_trig_high(x) & 0x7fffffffu;
  if (ix < 0x3e400000u) return 1.0;  // |x| < 2^-27
  const double z = x * x;
  const double r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ix < 0x3fd33333u) return 1.0 - (0.5 * z - (z * r - x * y));  // |x| < 0.3
  const double qx = ix > 0x3fe90000u ? 0.28125 : js_trig_from_high(ix - 0x00200000u);  // x/4 truncated
  const double hz = 0.5 * z - qx;
  const double a = 1.0 - qx;
  return a - (hz - (z * r - x * y));
}

// x = n*pi/2 + (y0 + y1) for |x| > 2^19*pi/2 (finite): Payne-Hanek. Returns n mod 8. js_trig.cpp.
int js_rem_pio2_large(double x, double& y0, double& y1);

// x = n*pi/2 + (y0 + y1), |y0 + y1| <= pi/4 (a little more near the boundaries); returns n.
// Requires |x| > pi/4 and x finite.
inline int js_rem_pio2(double x, double& y0, double& y1) {
  constexpr double invpio2 = 6.36619772367581382433e-01;  // 2/pi
  // pi/2 in three 33-bit pieces, each with the rest of pi/2 after it (the t constants).
  constexpr double pio2_1 = 1.57079632673412561417e+00, pio2_1t = 6.07710050650619224932e-11;
  constexpr double pio2_2 = 6.07710050630396597660e-11, pio2_2t = 2.02226624879595063154e-21;
  constexpr double pio2_3 = 2.02226624871116645580e-21, pio2_3t = 8.47842766036889956997e-32;
  const std::uint32_t hx = js_trig_high(x);
  const std::uint32_t ix = hx & 0x7fffffffu;
  const bool negative = (hx >> 31) != 0;
  if (ix < 0x4002d97cu) {  // |x| < 3pi/4: n = +-1; x near pi/2 takes the second piece too
    const double s = negative ? -1.0 : 1.0;
    double z = x - s * pio2_1;
    if (ix != 0x3ff921fbu) {
      y0 = z - s * pio2_1t;
      y1 = (z - y0) - s * pio2_1t;
    } else {
      z -= s * pio2_2;
      y0 = z - s * pio2_2t;
      y1 = (z - y0) - s * pio2_2t;
    }
    return negative ? -1 : 1;
  }
  if (ix > 0x413921fbu) return js_rem_pio2_large(x, y0, y1);
  // High words of n*pi/2, n = 1..32: an x sharing one may cancel, so it takes the careful path.
  constexpr std::uint32_t npio2_hw[32] = {
      0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB, 0x402921FB,
      0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB,
      0x403AB41B, 0x403C463A, 0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C,
      0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB, 0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB};
  const double t = negative ? -x : x;
  const int n = static_cast<int>(t * invpio2 + 0.5);
  const double fn = static_cast<double>(n);
  double r = t - fn * pio2_1;
  double w = fn * pio2_1t;  // first product: good to about 85 bits
  if (n < 32 && ix != npio2_hw[n - 1]) {
    y0 = r - w;
  } else {
    const int j = static_cast<int>(ix >> 20);
    y0 = r - w;
    if (j - static_cast<int>((js_trig_high(y0) >> 20) & 0x7ff) > 16) {  // cancelled: second piece
      double u = r;
      w = fn * pio2_2;
      r = u - w;
      w = fn * pio2_2t - ((u - r) - w);
      y0 = r - w;
      if (j - static_cast<int>((js_trig_high(y0) >> 20) & 0x7ff) > 49) {  // and the third
        u = r;
        w = fn * pio2_3;
        r = u - w;
        w = fn * pio2_3t - ((u - r) - w);
        y0 = r - w;
      }
    }
  }
  y1 = (r - y0) - w;
  if (negative) {
    y0 = -y0, y1 = -y1;
    return -n;
  }
  return n;
}

}  // namespace detail

// Math.sin(x) and Math.cos(x), bit for bit (NaN and +-Inf give NaN; -0 stays -0 for sin).
inline SinCos js_sincos(double x) {
  const std::uint32_t ix = detail::js_trig_high(x) & 0x7fffffffu;
  if (ix <= 0x3fe921fbu) return {detail::js_kernel_sin(x, 0.0, false), detail::js_kernel_cos(x, 0.0)};
  if (ix >= 0x7ff00000u) return {x - x, x - x};
  double y0 = 0, y1 = 0;
  const int n = detail::js_rem_pio2(x, y0, y1);
  const double s = detail::js_kernel_sin(y0, y1, true), c = detail::js_kernel_cos(y0, y1);
  switch (n & 3) {
    case 0: return {s, c};
    case 1: return {c, -s};
    case 2: return {-s, -c};
    default: return {-c, s};
  }
}

inline double js_sin(double x) {
  const std::uint32_t ix = detail::js_trig_high(x) & 0x7fffffffu;
  if (ix <= 0x3fe921fbu) return detail::js_kernel_sin(x, 0.0, false);
  if (ix >= 0x7ff00000u) return x - x;
  double y0 = 0, y1 = 0;
  const int n = detail::js_rem_pio2(x, y0, y1);
  switch (n & 3) {
    case 0: return detail::js_kernel_sin(y0, y1, true);
    case 1: return detail::js_kernel_cos(y0, y1);
    case 2: return -detail::js_kernel_sin(y0, y1, true);
    default: return -detail::js_kernel_cos(y0, y1);
  }
}

inline double js_cos(double x) {
  const std::uint32_t ix = detail::js_trig_high(x) & 0x7fffffffu;
  if (ix <= 0x3fe921fbu) return detail::js_kernel_cos(x, 0.0);
  if (ix >= 0x7ff00000u) return x - x;
  double y0 = 0, y1 = 0;
  const int n = detail::js_rem_pio2(x, y0, y1);
  switch (n & 3) {
    case 0: return detail::js_kernel_cos(y0, y1);
    case 1: return -detail::js_kernel_sin(y0, y1, true);
    case 2: return -detail::js_kernel_cos(y0, y1);
    default: return detail::js_kernel_sin(y0, y1, true);
  }
}

}  // namespace rig2d
