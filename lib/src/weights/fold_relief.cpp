// SPDX-License-Identifier: Apache-2.0
#include "weights/fold_relief.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "rig2d/skin/skeleton.h"
#include "weights/mesh_graph.h"

namespace rig2d::detail {
namespace {

constexpr std::size_t kSlots = 4;
constexpr double kMinBindArea = 1e-9;  // px^2: not measured, as in the deform check (triangle_measures.cpp)
constexpr std::array<double, 4> kHandOver = {0.25, 0.5, 0.75, 1.0};  // of the corner's weight, least first
constexpr int kMaxPasses = 4;

struct Slots {
  std::array<std::uint32_t, kSlots> bone{};
  std::array<double, kSlots> weight{};
};

Slots slots_of(const SkinWeights& w, std::size_t v) {
  Slots s;
  for (std::size_t k = 0; k < kSlots; ++k) s.bone[k] = w.indices[v * kSlots + k], s.weight[k] = w.weights[v * kSlots + k];
  return s;
}

// The bends of the deform check, each a bone with a parent turned by +angle or -angle about its joint.
// A bind pose has no scale, so every bone under the bent one turns rigidly with it, and a vertex moves
// by the share of its weight on those bones: p + share * (turned(p) - p), as the engine skins it.
class Bends {
 public:
  Bends(std::span<const Bone> bones, double angle)
      : bones_(bones.size()), cos_(std::cos(angle)), sin_(std::sin(angle)) {
    const std::vector<Vec2> joints = joint_positions(bones);
    const std::vector<PoseStep> order = pose_order(bones);  // parents before their children
    for (const PoseStep& step : order) {
      if (step.parent < 0) continue;
      turned_.push_back({step.bone, static_cast<std::uint32_t>(step.parent), joints[step.bone]});
      follows_.resize(turned_.size() * bones_, 0);
      std::uint8_t* follows = &follows_[(turned_.size() - 1) * bones_];
      follows[step.bone] = 1;
      for (const PoseStep& below : order)
        if (below.parent >= 0 && follows[below.parent]) follows[below.bone] = 1;
    }
  }
  std::size_t size() const { return 2 * turned_.size(); }
  std::uint32_t parent(std::size_t bend) const { return turned_[bend / 2].parent; }

  double share(std::size_t bend, const std::uint32_t* bone, const double* weight) const {
    const std::uint8_t* follows = &follows_[(bend / 2) * bones_];
    double m = 0;
    for (std::size_t k = 0; k < kSlots; ++k)
      if (weight[k] != 0 && bone[k] < bones_ && follows[bone[k]]) m += weight[k];
    return m;
  }
  double share(std::size_t bend, const Slots& s) const { return share(bend, s.bone.data(), s.weight.data()); }
  Vec2 posed(std::size_t bend, Vec2 p, double share) const {
    const Vec2 j = turned_[bend / 2].joint;
    const double s = bend % 2 ? -sin_ : sin_;
    const double dx = p.x - j.x, dy = p.y - j.y;
    const Vec2 turned{j.x + cos_ * dx - s * dy, j.y + s * dx + cos_ * dy};
    return {p.x + share * (turned.x - p.x), p.y + share * (turned.y - p.y)};
  }

 private:
  struct Turned {
    std::uint32_t bone, parent;
    Vec2 joint;
  };
  std::size_t bones_;
  double cos_, sin_;
  std::vector<Turned> turned_;
  std::vector<std::uint8_t> follows_;  // per turned bone, one flag per bone: it turns too
};

// The mesh with the bind area of each triangle and the triangles around each vertex.
struct Surface {
  std::span<const Vec2> verts;
  std::span<const std::uint32_t> tris;
  std::vector<double> bind_area;
  std::vector<std::uint32_t> around_begin, around;

