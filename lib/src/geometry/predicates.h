// SPDX-License-Identifier: Apache-2.0
// Robust geometric predicates after Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast
// Robust Geometric Predicates" (1997): a floating-point filter with his error bounds, and when the
// filter cannot decide, an exact evaluation with floating-point expansions. The sign is always exact
// for finite inputs whose products neither overflow nor underflow (|coordinates| <= 1e30 keeps well
// clear of both). Private to the library; exported only for the unit tests.
#pragma once

#include <cmath>

#include "rig2d/core/types.h"

namespace rig2d::detail {

// The exact paths alone, without the filter (so tests can check that both agree).
double orient2d_exact(Vec2 a, Vec2 b, Vec2 c);
double incircle_exact(Vec2 a, Vec2 b, Vec2 c, Vec2 d);

// Twice the signed area of (a, b, c): > 0 when a -> b -> c turns counter-clockwise in the y-up
// (mathematical) frame, < 0 when clockwise, exactly 0 when collinear. The sign is exact. The filter
// is inline: the hulls, the simplifier and the triangulation call it by the ten thousand, and nearly
// always it decides.
inline double orient2d(Vec2 a, Vec2 b, Vec2 c) {
  constexpr double kEpsilon = 1.1102230246251565e-16;  // 2^-53, half an ulp of 1
  constexpr double kCcwErrBoundA = (3.0 + 16.0 * kEpsilon) * kEpsilon;
  const double detleft = (a.x - c.x) * (b.y - c.y);
  const double detright = (a.y - c.y) * (b.x - c.x);
  const double det = detleft - detright;
  const double detsum = std::fabs(detleft) + std::fabs(detright);
  // Both products 0 (three points on one level or upright line, as a traced outline's straight runs
  // are): the exact sum is 0 too, and returns +0, so it is not run.
  if (detsum == 0) return 0.0;
  const double errbound = kCcwErrBoundA * detsum;
  if (det > errbound || -det > errbound) return det;
  return orient2d_exact(a, b, c);
}

// > 0 when d lies strictly inside the circle through a, b, c (given with orient2d(a, b, c) > 0),
// < 0 outside, exactly 0 on it. The sign is exact. Inline as orient2d is: the triangulation's flips
// ask it for every edge they check.
inline double incircle(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  constexpr double kEpsilon = 1.1102230246251565e-16;  // 2^-53, half an ulp of 1
  constexpr double kIccErrBoundA = (10.0 + 96.0 * kEpsilon) * kEpsilon;
  const double adx = a.x - d.x, ady = a.y - d.y;
  const double bdx = b.x - d.x, bdy = b.y - d.y;
  const double cdx = c.x - d.x, cdy = c.y - d.y;
  const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
  const double alift = adx * adx + ady * ady;
  const double cdxady = cdx * ady, adxcdy = adx * cdy;
  const double blift = bdx * bdx + bdy * bdy;
  const double adxbdy = adx * bdy, bdxady = bdx * ady;
  const double clift = cdx * cdx + cdy * cdy;
  const double det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
  const double permanent = (std::fabs(bdxcdy) + std::fabs(cdxbdy)) * alift +
                           (std::fabs(cdxady) + std::fabs(adxcdy)) * blift +
                           (std::fabs(adxbdy) + std::fabs(bdxady)) * clift;
  const double errbound = kIccErrBoundA * permanent;
  if (det > errbound || -det > errbound) return det;
  return incircle_exact(a, b, c, d);
}

}  // namespace rig2d::detail
