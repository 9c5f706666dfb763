// SPDX-License-Identifier: Apache-2.0
#include "autorig/mesh_budget.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

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
  for (std::size_t corners = std::max<std::size_t>(3, options.max_vertices / islands); corners >= 3; --corners) {
    const std::vector<Ring> hulls = island_hulls(traced.rings, corners, frame);
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

// The fewest-corner hulls (3 corners up) of the traced islands (traced again at `limits.margin` when
// that is less) whose mesh keeps the yardstick with a border of at most `limits.border`, if they have
// fewer than `vertices` points. Empty when none does. A few yardsticks at most (bisection).
Result<std::optional<Mesh>> rigid_hull_mesh(const Image& image, const TracedOutline& outline,
                                            const OutlineMeshOptions& options, std::size_t vertices,
                                            const HullLimits& limits, OutlineMeshStats& st) {
  OutlineMeshOptions o = options;
  // A hull never cuts inwards, so it needs no more margin than covers each pixel's square whole.
  std::optional<TracedOutline> retraced;
  if (limits.margin < o.margin) {
    o.margin = limits.margin;
    OutlineMeshStats trace_stats;
    auto again = trace_outline(image, o, trace_stats);
    if (!again) return Unexpected{again.error()};
    retraced = std::move(*again);
  }
  const TracedOutline& traced = retraced ? *retraced : outline;
  o.min_angle_deg = 0;
  o.max_edge = 0;
  o.interior_points.clear();
  const ClipFrame frame{static_cast<double>(image.width), static_cast<double>(image.height)};
  struct Candidate {
    std::vector<Ring> hulls;
    std::size_t points = 0;
  };
  // One island's cut is greedy, so cutting an already cut hull further gives what cutting the island
  // would: once one hull of `vertices - 1` corners is known, fewer corners start from it (each cut
  // costs the hull's size, and the traced contour's hull can have hundreds).
  std::optional<Ring> start;
  const auto hulls_of = [&](std::size_t corners) {
    Candidate c;
    c.hulls = start ? island_hulls({*start}, corners, frame) : island_hulls(traced.rings, corners, frame);
    for (const Ring& h : c.hulls) c.points += h.size();
    return c;
  };
  std::optional<double> outline_length;  // the image's alone: measured once, when first needed
  const auto passes = [&](const Candidate& c) -> Result<bool> {
    OutlineMeshStats scratch = st;
    auto mesh = mesh_outline(image, traced, c.hulls, o, scratch, false);
    if (!mesh) return Unexpected{mesh.error()};
    if (!outline_length) outline_length = alpha_outline_length(image, o.alpha_threshold);
    return yardstick_within(*mesh, image, o.alpha_threshold, *outline_length, limits.border);
  };
  // More corners never cover less (each removed corner adds area) and never have fewer points, so
  // both are monotone in the corners: the most corners worth having (fewer points than the outline's
  // vertices) by bisection, then, if those pass, the fewest that pass.
  if (vertices < 4) return std::optional<Mesh>{};
  std::size_t lo = vertices - 1, hi = vertices;  // hulls of `hi` corners have too many points
  Candidate best = hulls_of(lo);
  if (best.points >= vertices) {  // several islands: their hulls share the corners
    lo = 3;
    if (hulls_of(lo).points >= vertices) return std::optional<Mesh>{};
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      (hulls_of(mid).points < vertices ? lo : hi) = mid;
    }
    best = hulls_of(lo);
  }
  if (best.hulls.size() == 1) start = best.hulls[0];
  auto ok = passes(best);
  if (!ok) return Unexpected{ok.error()};
  if (!*ok) return std::optional<Mesh>{};
  std::size_t fail = 2, pass = lo;  // hulls of `pass` corners pass, of `fail` do not (2: no hull)
  while (pass - fail > 1) {
    const std::size_t mid = fail + (pass - fail) / 2;
    Candidate c = hulls_of(mid);
    auto mid_ok = passes(c);
    if (!mid_ok) return Unexpected{mid_ok.error()};
    if (*mid_ok) {
      pass = mid;
      best = std::move(c);
    } else {
      fail = mid;
    }
  }
  OutlineMeshStats hull_stats = st;
  auto mesh = mesh_outline(image, traced, best.hulls, o, hull_stats, options.score_coverage);
  if (!mesh) return Unexpected{mesh.error()};
  hull_stats.simplified_rings = best.hulls.size();
  hull_stats.simplified_points = best.points;
  st = hull_stats;
  return std::optional<Mesh>{std::move(*mesh)};
}

}  // namespace

Result<void> check_vertex_budget(const Mesh& mesh, std::size_t max_vertices, const char* scheme) {
  if (mesh.verts.size() <= max_vertices) return {};
  return make_error("autorig.budget", std::string("the ") + scheme + " mesh has " + std::to_string(mesh.verts.size()) +
                                          " vertices, over the budget of " + std::to_string(max_vertices) +
                                          " (--max-verts); use fewer cells, slice the sheet or raise --max-verts");
}

Result<Mesh> outline_mesh_within_budget(const Image& image, const OutlineMeshOptions& options,
                                        OutlineMeshStats* stats, std::vector<Diagnostic>& warnings,
                                        const HullLimits& hull) {
  if (auto ok = check_outline_options(options); !ok) return Unexpected{ok.error()};
  OutlineMeshOptions o = options;
  OutlineMeshStats local;
  OutlineMeshStats& st = stats ? *stats : local;
  st = {};
  auto traced = trace_outline(image, o, st);  // again only when a coarser outline's margin grows
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
          auto rigid = rigid_hull_mesh(image, *traced, o, mesh->verts.size(), hull, st);
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