  Surface(std::span<const Vec2> mesh_verts, std::span<const std::uint32_t> mesh_tris)
      : verts(mesh_verts), tris(mesh_tris) {
    const std::size_t count = tris.size() / 3;
    bind_area.resize(count);
    around_begin.assign(verts.size() + 1, 0);
    for (std::size_t i = 0; i < count; ++i) {
      bind_area[i] = cross2(verts[tris[3 * i]], verts[tris[3 * i + 1]], verts[tris[3 * i + 2]]);
      for (int k = 0; k < 3; ++k) ++around_begin[tris[3 * i + k] + 1];
    }
    for (std::size_t v = 0; v < verts.size(); ++v) around_begin[v + 1] += around_begin[v];
    around.resize(around_begin.back());
    std::vector<std::uint32_t> fill(around_begin.begin(), around_begin.end() - 1);
    for (std::size_t i = 0; i < count; ++i)
      for (int k = 0; k < 3; ++k) around[fill[tris[3 * i + k]]++] = static_cast<std::uint32_t>(i);
  }
  bool measured(std::size_t tri) const { return std::abs(bind_area[tri]) >= kMinBindArea; }
  bool folded(std::size_t tri, Vec2 a, Vec2 b, Vec2 c) const {
    return measured(tri) && cross2(a, b, c) / bind_area[tri] < 0;
  }
};

// What bend `bend` does to triangle `tri` with the weights `w` (vertex `swap`, if any, weighted by
// `swapped` instead): turned inside out, its posed / bind area, and its longest edge's stretch.
struct TriangleBend {
  bool folded = false;
  double area_ratio = 1;
  double stretch = 1;
};
TriangleBend bend_of(const Surface& s, const Bends& bends, const SkinWeights& w, std::size_t bend, std::size_t tri,
                     std::size_t swap = SIZE_MAX, const Slots* swapped = nullptr, bool stretch = true) {
  std::array<Vec2, 3> bind, p;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::uint32_t v = s.tris[3 * tri + k];
    const Slots slots = v == swap ? *swapped : slots_of(w, v);
    bind[k] = s.verts[v];
    p[k] = bends.posed(bend, bind[k], bends.share(bend, slots));
  }
  TriangleBend out;
  if (!s.measured(tri)) return out;
  out.area_ratio = cross2(p[0], p[1], p[2]) / s.bind_area[tri];
  out.folded = out.area_ratio < 0;
  for (std::size_t k = 0; k < 3 && stretch; ++k) {
    const std::size_t e = (k + 1) % 3;
    const double l0 = std::hypot(bind[e].x - bind[k].x, bind[e].y - bind[k].y);
    if (l0 > 0) out.stretch = std::max(out.stretch, std::hypot(p[e].x - p[k].x, p[e].y - p[k].y) / l0);
  }
  return out;
}
bool folds_in(const Surface& s, const Bends& bends, const SkinWeights& w, std::size_t bend, std::size_t tri,
              std::size_t swap = SIZE_MAX, const Slots* swapped = nullptr) {
  return bend_of(s, bends, w, bend, tri, swap, swapped, false).folded;
}

// Folded triangles per bend. Every rig with two bones pays this once, so it runs on flat arrays.
std::vector<std::size_t> count_folds(const Surface& s, const Bends& bends, const SkinWeights& w) {
  std::vector<std::size_t> folds(bends.size(), 0);
  std::vector<Vec2> posed(s.verts.size());
  for (std::size_t bend = 0; bend < bends.size(); ++bend) {
    for (std::size_t v = 0; v < s.verts.size(); ++v)
      posed[v] = bends.posed(bend, s.verts[v], bends.share(bend, &w.indices[v * kSlots], &w.weights[v * kSlots]));
    std::size_t folded = 0;
    for (std::size_t t = 0; t < s.bind_area.size(); ++t)
      folded += s.folded(t, posed[s.tris[3 * t]], posed[s.tris[3 * t + 1]], posed[s.tris[3 * t + 2]]);
    folds[bend] = folded;
  }
  return folds;
}

// `s` with `share` of its weight handed to bone `to`: the largest `max_influences` kept (ties to the
// lower bone), summing to 1, sorted by weight, unused slots (0, 0).
Slots hand_over(const Slots& s, std::uint32_t to, double share, int max_influences) {
  std::array<std::pair<double, std::uint32_t>, kSlots + 1> all{};
  std::size_t n = 0;
  bool merged = false;
  for (std::size_t k = 0; k < kSlots; ++k) {
    if (s.weight[k] == 0) continue;
    const double w = s.weight[k] * (1 - share) + (s.bone[k] == to ? share : 0);
    merged = merged || s.bone[k] == to;
    all[n++] = {w, s.bone[k]};
  }
  if (!merged) all[n++] = {share, to};
  for (std::size_t i = 1; i < n; ++i)  // by weight, ties to the lower bone
    for (std::size_t k = i; k > 0 && (all[k].first > all[k - 1].first ||
                                      (all[k].first == all[k - 1].first && all[k].second < all[k - 1].second));
         --k)
      std::swap(all[k], all[k - 1]);
  n = std::min(n, static_cast<std::size_t>(std::clamp(max_influences, 1, static_cast<int>(kSlots))));
  double total = 0;
  for (std::size_t k = 0; k < n; ++k) total += all[k].first;
  Slots out;
  for (std::size_t k = 0; k < n && total > 0; ++k) out.bone[k] = all[k].second, out.weight[k] = all[k].first / total;
  return out;
}

// The corner of `tri` that follows `bend` most beyond the mean of the other two; SIZE_MAX if none does.
std::size_t leading_corner(const Surface& s, const Bends& bends, const SkinWeights& w, std::size_t bend,
                           std::size_t tri) {
  std::array<double, 3> m;
  for (std::size_t k = 0; k < 3; ++k) m[k] = bends.share(bend, slots_of(w, s.tris[3 * tri + k]));
  std::size_t best = SIZE_MAX;
  double lead = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const double over = m[k] - 0.5 * (m[(k + 1) % 3] + m[(k + 2) % 3]);
    if (over > lead) lead = over, best = s.tris[3 * tri + k];
  }
  return best;
}

