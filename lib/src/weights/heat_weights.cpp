// SPDX-License-Identifier: Apache-2.0
// Bone-heat weights (Baran & Popovic 2007, "Automatic rigging and animation of 3D characters").
//
// Why bone heat rather than bounded biharmonic weights (Jacobson et al. 2011): both need one sparse
// Cholesky factorization, but BBW then solves a bound-constrained QP per bone (active-set
// iterations, each a new factorization or a dense update), while heat solves one linear system per
// bone with the SAME factor: (-L + M H) w_b = M H p_b. With L the cotangent Laplacian, M the lumped
// vertex areas, H_i = c / (d_i^2 + s_i^2) (d_i = distance to the nearest bone, s_i a quarter of
// that bone's length) and p_b the nearest-bone indicator, the weights sum to 1 by construction
// (L 1 = 0, sum_b p_b = 1), stay near [0, 1], and are invariant to translating, rotating or scaling
// the sprite. That makes a 2k-vertex, 20-bone mesh a millisecond-scale job.
//
// The known failure modes of heat, and what is done about them here:
// - Visibility: Baran tests straight lines to the bone; in a 2D sprite that lets a right-leg bone
//   "see" the left leg across the gap. Here every distance is measured through the mesh (geodesic),
//   so the nearest bone of a left-leg vertex is a left-leg bone and the heat source never jumps the gap.
// - A disconnected piece no bone crosses would get H = 0, a singular block, and silently zero
//   weights. Each island is seeded by the bones crossing it (a bone bridging two islands only in its
//   joint's); an island crossed by none is seeded by
//   every bone from the island's point nearest to it (straight-line gap + geodesic inside), and
//   isolated vertices take their nearest bone directly. A warning says so.
// - Creases from the hard top-4 cut: see influence_cut.h (the cut is ramped).
#include "rig2d/weights/heat_weights.h"

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>
#include <string>

#include "rig2d/core/limits.h"
#include "rig2d/skin/skeleton.h"
#include "weights/bone_geometry.h"
#include "weights/fold_relief.h"
#include "weights/geodesic.h"
#include "weights/heat_system.h"
#include "weights/influence_cut.h"
#include "weights/mesh_graph.h"
#include "weights/over_body.h"
#include "weights/symmetric_amd.h"

