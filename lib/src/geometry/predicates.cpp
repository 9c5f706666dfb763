// SPDX-License-Identifier: Apache-2.0
// Filtered predicates with an exact fallback (Shewchuk 1997). The exact path represents every value
// as a nonoverlapping expansion (a sum of doubles ordered by increasing magnitude, each term exactly
// representable), built with the error-free transformations two_sum / two_product; the sign of an
// expansion is the sign of its largest term. Requires IEEE double arithmetic without FMA contraction
// (the library is built with -ffp-contract=off).
#include "geometry/predicates.h"

#include <algorithm>
#include <cmath>

namespace rig2d::detail {
namespace {

constexpr double kSplitter = 134217729.0;             // 2^27 + 1

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

// Expansions of a bounded length in caller-owned arrays: incircle's exact path runs for every
// co-circular quadruple (a lattice of pixel corners, a stippled image's dots), and building its
// ~1500-term expansions through growing vectors cost an allocation per term. Each function writes its
// result to `h` and returns its length; inputs are nonoverlapping expansions (increasing magnitude),
// and so are the results, with zero terms dropped (Shewchuk 1997: EXPANSION-SUM and SCALE-EXPANSION).

// e + f: the terms merged by magnitude, then summed from the smallest, each rounding error kept.
std::size_t sum_into(const double* e, std::size_t en, const double* f, std::size_t fn, double* h) {
  if (en == 0 || fn == 0) {
    const double* from = en == 0 ? f : e;
    const std::size_t n = en == 0 ? fn : en;
    std::copy(from, from + n, h);
    return n;
  }
  std::size_t i = 0, j = 0, hn = 0;
  auto take = [&] {  // the next term by magnitude
    if (j == fn || (i < en && std::fabs(e[i]) < std::fabs(f[j]))) return e[i++];
    return f[j++];
  };
  double q = take();
  while (i < en || j < fn) {
    double sum, err;
    two_sum(q, take(), sum, err);
    if (err != 0.0) h[hn++] = err;
    q = sum;
  }
  if (q != 0.0 || hn == 0) h[hn++] = q;
  return hn;
}

// e * b.
std::size_t scale_into(const double* e, std::size_t en, double b, double* h) {
  std::size_t hn = 0;
  double q, hh;
  two_product(e[0], b, q, hh);
  if (hh != 0.0) h[hn++] = hh;
  for (std::size_t i = 1; i < en; ++i) {
    double p1, p0, sum, err, s2, e2;
    two_product(e[i], b, p1, p0);
    two_sum(q, p0, sum, err);
    if (err != 0.0) h[hn++] = err;
    two_sum(p1, sum, s2, e2);
    if (e2 != 0.0) h[hn++] = e2;
    q = s2;
  }
  if (q != 0.0 || hn == 0) h[hn++] = q;
  return hn;
}

// e * f as the sum of e scaled by each term of f; `scratch` holds 2 * en terms, `partial` the result's.
std::size_t multiply_into(const double* e, std::size_t en, const double* f, std::size_t fn, double* h, double* scratch,
                          double* partial) {
  std::size_t hn = scale_into(e, en, f[0], h);
  for (std::size_t k = 1; k < fn; ++k) {
    const std::size_t sn = scale_into(e, en, f[k], scratch);
    std::copy(h, h + hn, partial);
    hn = sum_into(partial, hn, scratch, sn, h);
  }
  return hn;
}

// The expansion's value rounded: summing from the smallest term keeps the largest term's sign (the
// expansion's) and lands within a few ulps.
double estimate(const double* e, std::size_t n) {
  double s = 0.0;
  for (std::size_t k = 0; k < n; ++k) s += e[k];
  return s;
}

// a - b as one or two terms.
std::size_t difference_into(double a, double b, double* h) {
  double x, y;
  two_diff(a, b, x, y);
  if (y == 0.0) {
    h[0] = x;
    return 1;
  }
  h[0] = y;
  h[1] = x;
  return 2;
}

}  // namespace

double orient2d_exact(Vec2 a, Vec2 b, Vec2 c) {
  double acx[2], acy[2], bcx[2], bcy[2], left[8], right[8], scratch[4], partial[8], det[16];
  const std::size_t nacx = difference_into(a.x, c.x, acx), nacy = difference_into(a.y, c.y, acy);
  const std::size_t nbcx = difference_into(b.x, c.x, bcx), nbcy = difference_into(b.y, c.y, bcy);
  const std::size_t nl = multiply_into(acx, nacx, bcy, nbcy, left, scratch, partial);
  const std::size_t nr = multiply_into(acy, nacy, bcx, nbcx, right, scratch, partial);
  for (std::size_t k = 0; k < nr; ++k) right[k] = -right[k];
  return estimate(det, sum_into(left, nl, right, nr, det));
}

double incircle_exact(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  // Term bounds: a difference 2, a product of two 8, a lift or cross sum 16, a lift times a cross 512,
  // the determinant 1536.
  double adx[2], ady[2], bdx[2], bdy[2], cdx[2], cdy[2];
  const std::size_t nadx = difference_into(a.x, d.x, adx), nady = difference_into(a.y, d.y, ady);
  const std::size_t nbdx = difference_into(b.x, d.x, bdx), nbdy = difference_into(b.y, d.y, bdy);
  const std::size_t ncdx = difference_into(c.x, d.x, cdx), ncdy = difference_into(c.y, d.y, cdy);
  double scratch[1024], partial[1024], p[8], q[8];
  // x0*y0 + sign * x1*y1 (sign -1 negates the second product's terms), 16 terms at most.
  auto pair_sum = [&](const double* x0, std::size_t n0, const double* y0, std::size_t m0, const double* x1,
                      std::size_t n1, const double* y1, std::size_t m1, double sign, double* out) {
    const std::size_t pn = multiply_into(x0, n0, y0, m0, p, scratch, partial);
    const std::size_t qn = multiply_into(x1, n1, y1, m1, q, scratch, partial);
    for (std::size_t k = 0; k < qn; ++k) q[k] *= sign;
    return sum_into(p, pn, q, qn, out);
  };
  double alift[16], blift[16], clift[16], bc[16], ca[16], ab[16];
  const std::size_t nal = pair_sum(adx, nadx, adx, nadx, ady, nady, ady, nady, 1, alift);
  const std::size_t nbl = pair_sum(bdx, nbdx, bdx, nbdx, bdy, nbdy, bdy, nbdy, 1, blift);
  const std::size_t ncl = pair_sum(cdx, ncdx, cdx, ncdx, cdy, ncdy, cdy, ncdy, 1, clift);
  const std::size_t nbc = pair_sum(bdx, nbdx, cdy, ncdy, bdy, nbdy, cdx, ncdx, -1, bc);
  const std::size_t nca = pair_sum(cdx, ncdx, ady, nady, cdy, ncdy, adx, nadx, -1, ca);
  const std::size_t nab = pair_sum(adx, nadx, bdy, nbdy, ady, nady, bdx, nbdx, -1, ab);
  double ta[512], tb[512], tc[512], tab[1024], det[1536];
  const std::size_t na = multiply_into(alift, nal, bc, nbc, ta, scratch, partial);
  const std::size_t nb = multiply_into(blift, nbl, ca, nca, tb, scratch, partial);
  const std::size_t nc = multiply_into(clift, ncl, ab, nab, tc, scratch, partial);
  const std::size_t nt = sum_into(ta, na, tb, nb, tab);
  const std::size_t nd = sum_into(tab, nt, tc, nc, det);
  return estimate(det, nd);
}


}  // namespace rig2d::detail
