// SPDX-License-Identifier: Apache-2.0
#include "autorig/mesh_budget.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "geometry/island_hull_steps.h"
#include "geometry/outline_stages.h"
#include "rig2d/geometry/contour.h"
#include "rig2d/geometry/island_hulls.h"

namespace rig2d::detail {
namespace {

constexpr double kMaxTolerance = 64;  // check_outline_options' limits
constexpr double kMaxMargin = 64;
constexpr double kMaxMarginGrowth = 4;
constexpr double kFirstCoarseTolerance = 1.5;
constexpr std::size_t kSheetIslands = 4;  // as guess_sheet: fewer islands are one sprite, not a sheet
// How far over the border a polygon inside every hull candidate must be for the search to stop: the
// centres a candidate's mesh may drop along its chords stay far under the border itself.
constexpr double kSurelyBeyond = 1.5;

std::string number_text(double value) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, res.ptr);
}

Diagnostic coarsened_warning(std::size_t outline_points, std::size_t max_vertices, const OutlineMeshOptions& o,
                             const OutlineMeshOptions& asked, std::size_t vertices) {
  Diagnostic d;
  d.severity = Severity::Warning;
  d.code = "autorig.budget.coarsened";
  const bool covers = o.margin - asked.margin >= o.tolerance - asked.tolerance;
  d.message = "the outline has " + std::to_string(outline_points) + " points, too many for the budget of " +
              std::to_string(max_vertices) + " vertices (--max-verts): coarsened to a " + number_text(o.tolerance) +
              " px outline tolerance and a " + number_text(o.margin) + " px margin (" + std::to_string(vertices) +
              " vertices), " +
              (covers ? "as far outside the art as asked, with a wider transparent border"
                      : "which may clip the sprite's edge") +
              "; slice a sheet, or raise --max-verts";
  return d;
}

// A coarser outline cuts corners by up to its tolerance, inwards too, so its margin grows by as much
// as the tolerance did and it stays as far outside the art as the options put it; up to
// kMaxMarginGrowth, past which the contour's distance band (its cost grows with the margin squared)
// would cost more than the coarsening saves.
OutlineMeshOptions coarsened(const OutlineMeshOptions& asked, double tolerance) {
  OutlineMeshOptions o = asked;
  o.tolerance = tolerance;
  o.margin = std::min(kMaxMargin, asked.margin + std::clamp(tolerance - asked.tolerance, 0.0, kMaxMarginGrowth));
  return o;
}

std::size_t island_count(const std::vector<Ring>& rings) {
  std::size_t n = 0;
  for (const Ring& r : rings) {
    double s = 0;
    for (std::size_t i = 0, k = r.size(); i < k; ++i) s += r[i].x * r[(i + 1) % k].y - r[(i + 1) % k].x * r[i].y;
    if (r.size() >= 3 && s < 0) ++n;
  }
  return n;
}

Diagnostic hulls_warning(std::size_t outline_points, std::size_t max_vertices, std::size_t islands,
                         std::size_t hulls, std::size_t vertices) {
  Diagnostic d;
  d.severity = Severity::Warning;
  d.code = "autorig.budget.hulls";
  d.message = "the outline has " + std::to_string(outline_points) + " points, too many for the budget of " +
              std::to_string(max_vertices) + " vertices (--max-verts): its " + std::to_string(islands) +
              " islands are meshed as " + std::to_string(hulls) + " convex hulls (" + std::to_string(vertices) +
              " vertices), which clip nothing but cover more transparent pixels; slice the sheet, or raise "
              "--max-verts";
  return d;
}

