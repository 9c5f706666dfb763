// SPDX-License-Identifier: Apache-2.0
// Incremental constrained Delaunay triangulation: Lawson flips for point insertion, segment recovery
// by cavity retriangulation (Anglada 1997, "An improved incremental algorithm for constructing
// restricted Delaunay triangulations"), and Ruppert refinement with Shewchuk's concentric shells and
// his skinny-triangle exemption for small input angles ("Delaunay Refinement Algorithms for
// Triangular Mesh Generation", 2002). Every branch that depends on geometry uses the exact predicates,
// and every loop has an explicit bound, so degenerate input can slow it down but never hang it.
#include "geometry/cdt.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "geometry/predicates.h"

namespace rig2d::detail {
namespace {

constexpr int kNext[3] = {1, 2, 0};
constexpr int kPrev[3] = {2, 0, 1};

double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
Vec2 sub(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
double squared_distance(Vec2 a, Vec2 b) { return dot(sub(a, b), sub(a, b)); }

double incircle_any(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  return orient2d(a, b, c) > 0 ? incircle(a, b, c, d) : incircle(a, c, b, d);
}

}  // namespace

Cdt::Cdt(Vec2 lo, Vec2 hi) {
  const double cx = 0.5 * (lo.x + hi.x), cy = 0.5 * (lo.y + hi.y);
  const double size = std::max({hi.x - lo.x, hi.y - lo.y, 1.0});
  pts_ = {{cx - 40 * size, cy - 30 * size}, {cx + 40 * size, cy - 30 * size}, {cx, cy + 50 * size}};
  kind_ = {Kind::Super, Kind::Super, Kind::Super};
  Tri t;
  t.v = {0, 1, 2};
  tris_.push_back(t);
  vtri_ = {0, 0, 0};
}

void Cdt::reserve(std::size_t points) {
  pts_.reserve(points + 3);
  kind_.reserve(points + 3);
  vtri_.reserve(points + 3);
  tris_.reserve(2 * points + 1);
}

int Cdt::new_tri() {
  if (!free_.empty()) {
    const int t = free_.back();
    free_.pop_back();
    tris_[static_cast<std::size_t>(t)] = Tri{};
    return t;
  }
  tris_.emplace_back();
  return static_cast<int>(tris_.size()) - 1;
}

void Cdt::set_neighbor(int t, int old_nb, int new_nb) {
  if (t < 0) return;
  for (int& n : tris_[static_cast<std::size_t>(t)].n)
    if (n == old_nb) {
      n = new_nb;
      return;
    }
}

int Cdt::edge_index(int t, int a, int b) const {
  const Tri& T = tris_[static_cast<std::size_t>(t)];
  for (int i = 0; i < 3; ++i) {
    const int x = T.v[kNext[i]], y = T.v[kPrev[i]];
    if ((x == a && y == b) || (x == b && y == a)) return i;
  }
  return -1;
}

void Cdt::set_edge_count(int t, int i, std::int64_t cnt, int seg) {
  Tri& T = tris_[static_cast<std::size_t>(t)];
  T.cnt[i] = cnt;
  T.seg[i] = seg;
  const int u = T.n[i];
  if (u < 0) return;
  const int j = edge_index(u, T.v[kNext[i]], T.v[kPrev[i]]);
  if (j < 0) return;
  tris_[static_cast<std::size_t>(u)].cnt[j] = cnt;
  tris_[static_cast<std::size_t>(u)].seg[j] = seg;
}

bool Cdt::find_edge(int a, int b, int& t, int& i) const {
  const int start = vtri_[static_cast<std::size_t>(a)];
  int cur = start;
  for (std::size_t guard = 0; guard <= tris_.size(); ++guard) {
    const Tri& T = tris_[static_cast<std::size_t>(cur)];
    const int k = edge_index(cur, a, b);
    if (k >= 0) {
      t = cur;
      i = k;
      return true;
    }
    int ia = 0;
    while (T.v[ia] != a) ++ia;
    cur = T.n[kNext[ia]];
    if (cur < 0 || cur == start) return false;
  }
  return false;
}

void Cdt::collect_fan(int vtx, std::vector<int>& out) const {
  out.clear();
  const int start = vtri_[static_cast<std::size_t>(vtx)];
  int cur = start;
  for (std::size_t guard = 0; guard <= tris_.size(); ++guard) {
    out.push_back(cur);
    const Tri& T = tris_[static_cast<std::size_t>(cur)];
    const int ia = slot(T.v, vtx);
    if (ia == 3) return;
    cur = T.n[kNext[ia]];
    if (cur < 0 || cur == start) return;
  }
}

int Cdt::locate(Vec2 p, int start) const {
  int t = start;
  if (t < 0 || static_cast<std::size_t>(t) >= tris_.size() || !tris_[static_cast<std::size_t>(t)].alive) t = -1;
  if (t >= 0) {
    // Visibility walk; the rotating start edge keeps it from cycling in constrained triangulations.
    const std::size_t limit = tris_.size() + 64;
    for (std::size_t steps = 0; steps < limit; ++steps) {
      const Tri& T = tris_[static_cast<std::size_t>(t)];
      walk_seed_ = walk_seed_ * 1664525u + 1013904223u;
      const int r = static_cast<int>((walk_seed_ >> 16) % 3u);
      int next = -1;
      for (int k = 0; k < 3; ++k) {
        const int i = (r + k) % 3;
        if (orient2d(pts_[static_cast<std::size_t>(T.v[kNext[i]])], pts_[static_cast<std::size_t>(T.v[kPrev[i]])], p) <
            0) {
          next = T.n[i];
          if (next < 0) return -1;  // outside the enclosing triangle
          break;
        }
      }
      if (next < 0) return t;
      t = next;
    }
  }
  // Fallback: exhaustive search, exact and bounded.
  for (std::size_t k = 0; k < tris_.size(); ++k) {
    const Tri& T = tris_[k];
    if (!T.alive) continue;
    bool in = true;
    for (int i = 0; i < 3 && in; ++i)
      in = orient2d(pts_[static_cast<std::size_t>(T.v[kNext[i]])], pts_[static_cast<std::size_t>(T.v[kPrev[i]])], p) >= 0;
    if (in) return static_cast<int>(k);
  }
  return -1;
}

int Cdt::insert_point(Vec2 p, Kind kind) {
  const int t = locate(p, last_tri_);
  if (t < 0) return -1;
  const Tri& T = tris_[static_cast<std::size_t>(t)];
  for (int i = 0; i < 3; ++i)
    if (pts_[static_cast<std::size_t>(T.v[i])] == p) return T.v[i];
  for (int i = 0; i < 3; ++i)
    if (orient2d(pts_[static_cast<std::size_t>(T.v[kNext[i]])], pts_[static_cast<std::size_t>(T.v[kPrev[i]])], p) == 0)
      return split_edge(t, i, p, kind);
  return split_triangle(t, p, kind);
}

bool Cdt::insert_interior(Vec2 p) {
  const int t = locate(p, last_tri_);
  if (t < 0) return false;
  const Tri& T = tris_[static_cast<std::size_t>(t)];
  if (!T.alive || !T.inside) return false;
  for (int i = 0; i < 3; ++i)
    if (pts_[static_cast<std::size_t>(T.v[i])] == p) return false;
  for (int i = 0; i < 3; ++i) {
    if (orient2d(pts_[static_cast<std::size_t>(T.v[kNext[i]])], pts_[static_cast<std::size_t>(T.v[kPrev[i]])], p) != 0)
      continue;
    if (T.cnt[i] != 0 || !split_edge_valid(t, i, p) || !tris_[static_cast<std::size_t>(T.n[i])].inside) return false;
    split_edge(t, i, p, Kind::Free);
    return true;
  }
  split_triangle(t, p, Kind::Free);
  return true;
}

int Cdt::split_triangle(int t, Vec2 p, Kind kind) {
  const Tri old = tris_[static_cast<std::size_t>(t)];
  const int a = old.v[0], b = old.v[1], c = old.v[2];
  const int pid = static_cast<int>(pts_.size());
  pts_.push_back(p);
  kind_.push_back(kind);
  vtri_.push_back(t);
  const int ta = t, tb = new_tri(), tc = new_tri();
  Tri A, B, C;
  A.v = {a, b, pid};
  A.n = {tb, tc, old.n[2]};
  A.cnt = {0, 0, old.cnt[2]};
  A.seg = {-1, -1, old.seg[2]};
  B.v = {b, c, pid};
  B.n = {tc, ta, old.n[0]};
  B.cnt = {0, 0, old.cnt[0]};
  B.seg = {-1, -1, old.seg[0]};
  C.v = {c, a, pid};
  C.n = {ta, tb, old.n[1]};
  C.cnt = {0, 0, old.cnt[1]};
  C.seg = {-1, -1, old.seg[1]};
  A.inside = B.inside = C.inside = old.inside;
  tris_[static_cast<std::size_t>(ta)] = A;
  tris_[static_cast<std::size_t>(tb)] = B;
  tris_[static_cast<std::size_t>(tc)] = C;
  set_neighbor(old.n[0], t, tb);
  set_neighbor(old.n[1], t, tc);
  vtri_[static_cast<std::size_t>(a)] = ta;
  vtri_[static_cast<std::size_t>(b)] = tb;
  vtri_[static_cast<std::size_t>(c)] = tc;
  last_tri_ = ta;
  legalize(ta, 2);
  legalize(tb, 2);
  legalize(tc, 2);
  return pid;
}

bool Cdt::split_edge_valid(int t, int i, Vec2 p) const {
  const Tri& T = tris_[static_cast<std::size_t>(t)];
  const int u = T.n[i];
  if (u < 0) return false;
  const Tri& U = tris_[static_cast<std::size_t>(u)];
  const int j = slot(U.n, t);
  if (j == 3) return false;
  const Vec2 w = pts_[static_cast<std::size_t>(T.v[i])], a = pts_[static_cast<std::size_t>(T.v[kNext[i]])],
             b = pts_[static_cast<std::size_t>(T.v[kPrev[i]])], z = pts_[static_cast<std::size_t>(U.v[j])];
  if (p == a || p == b) return false;
  return orient2d(w, a, p) > 0 && orient2d(w, p, b) > 0 && orient2d(z, b, p) > 0 && orient2d(z, p, a) > 0;
}

int Cdt::split_edge(int t, int i, Vec2 p, Kind kind) {
  const Tri T = tris_[static_cast<std::size_t>(t)];
  const int w = T.v[i], a = T.v[kNext[i]], b = T.v[kPrev[i]];
  const int u = T.n[i];
  const Tri U = tris_[static_cast<std::size_t>(u)];
  int j = 0;
  while (U.n[j] != t) ++j;
  const int z = U.v[j];
  const std::int64_t c_ab = T.cnt[i];
  const int s_ab = T.seg[i];
  const int n_bw = T.n[kNext[i]], s_bw = T.seg[kNext[i]];
  const std::int64_t c_bw = T.cnt[kNext[i]];
  const int n_wa = T.n[kPrev[i]], s_wa = T.seg[kPrev[i]];
  const std::int64_t c_wa = T.cnt[kPrev[i]];
  const int n_az = U.n[kNext[j]], s_az = U.seg[kNext[j]];
  const std::int64_t c_az = U.cnt[kNext[j]];
  const int n_zb = U.n[kPrev[j]], s_zb = U.seg[kPrev[j]];
  const std::int64_t c_zb = U.cnt[kPrev[j]];

  const int pid = static_cast<int>(pts_.size());
  pts_.push_back(p);
  kind_.push_back(kind);
  vtri_.push_back(t);
  const int t1 = t, u1 = u, t2 = new_tri(), u2 = new_tri();
  Tri T1, T2, U1, U2;
  T1.v = {w, a, pid};
  T1.n = {u2, t2, n_wa};
  T1.cnt = {c_ab, 0, c_wa};
  T1.seg = {s_ab, -1, s_wa};
  T2.v = {w, pid, b};
  T2.n = {u1, n_bw, t1};
  T2.cnt = {c_ab, c_bw, 0};
  T2.seg = {s_ab, s_bw, -1};
  U1.v = {z, b, pid};
  U1.n = {t2, u2, n_zb};
  U1.cnt = {c_ab, 0, c_zb};
  U1.seg = {s_ab, -1, s_zb};
  U2.v = {z, pid, a};
  U2.n = {t1, n_az, u1};
  U2.cnt = {c_ab, c_az, 0};
  U2.seg = {s_ab, s_az, -1};
  T1.inside = T2.inside = T.inside;
  U1.inside = U2.inside = U.inside;
  tris_[static_cast<std::size_t>(t1)] = T1;
  tris_[static_cast<std::size_t>(t2)] = T2;
  tris_[static_cast<std::size_t>(u1)] = U1;
  tris_[static_cast<std::size_t>(u2)] = U2;
  set_neighbor(n_bw, t, t2);
  set_neighbor(n_az, u, u2);
  vtri_[static_cast<std::size_t>(w)] = t1;
  vtri_[static_cast<std::size_t>(a)] = t1;
  vtri_[static_cast<std::size_t>(b)] = t2;
  vtri_[static_cast<std::size_t>(z)] = u1;
  last_tri_ = t1;
  legalize(t1, 2);
  legalize(t2, 1);
  legalize(u1, 2);
  legalize(u2, 1);
  return pid;
}

void Cdt::flip(int t, int i) {
  const Tri T = tris_[static_cast<std::size_t>(t)];
  const int p = T.v[i], a = T.v[kNext[i]], b = T.v[kPrev[i]];
  const int u = T.n[i];
  const Tri U = tris_[static_cast<std::size_t>(u)];
  int j = 0;
  while (U.n[j] != t) ++j;
  const int q = U.v[j];
  const int n_bp = T.n[kNext[i]], s_bp = T.seg[kNext[i]];
  const std::int64_t c_bp = T.cnt[kNext[i]];
  const int n_pa = T.n[kPrev[i]], s_pa = T.seg[kPrev[i]];
  const std::int64_t c_pa = T.cnt[kPrev[i]];
  const int n_aq = U.n[kNext[j]], s_aq = U.seg[kNext[j]];
  const std::int64_t c_aq = U.cnt[kNext[j]];
  const int n_qb = U.n[kPrev[j]], s_qb = U.seg[kPrev[j]];
  const std::int64_t c_qb = U.cnt[kPrev[j]];
  Tri& NT = tris_[static_cast<std::size_t>(t)];
  NT.v = {p, a, q};
  NT.n = {n_aq, u, n_pa};
  NT.cnt = {c_aq, 0, c_pa};
  NT.seg = {s_aq, -1, s_pa};
  Tri& NU = tris_[static_cast<std::size_t>(u)];
  NU.v = {q, b, p};
  NU.n = {n_bp, t, n_qb};
  NU.cnt = {c_bp, 0, c_qb};
  NU.seg = {s_bp, -1, s_qb};
  set_neighbor(n_aq, u, t);
  set_neighbor(n_bp, t, u);
  vtri_[static_cast<std::size_t>(p)] = t;
  vtri_[static_cast<std::size_t>(a)] = t;
  vtri_[static_cast<std::size_t>(q)] = t;
  vtri_[static_cast<std::size_t>(b)] = u;
}

bool Cdt::should_flip(int t, int i, bool same_region) const {
  const Tri& T = tris_[static_cast<std::size_t>(t)];
  if (!T.alive || T.cnt[i] > 0) return false;
  const int u = T.n[i];
  if (u < 0) return false;
  const Tri& U = tris_[static_cast<std::size_t>(u)];
  const int j = slot(U.n, t);
  if (j == 3 || (same_region && U.inside != T.inside)) return false;
  return incircle(pts_[static_cast<std::size_t>(T.v[0])], pts_[static_cast<std::size_t>(T.v[1])],
                  pts_[static_cast<std::size_t>(T.v[2])], pts_[static_cast<std::size_t>(U.v[j])]) > 0;
}

void Cdt::legalize(int t0, int i0) {
  flip_stack_.clear();
  flip_stack_.emplace_back(t0, i0);
  // Each flip strictly increases the triangulation's "lifted" height, so this terminates; the bound is
  // a second guard against a logic error.
  std::size_t guard = 0;
  const std::size_t limit = 16 * tris_.size() + 1024;
  while (!flip_stack_.empty() && guard++ < limit) {
    const auto [t, i] = flip_stack_.back();
    flip_stack_.pop_back();
    if (should_flip(t, i, false)) {
      // The apex of t is the vertex being inserted: after the flip it is v[0] of t and v[2] of u.
      const int u = tris_[static_cast<std::size_t>(t)].n[i];
      flip(t, i);
      flip_stack_.emplace_back(t, 0);
      flip_stack_.emplace_back(u, 2);
    }
  }
}

void Cdt::legalize_all() {
  std::vector<std::pair<int, int>> stack;
  for (std::size_t t = 0; t < tris_.size(); ++t)
    if (tris_[t].alive)
      for (int i = 0; i < 3; ++i) stack.emplace_back(static_cast<int>(t), i);
  std::size_t guard = 0;
  const std::size_t limit = 64 * tris_.size() + 1024;
  while (!stack.empty() && guard++ < limit) {
    const auto [t, i] = stack.back();
    stack.pop_back();
    if (should_flip(t, i, true)) {
      const int u = tris_[static_cast<std::size_t>(t)].n[i];
      flip(t, i);
      stack.emplace_back(t, 0);
      stack.emplace_back(t, 2);
      stack.emplace_back(u, 0);
      stack.emplace_back(u, 2);
    }
  }
}

bool Cdt::retriangulate_cavity(const std::vector<int>& removed, int a, int end, const std::vector<int>& left,
                               const std::vector<int>& right, std::int64_t weight, int seg_id) {
  struct Outer {
    int tri;
    std::int64_t cnt;
    int seg;
  };
  std::set<int> removed_set(removed.begin(), removed.end());
  std::map<std::pair<int, int>, Outer> boundary;
  for (int t : removed) {
    const Tri& T = tris_[static_cast<std::size_t>(t)];
    for (int i = 0; i < 3; ++i)
      if (!removed_set.count(T.n[i])) boundary[{T.v[kNext[i]], T.v[kPrev[i]]}] = Outer{T.n[i], T.cnt[i], T.seg[i]};
  }

  // Anglada: the vertex of each pseudo-polygon whose circle with the base holds no other vertex.
  std::vector<std::array<int, 3>> made;
  for (int side = 0; side < 2; ++side) {
    std::vector<int> poly;
    poly.push_back(a);
    const std::vector<int>& chain = side == 0 ? left : right;
    poly.insert(poly.end(), chain.begin(), chain.end());
    poly.push_back(end);
    std::vector<std::pair<std::size_t, std::size_t>> stack{{0, poly.size() - 1}};
    while (!stack.empty()) {
      const auto [i0, i1] = stack.back();
      stack.pop_back();
      if (i1 - i0 < 2) continue;
      const Vec2 pa = pts_[static_cast<std::size_t>(poly[i0])], pb = pts_[static_cast<std::size_t>(poly[i1])];
      std::size_t c = i0 + 1;
      for (std::size_t k = i0 + 2; k < i1; ++k)
        if (incircle_any(pa, pb, pts_[static_cast<std::size_t>(poly[c])], pts_[static_cast<std::size_t>(poly[k])]) > 0)
          c = k;
      std::array<int, 3> tri{poly[i0], poly[i1], poly[c]};
      const double o = orient2d(pa, pb, pts_[static_cast<std::size_t>(poly[c])]);
      if (o == 0) return false;
      if (o < 0) std::swap(tri[0], tri[1]);
      made.push_back(tri);
      stack.emplace_back(i0, c);
      stack.emplace_back(c, i1);
    }
  }
  if (made.size() != removed.size()) return false;

  std::map<std::pair<int, int>, std::pair<int, int>> inner;  // directed edge -> (tri, index)
  for (std::size_t k = 0; k < made.size(); ++k) {
    Tri T;
    T.v = made[k];
    tris_[static_cast<std::size_t>(removed[k])] = T;
    for (int i = 0; i < 3; ++i) inner[{T.v[kNext[i]], T.v[kPrev[i]]}] = {removed[k], i};
  }
  for (std::size_t k = 0; k < made.size(); ++k) {
    const int t = removed[k];
    for (int i = 0; i < 3; ++i) {
      Tri& T = tris_[static_cast<std::size_t>(t)];
      const int x = T.v[kNext[i]], y = T.v[kPrev[i]];
      if (auto it = inner.find({y, x}); it != inner.end()) {
        T.n[i] = it->second.first;
        if ((x == a && y == end) || (x == end && y == a)) {
          T.cnt[i] += weight;
          if (T.seg[i] < 0) T.seg[i] = seg_id;
        }
      } else if (auto ob = boundary.find({x, y}); ob != boundary.end()) {
        T.n[i] = ob->second.tri;
        T.cnt[i] = ob->second.cnt;
        T.seg[i] = ob->second.seg;
        if (ob->second.tri >= 0) {
          Tri& N = tris_[static_cast<std::size_t>(ob->second.tri)];
          for (int m = 0; m < 3; ++m)
            if (N.v[kNext[m]] == y && N.v[kPrev[m]] == x) N.n[m] = t;
        }
      } else {
        return false;
      }
      vtri_[static_cast<std::size_t>(x)] = t;
    }
  }
  last_tri_ = removed.front();
  return true;
}

int Cdt::vertex_on_segment(Vec2 a, Vec2 b, int u, int v) const {
  // Within 1e-12 of the segment's length of its line, strictly between its ends.
  const Vec2 dir = sub(b, a);
  const double len2 = dot(dir, dir);
  int best = -1;
  double best_off = HUGE_VAL;
  for (const int w : {u, v}) {
    if (kind_[static_cast<std::size_t>(w)] == Kind::Super) continue;
    const Vec2 p = pts_[static_cast<std::size_t>(w)];
    const double along = dot(sub(p, a), dir);
    const double off = std::fabs(orient2d(a, b, p));
    if (along > 0 && along < len2 && off <= 1e-12 * len2 && off < best_off) {
      best = w;
      best_off = off;
    }
  }
  return best;
}

// Recovers one input segment (Cdt::insert_segment) as a union of triangulation edges. Its pieces
// wait on a stack: from a piece's first end, the triangle fan is rotated to the wedge holding the
// direction to its other end; an edge or a vertex on the way is taken as it is, otherwise the
// triangles it crosses are removed and the cavity retriangulated with the piece as an edge, and a
// crossed earlier segment is split at the crossing (both segments then recover their halves).
class SegmentRecovery {
 public:
  SegmentRecovery(Cdt& cdt, int a, int b, std::int64_t klass) : c_(cdt) {
    const int seg = static_cast<int>(c_.segs_.size());
    c_.segs_.push_back(Cdt::Segment{a, b});
    work_.push_back({a, b, klass, seg});
  }