namespace rig2d {
namespace {

using detail::dist2;
using detail::HeatSystem;
using detail::MeshGraph;

constexpr double kInf = std::numeric_limits<double>::infinity();
// Baran & Popovic's c in H = c / r^2: how hard a vertex is held to its nearest bone against the
// diffusion from its neighbours. Far from the bones (r ~ d) the diffusion reaches about d / sqrt(c),
// so blends widen with the distance from the chain and a bend compresses a wide shape instead of
// folding it; a larger c keeps far vertices closer to their nearest bone. With 0.35 a 6-bone chain
// on a 300 x 400 px canopy (tests/unit/weights/test_heat_chains.cpp) turns 0.2% of the triangles
// inside out with every joint at +-60 degrees (0.5: 0.5%) while each bone still dominates at least
// 70% of the vertices nearest to it.
constexpr double kHeat = 0.35;
// s = kBoneSoftening * the nearest bone's length in H = c / (d^2 + s^2): the heat source sits that
// far "below" a bone that lies in the mesh plane, so a vertex on a bone is held with c / s^2 instead
// of being pinned, and the blend along a chain reaches about s / sqrt(c) = 0.4 bone lengths on each
// side of a joint. Larger values blend the pelvis further down the legs of the two-leg figure.
constexpr double kBoneSoftening = 0.25;
// Floor of s as a fraction of the mesh size (every bone a point, the mesh a point): no division by 0.
constexpr double kMinDistance = 1e-6;
// Bones whose distance is within this relative margin of the nearest share p equally, so rounding
// noise (a rotated copy of the sprite) cannot flip which bone a vertex on a bisector belongs to.
constexpr double kTieMargin = 1e-6;
// Cotangents of near-sliver triangles are scaled down to this magnitude (the whole triangle, so its
// stiffness stays positive semi-definite) to keep the factorization well conditioned.
constexpr double kMaxCot = 1e5;
constexpr int kMaxTies = 4;

Diagnostic warning(std::string code, std::string message, std::string pointer = {}) {
  Diagnostic d;
  d.severity = Severity::Warning;
  d.code = std::move(code);
  d.message = std::move(message);
  d.where.json_pointer = std::move(pointer);
  return d;
}


Result<void> check_input(const Mesh& mesh, std::span<const Bone> bones, const HeatWeightsOptions& o) {
  if (o.max_influences < 1 || o.max_influences > kMaxInfluences)
    return make_error("weights.heat.options", "max_influences must be 1..4, got " + std::to_string(o.max_influences));
  if (!(o.min_weight >= 0 && o.min_weight < 0.25))
    return make_error("weights.heat.options", "min_weight must be in [0, 0.25)");
  if (!(o.fold_relief_angle >= 0 && o.fold_relief_angle <= std::numbers::pi))
    return make_error("weights.heat.options", "fold_relief_angle must be 0..pi radians");
  if (o.smooth_passes < 0 || o.smooth_passes > 100)
    return make_error("weights.heat.options", "smooth_passes must be 0..100, got " + std::to_string(o.smooth_passes));
  if (!(o.default_leaf_length >= 0) || !std::isfinite(o.default_leaf_length))
    return make_error("weights.heat.options", "default_leaf_length must be a finite length >= 0 px");
  if (!o.bone_mask.empty() && (o.bone_mask.size() != bones.size() ||
                               std::find_if(o.bone_mask.begin(), o.bone_mask.end(), [](std::uint8_t m) { return m != 0; }) ==
                                   o.bone_mask.end()))
    return make_error("weights.heat.options", "bone_mask must be empty or hold one entry per bone, one of them nonzero");
  if (!o.over_body.empty() && o.over_body.size() != bones.size())
    return make_error("weights.heat.options", "over_body must be empty or hold one entry per bone");
  if (mesh.verts.size() > kMaxVertices)
    return make_error("weights.heat.limit", "mesh has " + std::to_string(mesh.verts.size()) + " vertices, limit is " +
                                                std::to_string(kMaxVertices),
                      {.json_pointer = "/mesh/verts"});
  if (mesh.tris.size() > kMaxTriangleIndices)
    return make_error("weights.heat.limit", "mesh has " + std::to_string(mesh.tris.size()) +
                                                " triangle indices, limit is " + std::to_string(kMaxTriangleIndices),
                      {.json_pointer = "/mesh/tris"});
  if (bones.size() > kMaxBones)
    return make_error("weights.heat.limit",
                      std::to_string(bones.size()) + " bones, limit is " + std::to_string(kMaxBones),
                      {.json_pointer = "/bones"});
  if (mesh.tris.size() % 3 != 0)
    return make_error("weights.heat.tris_count",
                      "mesh.tris has " + std::to_string(mesh.tris.size()) + " indices, not a multiple of 3",
                      {.json_pointer = "/mesh/tris"});
  for (std::size_t i = 0; i < mesh.tris.size(); ++i) {
    if (mesh.tris[i] >= mesh.verts.size())
      return make_error("weights.heat.index",
                        "triangle index " + std::to_string(mesh.tris[i]) + " is out of range (" +
                            std::to_string(mesh.verts.size()) + " vertices)",
                        {.json_pointer = "/mesh/tris/" + std::to_string(i)});
  }
  for (std::size_t v = 0; v < mesh.verts.size(); ++v) {
    if (!is_finite(mesh.verts[v]))
      return make_error("weights.heat.non_finite", "vertex position is not finite",
                        {.json_pointer = "/mesh/verts/" + std::to_string(v)});
  }
  return {};
}

// Distance from p to the nearest of `segments` (all of one bone), px.
double distance_to_bone(Vec2 p, std::span<const BoneSegment> segments) {
  double best = kInf;
  for (const BoneSegment& s : segments) best = std::min(best, dist2(p, detail::closest_on_segment(p, s.a, s.b)));
  return std::sqrt(best);
}

struct BoneSeeds {
  std::vector<detail::GeodesicSeed> seeds;
  bool touches_mesh = false;
  double inside_length = 0;  // px, of the bone's longest segment, counting only its parts inside triangles
};

struct TriangleBox {
  double min_x, max_x, min_y, max_y;
};

struct Crossing {
  std::size_t triangle;
  double lo, hi;  // the part of the segment inside it, as fractions from a to b
};

// Seeds one bone segment: every triangle T it crosses gets its corners' exact distances to the part
// inside T. A segment bridging to a detached island (a parent's joint to a child island's root) acts
// in its own joint's island only: the island beyond moves through its own bones, not the bridge,
// and the bridge is as long as its part in its own island (else its softening would spread it so
// thin that its neighbours win its own span). `crossings` is scratch.
void seed_segment(const BoneSegment& s, std::span<const Vec2> verts, const MeshGraph& g,
                  std::span<const TriangleBox> boxes, double tol, BoneSeeds& out,
                  std::vector<std::uint8_t>& island_has_bone, std::vector<Crossing>& crossings) {
  const auto corners = [&](const std::array<std::uint32_t, 3>& t) {
    return std::array<Vec2, 3>{verts[t[0]], verts[t[1]], verts[t[2]]};
  };
  const double min_x = std::min(s.a.x, s.b.x) - tol, max_x = std::max(s.a.x, s.b.x) + tol;
  const double min_y = std::min(s.a.y, s.b.y) - tol, max_y = std::max(s.a.y, s.b.y) + tol;
  crossings.clear();
  std::int64_t own_island = -1;  // the mesh island holding the joint, when one does
  for (std::size_t ti = 0; ti < g.triangles.size(); ++ti) {
    const TriangleBox& box = boxes[ti];
    if (box.max_x < min_x || box.min_x > max_x || box.max_y < min_y || box.min_y > max_y) continue;
    double lo = 0;
    double hi = 0;
    if (!detail::clip_segment_to_triangle(s.a, s.b, corners(g.triangles[ti]), tol, &lo, &hi)) continue;
    crossings.push_back({ti, lo, hi});
    if (lo == 0 && own_island < 0) own_island = g.island[g.triangles[ti][0]];
  }
  const double length = std::sqrt(dist2(s.a, s.b));
  double inside = 0;
  out.seeds.reserve(out.seeds.size() + 3 * crossings.size());
  for (const auto& [ti, lo, hi] : crossings) {
    const auto& t = g.triangles[ti];
    if (own_island >= 0 && g.island[t[0]] != own_island) continue;
    const auto p = corners(t);
    const Vec2 q0{s.a.x + lo * (s.b.x - s.a.x), s.a.y + lo * (s.b.y - s.a.y)};
    const Vec2 q1{s.a.x + hi * (s.b.x - s.a.x), s.a.y + hi * (s.b.y - s.a.y)};
    for (int k = 0; k < 3; ++k) {
      const double d = std::sqrt(dist2(p[k], detail::closest_on_segment(p[k], q0, q1)));
      out.seeds.push_back({t[k], d});
    }
    out.touches_mesh = true;
    island_has_bone[g.island[t[0]]] = 1;
    inside += (hi - lo) * length;
  }
  // A segment inside up to rounding (the spans of neighbouring triangles) keeps its exact length.
  if (inside >= length * (1 - 1e-9)) inside = length;
  out.inside_length = std::max(out.inside_length, inside);
}

// Seeds each bone's distance field (seed_segment; a straight line inside a convex triangle stays
// inside the shape). Bones touching no triangle, and islands no bone crosses, are attached at their
// nearest point with the straight-line gap added.
std::vector<BoneSeeds> seed_bones(std::span<const BoneSegment> segments, std::size_t bone_count,
                                  std::span<const Vec2> verts, const MeshGraph& g, std::vector<std::uint8_t>& island_has_bone) {
  std::vector<BoneSeeds> out(bone_count);
  const double tol = 1e-9 * g.scale;
  island_has_bone.assign(g.island_count, 0);
  auto corners = [&](const std::array<std::uint32_t, 3>& t) {
    return std::array<Vec2, 3>{verts[t[0]], verts[t[1]], verts[t[2]]};
  };
  std::vector<TriangleBox> boxes(g.triangles.size());
  for (std::size_t ti = 0; ti < g.triangles.size(); ++ti) {
    const auto p = corners(g.triangles[ti]);
    boxes[ti] = {std::min({p[0].x, p[1].x, p[2].x}), std::max({p[0].x, p[1].x, p[2].x}),
                 std::min({p[0].y, p[1].y, p[2].y}), std::max({p[0].y, p[1].y, p[2].y})};
  }
  std::vector<Crossing> crossings;
  for (const BoneSegment& s : segments) seed_segment(s, verts, g, boxes, tol, out[s.bone], island_has_bone, crossings);

  // Attaches a bone at its nearest triangle(s) among those accepted by `in_scope`: every triangle
  // within rounding of the smallest gap is seeded, so near-ties cannot make the result depend on the
  // sprite's orientation.
  auto attach_nearest = [&](std::uint32_t bone, auto in_scope) {
    std::vector<std::pair<double, Vec2>> nearest(g.triangles.size(), {kInf, Vec2{}});
    double best_gap = kInf;
    for (std::size_t ti = 0; ti < g.triangles.size(); ++ti) {
      if (!in_scope(g.triangles[ti])) continue;
      for (const BoneSegment& s : segments) {
        if (s.bone != bone) continue;
        double gap = 0;
        const Vec2 point = detail::nearest_point_on_triangle(s.a, s.b, corners(g.triangles[ti]), &gap);
        if (gap < nearest[ti].first) nearest[ti] = {gap, point};
      }
      best_gap = std::min(best_gap, nearest[ti].first);
    }
    if (best_gap == kInf) return false;
    for (std::size_t ti = 0; ti < g.triangles.size(); ++ti) {
      const auto& [gap, point] = nearest[ti];
      if (!(gap <= best_gap + 1e-9 * g.scale)) continue;
      for (const std::uint32_t v : g.triangles[ti]) out[bone].seeds.push_back({v, gap + std::sqrt(dist2(verts[v], point))});
    }
    return true;
  };

  for (std::uint32_t b = 0; b < bone_count; ++b) {
    if (out[b].touches_mesh) continue;
    if (attach_nearest(b, [](const auto&) { return true; })) {
      // The island it attaches to now has a bone.
      island_has_bone[g.island[out[b].seeds.back().vertex]] = 1;
    }
  }
  // Every island no bone crosses gets each bone at that bone's nearest point on the island (scoped
  // per island: seeding only the nearest lone island would leave the others without any heat source,
  // a singular system, and the whole solve would fail).
  std::vector<std::uint32_t> lone;
  for (std::uint32_t i = 0; i < g.island_count; ++i)
    if (!island_has_bone[i]) lone.push_back(i);
  if (lone.empty()) return out;
  std::vector<std::int64_t> lone_slot(g.island_count, -1);
  for (std::size_t k = 0; k < lone.size(); ++k) lone_slot[lone[k]] = static_cast<std::int64_t>(k);
  std::vector<std::pair<double, Vec2>> nearest(g.triangles.size());
  std::vector<double> best_gap(lone.size());
  for (std::uint32_t b = 0; b < bone_count; ++b) {
    std::fill(best_gap.begin(), best_gap.end(), kInf);
    for (std::size_t ti = 0; ti < g.triangles.size(); ++ti) {
      nearest[ti] = {kInf, Vec2{}};
      const std::int64_t slot = lone_slot[g.island[g.triangles[ti][0]]];
      if (slot < 0) continue;
      for (const BoneSegment& s : segments) {
        if (s.bone != b) continue;
        double gap = 0;
        const Vec2 point = detail::nearest_point_on_triangle(s.a, s.b, corners(g.triangles[ti]), &gap);
        if (gap < nearest[ti].first) nearest[ti] = {gap, point};
      }
      best_gap[std::size_t(slot)] = std::min(best_gap[std::size_t(slot)], nearest[ti].first);
    }
    for (std::size_t ti = 0; ti < g.triangles.size(); ++ti) {
      const auto& [gap, point] = nearest[ti];
      const std::int64_t slot = lone_slot[g.island[g.triangles[ti][0]]];
      if (slot < 0 || gap == kInf || !(gap <= best_gap[std::size_t(slot)] + 1e-9 * g.scale)) continue;
      for (const std::uint32_t v : g.triangles[ti]) out[b].seeds.push_back({v, gap + std::sqrt(dist2(verts[v], point))});
    }
  }
  return out;
}

// Length of each bone that sets its heat softening s: its longest segment; a point bone (a tip on the
// mesh edge, a leaf outside the mesh) takes its link from the parent's joint, and a bone with neither
// the mean of the others (or the mesh size when no bone has a length).
std::vector<double> bone_lengths(std::span<const Bone> bones, std::span<const Vec2> joints,
                                 std::span<const BoneSegment> segments, std::span<const BoneSeeds> seeds,
                                 double mesh_size) {
  const std::size_t nb = bones.size();
  std::vector<double> length(nb, 0);
  // Only the part inside its own island counts (seed_segment).
  for (const BoneSegment& s : segments) {
    const double l = seeds[s.bone].touches_mesh ? seeds[s.bone].inside_length : std::sqrt(dist2(s.a, s.b));
    length[s.bone] = std::max(length[s.bone], l);
  }
  for (std::size_t b = 0; b < nb; ++b) {
    const std::int64_t p = bones[b].parent;
    if (length[b] == 0 && p >= 0 && p < static_cast<std::int64_t>(nb) && p != static_cast<std::int64_t>(b))
      length[b] = std::sqrt(dist2(joints[b], joints[static_cast<std::size_t>(p)]));
  }
  double sum = 0;
  std::size_t count = 0;
  for (const double l : length) {
    if (l > 0 && std::isfinite(l)) {
      sum += l;
      ++count;
    }
  }
  const double fallback = count > 0 ? sum / static_cast<double>(count) : mesh_size;
  for (double& l : length)
    if (!(l > 0) || !std::isfinite(l)) l = fallback;
  return length;
}

// The nearest bones of every vertex (ties within kTieMargin), fed one bone's distances at a time.
struct Nearest {
  std::vector<double> distance;  // to the nearest bone
  std::vector<std::array<std::uint32_t, kMaxTies>> bones;
  std::vector<std::array<double, kMaxTies>> bone_distance;
  std::vector<std::uint8_t> count;