// An outline of kSheetIslands or more islands over the budget: each island's few-corner hull (island_hulls), as
// many corners each as the budget shares out, fewer while the mesh is still over it. Nothing is
// clipped and no interior vertex is spent. Empty when even triangles do not fit.
Result<std::optional<Mesh>> hull_mesh(const Image& image, const TracedOutline& traced, const OutlineMeshOptions& options,
                                      OutlineMeshStats& st) {
  const std::size_t islands = island_count(traced.rings);
  if (islands < kSheetIslands || 3 * islands > options.max_vertices) return std::optional<Mesh>{};
  OutlineMeshOptions o = options;
  o.min_angle_deg = 0;  // one bone or many, a hull's triangles are not refined
  o.max_edge = 0;
  o.interior_points.clear();
  const ClipFrame frame{static_cast<double>(image.width), static_cast<double>(image.height)};
  const std::vector<Ring> uncut = uncut_island_hulls(traced.rings);  // only the cuts depend on the corners
  for (std::size_t corners = std::max<std::size_t>(3, options.max_vertices / islands); corners >= 3; --corners) {
    const std::vector<Ring> hulls = cut_island_hulls(uncut, corners, frame);
    std::size_t points = 0;
    for (const Ring& h : hulls) points += h.size();
    if (points > options.max_vertices) continue;
    st.simplified_rings = hulls.size();
    st.simplified_points = points;
    auto mesh = mesh_outline(image, traced, hulls, o, st, options.score_coverage);
    if (!mesh) return Unexpected{mesh.error()};
    if (mesh->verts.size() <= options.max_vertices) return std::optional<Mesh>{std::move(*mesh)};
  }
  return std::optional<Mesh>{};
}

// Whether two sets of rings hold the same points, bit for bit (so a mesh of either is the same).
bool same_bits(const std::vector<Ring>& a, const std::vector<Ring>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Ring& p, const Ring& q) {
    return p.size() == q.size() && (p.empty() || std::memcmp(p.data(), q.data(), p.size() * sizeof(Vec2)) == 0);
  });
}

// The fewest-corner hulls (3 corners up) of the traced islands (traced again at `limits.margin` when
// that is less) whose mesh keeps the yardstick with a border of at most `limits.border`, asked for
// under a vertex count. What does not depend on the count (the islands at the hull's margin, their
// convex hulls, the yardstick, the early stop's verdict) is made once, so a second, larger count
// costs only its own candidates. A few yardsticks per count at most (bisection).
class RigidHullSearch {
 public:
  RigidHullSearch(const Image& image, const TracedOutline& outline, const OutlineMeshOptions& options,
                  const HullLimits& limits)
      : image_(image), outline_(outline), o_(options), limits_(limits) {}

  // Those hulls when they have fewer points than `vertices`, meshed (its stats into `st`); empty when
  // none does.
  Result<std::optional<Mesh>> fewest_corners(std::size_t vertices, OutlineMeshStats& st) {
    if (auto traced = trace(); !traced) return Unexpected{traced.error()};
    if (vertices < 4 || vertices == none_below_) return std::optional<Mesh>{};
    prepare();
    if (beyond_) return std::optional<Mesh>{};
    none_below_ = vertices;  // until a hull is found below it
    Candidate best;
    const std::size_t lo = most_corners(vertices, best);
    if (lo == 0) return std::optional<Mesh>{};
    const std::vector<Ring>* uncut = &uncut_;
    std::vector<Ring> best_uncut;
    if (best.hulls.size() == 1) {
      best_uncut = uncut_island_hulls({best.hulls[0]});
      uncut = &best_uncut;
    }
    auto ok = passes(best, st);
    if (!ok) return Unexpected{ok.error()};
    if (!*ok) return std::optional<Mesh>{};
    if (auto fewest = fewest_passing(*uncut, lo, best, st); !fewest) return Unexpected{fewest.error()};
    OutlineMeshStats hull_stats = st;
    auto mesh = mesh_outline(image_, *traced_, best.hulls, o_, hull_stats, o_.score_coverage);
    if (!mesh) return Unexpected{mesh.error()};
    none_below_ = 0;
    hull_stats.simplified_rings = best.hulls.size();
    hull_stats.simplified_points = best.points;
    st = hull_stats;
    return std::optional<Mesh>{std::move(*mesh)};
  }

 private:
  struct Candidate {
    std::vector<Ring> hulls;
    std::size_t points = 0;
  };