  bool run() {
    std::size_t guard = 0;
    const std::size_t limit = 4096 + 8 * c_.pts_.size();
    while (!work_.empty()) {
      if (++guard > limit) return false;
      const Piece piece = work_.back();
      work_.pop_back();
      if (piece.a == piece.b) continue;
      Crossing first;
      const Leave leave = leave_vertex(piece, first);
      if (leave == Leave::Fail) return false;
      if (leave == Leave::Cross && !walk_across(piece, first)) return false;
    }
    return true;
  }

 private:
  using Tri = Cdt::Tri;
  // A piece still to recover: (a, b) carrying `weight` (packed class counts) of input segment `seg`.
  struct Piece {
    int a, b;
    std::int64_t weight;
    int seg;
  };
  // The first triangle the piece crosses: its edge `i` (opposite a), with ends r (right) and l (left).
  struct Crossing {
    int t = -1, i = -1, l = -1, r = -1;
  };
  enum class Leave { Done, Cross, Fail };

  Vec2 P(int v) const { return c_.pts_[static_cast<std::size_t>(v)]; }
  const Tri& tri(int t) const { return c_.tris_[static_cast<std::size_t>(t)]; }

  // Edge i of t becomes (part of) the piece's segment.
  void bump(const Piece& piece, int t, int i) {
    const Tri& T = tri(t);
    c_.set_edge_count(t, i, T.cnt[i] + piece.weight, T.seg[i] >= 0 ? T.seg[i] : piece.seg);
  }

