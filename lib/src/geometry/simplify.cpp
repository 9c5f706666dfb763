// SPDX-License-Identifier: Apache-2.0
// Topology-preserving Douglas-Peucker (after Saalfeld, "Topologically consistent line
// simplification with the Douglas-Peucker algorithm", 1999): simplify every ring independently,
// then put original points back where a shortcut conflicts with the rest of the outline, until no
// conflict is left. Conflicts are found with a uniform grid and decided with exact predicates.
#include "rig2d/geometry/simplify.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <utility>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define RIG2D_SIMPLIFY_AVX2 1
#define RIG2D_SIMPLIFY_AVX2_FN __attribute__((target("avx2")))
#endif

#include "geometry/predicates.h"
#include "rig2d/geometry/contour.h"

namespace rig2d {
namespace {

using detail::orient2d;

struct Box {
  double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
  void add(Vec2 p) {
    x0 = std::min(x0, p.x);
    y0 = std::min(y0, p.y);
    x1 = std::max(x1, p.x);
    y1 = std::max(y1, p.y);
  }
  bool contains(Vec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
  bool overlaps(const Box& o) const { return x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1; }
};

// Even-odd point in ring (points on the boundary may go either way; callers only need strict
// interiors, which cannot be on a disjoint ring's boundary).
// Whether edge a-b crosses the ray from p towards +x (even-odd rule, exact orientation): a point lies
// inside a closed chain of edges when an odd number of them do, in any order.
bool crosses_ray(Vec2 a, Vec2 b, Vec2 p) {
  return (a.y > p.y) != (b.y > p.y) && (orient2d(a, b, p) > 0) == (b.y > a.y);
}

bool point_in_ring(Vec2 p, const Ring& ring) {
  bool in = false;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) in ^= crosses_ray(ring[j], ring[i], p);
  return in;
}

// A point p against the segment from a by (dx, dy) of squared length len2: p - a and its projection's
// product, which surely_near_line and the offset both start from.
struct Projection {
  double px, py, along;
};

Projection project(Vec2 p, Vec2 a, double dx, double dy) {
  const double px = p.x - a.x, py = p.y - a.y;
  return {px, py, px * dx + py * dy};
}

// p minus its nearest point on the segment, from its projection.
Vec2 offset_from_projection(Vec2 p, Vec2 a, double dx, double dy, double len2, const Projection& j) {
  if (len2 == 0) return {j.px, j.py};
  const double t = std::clamp(j.along / len2, 0.0, 1.0);
  return {p.x - (a.x + t * dx), p.y - (a.y + t * dy)};
}

// p minus its nearest point on segment a-b; point_segment_distance is the hypot of it.
Vec2 offset_from_segment(Vec2 p, Vec2 a, Vec2 b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  return offset_from_projection(p, a, dx, dy, dx * dx + dy * dy, project(p, a, dx, dy));
}

double point_segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 o = offset_from_segment(p, a, b);
  return std::hypot(o.x, o.y);
}

// True when hypot(o) <= bound for certain, decided without the hypot: the squared length is at most
// 1e-9 (relative) under bound^2, far more than the few ulps between the two computations.
bool surely_within(Vec2 o, double bound) {
  if (o.x == 0 && o.y == 0) return true;
  return bound > 1e-100 && o.x * o.x + o.y * o.y <= bound * bound * (1 - 1e-9);
}

// The greatest hypot(v) - minus over the offers, and which offer gave it (the first of equals), as
// comparing hypot's would choose, mostly without them: the square root of the squared length is
// within a few ulps of the hypot, so the two excesses compared are within a few ulps of the
// (minus + length) each, and a difference over 1e-12 of those decides; a closer call takes the hypots.
class GreatestExcess {
 public:
  explicit GreatestExcess(double start, std::size_t none) : best_(start), index_(none) {}

  // The greatest excess within a few ulps of its parts (length + minus): close to it relative to
  // best + minus for any minus >= 0, but perhaps not relative to itself.
  double approx() const { return best_; }
  // At most the greatest excess.
  double lower() const { return exact_ ? best_ : best_ - 1e-14 * scale_; }
  std::size_t index() const { return index_; }

