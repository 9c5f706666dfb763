// SPDX-License-Identifier: Apache-2.0
// Filtered predicates with an exact fallback (Shewchuk 1997). The exact path represents every value
// as a nonoverlapping expansion (a sum of doubles ordered by increasing magnitude, each term exactly
// representable), built with the error-free transformations two_sum / two_product; the sign of an
// expansion is the sign of its largest term. Requires IEEE double arithmetic without FMA contraction
// (the library is built with -ffp-contract=off).
#include "geometry/predicates.h"

#include <cmath>
#include <vector>

namespace rig2d::detail {
namespace {

using Expansion = std::vector<double>;

constexpr double kEpsilon = 1.1102230246251565e-16;  // 2^-53, half an ulp of 1
constexpr double kSplitter = 134217729.0;             // 2^27 + 1
constexpr double kCcwErrBoundA = (3.0 + 16.0 * kEpsilon) * kEpsilon;
constexpr double kIccErrBoundA = (10.0 + 96.0 * kEpsilon) * kEpsilon;

void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double bv = x - a;
  const double av = x - bv;
  y = (a - av) + (b - bv);
}

void two_diff(double a, double b, double& x, double& y) {
  x = a - b;
  const double bv = a - x;
  const double av = x + bv;
  y = (a - av) + (bv - b);
}

void split(double a, double& hi, double& lo) {
  const double c = kSplitter * a;
  const double abig = c - a;
  hi = c - abig;
  lo = a - hi;
}

void two_product(double a, double b, double& x, double& y) {
  x = a * b;
  double ahi, alo, bhi, blo;
  split(a, ahi, alo);
  split(b, bhi, blo);
  const double err1 = x - ahi * bhi;
  const double err2 = err1 - alo * bhi;
  const double err3 = err2 - ahi * blo;
  y = alo * blo - err3;
}

// e + b, zero terms dropped (Shewchuk's GROW-EXPANSION).
Expansion grow(const Expansion& e, double b) {
  Expansion h;
  h.reserve(e.size() + 1);
  double q = b;
  for (double ei : e) {
    double sum, err;
    two_sum(q, ei, sum, err);
    q = sum;
    if (err != 0.0) h.push_back(err);
  }
  if (q != 0.0 || h.empty()) h.push_back(q);
  return h;
}

Expansion add(const Expansion& e, const Expansion& f) {
  Expansion h = e;
  for (double fi : f) h = grow(h, fi);
  return h;
}

Expansion negate(Expansion e) {
  for (double& x : e) x = -x;
  return e;
}

// e * b (Shewchuk's SCALE-EXPANSION with zero elimination).
Expansion scale(const Expansion& e, double b) {
  Expansion h;
  if (e.empty()) return h;
  h.reserve(2 * e.size());
  double q, hh;
  two_product(e[0], b, q, hh);
  if (hh != 0.0) h.push_back(hh);
  for (std::size_t i = 1; i < e.size(); ++i) {
    double p1, p0;
    two_product(e[i], b, p1, p0);
    double sum, err;
    two_sum(q, p0, sum, err);
    if (err != 0.0) h.push_back(err);
    double s2, e2;
    two_sum(p1, sum, s2, e2);  // |p1| >= |sum| is not guaranteed, so use the full two_sum
    if (e2 != 0.0) h.push_back(e2);
    q = s2;
  }
  if (q != 0.0 || h.empty()) h.push_back(q);
  return h;
}

Expansion multiply(const Expansion& e, const Expansion& f) {
  Expansion h{0.0};
  for (double fi : f) h = add(h, scale(e, fi));
  return h;
}

Expansion difference(double a, double b) {
  double x, y;
  two_diff(a, b, x, y);
  if (y == 0.0) return Expansion{x};
  return Expansion{y, x};
}

// The expansion's value rounded: summing from the smallest term gives the correct sign and a value
// within a few ulps.
double estimate(const Expansion& e) {
  double s = 0.0;
  for (double x : e) s += x;
  if (s == 0.0 && !e.empty()) {
    // Cannot happen for a nonoverlapping expansion with a nonzero term, but keep the sign exact.
    for (auto it = e.rbegin(); it != e.rend(); ++it)
      if (*it != 0.0) return *it;
  }
  return s;
}

}  // namespace

double orient2d_exact(Vec2 a, Vec2 b, Vec2 c) {
  const Expansion acx = difference(a.x, c.x), acy = difference(a.y, c.y);
  const Expansion bcx = difference(b.x, c.x), bcy = difference(b.y, c.y);
  return estimate(add(multiply(acx, bcy), negate(multiply(acy, bcx))));
}

double orient2d(Vec2 a, Vec2 b, Vec2 c) {
  const double detleft = (a.x - c.x) * (b.y - c.y);
  const double detright = (a.y - c.y) * (b.x - c.x);
  const double det = detleft - detright;
  const double detsum = std::fabs(detleft) + std::fabs(detright);
  const double errbound = kCcwErrBoundA * detsum;
  if (det > errbound || -det > errbound) return det;
  return orient2d_exact(a, b, c);
}

double incircle_exact(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const Expansion adx = difference(a.x, d.x), ady = difference(a.y, d.y);
  const Expansion bdx = difference(b.x, d.x), bdy = difference(b.y, d.y);
  const Expansion cdx = difference(c.x, d.x), cdy = difference(c.y, d.y);
  const Expansion alift = add(multiply(adx, adx), multiply(ady, ady));
  const Expansion blift = add(multiply(bdx, bdx), multiply(bdy, bdy));
  const Expansion clift = add(multiply(cdx, cdx), multiply(cdy, cdy));
  const Expansion bc = add(multiply(bdx, cdy), negate(multiply(bdy, cdx)));
  const Expansion ca = add(multiply(cdx, ady), negate(multiply(cdy, adx)));
  const Expansion ab = add(multiply(adx, bdy), negate(multiply(ady, bdx)));
  return estimate(add(add(multiply(alift, bc), multiply(blift, ca)), multiply(clift, ab)));
}

double incircle(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
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