  // The islands at the hull's margin, once: a hull never cuts inwards, so it needs no more margin
  // than covers each pixel's square whole.
  Result<void> trace() {
    if (traced_ != nullptr) return {};
    if (limits_.margin < o_.margin) {
      o_.margin = limits_.margin;
      if (outline_.at_smaller_margin && outline_.smaller_margin == o_.margin) {
        traced_ = outline_.at_smaller_margin.get();  // traced with the outline, from its distance band
      } else {
        OutlineMeshStats trace_stats;
        auto again = trace_outline(image_, o_, trace_stats);
        if (!again) return Unexpected{again.error()};
        retraced_ = std::move(*again);
        traced_ = &*retraced_;
      }
    } else {
      traced_ = &outline_;
    }
    return {};
  }

  // The yardstick, the early stop and the islands' convex hulls, once.
  void prepare() {
    if (yardstick_) return;
    o_.min_angle_deg = 0;
    o_.max_edge = 0;
    o_.interior_points.clear();
    trial_ = o_;  // a trial's figures are thrown away
    trial_.angle_stats = false;
    outline_length_ = outline_.alpha_outline_length >= 0 ? outline_.alpha_outline_length  // measured with the trace
                                                         : alpha_outline_length(image_, o_.alpha_threshold);
    yardstick_.emplace(image_, o_.alpha_threshold, outline_length_, limits_.border);
    // Most large figures fail by far (their hull spans the gaps between limbs): a polygon inside every
    // candidate, found in one pass over the contour, shows that before any hull is made.
    beyond_ = yardstick_->surely_beyond_inside(inscribed_island_hulls(traced_->rings), kSurelyBeyond);
    if (!beyond_) uncut_ = uncut_island_hulls(traced_->rings);
  }

  // One island's cut is greedy, so cutting an already cut hull further gives what cutting the island
  // would: once one hull of `vertices - 1` corners is known, fewer corners start from it (each cut
  // costs the hull's size, and the traced contour's hull can have hundreds).
  Candidate hulls_of(const std::vector<Ring>& uncut, std::size_t corners) const {
    Candidate c;
    const ClipFrame frame{static_cast<double>(image_.width), static_cast<double>(image_.height)};
    c.hulls = cut_island_hulls(uncut, corners, frame);
    for (const Ring& h : c.hulls) c.points += h.size();
    return c;
  }

  Result<bool> passes(const Candidate& c, const OutlineMeshStats& st) {
    // A candidate that passes, or fails, by a margin shows it with its rings alone, untriangulated.
    const HullVerdict verdict = yardstick_->judge(c.hulls);
    if (verdict != HullVerdict::Unsure) return verdict == HullVerdict::Within;
    OutlineMeshStats scratch = st;
    auto mesh = mesh_outline(image_, *traced_, c.hulls, trial_, scratch, false);
    if (!mesh) return Unexpected{mesh.error()};
    return yardstick_within(*mesh, image_, o_.alpha_threshold, outline_length_, limits_.border);
  }

  // The most corners worth having (their hulls have fewer points than `vertices`), their hulls into
  // `best`; 0 when even triangles have too many. More corners never cover less (each removed corner
  // adds area) and never have fewer points, so both are monotone in the corners.
  std::size_t most_corners(std::size_t vertices, Candidate& best) const {
    // A hull is cut down to the corners asked for (at least 3) or stops short of them, so the hulls of
    // `corners` have at least this many points: when that is too many already, they need not be cut.
    const auto fewest_points = [&](std::size_t corners) {
      std::size_t points = 0;
      for (const Ring& h : uncut_) points += std::min(h.size(), std::max<std::size_t>(3, corners));
      return points;
    };
    const auto too_many = [&](std::size_t corners) {
      return fewest_points(corners) >= vertices || hulls_of(uncut_, corners).points >= vertices;
    };
    std::size_t lo = vertices - 1, hi = vertices;  // hulls of `hi` corners have too many points
    bool shared = fewest_points(lo) >= vertices;   // several islands: their hulls share the corners
    if (!shared) {
      best = hulls_of(uncut_, lo);
      shared = best.points >= vertices;
    }
    if (!shared) return lo;
    lo = 3;
    if (too_many(lo)) return 0;
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      (too_many(mid) ? hi : lo) = mid;
    }
    best = hulls_of(uncut_, lo);
    return lo;
  }

  // Given that `best`, the hulls of `pass` corners, keep the yardstick: the fewest corners that do, by
  // bisection, into `best`.
  Result<void> fewest_passing(const std::vector<Ring>& uncut, std::size_t pass, Candidate& best,
                              const OutlineMeshStats& st) {
    std::size_t fail = 2;      // hulls of `pass` corners pass, of `fail` do not (2: no hull)
    std::vector<Ring> failed;  // the hulls of `fail` corners, once tested
    while (pass - fail > 1) {
      const std::size_t mid = fail + (pass - fail) / 2;
      Candidate c = hulls_of(uncut, mid);
      // A hull with fewer corners than asked for is one already tested: its answer is known.
      const bool known_pass = same_bits(c.hulls, best.hulls), known_fail = !known_pass && same_bits(c.hulls, failed);
      auto mid_ok = known_pass || known_fail ? Result<bool>{known_pass} : passes(c, st);
      if (!mid_ok) return Unexpected{mid_ok.error()};
      if (*mid_ok) {
        pass = mid;
        best = std::move(c);
      } else {
        fail = mid;
        failed = std::move(c.hulls);
      }
    }
    return {};
  }

  const Image& image_;
  const TracedOutline& outline_;
  OutlineMeshOptions o_, trial_;
  HullLimits limits_;
  std::optional<TracedOutline> retraced_;
  const TracedOutline* traced_ = nullptr;  // set by trace
  double outline_length_ = 0;
  std::optional<HullYardstick> yardstick_;
  bool beyond_ = false;         // the early stop: every candidate fails
  std::size_t none_below_ = 0;  // the last vertex count asked for under which no hull passed
  std::vector<Ring> uncut_;     // the islands' convex hulls
};