  void offer(Vec2 v, double minus, std::size_t k) {
    const double ss = v.x * v.x + v.y * v.y;
    if (ss > 1e-200 && ss < 1e200) {  // squares neither overflow nor lose bits
      const double length = std::sqrt(ss), excess = length - minus;
      const double margin = 1e-12 * (length + minus + scale_);
      if (excess < best_ - margin) return;
      if (excess > best_ + margin) return take(v, minus, k, excess, false, length + minus);
    }
    const double excess = std::hypot(v.x, v.y) - minus;
    if (!exact_) {
      best_ = std::hypot(v_.x, v_.y) - minus_;
      exact_ = true;
    }
    if (excess > best_) take(v, minus, k, excess, true, 0);
  }

 private:
  void take(Vec2 v, double minus, std::size_t k, double excess, bool exact, double scale) {
    v_ = v;
    minus_ = minus;
    index_ = k;
    best_ = excess;
    exact_ = exact;
    scale_ = scale;
  }

  double best_;
  std::size_t index_;
  bool exact_ = true;
  Vec2 v_{};
  double minus_ = 0, scale_ = 0;  // scale_: the parts of best_ (length + minus), for the margin
};

constexpr double kNearLineMinBound = 1e-3;  // px

// The right-hand side of surely_near_line's last test (cross^2 against it), shared with its four-lane
// twin so both make the same test.
double near_line_rhs(double bound, double len2) { return bound * bound * len2 * (1 - 1e-6); }

// surely_within(offset_from_segment(p, a, a + (dx, dy)), bound) with room to spare, decided without
// the division: where p projects inside the segment its distance is |cross| / |d|, and a margin of
// 1e-6 (relative) is far above the rounding of either computation for bounds of 1e-3 px and more
// on coordinates below 2^20. False (undecided) otherwise. `j` is p's projection.
bool surely_near_line(const Projection& j, double dx, double dy, double len2, double bound) {
  if (!(len2 > 0) || !(bound >= kNearLineMinBound)) return false;
  const double px = j.px, py = j.py, along = j.along;
  if (!(along >= 0 && along <= len2)) return false;
  const double cross = dx * py - dy * px;
  return cross * cross <= near_line_rhs(bound, len2);
}

bool on_segment(Vec2 a, Vec2 b, Vec2 p) {  // p collinear with a-b assumed
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

// True when closed segments a-b and c-d share any point (exact).
bool segments_meet(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const double o1 = orient2d(a, b, c), o2 = orient2d(a, b, d), o3 = orient2d(c, d, a), o4 = orient2d(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) || (o3 == 0 && on_segment(c, d, a)) ||
         (o4 == 0 && on_segment(c, d, b));
}

struct Work {
  const Ring* pts = nullptr;
  std::vector<char> keep;
  std::vector<char> on_frame;  // points on the clip frame: a shortcut may not pass inside them
  ClipFrame frame;
};

// Three points on one side line of the frame: exactly collinear (orient2d is 0 for them).
bool on_one_frame_line(Vec2 a, Vec2 b, Vec2 c, const ClipFrame& f) {
  return (a.x == 0 && b.x == 0 && c.x == 0) || (a.y == 0 && b.y == 0 && c.y == 0) ||
         (a.x == f.width && b.x == f.width && c.x == f.width) || (a.y == f.height && b.y == f.height && c.y == f.height);
}

// The index after k on a ring of n points (without a division per step).
std::size_t next_index(std::size_t k, std::size_t n) { return k + 1 == n ? 0 : k + 1; }

// point_in_ring(v, span) for the span p[s], p[s + 1], .., p[e] of ring p (cyclic) closed by its
// shortcut, without copying it out: the same edges, so the same crossings (their order does not
// matter to the parity).
bool point_in_span(Vec2 v, const Ring& p, std::size_t s, std::size_t e) {
  bool in = crosses_ray(p[e], p[s], v);
  for (std::size_t i = s; i != e; i = next_index(i, p.size())) in ^= crosses_ray(p[i], p[next_index(i, p.size())], v);
  return in;
}

// The original point of span (s, e) farthest from the shortcut, or n when the span has none.
std::size_t farthest_in_span(const Ring& p, std::size_t s, std::size_t e) {
  const std::size_t n = p.size();
  double best = -1;
  std::size_t best_k = n;
  for (std::size_t k = next_index(s, n); k != e; k = next_index(k, n)) {
    const double d = point_segment_distance(p[k], p[s], p[e]);
    if (d > best) {
      best = d;
      best_k = k;
    }
  }
  return best_k;
}

// surely_near_line for points p[k] .. p[k + 3] at once, with `rhs` its near_line_rhs(bound, len2):
// each lane the scalar expression in its order (no contraction), so true exactly when the four
// scalar tests are.
#if defined(RIG2D_SIMPLIFY_AVX2)
RIG2D_SIMPLIFY_AVX2_FN bool four_surely_near_line(const Vec2* p, Vec2 a, double dx, double dy, double len2,
                                                  double rhs) {
  static_assert(sizeof(Vec2) == 2 * sizeof(double));
  const __m256d p01 = _mm256_loadu_pd(&p[0].x), p23 = _mm256_loadu_pd(&p[2].x);
  const __m256d xs = _mm256_unpacklo_pd(p01, p23), ys = _mm256_unpackhi_pd(p01, p23);  // points 0, 2, 1, 3
  const __m256d px = _mm256_sub_pd(xs, _mm256_set1_pd(a.x)), py = _mm256_sub_pd(ys, _mm256_set1_pd(a.y));
  const __m256d vdx = _mm256_set1_pd(dx), vdy = _mm256_set1_pd(dy);
  const __m256d along = _mm256_add_pd(_mm256_mul_pd(px, vdx), _mm256_mul_pd(py, vdy));
  const __m256d cross = _mm256_sub_pd(_mm256_mul_pd(vdx, py), _mm256_mul_pd(vdy, px));
  const __m256d on_span = _mm256_and_pd(_mm256_cmp_pd(along, _mm256_setzero_pd(), _CMP_GE_OQ),
                                        _mm256_cmp_pd(along, _mm256_set1_pd(len2), _CMP_LE_OQ));
  const __m256d near = _mm256_cmp_pd(_mm256_mul_pd(cross, cross), _mm256_set1_pd(rhs), _CMP_LE_OQ);
  return _mm256_movemask_pd(_mm256_and_pd(on_span, near)) == 15;
}
#endif

// The point of span (s, e) the shortcut s-e must keep, or n when it may replace the span: the one
// farthest beyond its allowance, which is the tolerance except at a frame point the shortcut passes
// inside of (the point lies on its left, the filled side being on the right): there it is zero.
std::size_t point_to_keep(const Work& w, std::size_t s, std::size_t e, double tol) {
  const Ring& p = *w.pts;
  const std::size_t n = p.size();
  GreatestExcess worst(0, n);
  const Vec2 a = p[s];
  const double dx = p[e].x - a.x, dy = p[e].y - a.y, len2 = dx * dx + dy * dy;
  auto visit = [&](std::size_t k) {
    // Off the frame the bound is worst + tol, which the approximate worst gives within a few ulps: the
    // tests below keep a margin far wider. On it the bound is the worst alone, which may be a small
    // difference of large parts: one surely no more than it.
    const double bound = w.on_frame[k] ? worst.lower() : worst.approx() + tol;
    const Projection j = project(p[k], a, dx, dy);
    if (surely_near_line(j, dx, dy, len2, bound)) return;
    const Vec2 o = offset_from_projection(p[k], a, dx, dy, len2, j);  // offset_from_segment(p[k], p[s], p[e])
    // The excess is at most the distance (minus tol off the frame): when that cannot beat the worst
    // so far, neither the hypot nor the predicate can change the answer.
    if (surely_within(o, bound)) return;
    const bool cut_at_frame =
        w.on_frame[k] && !on_one_frame_line(p[s], p[e], p[k], w.frame) && orient2d(p[s], p[e], p[k]) > 0;
    worst.offer(o, cut_at_frame ? 0 : tol, k);
  };
  std::size_t k = next_index(s, n);
#if defined(RIG2D_SIMPLIFY_AVX2)
  // Most points of a long span lie near its shortcut: four off the frame at a time are passed over
  // when all four surely are (the bound off the frame is worst + tol, surely_near_line's own test),
  // the rest visited one by one in order, so the answer is the same.
  if (len2 > 0 && __builtin_cpu_supports("avx2")) {
    while (k != e) {
      const std::size_t run_end = e > k ? e : n;  // the indices before the span wraps or ends
      double bound = worst.approx() + tol;
      double rhs = near_line_rhs(bound, len2);
      for (; k + 4 <= run_end; k += 4) {
        std::uint32_t framed;
        std::memcpy(&framed, &w.on_frame[k], sizeof framed);
        if (framed == 0 && bound >= kNearLineMinBound && four_surely_near_line(&p[k], a, dx, dy, len2, rhs)) continue;
        for (std::size_t c = 0; c < 4; ++c) visit(k + c);
        if (worst.approx() + tol != bound) {
          bound = worst.approx() + tol;
          rhs = near_line_rhs(bound, len2);
        }
      }
      for (; k < run_end; ++k) visit(k);
      if (k == n) k = 0;
    }
    return worst.index();
  }
#endif
  for (; k != e; k = next_index(k, n)) visit(k);
  return worst.index();
}

// Douglas-Peucker on the cyclic span (s, e) of ring w (e reached from s going forward).
void dp_span(Work& w, std::size_t s, std::size_t e, double tol) {
  const std::size_t n = w.pts->size();
  std::vector<std::pair<std::size_t, std::size_t>> stack{{s, e}};
  while (!stack.empty()) {
    const auto [a, b] = stack.back();
    stack.pop_back();
    const std::size_t k = point_to_keep(w, a, b, tol);
    if (k == n) continue;
    w.keep[k] = 1;
    stack.emplace_back(a, k);
    stack.emplace_back(k, b);
  }
}

std::vector<std::size_t> kept_indices(const Work& w) {
  std::vector<std::size_t> idx;
  for (std::size_t k = 0; k < w.keep.size(); ++k)
    if (w.keep[k]) idx.push_back(k);
  return idx;
}

// Douglas-Peucker of one ring: its leftmost point and the point farthest from it are kept, then each
// half is split at the point farthest off its shortcut while that is over `tolerance`.
Work simplify_ring(const Ring& p, double tolerance, const ClipFrame& frame) {
  Work w;
  w.pts = &p;
  w.frame = frame;
  const std::size_t n = p.size();
  w.keep.assign(n, 0);
  w.on_frame.assign(n, 0);
  const bool framed = frame.width > 0 && frame.height > 0;
  for (std::size_t k = 0; k < n && framed; ++k)
    w.on_frame[k] = p[k].x == 0 || p[k].y == 0 || p[k].x == frame.width || p[k].y == frame.height;
  if (n <= 3) {
    std::fill(w.keep.begin(), w.keep.end(), 1);
    return w;
  }
  std::size_t a = 0;
  for (std::size_t k = 1; k < n; ++k)
    if (p[k].x < p[a].x || (p[k].x == p[a].x && p[k].y < p[a].y)) a = k;
  GreatestExcess far(-1, a);
  for (std::size_t k = 0; k < n; ++k) {
    const Vec2 o{p[k].x - p[a].x, p[k].y - p[a].y};
    if (far.approx() >= 0 && surely_within(o, far.approx())) continue;  // the hypot cannot beat `far`
    far.offer(o, 0, k);
  }
  const std::size_t b = far.index();
  w.keep[a] = w.keep[b] = 1;
  dp_span(w, a, b, tolerance);
  dp_span(w, b, a, tolerance);
  // A ring needs a third point to keep its area.
  if (kept_indices(w).size() < 3) {
    const std::size_t k1 = farthest_in_span(p, a, b), k2 = farthest_in_span(p, b, a);
    if (k1 < n) w.keep[k1] = 1;
    if (k2 < n) w.keep[k2] = 1;
  }
  return w;
}

// Every shortcut the simplification keeps (an edge between consecutive kept points), binned in a
// uniform grid over their boxes.
struct Shortcuts {
  struct Edge {
    std::size_t ring, s, e;  // original indices of the shortcut's ends
    Box box;
  };
  std::vector<Edge> edges;
  Box all;
  int cells = 1;
  double cell = 1;
  // Edge indices per cell, row by row, in edge order: cell c's are items[first[c] .. first[c + 1]).
  std::vector<std::size_t> first, items;

  int cell_of(double v, double origin) const { return std::clamp(static_cast<int>((v - origin) / cell), 0, cells - 1); }
  std::span<const std::size_t> in_cell(std::size_t c) const {
    return {items.data() + first[c], items.data() + first[c + 1]};
  }
  std::span<const std::size_t> at(int x, int y) const {
    return in_cell(static_cast<std::size_t>(y) * static_cast<std::size_t>(cells) + static_cast<std::size_t>(x));
  }
  // Calls fn(cell index, edge index) for each cell an edge's box meets, edges in order.
  template <typename Fn>
  void for_each_binning(Fn&& fn) const {
    for (std::size_t k = 0; k < edges.size(); ++k) {
      const Box& b = edges[k].box;
      for (int y = cell_of(b.y0, all.y0); y <= cell_of(b.y1, all.y0); ++y)
        for (int x = cell_of(b.x0, all.x0); x <= cell_of(b.x1, all.x0); ++x)
          fn(static_cast<std::size_t>(y) * static_cast<std::size_t>(cells) + static_cast<std::size_t>(x), k);
    }
  }
};

Shortcuts kept_shortcuts(const std::vector<Ring>& rings, const std::vector<Work>& work) {
  Shortcuts sc;
  for (std::size_t r = 0; r < rings.size(); ++r) {
    const std::vector<std::size_t> idx = kept_indices(work[r]);
    for (std::size_t k = 0; k < idx.size(); ++k) {
      Shortcuts::Edge e{r, idx[k], idx[(k + 1) % idx.size()], {}};
      e.box.add(rings[r][e.s]);
      e.box.add(rings[r][e.e]);
      sc.all.add(rings[r][e.s]);
      sc.edges.push_back(e);
    }
  }
  if (sc.edges.empty()) return sc;
  const double extent = std::max({sc.all.x1 - sc.all.x0, sc.all.y1 - sc.all.y0, 1e-9});
  sc.cells = std::clamp(static_cast<int>(std::sqrt(static_cast<double>(sc.edges.size()))), 1, 1024);
  sc.cell = extent / sc.cells * (1 + 1e-9);
  // Counted, then placed: one array for every cell instead of a vector each.
  sc.first.assign(static_cast<std::size_t>(sc.cells) * static_cast<std::size_t>(sc.cells) + 1, 0);
  sc.for_each_binning([&](std::size_t c, std::size_t) { ++sc.first[c + 1]; });
  for (std::size_t c = 1; c < sc.first.size(); ++c) sc.first[c] += sc.first[c - 1];
  sc.items.resize(sc.first.back());
  std::vector<std::size_t> next(sc.first.begin(), sc.first.end() - 1);
  sc.for_each_binning([&](std::size_t c, std::size_t k) { sc.items[next[c]++] = k; });
  return sc;
}

// Shortcuts that cross another, or fold back onto their neighbour, conflict.
void mark_crossings(const Shortcuts& sc, const std::vector<Ring>& rings, std::vector<char>& conflict) {
  for (std::size_t c = 0; c + 1 < sc.first.size(); ++c) {
    const std::span<const std::size_t> list = sc.in_cell(c);
    for (std::size_t i = 0; i < list.size(); ++i)
      for (std::size_t j = i + 1; j < list.size(); ++j) {
        const Shortcuts::Edge& e1 = sc.edges[list[i]];
        const Shortcuts::Edge& e2 = sc.edges[list[j]];
        if (!e1.box.overlaps(e2.box)) continue;
        const Vec2 a = rings[e1.ring][e1.s], b = rings[e1.ring][e1.e];
        const Vec2 c2 = rings[e2.ring][e2.s], d = rings[e2.ring][e2.e];
        bool bad;
        if (e1.ring == e2.ring && (e1.e == e2.s || e2.e == e1.s)) {
          // Neighbours share a point; they conflict only when folding back onto each other (or a
          // two-edge ring).
          const bool e1_first = e1.e == e2.s;
          const Vec2 shared = e1_first ? b : a, p = e1_first ? a : b, q = e1_first ? d : c2;
          bad = orient2d(p, shared, q) == 0 &&
                (q.x - shared.x) * (p.x - shared.x) + (q.y - shared.y) * (p.y - shared.y) > 0;
        } else {
          bad = segments_meet(a, b, c2, d);
        }
        if (bad) conflict[list[i]] = conflict[list[j]] = 1;
      }
  }
}

// A shortcut must not sweep over another kept vertex (that would move a ring across it).
void mark_sweeps(const Shortcuts& sc, const std::vector<Ring>& rings, std::vector<char>& conflict) {
  for (std::size_t k = 0; k < sc.edges.size(); ++k) {
    const Shortcuts::Edge& e = sc.edges[k];
    const Ring& p = rings[e.ring];
    if ((e.s + 1) % p.size() == e.e) continue;  // an original edge sweeps nothing
    Box sb;
    for (std::size_t i = e.s;; i = next_index(i, p.size())) {
      sb.add(p[i]);
      if (i == e.e) break;
    }
    for (int y = sc.cell_of(sb.y0, sc.all.y0); y <= sc.cell_of(sb.y1, sc.all.y0) && !conflict[k]; ++y)
      for (int x = sc.cell_of(sb.x0, sc.all.x0); x <= sc.cell_of(sb.x1, sc.all.x0) && !conflict[k]; ++x)
        for (std::size_t other : sc.at(x, y)) {
          const Shortcuts::Edge& o = sc.edges[other];
          if (other == k || (o.ring == e.ring && (o.s == e.e || o.s == e.s))) continue;
          const Vec2 v = rings[o.ring][o.s];
          if (sb.contains(v) && point_in_span(v, p, e.s, e.e)) {
            conflict[k] = 1;
            break;
          }
        }
  }
}

// One repair round: every conflicting shortcut gets back its farthest original point. False when
// there was nothing to put back.
bool repair_round(const std::vector<Ring>& rings, std::vector<Work>& work) {
  const Shortcuts sc = kept_shortcuts(rings, work);
  if (sc.edges.empty()) return false;
  std::vector<char> conflict(sc.edges.size(), 0);
  mark_crossings(sc, rings, conflict);
  mark_sweeps(sc, rings, conflict);
  bool changed = false;
  for (std::size_t k = 0; k < sc.edges.size(); ++k) {
    if (!conflict[k]) continue;
    const auto& e = sc.edges[k];
    const std::size_t f = farthest_in_span(rings[e.ring], e.s, e.e);
    if (f < rings[e.ring].size() && !work[e.ring].keep[f]) {
      work[e.ring].keep[f] = 1;
      changed = true;
    }
  }
  return changed;
}

}  // namespace

std::vector<Ring> drop_small_rings(const std::vector<Ring>& rings, double min_area) {
  const std::size_t n = rings.size();
  std::vector<double> area(n);
  for (std::size_t r = 0; r < n; ++r) area[r] = std::fabs(ring_signed_area(rings[r]));
  std::size_t largest_island = n;
  for (std::size_t r = 0; r < n; ++r)
    if (ring_signed_area(rings[r]) < 0 && (largest_island == n || area[r] > area[largest_island])) largest_island = r;
  // A ring's ancestors enclose it, so each encloses more: a ring of min_area or more has no small
  // ancestor, and a smaller one is dropped itself. Only the largest island, kept whatever its size,
  // needs its ancestors (a hole ring no island encloses, in a caller's own rings). Finding every ring's
  // parent cost n^2 on a stippled image of 70k dots.
  bool island_dropped = false;
  if (largest_island != n) {
    std::vector<std::size_t> by_area(n);
    for (std::size_t r = 0; r < n; ++r) by_area[r] = r;
    std::stable_sort(by_area.begin(), by_area.end(), [&](std::size_t a, std::size_t b) { return area[a] < area[b]; });
    // The smallest ring enclosing ring r (rings are disjoint, so one vertex decides), or n.
    auto parent = [&](std::size_t r) {
      if (rings[r].empty()) return n;
      const auto larger = std::upper_bound(by_area.begin(), by_area.end(), area[r],
                                           [&](double a, std::size_t k) { return a < area[k]; });
      for (auto it = larger; it != by_area.end(); ++it) {
        Box box;
        for (const Vec2& p : rings[*it]) box.add(p);
        if (box.contains(rings[r][0]) && point_in_ring(rings[r][0], rings[*it])) return *it;
      }
      return n;
    };
    for (std::size_t k = parent(largest_island); k != n && !island_dropped; k = parent(k))
      island_dropped = area[k] < min_area;
  }
  std::vector<Ring> out;
  for (std::size_t r = 0; r < n; ++r)
    if (r == largest_island ? !island_dropped : !(area[r] < min_area)) out.push_back(rings[r]);
  return out;
}

std::vector<Ring> simplify_rings(const std::vector<Ring>& rings, double tolerance) {
  return simplify_rings(rings, tolerance, ClipFrame{});
}

std::vector<Ring> simplify_rings(const std::vector<Ring>& rings, double tolerance, const ClipFrame& frame) {
  if (!(tolerance > 0)) return rings;
  std::vector<Work> work;
  work.reserve(rings.size());
  for (const Ring& ring : rings) work.push_back(simplify_ring(ring, tolerance, frame));
  // Each round puts back at least one point, so the repair ends within the input size.
  std::size_t total = 0;
  for (const Ring& r : rings) total += r.size();
  for (std::size_t round = 0; round <= total; ++round)
    if (!repair_round(rings, work)) break;
  std::vector<Ring> out;
  out.reserve(rings.size());
  for (std::size_t r = 0; r < rings.size(); ++r) {
    Ring ring;
    for (std::size_t k : kept_indices(work[r])) ring.push_back(rings[r][k]);
    out.push_back(std::move(ring));
  }
  return out;
}

}  // namespace rig2d