// A hand-over must not trade a fold for what the deform check flags instead: a triangle around the
// vertex shrunk below kMinAreaRatio or grown beyond kMaxAreaRatio of its bind area, or an edge
// stretched beyond kMaxStretch, further than the bend already took it.
constexpr double kMinAreaRatio = 0.2, kMaxAreaRatio = 5, kMaxStretch = 3;  // DeformThresholds' defaults

bool still_sound(const TriangleBend& before, const TriangleBend& after) {
  if (after.folded) return true;  // counted as a fold
  if (!before.folded && after.area_ratio < std::min(before.area_ratio, kMinAreaRatio)) return false;
  return after.area_ratio <= std::max(before.area_ratio, kMaxAreaRatio) &&
         after.stretch <= std::max(before.stretch, kMaxStretch);
}

// Folded triangles around vertex v per bend when it is weighted by `next` instead of `now`, minus those
// now; nullopt as soon as one bend would fold more. A bend that moves v alike either way (its share
// unchanged) changes nothing.
std::optional<std::vector<std::ptrdiff_t>> fold_change(const Surface& s, const Bends& bends, const SkinWeights& w,
                                                       std::size_t v, const Slots& now, const Slots& next) {
  std::vector<std::ptrdiff_t> change(bends.size(), 0);
  for (std::size_t bend = 0; bend < bends.size(); ++bend) {
    if (bends.share(bend, now) == bends.share(bend, next)) continue;
    for (std::uint32_t i = s.around_begin[v]; i < s.around_begin[v + 1]; ++i)
      change[bend] += static_cast<std::ptrdiff_t>(folds_in(s, bends, w, bend, s.around[i], v, &next)) -
                      static_cast<std::ptrdiff_t>(folds_in(s, bends, w, bend, s.around[i]));
    if (change[bend] > 0) return std::nullopt;
  }
  return change;
}

// No triangle around vertex v comes out of any bend unsound when it is weighted by `next`.
bool sound_around(const Surface& s, const Bends& bends, const SkinWeights& w, std::size_t v, const Slots& now,
                  const Slots& next) {
  for (std::size_t bend = 0; bend < bends.size(); ++bend) {
    if (bends.share(bend, now) == bends.share(bend, next)) continue;
    for (std::uint32_t i = s.around_begin[v]; i < s.around_begin[v + 1]; ++i)
      if (!still_sound(bend_of(s, bends, w, bend, s.around[i]), bend_of(s, bends, w, bend, s.around[i], v, &next)))
        return false;
  }
  return true;
}

// The relief's running state: the weights, the folds per bend, and how many vertices each bone
// dominates (a bone left dominating none would be flagged unused).
struct Relief {
  SkinWeights& weights;
  std::vector<std::size_t> folds;
  std::vector<std::size_t> dominated;
};