  // Rotates around a to the triangle whose wedge holds the direction to b: Done when an edge to b, or
  // to a vertex on the segment, is taken (the rest then waits as a piece), Cross when the piece
  // crosses the opposite edge.
  Leave leave_vertex(const Piece& piece, Crossing& out) {
    const int a = piece.a, b = piece.b;
    const Vec2 A = P(a), B = P(b);
    const Vec2 dir = sub(B, A);
    int t = c_.vtri_[static_cast<std::size_t>(a)];
    const int start = t;
    for (std::size_t rot = 0; rot <= c_.tris_.size(); ++rot) {
      const Tri& T = tri(t);
      const int ia = Cdt::slot(T.v, a);
      if (ia == 3) return Leave::Fail;
      const int v1 = T.v[kNext[ia]], v2 = T.v[kPrev[ia]];
      if (v1 == b) {
        bump(piece, t, kPrev[ia]);
        return Leave::Done;
      }
      if (v2 == b) {
        bump(piece, t, kNext[ia]);
        return Leave::Done;
      }
      const Vec2 P1 = P(v1), P2 = P(v2);
      const double o1 = orient2d(A, B, P1), o2 = orient2d(A, B, P2);
      if (o1 == 0 && dot(sub(P1, A), dir) > 0) {  // a vertex lies on the segment: split there
        bump(piece, t, kPrev[ia]);
        work_.push_back({v1, b, piece.weight, piece.seg});
        return Leave::Done;
      }
      if (o2 == 0 && dot(sub(P2, A), dir) > 0) {
        bump(piece, t, kNext[ia]);
        work_.push_back({v2, b, piece.weight, piece.seg});
        return Leave::Done;
      }
      if (o1 < 0 && o2 > 0) {
        out = {t, ia, v2, v1};
        return Leave::Cross;
      }
      t = T.n[kNext[ia]];
      if (t < 0 || t == start) return Leave::Fail;
    }
    return Leave::Fail;
  }

