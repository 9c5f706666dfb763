// SPDX-License-Identifier: Apache-2.0
#include "rig2d/geometry/island_hulls.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <span>
#include <utility>
#include <vector>

#include "geometry/island_hull_steps.h"
#include "geometry/predicates.h"

namespace rig2d {
namespace {

double shoelace(const Ring& r) {
  double s = 0;
  for (std::size_t i = 0, n = r.size(); i < n; ++i) s += r[i].x * r[(i + 1) % n].y - r[(i + 1) % n].x * r[i].y;
  return s;
}

bool lexicographic_less(Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

// Sorts `pts` by x, then y. A traced outline's points are spread over the columns of its image, a few
// per pixel column, so they are bucketed by floor(x) (a counting sort, floor being monotone) and each
// bucket sorted on its own: the order std::sort gives, without its mispredicted comparisons. Points
// that compare equal are then the same bits, unless a -0 or a NaN is about (-0 == +0, NaN breaks
// the order) or the columns are far more than the points: those take std::sort.
void sort_points(std::vector<Vec2>& pts) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  bool plain = true;
  for (const Vec2& p : pts) {
    plain = plain && std::isfinite(p.x) && std::isfinite(p.y) && !(p.x == 0 && std::signbit(p.x)) &&
            !(p.y == 0 && std::signbit(p.y));
    lo = std::min(lo, p.x);
    hi = std::max(hi, p.x);
  }
  if (!plain || pts.size() < 64 || !(hi - lo <= 4.0 * static_cast<double>(pts.size()))) {
    std::sort(pts.begin(), pts.end(), lexicographic_less);
    return;
  }
  const double base = std::floor(lo);
  const auto bucket = [base](Vec2 p) { return static_cast<std::size_t>(std::floor(p.x) - base); };
  std::vector<std::uint32_t> start(static_cast<std::size_t>(hi - base) + 2, 0);
  for (const Vec2& p : pts) ++start[bucket(p) + 1];
  for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
  std::vector<Vec2> sorted(pts.size());
  std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
  for (const Vec2& p : pts) sorted[next[bucket(p)]++] = p;
  for (std::size_t b = 0; b + 1 < start.size(); ++b) {  // each column: a few points, or a vertical run
    Vec2* first = sorted.data() + start[b];
    Vec2* last = sorted.data() + start[b + 1];
    if (last - first > 16) {
      std::sort(first, last, lexicographic_less);
      continue;
    }
    for (Vec2* i = first + 1; i < last; ++i)
      for (Vec2* k = i; k > first && lexicographic_less(*k, *(k - 1)); --k) std::swap(*k, *(k - 1));
  }
  pts = std::move(sorted);
}

// Andrew's monotone chain with exact orientations: corners counter-clockwise with y up (a positive
// shoelace sum), collinear points dropped.
Ring convex_hull(std::vector<Vec2> pts) {
  sort_points(pts);
  pts.erase(std::unique(pts.begin(), pts.end(), [](Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }), pts.end());
  if (pts.size() < 3) return pts;
  Ring hull(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && detail::orient2d(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && detail::orient2d(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k - 1);
  return hull;
}

bool inside_frame(Vec2 p, const ClipFrame& frame) {
  return p.x >= 0 && p.y >= 0 && p.x <= frame.width && p.y <= frame.height;
}

// Removing edge (b, c) of the convex polygon ... a, b, c, d ...: lines (a, b) and (d, c) meet at p
// beyond the edge when they converge; the triangle (b, p, c) is the area added. False when they do
// not converge (parallel or diverging).
// Whether |den| > 1e-12 |u| |v|, the lengths as std::hypot gives them: from the squared lengths when
// that is decided by far more than their rounding (a few ulps), which costs a fraction of two hypot calls.
bool not_parallel(double den, Vec2 u, Vec2 v) {
  const double uu = u.x * u.x + u.y * u.y, vv = v.x * v.x + v.y * v.y;
  const double d = std::fabs(den);
  if (uu > 1e-300 && uu < 1e300 && vv > 1e-300 && vv < 1e300) {  // squares neither overflow nor lose bits
    const double bar = 1e-12 * (std::sqrt(uu) * std::sqrt(vv));
    if (d > bar * (1 + 1e-9)) return true;
    if (d < bar * (1 - 1e-9)) return false;
  }
  return d > 1e-12 * (std::hypot(u.x, u.y) * std::hypot(v.x, v.y));
}

bool meet(Vec2 a, Vec2 b, Vec2 c, Vec2 d, Vec2& p, double& added) {
  const Vec2 u{b.x - a.x, b.y - a.y}, v{c.x - d.x, c.y - d.y};
  const double den = u.x * v.y - u.y * v.x;
  if (!not_parallel(den, u, v)) return false;
  const double t = ((c.x - b.x) * v.y - (c.y - b.y) * v.x) / den;  // p = b + t u
  if (!(t > 0) || !std::isfinite(t)) return false;
  p = {b.x + t * u.x, b.y + t * u.y};
  if (!(detail::orient2d(b, c, p) < 0)) return false;  // p must lie outside the edge (b, c)
  added = 0.5 * std::fabs((p.x - b.x) * (c.y - b.y) - (p.y - b.y) * (c.x - b.x));
  return std::isfinite(added);
}

struct HullBox {
  double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
};

HullBox box_of(std::span<const Vec2> r) {
  HullBox b;
  for (const Vec2& p : r) b = {std::min(b.x0, p.x), std::min(b.y0, p.y), std::max(b.x1, p.x), std::max(b.y1, p.y)};
  return b;
}

bool boxes_meet(const HullBox& a, const HullBox& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

// The axis overlap projects onto for edge i of ring r (r[i], r[i + 1]): the edge's normal.
Vec2 edge_axis(std::span<const Vec2> r, std::size_t i) {
  const Vec2 a = r[i], b = r[(i + 1) % r.size()];
  return {a.y - b.y, b.x - a.x};
}

// Whether the projections of r's points onto `axis` reach into the open interval (lo, hi), that is
// whether this axis fails to separate r from what projects onto [lo, hi]. The extent only grows, so
// the points are read only until it reaches in.
bool reaches_into(std::span<const Vec2> r, Vec2 axis, double lo, double hi) {
  double rmin = HUGE_VAL, rmax = -HUGE_VAL;
  for (const Vec2& v : r) {
    const double s = v.x * axis.x + v.y * axis.y;
    rmin = std::min(rmin, s);
    rmax = std::max(rmax, s);
    if (rmin < hi && rmax > lo) return true;
  }
  return false;
}

// A convex ring's projections onto one of its own edges' axes: the least and greatest, once known.
struct EdgeExtent {
  double lo = 0, hi = 0;
  bool known = false;
};

// A convex ring's projections onto its own edges' axes, each made when first asked for: they stay
// the same while the ring does, and a hull is tested against many others (every cut of another hull
// asks whether it stays clear of this one). Asked always with its ring; `Slots` is a std::vector
// for a hull (sized when first asked, emptied when the hull changes), a std::array for a cut's
// triangle (one for every cut tried, so on the stack).
template <typename Slots>
struct OwnExtents {
  Slots slots{};

  std::pair<double, double> at(std::span<const Vec2> ring, std::size_t i) {
    if constexpr (requires { slots.resize(ring.size()); }) {
      if (slots.size() != ring.size()) slots.assign(ring.size(), EdgeExtent{});
    }
    EdgeExtent& e = slots[i];
    if (!e.known) {
      const Vec2 axis = edge_axis(ring, i);
      double lo = HUGE_VAL, hi = -HUGE_VAL;
      for (const Vec2& v : ring) {
        const double s = v.x * axis.x + v.y * axis.y;
        lo = std::min(lo, s);
        hi = std::max(hi, s);
      }
      e = {lo, hi, true};
    }
    return {e.lo, e.hi};
  }
};
using HullExtents = OwnExtents<std::vector<EdgeExtent>>;
using TriangleExtents = OwnExtents<std::array<EdgeExtent, 3>>;

// Separating axis test for two convex polygons (any winding): false when an edge of either separates
// them, touching included (an axis separates when one projection's greatest is at most the other's
// least). Each polygon's projections onto its own axes come from its OwnExtents.
template <typename PExtents>
bool overlap(std::span<const Vec2> p, PExtents& p_own, std::span<const Vec2> q, HullExtents& q_own) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto [pmin, pmax] = p_own.at(p, i);
    if (!reaches_into(q, edge_axis(p, i), pmin, pmax)) return false;
  }
  for (std::size_t i = 0; i < q.size(); ++i) {
    const auto [qmin, qmax] = q_own.at(q, i);
    if (!reaches_into(p, edge_axis(q, i), qmin, qmax)) return false;
  }
  return true;
}

// Cutting edge i of a hull: where its neighbouring edges meet (p), the area that adds, and whether the
// triangle (b, p, c) stays off every other hull (0 no, 1 yes, -1 not yet asked). A function of the
// edge's four corners alone while the other hulls stand still, so a cut recomputes only the edges
// whose corners it moved.
struct EdgeCut {
  bool ok = false;  // the edges meet beyond edge i, inside the frame
  Vec2 p{};
  double added = 0;
  signed char clear = -1;
};

EdgeCut edge_cut(const Ring& hull, std::size_t i, const ClipFrame& frame) {
  const std::size_t n = hull.size();
  EdgeCut e;
  e.ok = meet(hull[(i + n - 1) % n], hull[i], hull[(i + 1) % n], hull[(i + 2) % n], e.p, e.added) &&
         inside_frame(e.p, frame);
  return e;
}

// Cuts hull `self` (counter-clockwise with y up, convex) down to `max_corners` by enclosing edge
// removals, never onto another hull: the triangle a cut adds may not overlap any of `others`. Each cut
// takes the first edge, in ring order, with the least added area among those that meet, stay in the
// frame and are clear. `own` holds each hull's OwnExtents; the one of `self` is made anew.
void cut_corners(std::vector<Ring>& hulls, std::vector<HullBox>& boxes, std::vector<HullExtents>& own,
                 std::size_t self, std::size_t max_corners, const ClipFrame& frame) {
  Ring& hull = hulls[self];
  std::vector<EdgeCut> cuts;
  if (hull.size() > max_corners && hull.size() > 3)
    for (std::size_t i = 0; i < hull.size(); ++i) cuts.push_back(edge_cut(hull, i, frame));
  while (hull.size() > max_corners && hull.size() > 3) {
    const std::size_t n = hull.size();
    std::size_t best = n;
    double best_added = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {  // edge (hull[i], hull[i + 1])
      EdgeCut& e = cuts[i];
      if (!e.ok || !(e.added < best_added)) continue;
      if (e.clear < 0) {
        const std::array<Vec2, 3> cut{hull[i], e.p, hull[(i + 1) % n]};  // on the stack: asked often
        const HullBox cut_box = box_of(cut);
        TriangleExtents cut_own;  // on the stack, as the triangle
        bool clear = true;
        for (std::size_t k = 0; k < hulls.size() && clear; ++k)
          clear = k == self || hulls[k].size() < 3 || !boxes_meet(cut_box, boxes[k]) ||
                  !overlap(cut, cut_own, hulls[k], own[k]);
        e.clear = clear ? 1 : 0;
      }
      if (!e.clear) continue;
      best = i;
      best_added = e.added;
    }
    if (best == n) break;
    hull[best] = cuts[best].p;
    const std::size_t gone = (best + 1) % n;
    hull.erase(hull.begin() + static_cast<std::ptrdiff_t>(gone));
    cuts.erase(cuts.begin() + static_cast<std::ptrdiff_t>(gone));
    // The new corner's index now, and the four edges whose corners include it; every other edge has
    // the same four corners as before.
    const std::size_t m = hull.size(), at = gone == 0 ? m - 1 : best;
    for (std::size_t k = 0; k < std::min<std::size_t>(4, m); ++k) {
      const std::size_t i = (at + m - 2 + k) % m;
      cuts[i] = edge_cut(hull, i, frame);
    }
  }
  boxes[self] = box_of(hull);
  own[self].slots.clear();
}

// The points of a ring that can be corners of its hull, in ring order: all but those strictly between
// both neighbours on a level or upright line (a traced outline's straight runs). A run of such points
// lies strictly between the two points that end it, which stay, so none of them is a hull's corner.
std::vector<Vec2> corner_candidates(const Ring& r) {
  const std::size_t n = r.size();
  std::vector<Vec2> kept;
  kept.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = r[(i + n - 1) % n], p = r[i], b = r[(i + 1) % n];
    const bool upright = a.x == p.x && p.x == b.x && ((a.y < p.y && p.y < b.y) || (a.y > p.y && p.y > b.y));
    const bool level = a.y == p.y && p.y == b.y && ((a.x < p.x && p.x < b.x) || (a.x > p.x && p.x > b.x));
    if (!upright && !level) kept.push_back(p);
  }
  return kept;
}

}  // namespace

namespace detail {

std::vector<Ring> uncut_island_hulls(const std::vector<Ring>& rings) {
  // Each hull keeps the points it was made from, so a merge takes the hull of both islands' points.
  std::vector<std::vector<Vec2>> sources;
  for (const Ring& r : rings)
    if (r.size() >= 3 && shoelace(r) < 0) sources.push_back(corner_candidates(r));
  std::vector<Ring> hulls;
  for (const auto& s : sources) hulls.push_back(convex_hull(s));
  // The hull of two islands' points is the hull of their hulls' corners (a corner of the whole is a
  // corner of one part), so a merge need not sort every point again: unless some point is not finite
  // or a -0, where equal points may differ in their bits.
  const bool plain = std::all_of(sources.begin(), sources.end(), [](const std::vector<Vec2>& s) {
    return std::all_of(s.begin(), s.end(), [](Vec2 p) {
      return std::isfinite(p.x) && std::isfinite(p.y) && !(p.x == 0 && std::signbit(p.x)) && !(p.y == 0 && std::signbit(p.y));
    });
  });
  if (plain)
    for (std::size_t i = 0; i < hulls.size(); ++i)
      if (hulls[i].size() >= 3) sources[i] = hulls[i];
  // Islands whose own hulls overlap share one, the first overlapping pair (i < j, in that order) at a
  // time (each merge removes one, so this ends). A merge changes hull i alone, so of the pairs before
  // (i, i + 1) only those ending at i can overlap now: they come first, then the pairs from row i on.
  std::vector<HullExtents> own(hulls.size());
  const auto meets = [&](std::size_t i, std::size_t j) {
    return hulls[i].size() >= 3 && hulls[j].size() >= 3 && overlap(hulls[i], own[i], hulls[j], own[j]);
  };
  std::size_t grown = 0;  // the hull a merge changed: pairs of earlier rows meet nothing else
  for (bool merged = true; merged;) {
    merged = false;
    std::size_t i = 0, j = 0;
    for (i = 0; i < grown && !merged; ++i) merged = meets(i, grown);
    if (merged) {
      --i;
      j = grown;
    } else {
      for (i = grown; i < hulls.size() && !merged; ++i)
        for (j = i + 1; j < hulls.size() && !merged; ++j) merged = meets(i, j);
      if (!merged) break;
      --i;
      --j;
    }
    sources[i].insert(sources[i].end(), sources[j].begin(), sources[j].end());
    sources.erase(sources.begin() + static_cast<std::ptrdiff_t>(j));
    hulls.erase(hulls.begin() + static_cast<std::ptrdiff_t>(j));
    own.erase(own.begin() + static_cast<std::ptrdiff_t>(j));
    hulls[i] = convex_hull(sources[i]);
    own[i].slots.clear();
    grown = i;
  }
  for (Ring& h : hulls) std::reverse(h.begin(), h.end());  // wound as an island (negative shoelace)
  return hulls;
}

std::vector<Ring> inscribed_island_hulls(const std::vector<Ring>& rings) {
  // 32 directions, k and k + 16 opposite, so one dot product serves two; at most kSampled points of a
  // ring are looked at (any of its points are inside its hull, and a traced ring's are under a pixel
  // apart, so a sparser sample loses little of the hull).
  constexpr std::size_t kHalf = 16, kSampled = 256;
  static const std::array<Vec2, kHalf> kDirection = [] {
    std::array<Vec2, kHalf> d{};
    for (std::size_t k = 0; k < kHalf; ++k)
      d[k] = {std::cos(std::numbers::pi * static_cast<double>(k) / kHalf), std::sin(std::numbers::pi * static_cast<double>(k) / kHalf)};
    return d;
  }();
  std::vector<Ring> out;
  for (const Ring& r : rings) {
    if (r.size() < 3 || !(shoelace(r) < 0)) continue;
    const std::size_t step = r.size() / kSampled + 1;
    std::array<double, kHalf> hi, lo;
    std::array<std::size_t, kHalf> at_hi{}, at_lo{};
    for (std::size_t k = 0; k < kHalf; ++k) hi[k] = lo[k] = kDirection[k].x * r[0].x + kDirection[k].y * r[0].y;
    for (std::size_t i = step; i < r.size(); i += step) {
      for (std::size_t k = 0; k < kHalf; ++k) {
        const double d = kDirection[k].x * r[i].x + kDirection[k].y * r[i].y;
        if (d > hi[k]) hi[k] = d, at_hi[k] = i;
        if (d < lo[k]) lo[k] = d, at_lo[k] = i;
      }
    }
    Ring poly;  // the furthest point in each direction, by angle: a convex polygon
    for (const auto* at : {&at_hi, &at_lo})
      for (const std::size_t i : *at)
        if (poly.empty() || poly.back().x != r[i].x || poly.back().y != r[i].y) poly.push_back(r[i]);
    while (poly.size() > 1 && poly.back().x == poly.front().x && poly.back().y == poly.front().y) poly.pop_back();
    if (poly.size() >= 3) out.push_back(std::move(poly));
  }
  return out;
}

std::vector<Ring> cut_island_hulls(std::vector<Ring> hulls, std::size_t max_corners, const ClipFrame& frame) {
  max_corners = std::max<std::size_t>(3, max_corners);
  for (Ring& h : hulls) std::reverse(h.begin(), h.end());  // counter-clockwise with y up, as cut
  // Each loses corners, in order, onto no other hull.
  std::vector<HullBox> boxes;
  std::vector<HullExtents> own(hulls.size());
  for (const Ring& h : hulls) boxes.push_back(box_of(h));
  for (std::size_t i = 0; i < hulls.size(); ++i) cut_corners(hulls, boxes, own, i, max_corners, frame);
  for (Ring& h : hulls) std::reverse(h.begin(), h.end());
  return hulls;
}

}  // namespace detail

std::vector<Ring> island_hulls(const std::vector<Ring>& rings, std::size_t max_corners, const ClipFrame& frame) {
  return detail::cut_island_hulls(detail::uncut_island_hulls(rings), max_corners, frame);
}

}  // namespace rig2d