Result<std::optional<Mesh>> rigid_hull_mesh(const Image& image, const TracedOutline& outline,
                                            const OutlineMeshOptions& options, std::size_t vertices,
                                            const HullLimits& limits, OutlineMeshStats& st) {
  RigidHullSearch search(image, outline, options, limits);
  return search.fewest_corners(vertices, st);
}

// The islands of a mesh: vertices joined by triangles, numbered in the order of their first vertex.
struct MeshIslands {
  std::vector<std::uint32_t> of_vertex;  // island of each vertex (unused vertices: their own)
  std::size_t count = 0;
};

MeshIslands label_mesh_islands(const Mesh& mesh) {
  const std::size_t n = mesh.verts.size();
  std::vector<std::uint32_t> parent(n);
  for (std::size_t v = 0; v < n; ++v) parent[v] = static_cast<std::uint32_t>(v);
  const auto root = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (std::size_t t = 0; t + 2 < mesh.tris.size(); t += 3) {
    for (std::size_t k = 1; k < 3; ++k) {
      const std::uint32_t a = root(mesh.tris[t]), b = root(mesh.tris[t + k]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root stays the island's first vertex
    }
  }
  MeshIslands islands;
  islands.of_vertex.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {  // a root is its island's first vertex, so it comes first
    const std::uint32_t r = root(static_cast<std::uint32_t>(v));
    islands.of_vertex[v] = r == v ? static_cast<std::uint32_t>(islands.count++) : islands.of_vertex[r];
  }
  return islands;
}

// The one bone that drives vertex `v` wholly, or -1 when it has several.
std::int64_t sole_bone(const SkinWeights& w, std::size_t v) {
  if (!(w.weights[4 * v] >= 1 - 1e-9)) return -1;
  for (std::size_t k = 1; k < 4; ++k)
    if (w.weights[4 * v + k] > 1e-9) return -1;
  return w.indices[4 * v];
}

// Whether the interiors of two triangles overlap (separating axis test; touching is not overlap).
bool px_triangles_overlap(const PxTriangle& p, const PxTriangle& q) {
  for (const PxTriangle* t : {&p, &q}) {
    for (std::size_t i = 0; i < 3; ++i) {
      const Vec2 a = (*t)[i], b = (*t)[(i + 1) % 3];
      const Vec2 axis{a.y - b.y, b.x - a.x};
      const double scale = std::hypot(axis.x, axis.y);
      if (!(scale > 0)) continue;
      double pmin = HUGE_VAL, pmax = -HUGE_VAL, qmin = HUGE_VAL, qmax = -HUGE_VAL;
      for (const Vec2& v : p) {
        pmin = std::min(pmin, (v.x * axis.x + v.y * axis.y) / scale);
        pmax = std::max(pmax, (v.x * axis.x + v.y * axis.y) / scale);
      }
      for (const Vec2& v : q) {
        qmin = std::min(qmin, (v.x * axis.x + v.y * axis.y) / scale);
        qmax = std::max(qmax, (v.x * axis.x + v.y * axis.y) / scale);
      }
      if (pmax <= qmin + 1e-6 || qmax <= pmin + 1e-6) return false;
    }
  }
  return true;
}

bool in_px_triangle(const PxTriangle& t, Vec2 p) {
  const auto side = [&](Vec2 a, Vec2 b) { return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x); };
  const double d0 = side(t[0], t[1]), d1 = side(t[1], t[2]), d2 = side(t[2], t[0]);
  return (d0 >= 0 && d1 >= 0 && d2 >= 0) || (d0 <= 0 && d1 <= 0 && d2 <= 0);
}