  // Walks along the piece from its first crossed triangle, collecting the crossed triangles, until
  // it reaches b (or a vertex on the segment, or an earlier segment): then the cavity is
  // retriangulated (or the crossing split). False when recovery gives up.
  bool walk_across(const Piece& piece, Crossing x) {
    const int a = piece.a, b = piece.b;
    const Vec2 A = P(a), B = P(b);
    std::vector<int> removed{x.t};
    std::vector<int> left{x.l}, right{x.r};
    int cur = x.t, e = x.i, l = x.l, r = x.r;
    for (std::size_t steps = 0; steps <= c_.tris_.size(); ++steps) {
      if (tri(cur).cnt[e] > 0) return split_crossing(piece, cur, e, l, r);
      const int u = tri(cur).n[e];
      if (u < 0) return false;
      const Tri& U = tri(u);
      const int j = Cdt::slot(U.n, cur);
      if (j == 3) return false;
      const int w = U.v[j];
      removed.push_back(u);
      if (w == b) return c_.retriangulate_cavity(removed, a, b, left, right, piece.weight, piece.seg);
      const double ow = orient2d(A, B, P(w));
      if (ow == 0) {
        if (!c_.retriangulate_cavity(removed, a, w, left, right, piece.weight, piece.seg)) return false;
        work_.push_back({w, b, piece.weight, piece.seg});
        return true;
      }
      // The next crossed edge joins w to the endpoint on the other side; it is opposite the endpoint
      // on w's side.
      const int drop = ow > 0 ? l : r;
      const int k = Cdt::slot(U.v, drop);
      if (k == 3) return false;
      if (ow > 0) {
        left.push_back(w);
        l = w;
      } else {
        right.push_back(w);
        r = w;
      }
      cur = u;
      e = k;
    }
    return false;
  }