// Tries the hand-overs of vertex v to `to`, least first; applies the first that unfolds triangle `tri`
// in `bend` and lowers the folds in sum and raises them in no bend. True when one was applied.
bool try_relief(const Surface& s, const Bends& bends, std::size_t bend, std::size_t tri, std::size_t v,
                std::uint32_t to, int max_influences, Relief& r) {
  const Slots now = slots_of(r.weights, v);
  for (const double share : kHandOver) {
    const Slots next = hand_over(now, to, share, max_influences);
    if (folds_in(s, bends, r.weights, bend, tri, v, &next)) continue;  // the fold it is for stays
    const bool loses_last = next.bone[0] != now.bone[0] && now.bone[0] < r.dominated.size() &&
                            r.dominated[now.bone[0]] <= 1;
    if (loses_last) return false;  // larger shares take it away too
    const auto change = fold_change(s, bends, r.weights, v, now, next);
    if (!change) continue;
    std::ptrdiff_t total = 0;
    for (const std::ptrdiff_t c : *change) total += c;
    if (total >= 0 || !sound_around(s, bends, r.weights, v, now, next)) continue;
    for (std::size_t k = 0; k < kSlots; ++k)
      r.weights.indices[v * kSlots + k] = next.bone[k], r.weights.weights[v * kSlots + k] = next.weight[k];
    for (std::size_t b = 0; b < bends.size(); ++b)
      r.folds[b] = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(r.folds[b]) + (*change)[b]);
    if (next.bone[0] != now.bone[0]) {
      if (now.bone[0] < r.dominated.size()) --r.dominated[now.bone[0]];
      if (next.bone[0] < r.dominated.size()) ++r.dominated[next.bone[0]];
    }
    return true;
  }
  return false;
}

}  // namespace

FoldRelief relieve_folds(std::span<const Vec2> verts, std::span<const std::uint32_t> tris,
                         std::span<const Bone> bones, std::span<const std::uint8_t> allowed, int max_influences,
                         double angle, SkinWeights& weights) {
  FoldRelief out;
  if (!(angle != 0) || !std::isfinite(angle) || bones.size() < 2 || verts.empty() ||
      weights.indices.size() != verts.size() * kSlots || weights.weights.size() != verts.size() * kSlots)
    return out;
  const Bends bends(bones, angle);
  const Surface surface(verts, tris);
  Relief r{weights, count_folds(surface, bends, weights), std::vector<std::size_t>(bones.size(), 0)};
  for (const std::size_t f : r.folds) out.folds_before += f;
  if (out.folds_before == 0) return out;
  for (std::size_t v = 0; v < verts.size(); ++v) {
    const Slots slots = slots_of(weights, v);
    if (slots.weight[0] > 0 && slots.bone[0] < bones.size()) ++r.dominated[slots.bone[0]];
  }
  std::vector<Vec2> posed(verts.size());
  auto pose = [&](std::size_t bend, std::size_t v) {
    posed[v] = bends.posed(bend, verts[v], bends.share(bend, &weights.indices[v * kSlots], &weights.weights[v * kSlots]));
  };
  // After the first pass, a fold is tried again only where a relief changed a corner's triangles.
  std::vector<std::uint8_t> retry(verts.size(), 1), touched(verts.size(), 0);
  bool changed = true;
  for (int pass = 0; pass < kMaxPasses && changed; ++pass) {
    changed = false;
    for (std::size_t bend = 0; bend < bends.size(); ++bend) {
      const std::uint32_t to = bends.parent(bend);
      if (r.folds[bend] == 0 || (!allowed.empty() && (to >= allowed.size() || allowed[to] == 0))) continue;
      for (std::size_t v = 0; v < verts.size(); ++v) pose(bend, v);
      for (std::size_t tri = 0; tri < surface.bind_area.size() && r.folds[bend] > 0; ++tri) {
        const std::uint32_t* c = &tris[3 * tri];
        if (!(retry[c[0]] || retry[c[1]] || retry[c[2]]) || !surface.folded(tri, posed[c[0]], posed[c[1]], posed[c[2]]))
          continue;
        const std::size_t v = leading_corner(surface, bends, weights, bend, tri);
        if (v == SIZE_MAX || !try_relief(surface, bends, bend, tri, v, to, max_influences, r)) continue;
        pose(bend, v);
        for (std::uint32_t i = surface.around_begin[v]; i < surface.around_begin[v + 1]; ++i)
          for (std::size_t k = 0; k < 3; ++k) touched[tris[3 * surface.around[i] + k]] = 1;
        ++out.relieved_vertices;
        changed = true;
      }
    }
    retry.swap(touched);
    std::fill(touched.begin(), touched.end(), 0);
  }
  for (const std::size_t f : r.folds) out.folds_after += f;
  return out;
}

}  // namespace rig2d::detail