// Whether a triangle is a sliver (its height under 1/1000 of its longest side) or too far out for the
// bound below: crop_island then tests every pixel of its box.
bool slim_triangle(const PxTriangle& t) {
  double longest = 0, far = 0;
  for (int k = 0; k < 3; ++k) {
    const Vec2 a = t[static_cast<std::size_t>(k)], b = t[static_cast<std::size_t>((k + 1) % 3)];
    longest = std::max(longest, (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
    far = std::max({far, std::fabs(a.x), std::fabs(a.y)});
  }
  const double twice_area =
      std::fabs((t[1].x - t[0].x) * (t[2].y - t[0].y) - (t[2].x - t[0].x) * (t[1].y - t[0].y));
  return !(twice_area > 1e-3 * longest) || !(far < 1e6);
}

// The pixels x_from <= x < x_to (narrowed from the box's) of the row of centres at height cy that
// in_px_triangle can accept, false when none. Its rounded side tests stray at most about
// 1e-15 x (coordinates up to 1e6 px) x 1e3 (edges and angles of a triangle that is not slim) px
// beyond the triangle, far under kReachSlack, so every centre it accepts lies in the triangle's part
// within kReachSlack of the row (its x-extent found from the vertices and edges in that slab, each
// edge's crossing kept within the edge's own x-range), widened by kReachSlack.
constexpr double kReachSlack = 1.0 / 64;  // px
bool row_reach(const PxTriangle& t, double cy, int& x_from, int& x_to) {
  const double lo = cy - kReachSlack, hi = cy + kReachSlack;
  double left = HUGE_VAL, right = -HUGE_VAL;
  for (int k = 0; k < 3; ++k) {
    const Vec2 a = t[static_cast<std::size_t>(k)], b = t[static_cast<std::size_t>((k + 1) % 3)];
    if (a.y >= lo && a.y <= hi) left = std::min(left, a.x), right = std::max(right, a.x);
    for (const double line : {lo, hi}) {
      if ((a.y < line) == (b.y < line)) continue;
      const double x = std::clamp(a.x + (line - a.y) * (b.x - a.x) / (b.y - a.y), std::min(a.x, b.x), std::max(a.x, b.x));
      left = std::min(left, x), right = std::max(right, x);
    }
  }
  if (!(left <= right)) return false;  // no part of the triangle near the row
  // Centres x + 0.5 within [left - slack, right + slack].
  x_from = std::max(x_from, static_cast<int>(std::ceil(left - 0.5 - kReachSlack)));
  x_to = std::min(x_to, static_cast<int>(std::floor(right - 0.5 + kReachSlack)) + 1);
  return x_from < x_to;
}

}  // namespace

IslandCrop crop_island(const Image& image, const std::vector<PxTriangle>& tris) {
  double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
  for (const PxTriangle& t : tris)
    for (const Vec2& p : t) {
      x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    }
  const double pad = 2 + 0.25 * std::max(x1 - x0, y1 - y0);
  IslandCrop c;
  c.x0 = std::clamp(static_cast<int>(std::floor(x0 - pad)), 0, image.width);
  c.y0 = std::clamp(static_cast<int>(std::floor(y0 - pad)), 0, image.height);
  const int cx1 = std::clamp(static_cast<int>(std::ceil(x1 + pad)), c.x0, image.width);
  const int cy1 = std::clamp(static_cast<int>(std::ceil(y1 + pad)), c.y0, image.height);
  c.image.width = cx1 - c.x0;
  c.image.height = cy1 - c.y0;
  c.image.rgba.assign(std::size_t(c.image.width) * std::size_t(c.image.height) * 4, 0);
  for (const PxTriangle& t : tris) {
    const int tx0 = std::max(c.x0, static_cast<int>(std::floor(std::min({t[0].x, t[1].x, t[2].x}))));
    const int ty0 = std::max(c.y0, static_cast<int>(std::floor(std::min({t[0].y, t[1].y, t[2].y}))));
    const int tx1 = std::min(cx1, static_cast<int>(std::ceil(std::max({t[0].x, t[1].x, t[2].x}))));
    const int ty1 = std::min(cy1, static_cast<int>(std::ceil(std::max({t[0].y, t[1].y, t[2].y}))));
    const bool slim = slim_triangle(t);
    for (int y = ty0; y < ty1; ++y) {
      int x_from = tx0, x_to = tx1;
      if (!slim && !row_reach(t, y + 0.5, x_from, x_to)) continue;
      for (int x = x_from; x < x_to; ++x) {
        if (!in_px_triangle(t, {x + 0.5, y + 0.5})) continue;
        const std::size_t from = (std::size_t(y) * std::size_t(image.width) + std::size_t(x)) * 4;
        const std::size_t to = (std::size_t(y - c.y0) * std::size_t(c.image.width) + std::size_t(x - c.x0)) * 4;
        std::copy_n(image.rgba.begin() + static_cast<std::ptrdiff_t>(from), 4,
                    c.image.rgba.begin() + static_cast<std::ptrdiff_t>(to));
      }
    }
  }
  return c;
}

Result<void> check_vertex_budget(const Mesh& mesh, std::size_t max_vertices, const char* scheme) {
  if (mesh.verts.size() <= max_vertices) return {};
  return make_error("autorig.budget", std::string("the ") + scheme + " mesh has " + std::to_string(mesh.verts.size()) +
                                          " vertices, over the budget of " + std::to_string(max_vertices) +
                                          " (--max-verts); use fewer cells, slice the sheet or raise --max-verts");
}

std::size_t rigid_island_hulls(const Image& image, const OutlineMeshOptions& options, const HullLimits& hull,
                               Mesh& mesh, SkinWeights& weights) {
  if (!(hull.border > 0) || mesh.tris.empty() || weights.weights.size() != 4 * mesh.verts.size()) return 0;
  const MeshIslands islands = label_mesh_islands(mesh);
  // Each island's one bone (-1: several, or a vertex with a bone of its own) and vertex count.
  std::vector<std::int64_t> bone(islands.count, -2);
  std::vector<std::size_t> vertices(islands.count, 0), first(islands.count, 0);
  for (std::size_t v = 0; v < mesh.verts.size(); ++v) {
    std::int64_t& b = bone[islands.of_vertex[v]];
    const std::int64_t own = sole_bone(weights, v);
    b = b == -2 || b == own ? own : -1;
    if (vertices[islands.of_vertex[v]]++ == 0) first[islands.of_vertex[v]] = v;
  }
  if (std::none_of(bone.begin(), bone.end(), [](std::int64_t b) { return b >= 0; })) return 0;

  const double w = image.width, h = image.height;
  const Vec2 pivot{options.pivot_x * w, options.pivot_y * h};
  std::vector<std::vector<PxTriangle>> tris(islands.count);  // in image px
  for (std::size_t t = 0; t + 2 < mesh.tris.size(); t += 3) {
    PxTriangle p;
    for (std::size_t k = 0; k < 3; ++k) p[k] = {mesh.verts[mesh.tris[t + k]].x + pivot.x, mesh.verts[mesh.tris[t + k]].y + pivot.y};
    tris[islands.of_vertex[mesh.tris[t]]].push_back(p);
  }
  OutlineMeshOptions o = options;
  o.margin = hull.margin;
  o.pivot_x = o.pivot_y = 0;  // a crop's mesh in its own px
  o.interior_points.clear();
  o.score_coverage = false;
  o.angle_stats = false;
  std::vector<std::optional<Mesh>> hulls(islands.count);  // in image px, uvs unset
  std::size_t replaced = 0;
  for (std::size_t i = 0; i < islands.count; ++i) {
    if (bone[i] < 0 || vertices[i] < 4) continue;
    const IslandCrop crop = crop_island(image, tris[i]);
    OutlineMeshStats st;
    auto traced = trace_outline(crop.image, o, st, -1, true);
    if (!traced) continue;  // nothing above the threshold in its triangles: the island stays
    // A hull is a saving, never a need: one that cannot be made (a triangulation error) leaves the
    // island's outline, which is already a valid mesh.
    auto found = rigid_hull_mesh(crop.image, *traced, o, vertices[i], hull, st);
    if (!found || !*found) continue;
    Mesh& m = **found;
    for (Vec2& p : m.verts) p = {p.x + crop.x0, p.y + crop.y0};
    // A hull over another island would draw its pixels twice: that island's triangles (or hull) stay
    // clear of it, else the outline stays.
    bool clear = true;
    for (std::size_t t = 0; t + 2 < m.tris.size() && clear; t += 3) {
      const PxTriangle p{m.verts[m.tris[t]], m.verts[m.tris[t + 1]], m.verts[m.tris[t + 2]]};
      for (std::size_t j = 0; j < islands.count && clear; ++j) {
        if (j == i) continue;
        if (hulls[j]) {
          const Mesh& q = *hulls[j];
          for (std::size_t u = 0; u + 2 < q.tris.size() && clear; u += 3)
            clear = !px_triangles_overlap(p, {q.verts[q.tris[u]], q.verts[q.tris[u + 1]], q.verts[q.tris[u + 2]]});
        } else {
          for (const PxTriangle& q : tris[j])
            if (px_triangles_overlap(p, q)) {
              clear = false;
              break;
            }
        }
      }
    }
    if (!clear) continue;
    hulls[i] = std::move(m);
    ++replaced;
  }
  if (replaced == 0) return 0;

  // The islands kept, in their vertex order, then each hull in island order.
  Mesh out;
  SkinWeights out_weights;
  std::vector<std::uint32_t> index(mesh.verts.size(), UINT32_MAX);
  for (std::size_t v = 0; v < mesh.verts.size(); ++v) {
    if (hulls[islands.of_vertex[v]]) continue;
    index[v] = static_cast<std::uint32_t>(out.verts.size());
    out.verts.push_back(mesh.verts[v]);
    out.uvs.push_back(mesh.uvs[v]);
    for (std::size_t k = 0; k < 4; ++k) {
      out_weights.indices.push_back(weights.indices[4 * v + k]);
      out_weights.weights.push_back(weights.weights[4 * v + k]);
    }
  }
  for (std::size_t t = 0; t + 2 < mesh.tris.size(); t += 3)
    if (!hulls[islands.of_vertex[mesh.tris[t]]])
      for (std::size_t k = 0; k < 3; ++k) out.tris.push_back(index[mesh.tris[t + k]]);
  for (std::size_t i = 0; i < islands.count; ++i) {
    if (!hulls[i]) continue;
    const auto start = static_cast<std::uint32_t>(out.verts.size());
    for (const Vec2& p : hulls[i]->verts) {
      const double u = std::clamp(p.x, 0.0, w) / w, v = std::clamp(p.y, 0.0, h) / h;
      out.verts.push_back({(u - options.pivot_x) * w, (v - options.pivot_y) * h});
      out.uvs.push_back({u, v});
      for (std::size_t k = 0; k < 4; ++k) {  // the island's own slots: its bone, weight 1
        out_weights.indices.push_back(weights.indices[4 * first[i] + k]);
        out_weights.weights.push_back(weights.weights[4 * first[i] + k]);
      }
    }
    for (const std::uint32_t t : hulls[i]->tris) out.tris.push_back(start + t);
  }
  mesh = std::move(out);
  weights = std::move(out_weights);
  return replaced;
}

Result<Mesh> outline_mesh_within_budget(const Image& image, const OutlineMeshOptions& options,
                                        OutlineMeshStats* stats, std::vector<Diagnostic>& warnings,
                                        const HullLimits& hull) {
  if (auto ok = check_outline_options(options); !ok) return Unexpected{ok.error()};
  OutlineMeshOptions o = options;
  OutlineMeshStats local;
  OutlineMeshStats& st = stats ? *stats : local;
  st = {};
  // again only when a coarser outline's margin grows; the hull search's margin from the same band
  auto traced = trace_outline(image, o, st, hull.border > 0 ? hull.margin : -1, hull.border > 0);
  if (!traced) return Unexpected{traced.error()};
  std::size_t first_count = 0;
  for (;;) {
    const std::vector<Ring> rings = simplify_outline(image, *traced, o, st);
    if (first_count == 0) first_count = st.simplified_points;
    // The simplified outline's own points are always kept, so when they alone are over the budget only
    // a coarser outline can fit: no triangulation to find that out (minutes on a stippled image's
    // 70k co-circular rings).
    const bool over = st.simplified_points > options.max_vertices;
    std::size_t needed = st.simplified_points;  // at least
    std::optional<RigidHullSearch> rigid_search;
    if (!over && hull.border > 0 && o.tolerance == options.tolerance &&
        2 * st.simplified_points <= options.max_vertices) {
      // The outline mesh below fits (the simplified rings cross nothing, so refinement stops at the
      // budget) and is not crowded, so it would give way to hulls with fewer points than its vertices:
      // hulls with fewer points than the outline's own win without it being triangulated.
      rigid_search.emplace(image, *traced, o, hull);
      auto rigid = rigid_search->fewest_corners(st.simplified_points, st);
      if (!rigid) return Unexpected{rigid.error()};
      if (*rigid) return std::move(**rigid);
    }
    if (!over) {
      auto mesh = mesh_outline(image, *traced, rings, o, st, options.score_coverage);
      if (!mesh) return mesh;
      // An outline that leaves the refinement less than half the budget gets slivers where the budget
      // cuts it short (a sheet of 256 sprites: 1.3 degree triangles), so it is coarsened too.
      const bool crowded = st.budget_reached && st.simplified_points * 2 > options.max_vertices;
      if (mesh->verts.size() <= options.max_vertices && (!crowded || o.tolerance >= kMaxTolerance)) {
        if (o.tolerance != options.tolerance) {
          warnings.push_back(coarsened_warning(first_count, options.max_vertices, o, options, mesh->verts.size()));
        } else if (hull.border > 0) {
          if (!rigid_search) rigid_search.emplace(image, *traced, o, hull);
          auto rigid = rigid_search->fewest_corners(mesh->verts.size(), st);
          if (!rigid) return Unexpected{rigid.error()};
          if (*rigid) return std::move(**rigid);
        }
        return mesh;
      }
      needed = mesh->verts.size();
    }
    if (o.tolerance == options.tolerance) {  // the first try: a sheet of islands takes hulls, not a coarser outline
      OutlineMeshStats hull_stats = st;
      auto hulls = hull_mesh(image, *traced, options, hull_stats);
      if (!hulls) return Unexpected{hulls.error()};
      if (*hulls) {
        warnings.push_back(hulls_warning(first_count, options.max_vertices, island_count(traced->rings),
                                         hull_stats.simplified_rings, (*hulls)->verts.size()));
        st = hull_stats;
        return std::move(**hulls);
      }
    }
    if (o.tolerance >= kMaxTolerance) {
      return make_error("autorig.budget",
                        "even a " + number_text(kMaxTolerance) + " px outline needs " + (over ? "at least " : "") +
                            std::to_string(needed) + " vertices (" + std::to_string(st.simplified_rings) +
                            " outline rings), over the budget of " + std::to_string(options.max_vertices) +
                            " (--max-verts): the image has too many separate shapes; slice it (sidecar \"sprites\") "
                            "or raise --max-verts");
    }
    const double margin = o.margin;
    o = coarsened(options, std::min(kMaxTolerance, std::max(kFirstCoarseTolerance, o.tolerance * 2)));
    if (o.margin != margin) {
      traced = trace_outline(image, o, st);
      if (!traced) return Unexpected{traced.error()};
    }
  }
}

}  // namespace rig2d::detail