  // Crossing an earlier segment (l, r) at edge e of cur: insert the crossing point on it and recover
  // both halves of each. When the rounded point does not split (l, r) cleanly (it sits a rounding
  // error off the edge), it is inserted as a free vertex and both segments are bent through it, which
  // moves them by that rounding error only; a point within rounding of an endpoint snaps to it.
  bool split_crossing(const Piece& piece, int cur, int e, int l, int r) {
    const int a = piece.a, b = piece.b;
    const Vec2 A = P(a), B = P(b), L = P(l), R = P(r);
    const auto both_halves = [&](int mid) {
      work_.push_back({mid, b, piece.weight, piece.seg});
      work_.push_back({a, mid, piece.weight, piece.seg});
    };
    // An end of (l, r) within rounding of this segment's line: the two overlap there, and their
    // crossing point is ill-conditioned. Route this segment through that end instead, so repeated
    // overlapping segments share vertices rather than bending around each other without end.
    if (const int via = c_.vertex_on_segment(A, B, l, r); via >= 0) {
      both_halves(via);
      return true;
    }
    // Exact orientations: the filtered ones have the right sign but, near the filter's bound, a
    // magnitude too rough to place the crossing point.
    const double oa = orient2d_exact(L, R, A), ob = orient2d_exact(L, R, B);
    const long double s = static_cast<long double>(oa) / (static_cast<long double>(oa) - ob);
    const Vec2 X{static_cast<double>(A.x + s * (static_cast<long double>(B.x) - A.x)),
                 static_cast<double>(A.y + s * (static_cast<long double>(B.y) - A.y))};
    if (!std::isfinite(X.x) || !std::isfinite(X.y)) return false;
    if (c_.split_edge_valid(cur, e, X)) {
      const int mid = c_.split_edge(cur, e, X, Cdt::Kind::Crossing);
      ++c_.crossings_;
      both_halves(mid);
      return true;
    }
    const double scale = std::max(squared_distance(L, R), squared_distance(A, B));
    const double dl = squared_distance(X, L), dr = squared_distance(X, R), da = squared_distance(X, A), db = squared_distance(X, B);
    const double nearest = std::min({dl, dr, da, db});
    const std::int64_t other = tri(cur).cnt[e];
    const int other_seg = tri(cur).seg[e];
    int mid;
    if (nearest <= 1e-24 * scale) {
      mid = nearest == dl ? l : nearest == dr ? r : nearest == da ? a : b;
    } else {
      c_.set_edge_count(cur, e, 0, -1);
      mid = c_.insert_point(X, Cdt::Kind::Crossing);
      if (mid < 0) return false;
      ++c_.crossings_;
    }
    both_halves(mid);
    if (mid != l && mid != r) {
      if (nearest <= 1e-24 * scale) c_.set_edge_count(cur, e, 0, -1);
      work_.push_back({mid, r, other, other_seg});
      work_.push_back({l, mid, other, other_seg});
    }
    return true;
  }

