// SPDX-License-Identifier: Apache-2.0
#include "autorig/mesh_budget.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "geometry/outline_stages.h"

namespace rig2d::detail {
namespace {

constexpr double kMaxTolerance = 64;  // check_outline_options' limits
constexpr double kMaxMargin = 64;
constexpr double kMaxMarginGrowth = 4;
constexpr double kFirstCoarseTolerance = 1.5;

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

}  // namespace

Result<void> check_vertex_budget(const Mesh& mesh, std::size_t max_vertices, const char* scheme) {
  if (mesh.verts.size() <= max_vertices) return {};
  return make_error("autorig.budget", std::string("the ") + scheme + " mesh has " + std::to_string(mesh.verts.size()) +
                                          " vertices, over the budget of " + std::to_string(max_vertices) +
                                          " (--max-verts); use fewer cells, slice the sheet or raise --max-verts");
}

Result<Mesh> outline_mesh_within_budget(const Image& image, const OutlineMeshOptions& options,
                                        OutlineMeshStats* stats, std::vector<Diagnostic>& warnings) {
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
        if (o.tolerance != options.tolerance)
          warnings.push_back(coarsened_warning(first_count, options.max_vertices, o, options, mesh->verts.size()));
        return mesh;
      }
      needed = mesh->verts.size();
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