  explicit Nearest(std::size_t n) : distance(n, kInf), bones(n), bone_distance(n), count(n, 0) {}

  void offer(std::size_t v, std::uint32_t bone, double d) {
    if (!(d < kInf) || d > distance[v] * (1 + kTieMargin)) return;
    if (d < distance[v]) {
      distance[v] = d;
      // Keep only the earlier bones still within the margin of the new nearest.
      std::uint8_t kept = 0;
      for (std::uint8_t k = 0; k < count[v]; ++k) {
        if (bone_distance[v][k] <= d * (1 + kTieMargin)) {
          bones[v][kept] = bones[v][k];
          bone_distance[v][kept] = bone_distance[v][k];
          ++kept;
        }
      }
      count[v] = kept;
    }
    if (count[v] < kMaxTies) {
      bones[v][count[v]] = bone;
      bone_distance[v][count[v]] = d;
      ++count[v];
    }
  }
};

// A note per allowed bone that is nobody's nearest: it gets no weight.
template <class Allowed>
void note_unweighted_bones(std::span<const Bone> bones, const std::vector<std::uint8_t>& is_source, Allowed allowed,
                           std::vector<Diagnostic>& out) {
  for (std::uint32_t b = 0; b < bones.size(); ++b) {
    if (is_source[b] || !allowed(b)) continue;
    Diagnostic note = warning("weights.heat.bone_unweighted",
                              "bone \"" + bones[b].name +
                                  "\" is the nearest bone of no vertex (e.g. a tip joint on the mesh edge with "
                                  "nothing beyond it) and gets no weight",
                              "/bones/" + std::to_string(b));
    note.severity = Severity::Note;
    out.push_back(std::move(note));
  }
}

// The bone that is the one nearest bone of every vertex, when one is. Its weight is then 1 everywhere
// without a solve: its right-hand side M H p is M H 1 = A 1 (L 1 = 0), so the solve gives 1 up to
// rounding, and every path after it ends in (bone, 1) at each vertex: a positive weight alone in the
// influence cut becomes w / w = 1, and a weight <= 0, a failed solve or a failed factorization each
// fall back to the nearest bone, which is this one. (A one-bone sprite is the common case.)
std::optional<std::uint32_t> sole_nearest_bone(const Nearest& nearest, const std::vector<std::uint8_t>& is_source) {
  if (std::count(is_source.begin(), is_source.end(), 1) != 1) return std::nullopt;
  if (std::find(nearest.count.begin(), nearest.count.end(), 0) != nearest.count.end()) return std::nullopt;
  return static_cast<std::uint32_t>(std::find(is_source.begin(), is_source.end(), 1) - is_source.begin());
}

}  // namespace

Result<HeatWeights> compute_heat_weights(const Mesh& mesh, std::span<const Bone> bones,
                                         const HeatWeightsOptions& options) {
  if (auto ok = check_input(mesh, bones, options); !ok) return Unexpected{ok.error()};
  HeatWeights result;
  const std::size_t n = mesh.verts.size();
  if (n == 0) return result;
  if (bones.empty())
    return make_error("weights.heat.no_bones", "the rig has no bones to weight the mesh to", {.json_pointer = "/bones"});

  const std::vector<Vec2> joints = joint_positions(bones);
  for (std::size_t b = 0; b < joints.size(); ++b) {
    if (!is_finite(joints[b]))
      return make_error("weights.heat.non_finite", "bone joint position is not finite",
                        {.json_pointer = "/bones/" + std::to_string(b)});
  }
  const std::span<const Vec2> verts = mesh.verts;
  const MeshGraph g = detail::build_mesh_graph(verts, mesh.tris);
  std::vector<BoneSegment> segments = detail::bone_segments_on(bones, joints, verts, g, options.default_leaf_length);
  auto allowed = [&](std::uint32_t b) { return options.bone_mask.empty() || options.bone_mask[b] != 0; };
  std::erase_if(segments, [&](const BoneSegment& s) { return !allowed(s.bone); });
  const detail::OverBodyBones over = detail::over_body_bones(bones, joints, options.over_body, options.bone_mask);
  detail::cap_over_body_leaves(segments, over);
  const auto nb = static_cast<std::uint32_t>(bones.size());

  HeatWeightsStats& stats = result.stats;
  stats.islands = g.island_count;
  stats.degenerate_triangles = g.degenerate_triangles;
  for (std::size_t v = 0; v < n; ++v) stats.isolated_vertices += g.isolated[v];

  std::vector<std::uint8_t> island_has_bone;
  std::vector<BoneSeeds> seeds = seed_bones(segments, nb, verts, g, island_has_bone);

  // Segments grouped by bone (they are emitted in bone order).
  std::vector<std::size_t> seg_begin(nb + 1, 0);
  for (const BoneSegment& s : segments) ++seg_begin[s.bone + 1];
  for (std::uint32_t b = 0; b < nb; ++b) seg_begin[b + 1] += seg_begin[b];
  auto bone_segs = [&](std::uint32_t b) {
    return std::span<const BoneSegment>(segments).subspan(seg_begin[b], seg_begin[b + 1] - seg_begin[b]);
  };

  // Nearest bone(s) of every vertex, through the mesh. Each bone's search stops where an earlier bone
  // is already nearer (beyond the tie margin): the nearest distance is a minimum of path lengths, so
  // no vertex past such a point can have this bone as its nearest either.
  Nearest nearest(n);
  std::vector<double> dist(n);
  std::vector<double> cutoff(n, kInf);
  detail::GeodesicScratch scratch;
  for (std::uint32_t b = 0; b < nb; ++b) {
    if (!allowed(b) || seeds[b].touches_mesh || g.triangles.empty()) continue;
    ++stats.bones_outside;
    result.warnings.push_back(warning("weights.heat.bone_outside",
                                      "bone \"" + bones[b].name +
                                          "\" lies outside the mesh; it is attached to the nearest mesh point",
                                      "/bones/" + std::to_string(b)));
  }
  // Bones over the body (over_body.h) come second, once every vertex knows its nearest body bone.
  std::vector<double> body_distance;
  for (int pass = 0; pass < (over.layered ? 2 : 1); ++pass) {
    for (std::uint32_t b = 0; b < nb; ++b) {
      if (!allowed(b) || (over.layered && std::isfinite(over.reach[b]) != (pass == 1))) continue;
      detail::geodesic_distances(g, seeds[b].seeds, dist, scratch, cutoff);
      for (std::size_t v = 0; v < n; ++v) {
        if (g.isolated[v]) dist[v] = distance_to_bone(verts[v], bone_segs(b));
        if (pass == 1 && !detail::over_body_takes(over, b, dist[v], body_distance[v])) continue;
        nearest.offer(v, b, dist[v]);
        cutoff[v] = nearest.distance[v] * (1 + kTieMargin);
      }
    }
    if (pass == 0) body_distance = nearest.distance;
  }

  // A leaf ties with its parent wherever the parent's segment end (= the leaf's joint) is the nearest
  // point of both: everywhere beyond a tip joint on the mesh edge. The parent keeps those vertices;
  // splitting them would hand a tip bone half of the last row and a step right before it.
  {
    std::vector<std::uint8_t> leaf(nb, 0);
    for (const BoneSegment& s : segments) leaf[s.bone] = s.leaf;
    for (std::size_t v = 0; v < n; ++v) {
      const std::uint8_t count = nearest.count[v];
      if (count < 2) continue;
      const auto tied = nearest.bones[v];  // decide on the original list, then compact
      const auto tied_distance = nearest.bone_distance[v];
      std::uint8_t kept = 0;
      for (std::uint8_t k = 0; k < count; ++k) {
        const std::uint32_t b = tied[k];
        bool parent_tied = false;
        for (std::uint8_t j = 0; j < count; ++j) parent_tied = parent_tied || tied[j] == bones[b].parent;
        if (leaf[b] && parent_tied) continue;
        nearest.bones[v][kept] = b;
        nearest.bone_distance[v][kept] = tied_distance[k];
        ++kept;
      }
      if (kept > 0) nearest.count[v] = kept;  // a cycle of tied leaves keeps them all
    }
  }

  if (stats.degenerate_triangles > 0)
    result.warnings.push_back(warning("weights.heat.degenerate",
                                      std::to_string(stats.degenerate_triangles) +
                                          " zero-area triangle(s) ignored for weighting",
                                      "/mesh/tris"));
  if (stats.isolated_vertices > 0)
    result.warnings.push_back(warning("weights.heat.isolated",
                                      std::to_string(stats.isolated_vertices) +
                                          " vertex(es) in no usable triangle: bound to the nearest bone",
                                      "/mesh/verts"));
  {
    std::size_t lone_islands = 0;
    std::size_t lone_vertices = 0;
    std::vector<std::uint8_t> counted(g.island_count, 0);
    for (std::size_t v = 0; v < n; ++v) {
      const std::uint32_t i = g.island[v];
      if (g.isolated[v] || island_has_bone[i]) continue;
      ++lone_vertices;
      if (!counted[i]) {
        counted[i] = 1;
        ++lone_islands;
      }
    }
    if (lone_islands > 0)
      result.warnings.push_back(warning("weights.heat.island_without_bone",
                                        std::to_string(lone_islands) + " mesh piece(s) (" +
                                            std::to_string(lone_vertices) +
                                            " vertices) crossed by no bone: weighted by the nearest bones",
                                        "/mesh"));
  }

  // Which bones are anyone's nearest: only they have a non-zero right-hand side.
  std::vector<std::uint8_t> is_source(nb, 0);
  for (std::size_t v = 0; v < n; ++v)
    for (std::uint8_t k = 0; k < nearest.count[v]; ++k) is_source[nearest.bones[v][k]] = 1;
  if (const auto only = sole_nearest_bone(nearest, is_source)) {
    note_unweighted_bones(bones, is_source, allowed, result.warnings);
    stats.solved_bones = 1;
    result.weights.indices.assign(n * kSlotsPerVertex, 0);
    result.weights.weights.assign(n * kSlotsPerVertex, 0);
    for (std::size_t v = 0; v < n; ++v) {
      result.weights.indices[v * kSlotsPerVertex] = *only;
      result.weights.weights[v * kSlotsPerVertex] = 1;
    }
    return result;
  }

  // System matrix A = -L + diag(M H): the cotangent stiffness plus the heat-source term. An isolated
  // vertex has no area, so its row is the identity and its weight is p directly.
  HeatSystem system(verts, g, kMaxCot);
  const std::vector<double>& mass = system.mass();
  // Heat-source strength H = c / r^2 with r^2 = d^2 + s^2. In 3D (Baran) the bone runs inside the
  // volume and every surface vertex is about a limb radius from it; in a sprite the bone lies in the
  // mesh plane, so the source is put a softening distance s (a quarter of the bone's length) away
  // from it: a vertex on a bone is held with c / s^2 instead of being pinned to a hard 0/1 step, and
  // far from the bones H falls off as c / d^2, so blends widen with the distance from the chain.
  // H depends on nothing but the distance to the bone and the bone's length: not on the distance to
  // the outline (which made a bone pinned where it leaves the shape and weak across a wide shape),
  // and it is bounded, so no single vertex that happens to lie on a bone can pin its neighbourhood.
  std::vector<double> length = bone_lengths(bones, joints, segments, seeds, g.scale);
  for (std::size_t b = 0; b < nb; ++b) length[b] = std::max(length[b], over.soft_length[b]);
  const double min_s = kMinDistance * g.scale;
  std::vector<double> source(n);  // M H, the heat-source strength of each vertex
  for (std::size_t v = 0; v < n; ++v) {
    if (g.isolated[v]) {
      source[v] = 1;
    } else {
      double tied_length = 0;  // tied nearest bones share the vertex, and its softening
      for (std::uint8_t k = 0; k < nearest.count[v]; ++k) tied_length += length[nearest.bones[v][k]];
      if (nearest.count[v] > 0) tied_length /= nearest.count[v];
      const double s = std::max(kBoneSoftening * tied_length, min_s);
      const double d = nearest.distance[v];  // +inf only where no bone reaches: no source there
      source[v] = std::isfinite(d) ? mass[v] * kHeat / (d * d + s * s) : 0;
    }
  }
  const Eigen::SparseMatrix<double> a = system.with_sources(source);
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, detail::SymmetricAmdOrdering> solver;
  solver.compute(a);
  stats.solver_fallback = solver.info() != Eigen::Success;
  if (stats.solver_fallback)
    result.warnings.push_back(warning("weights.heat.solve_failed",
                                      "the heat system could not be factorized: nearest-bone weights used", "/mesh"));

  note_unweighted_bones(bones, is_source, allowed, result.warnings);

  const int keep = options.max_influences + 1;
  detail::TopWeights top(n, keep);
  Eigen::VectorXd rhs(static_cast<Eigen::Index>(n));
  Eigen::VectorXd w(static_cast<Eigen::Index>(n));
  std::vector<double> smoothed(n);
  // p_b as sparse lists: the vertices whose nearest bone is b, with 1 / (number of tied bones).
  // One list per bone, laid out bone after bone in one array (counted first), vertices ascending.
  std::vector<std::uint32_t> nearest_begin(nb + 1, 0);
  for (std::size_t v = 0; v < n; ++v)
    for (std::uint8_t k = 0; k < nearest.count[v]; ++k) ++nearest_begin[nearest.bones[v][k] + 1];
  for (std::uint32_t b = 0; b < nb; ++b) nearest_begin[b + 1] += nearest_begin[b];
  std::vector<std::pair<std::uint32_t, double>> nearest_list(nearest_begin[nb]);
  {
    std::vector<std::uint32_t> fill(nearest_begin.begin(), nearest_begin.end() - 1);
    for (std::uint32_t v = 0; v < n; ++v)
      for (std::uint8_t k = 0; k < nearest.count[v]; ++k)
        nearest_list[fill[nearest.bones[v][k]]++] = {v, 1.0 / nearest.count[v]};
  }
  auto nearest_of = [&](std::uint32_t b) {
    return std::span<const std::pair<std::uint32_t, double>>(nearest_list)
        .subspan(nearest_begin[b], nearest_begin[b + 1] - nearest_begin[b]);
  };
  for (std::uint32_t b = 0; b < nb; ++b) {
    if (!is_source[b]) continue;
    ++stats.solved_bones;
    rhs.setZero();
    for (const auto& [v, p] : nearest_of(b)) rhs[static_cast<Eigen::Index>(v)] = p;
    if (stats.solver_fallback) {
      w = rhs;
    } else {
      for (std::size_t v = 0; v < n; ++v) rhs[static_cast<Eigen::Index>(v)] *= source[v];
      w = solver.solve(rhs);
      if (solver.info() != Eigen::Success || !w.allFinite()) {  // never a silent hard-weight fallback
        if (!stats.solver_fallback)
          result.warnings.push_back(warning("weights.heat.solve_failed",
                                            "the heat system could not be solved: nearest-bone weights used", "/mesh"));
        stats.solver_fallback = true;
        w.setZero();
        for (const auto& [v, p] : nearest_of(b)) w[static_cast<Eigen::Index>(v)] = p;
      }
    }
    // Umbrella smoothing, half a step per pass (Jacobi: reads the previous pass only).
    for (int pass = 0; pass < options.smooth_passes; ++pass) {
      for (std::size_t v = 0; v < n; ++v) {
        const std::uint32_t lo = g.nbr_offsets[v], hi = g.nbr_offsets[v + 1];
        double avg = 0;
        for (std::uint32_t k = lo; k < hi; ++k) avg += w[static_cast<Eigen::Index>(g.nbr_list[k])];
        const double self = w[static_cast<Eigen::Index>(v)];
        smoothed[v] = hi > lo ? 0.5 * self + 0.5 * (avg / (hi - lo)) : self;
      }
      for (std::size_t v = 0; v < n; ++v) w[static_cast<Eigen::Index>(v)] = smoothed[v];
    }
    for (std::size_t v = 0; v < n; ++v) top.offer(v, b, w[static_cast<Eigen::Index>(v)]);  // offer skips <= 0
  }

  result.weights.indices.assign(n * kSlotsPerVertex, 0);
  result.weights.weights.assign(n * kSlotsPerVertex, 0);
  for (std::size_t v = 0; v < n; ++v) {
    const std::uint32_t fallback = nearest.count[v] > 0 ? nearest.bones[v][0] : 0;
    detail::cut_influences(top.bones(v), top.weights(v), options.max_influences, options.min_weight, fallback,
                           &result.weights.indices[v * kSlotsPerVertex], &result.weights.weights[v * kSlotsPerVertex]);
  }
  const detail::FoldRelief relief = detail::relieve_folds(verts, mesh.tris, bones, options.bone_mask,
                                                          options.max_influences, options.fold_relief_angle,
                                                          result.weights);
  stats.folds_relieved = relief.folds_before - relief.folds_after;
  return result;
}

}  // namespace rig2d