  Cdt& c_;
  std::vector<Piece> work_;
};

bool Cdt::insert_segment(int a0, int b0, std::int64_t klass) { return SegmentRecovery(*this, a0, b0, klass).run(); }

void Cdt::classify_and_clean(Rule rule) {
  // Flood from the enclosing triangle (outside), toggling each class's parity across its segments.
  std::vector<std::uint8_t> parity(tris_.size(), 0xFF);
  std::deque<int> queue;
  const int seed = vtri_[0];
  parity[static_cast<std::size_t>(seed)] = 0;
  queue.push_back(seed);
  while (!queue.empty()) {
    const int t = queue.front();
    queue.pop_front();
    const Tri& T = tris_[static_cast<std::size_t>(t)];
    for (int i = 0; i < 3; ++i) {
      const int u = T.n[i];
      if (u < 0 || parity[static_cast<std::size_t>(u)] != 0xFF) continue;
      const std::uint8_t flip_a = (T.cnt[i] & 1) != 0, flip_b = ((T.cnt[i] >> 32) & 1) != 0;
      parity[static_cast<std::size_t>(u)] =
          static_cast<std::uint8_t>(parity[static_cast<std::size_t>(t)] ^ (flip_a | (flip_b << 1)));
      queue.push_back(u);
    }
  }
  for (std::size_t t = 0; t < tris_.size(); ++t) {
    Tri& T = tris_[t];
    if (!T.alive) continue;
    const std::uint8_t p = parity[t];
    T.inside = rule == Rule::EvenOdd ? (p & 1) != 0 : (p & 1) != 0 && (p & 2) == 0;
    if (T.inside) {
      const Vec2 a = pts_[static_cast<std::size_t>(T.v[0])], b = pts_[static_cast<std::size_t>(T.v[1])],
                 c = pts_[static_cast<std::size_t>(T.v[2])];
      const double longest = std::max({squared_distance(a, b), squared_distance(b, c), squared_distance(c, a)});
      if (std::fabs(orient2d(a, b, c)) <= 1e-12 * longest) T.inside = false;
    }
  }
  for (Tri& T : tris_) {
    if (!T.alive) continue;
    for (int i = 0; i < 3; ++i) {
      const bool boundary = T.n[i] >= 0 && tris_[static_cast<std::size_t>(T.n[i])].inside != T.inside;
      if (!boundary) {
        T.cnt[i] = 0;
        T.seg[i] = -1;
      } else if (T.cnt[i] == 0) {
        T.cnt[i] = kClassA;  // the side of a dropped needle
      }
    }
  }
  legalize_all();
}

// Ruppert refinement of the inside triangles (Cdt::refine): queues of encroached segments and bad
// triangles, segments split before triangles, each bad triangle split at its off-center unless that
// point would encroach a segment (the segment is split instead) or cannot be placed (the triangle is
// given up on).
class Refiner {
 public:
  using Tri = Cdt::Tri;
  using Kind = Cdt::Kind;
  using Triple = std::array<int, 3>;

  Refiner(Cdt& cdt, const Cdt::RefineOptions& opt)
      : c_(cdt),
        alpha_(std::clamp(opt.min_angle_deg, 0.0, 34.0) * kPi / 180.0),
        cos_alpha_(std::cos(alpha_)),
        max_edge2_(opt.max_edge > 0 ? opt.max_edge * opt.max_edge : HUGE_VAL),
        min_edge2_(opt.min_edge * opt.min_edge),
        budget_(opt.max_vertices > 0 ? opt.max_vertices : static_cast<std::size_t>(-1)) {}

  std::size_t run(bool& budget_reached) {
    budget_reached = false;
    const std::size_t start_vertices = c_.pts_.size();
    for (std::size_t t = 0; t < c_.tris_.size(); ++t) enqueue_triangle(static_cast<int>(t));
    const std::size_t limit = 64 * std::min<std::size_t>(budget_, 1u << 22) + 100000;
    for (std::size_t iter = 0; iter < limit; ++iter) {
      if (segq_.empty() && triq_.empty()) break;
      if (c_.real_vertex_count() >= budget_) {
        budget_reached = true;
        break;
      }
      if (!segq_.empty()) {
        const auto [u, v] = segq_.front();
        segq_.pop_front();
        split_queued_segment(u, v);
        continue;
      }
      const auto [t, vs] = triq_.front();
      triq_.pop_front();
      refine_triangle(t, vs);
    }
    return c_.pts_.size() - start_vertices;
  }

 private:
  static constexpr double kPi = 3.14159265358979323846;

  Vec2 P(int v) const { return c_.pts_[static_cast<std::size_t>(v)]; }
  const Tri& tri(int t) const { return c_.tris_[static_cast<std::size_t>(t)]; }
  static std::pair<int, int> key(int u, int v) { return std::make_pair(std::min(u, v), std::max(u, v)); }
  static Triple sorted(Triple v) {
    std::sort(v.begin(), v.end());
    return v;
  }
  void give_up(const Triple& vs) { skipped_.insert(sorted(vs)); }

  // Bad: smallest angle under alpha with its shortest edge at least min_edge (angle_bad), or longest
  // edge over max_edge. Returns the index of the shortest edge.
  int classify(const Tri& T, bool& angle_bad, bool& size_bad) const {
    double l2[3];
    for (int i = 0; i < 3; ++i) l2[i] = squared_distance(P(T.v[kNext[i]]), P(T.v[kPrev[i]]));
    int s = 0;
    for (int i = 1; i < 3; ++i)
      if (l2[i] < l2[s]) s = i;
    const double b2 = l2[kNext[s]], c2 = l2[kPrev[s]];
    const double cos_min = (b2 + c2 - l2[s]) / (2.0 * std::sqrt(b2 * c2));
    angle_bad = alpha_ > 0 && cos_min > cos_alpha_ && l2[s] >= min_edge2_;
    size_bad = std::max({l2[0], l2[1], l2[2]}) > max_edge2_;
    return s;
  }

  // The input segment a segment-split vertex lies on, or -1.
  int vertex_segment(int v) {
    c_.collect_fan(v, fan_);
    for (int t : fan_) {
      const Tri& T = tri(t);
      for (int i = 0; i < 3; ++i)
        if (T.v[i] != v && T.cnt[i] > 0 && T.seg[i] >= 0 && (T.v[kNext[i]] == v || T.v[kPrev[i]] == v))
          return T.seg[i];
    }
    return -1;
  }

  // Shewchuk's exemption: a skinny triangle whose shortest edge joins two shell vertices on segments
  // meeting at an input vertex, at equal distances from it, is caused by the small input angle there;
  // splitting it would only cascade.
  bool exempt(const Tri& T, int shortest) {
    const int u = T.v[kNext[shortest]], w = T.v[kPrev[shortest]];
    if (c_.kind_[static_cast<std::size_t>(u)] != Kind::SegmentSplit ||
        c_.kind_[static_cast<std::size_t>(w)] != Kind::SegmentSplit)
      return false;
    const int su = vertex_segment(u), sw = vertex_segment(w);
    if (su < 0 || sw < 0 || su == sw) return false;
    const Cdt::Segment S1 = c_.segs_[static_cast<std::size_t>(su)], S2 = c_.segs_[static_cast<std::size_t>(sw)];
    int join = -1;
    if (S1.a == S2.a || S1.a == S2.b) join = S1.a;
    if (S1.b == S2.a || S1.b == S2.b) join = S1.b;
    if (join < 0) return false;
    const double d1 = std::sqrt(squared_distance(P(u), P(join))), d2 = std::sqrt(squared_distance(P(w), P(join)));
    return d1 < 1.001 * d2 && d1 > 0.999 * d2;
  }

  bool segment_needs_split(int t, int i) const {
    const Tri& T = tri(t);
    if (!T.inside || T.cnt[i] == 0) return false;
    const Vec2 u = P(T.v[kNext[i]]), v = P(T.v[kPrev[i]]), apex = P(T.v[i]);
    return dot(sub(u, apex), sub(v, apex)) < 0 || squared_distance(u, v) > max_edge2_;
  }

  void enqueue_triangle(int t) {
    const Tri& T = tri(t);
    if (!T.alive || !T.inside) return;
    bool angle_bad, size_bad;
    classify(T, angle_bad, size_bad);
    if (angle_bad || size_bad) triq_.emplace_back(t, T.v);
    for (int i = 0; i < 3; ++i)
      if (segment_needs_split(t, i)) segq_.emplace_back(T.v[kNext[i]], T.v[kPrev[i]]);
  }

  void enqueue_around(int v) {
    c_.collect_fan(v, around_);
    for (int t : around_) enqueue_triangle(t);
  }

  // Where segment (a, b) is split: at the midpoint, or at a power of two from an input vertex
  // (concentric shells, so splits near a small input angle stay at matching distances).
  Vec2 segment_split_point(int a, int b) const {
    const bool acute_a = c_.kind_[static_cast<std::size_t>(a)] == Kind::Input;
    const bool acute_b = c_.kind_[static_cast<std::size_t>(b)] == Kind::Input;
    const double len = std::sqrt(squared_distance(P(a), P(b)));
    double frac = 0.5;
    if (acute_a != acute_b && len > 0) {
      double pow2 = 1.0;
      for (int k = 0; k < 2100 && len > 3.0 * pow2; ++k) pow2 *= 2.0;
      for (int k = 0; k < 2100 && len < 1.5 * pow2; ++k) pow2 *= 0.5;
      frac = pow2 / len;
      if (acute_b) frac = 1.0 - frac;
    }
    return {P(a).x + frac * (P(b).x - P(a).x), P(a).y + frac * (P(b).y - P(a).y)};
  }

  // Splits segment (u, v) from its inside triangle; the new vertex, or -1.
  int split_segment(int u, int v) {
    if (unsplittable_.count(key(u, v))) return -1;
    int t, i;
    if (!c_.find_edge(u, v, t, i)) return -1;
    if (tri(t).cnt[i] == 0) return -1;
    if (!tri(t).inside) {
      const int n = tri(t).n[i];
      if (n < 0 || !tri(n).inside) return -1;
      i = c_.edge_index(n, u, v);
      t = n;
    }
    const Vec2 m = segment_split_point(tri(t).v[kNext[i]], tri(t).v[kPrev[i]]);
    if (!c_.split_edge_valid(t, i, m)) {
      unsplittable_.insert(key(u, v));
      return -1;
    }
    const int id = c_.split_edge(t, i, m, Kind::SegmentSplit);
    enqueue_around(id);
    return id;
  }

  void split_queued_segment(int u, int v) {
    int t, i;
    if (!c_.find_edge(u, v, t, i)) return;
    const int n = tri(t).n[i];
    const int j = n >= 0 ? c_.edge_index(n, u, v) : -1;
    if (!segment_needs_split(t, i) && !(j >= 0 && segment_needs_split(n, j))) return;
    split_segment(u, v);
  }

  // The circumcenter, pulled in to the off-center (Ungor 2004) for a skinny triangle: the point on
  // the shortest edge's bisector that makes a triangle of exactly the bound with that edge, when it
  // is nearer than the circumcenter. It needs far fewer Steiner points for the same guarantee.
  // None when the triangle is degenerate.
  std::optional<Vec2> steiner_point(const Tri& T, int shortest, bool angle_bad) const {
    // Circumcenter, relative to v0 for accuracy.
    const Vec2 a = P(T.v[0]), b = P(T.v[1]), c = P(T.v[2]);
    const double bx = b.x - a.x, by = b.y - a.y, cx = c.x - a.x, cy = c.y - a.y;
    const double d = 2.0 * (bx * cy - by * cx);
    const double b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
    Vec2 cc{a.x + (cy * b2 - by * c2) / d, a.y + (bx * c2 - cx * b2) / d};
    if (!(d != 0) || !std::isfinite(cc.x) || !std::isfinite(cc.y)) return std::nullopt;
    if (angle_bad && alpha_ > 0) {
      const Vec2 p = P(T.v[kNext[shortest]]), q = P(T.v[kPrev[shortest]]);
      const Vec2 mid{0.5 * (p.x + q.x), 0.5 * (p.y + q.y)};
      const double half = 0.5 * std::sqrt(squared_distance(p, q));
      const double reach = half / std::tan(0.5 * alpha_);
      const double dc = std::sqrt(squared_distance(cc, mid));
      if (dc > reach && dc > 0) cc = {mid.x + (cc.x - mid.x) * (reach / dc), mid.y + (cc.y - mid.y) * (reach / dc)};
    }
    return cc;
  }

  // Walks from triangle `cur` to the one holding p without crossing a segment; `blocked` is the edge
  // of the last triangle whose segment stands in the way (p lies beyond it), else -1. False when the
  // walk does not arrive.
  bool walk_to(Vec2 p, int& cur, int& blocked) {
    for (std::size_t steps = 0; steps < c_.tris_.size() + 64; ++steps) {
      const Tri& C = tri(cur);
      c_.walk_seed_ = c_.walk_seed_ * 1664525u + 1013904223u;
      const int r = static_cast<int>((c_.walk_seed_ >> 16) % 3u);
      int next = -1;
      blocked = -1;
      for (int k = 0; k < 3; ++k) {
        const int i = (r + k) % 3;
        if (orient2d(P(C.v[kNext[i]]), P(C.v[kPrev[i]]), p) < 0) {
          if (C.cnt[i] > 0) {
            if (blocked < 0) blocked = i;
          } else {
            next = C.n[i];
            break;
          }
        }
      }
      if (next < 0) return true;
      cur = next;
    }
    return false;
  }

  // Ruppert: the segments p would encroach, found on the boundary of the inside triangles whose
  // circumcircle holds p, flooded from `cur`. `seen_stamp_` marks them with this step's stamp (a
  // vector indexed by triangle instead of a set: no allocation per step).
  void collect_encroached(int cur, Vec2 p) {
    encroached_.clear();
    ++stamp_;
    if (seen_stamp_.size() < c_.tris_.size()) seen_stamp_.resize(c_.tris_.size(), 0);
    flood_.assign(1, cur);
    seen_stamp_[static_cast<std::size_t>(cur)] = stamp_;
    std::size_t seen = 1;
    while (!flood_.empty() && seen < 4096) {
      const int k = flood_.back();
      flood_.pop_back();
      const Tri& K = tri(k);
      for (int i = 0; i < 3; ++i) {
        const int u = K.v[kNext[i]], v = K.v[kPrev[i]];
        if (K.cnt[i] > 0) {
          if (dot(sub(P(u), p), sub(P(v), p)) < 0) encroached_.emplace_back(u, v);
          continue;
        }
        const int nb = K.n[i];
        if (nb < 0 || seen_stamp_[static_cast<std::size_t>(nb)] == stamp_ || !tri(nb).inside) continue;
        const Tri& N = tri(nb);
        if (incircle(P(N.v[0]), P(N.v[1]), P(N.v[2]), p) > 0) {
          seen_stamp_[static_cast<std::size_t>(nb)] = stamp_;
          ++seen;
          flood_.push_back(nb);
        }
      }
    }
  }

  // Puts the Steiner point p into triangle `cur` (or on its edge); false when it cannot go there.
  bool insert_steiner(int cur, Vec2 p) {
    const Tri& C = tri(cur);
    bool coincident = false;
    int on_edge = -1;
    for (int i = 0; i < 3; ++i) {
      if (P(C.v[i]) == p) coincident = true;
      if (orient2d(P(C.v[kNext[i]]), P(C.v[kPrev[i]]), p) == 0) on_edge = i;
    }
    if (coincident) return false;
    int id;
    if (on_edge >= 0) {
      if (C.cnt[on_edge] > 0 || !c_.split_edge_valid(cur, on_edge, p)) return false;
      id = c_.split_edge(cur, on_edge, p, Kind::Free);
    } else {
      id = c_.split_triangle(cur, p, Kind::Free);
    }
    enqueue_around(id);
    return true;
  }

  void refine_triangle(int t, const Triple& vs) {
    const Tri& T = tri(t);
    if (!T.alive || !T.inside || T.v != vs || skipped_.count(sorted(vs))) return;
    bool angle_bad, size_bad;
    const int shortest = classify(T, angle_bad, size_bad);
    if (!angle_bad && !size_bad) return;
    if (!size_bad && exempt(T, shortest)) return;
    const std::optional<Vec2> cc = steiner_point(T, shortest, angle_bad);
    int cur = t, blocked = -1;
    if (!cc || !walk_to(*cc, cur, blocked)) return give_up(vs);
    if (blocked >= 0) {  // a segment between the triangle and its point: split it instead
      const Tri& C = tri(cur);
      if (split_segment(C.v[kNext[blocked]], C.v[kPrev[blocked]]) < 0)
        give_up(vs);
      else
        triq_.emplace_back(t, vs);
      return;
    }
    collect_encroached(cur, *cc);
    if (!encroached_.empty()) {
      bool any = false;
      for (const auto& [u, v] : encroached_) any = split_segment(u, v) >= 0 || any;
      if (any)
        triq_.emplace_back(t, vs);
      else
        give_up(vs);
      return;
    }
    if (!insert_steiner(cur, *cc)) give_up(vs);
  }

  Cdt& c_;
  const double alpha_, cos_alpha_, max_edge2_, min_edge2_;
  const std::size_t budget_;
  std::set<std::pair<int, int>> unsplittable_;
  std::set<Triple> skipped_;
  std::deque<std::pair<int, int>> segq_;
  std::deque<std::pair<int, Triple>> triq_;
  std::vector<int> fan_, around_, flood_;
  std::vector<std::pair<int, int>> encroached_;
  std::vector<std::uint32_t> seen_stamp_;
  std::uint32_t stamp_ = 0;
};

std::size_t Cdt::refine(const RefineOptions& opt, bool& budget_reached) {
  return Refiner(*this, opt).run(budget_reached);
}

}  // namespace rig2d::detail
