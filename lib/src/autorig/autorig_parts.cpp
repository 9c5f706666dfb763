// SPDX-License-Identifier: Apache-2.0
// autorig_parts: one v2 rig from parts placed on a canvas, over one shared skeleton.
#include <algorithm>
#include <cmath>

#include "autorig/autorig_internal.h"
#include "autorig/layout_skeleton.h"
#include "rig2d/autorig/template_choice.h"
#include "autorig/mesh_budget.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/coverage.h"
#include "rig2d/autorig/layout.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d {
namespace {

// A bone weights a part when at least this share of its segments runs through the part's own alpha,
// and the part is (within kOwnerMargin) the one the bone runs through most: where an arm layer hangs
// over a leg layer, the forearm bone lies on both, but more on the arm, so it weights the arm only; a
// leg bone crossing the arm likewise stays with the leg. Parts that share a bone all along (an upper
// arm drawn over the torso) both keep it.
constexpr double kMinInsideShare = 1.0 / 3.0;
constexpr double kOwnerMargin = 0.1;  // below the bone's largest share over all parts

bool covered(const PlacedPart& p, double cx, double cy, int threshold) {
  const double px = std::floor(cx) - p.x, py = std::floor(cy) - p.y;
  if (!(px >= 0 && py >= 0 && px < p.image.width && py < p.image.height)) return false;
  const std::size_t i = std::size_t(py) * std::size_t(p.image.width) + std::size_t(px);
  return p.image.rgba[i * 4 + 3] > threshold;
}

// Every part's alpha on the canvas (the max where parts overlap), white: what the skeleton follows.
Image union_image(const std::vector<PlacedPart>& parts, int width, int height) {
  Image u;
  u.width = width;
  u.height = height;
  u.rgba.assign(std::size_t(width) * std::size_t(height) * 4, 0);
  for (const PlacedPart& p : parts) {
    for (int y = 0; y < p.image.height; ++y) {
      const int cy = y + p.y;
      if (cy < 0 || cy >= height) continue;
      for (int x = 0; x < p.image.width; ++x) {
        const int cx = x + p.x;
        if (cx < 0 || cx >= width) continue;
        const std::uint8_t a = p.image.rgba[(std::size_t(y) * std::size_t(p.image.width) + std::size_t(x)) * 4 + 3];
        std::uint8_t* d = &u.rgba[(std::size_t(cy) * std::size_t(width) + std::size_t(cx)) * 4];
        d[0] = d[1] = d[2] = 255;
        d[3] = std::max(d[3], a);
      }
    }
  }
  return u;
}

std::size_t covered_pixels(const Image& img, int threshold) {
  std::size_t n = 0;
  for (std::size_t i = 3; i < img.rgba.size(); i += 4) n += img.rgba[i] > threshold;
  return n;
}

// Whether any of the part's covered pixels lands on the width x height canvas.
bool covers_canvas(const PlacedPart& p, int width, int height, int threshold) {
  for (int y = std::max(0, p.y); y < std::min(height, p.y + p.image.height); ++y)
    for (int x = std::max(0, p.x); x < std::min(width, p.x + p.image.width); ++x)
      if (p.image.rgba[(std::size_t(y - p.y) * std::size_t(p.image.width) + std::size_t(x - p.x)) * 4 + 3] > threshold)
        return true;
  return false;
}

struct CanvasSegment {
  Vec2 a, b;  // canvas px
};

// Each bone's segments on the canvas: its joint to each child's joint; a leaf is its joint alone.
std::vector<std::vector<CanvasSegment>> bone_segments_canvas(const std::vector<Bone>& bones, Vec2 origin) {
  const std::vector<Vec2> j = joint_positions(bones);
  std::vector<std::vector<CanvasSegment>> segs(bones.size());
  for (std::size_t c = 0; c < bones.size(); ++c) {
    const std::int64_t p = bones[c].parent;
    if (p < 0 || p >= static_cast<std::int64_t>(bones.size())) continue;
    const auto pi = static_cast<std::size_t>(p);
    segs[pi].push_back({{j[pi].x + origin.x, j[pi].y + origin.y}, {j[c].x + origin.x, j[c].y + origin.y}});
  }
  for (std::size_t b = 0; b < bones.size(); ++b)
    if (segs[b].empty()) segs[b].push_back({{j[b].x + origin.x, j[b].y + origin.y}, {j[b].x + origin.x, j[b].y + origin.y}});
  return segs;
}

// Share of a bone's segment samples (one per px) that fall on the part's own coverage.
double inside_share(const std::vector<CanvasSegment>& segs, const PlacedPart& part, int threshold) {
  std::size_t inside = 0, total = 0;
  for (const CanvasSegment& s : segs) {
    const double len = std::hypot(s.b.x - s.a.x, s.b.y - s.a.y);
    const int n = std::max(1, static_cast<int>(std::ceil(len)));
    for (int k = 0; k <= n; ++k) {
      const double t = double(k) / n;
      ++total;
      inside += covered(part, s.a.x + t * (s.b.x - s.a.x), s.a.y + t * (s.b.y - s.a.y), threshold);
    }
  }
  return total ? double(inside) / double(total) : 0;
}

double distance_to_segments(Vec2 p, const std::vector<CanvasSegment>& segs) {
  double best = std::numeric_limits<double>::infinity();
  for (const CanvasSegment& s : segs) {
    const double vx = s.b.x - s.a.x, vy = s.b.y - s.a.y, len2 = vx * vx + vy * vy;
    const double t = len2 > 0 ? std::clamp(((p.x - s.a.x) * vx + (p.y - s.a.y) * vy) / len2, 0.0, 1.0) : 0.0;
    best = std::min(best, std::hypot(p.x - s.a.x - t * vx, p.y - s.a.y - t * vy));
  }
  return best;
}

// The bones allowed to weight one part (1 = allowed), and whether it fell back to the nearest bone.
// `share[b]` = this part's inside_share of bone b, `best_share[b]` = the largest over all parts.
std::vector<std::uint8_t> part_bones(const std::vector<Bone>& bones,
                                     const std::vector<std::vector<CanvasSegment>>& segs,
                                     const std::vector<double>& share, const std::vector<double>& best_share,
                                     const Mesh& canvas_mesh, bool& fallback) {
  std::vector<std::uint8_t> mask(segs.size(), 0);
  std::vector<std::uint8_t> leaf(segs.size(), 1);
  for (const Bone& b : bones)
    if (b.parent >= 0 && b.parent < static_cast<std::int64_t>(bones.size())) leaf[static_cast<std::size_t>(b.parent)] = 0;
  for (std::size_t b = 0; b < segs.size(); ++b)
    mask[b] = share[b] >= kMinInsideShare && share[b] >= best_share[b] - kOwnerMargin;
  // A leaf is a point (a hand's tip where the hand lies over a thigh is on both): it goes with its
  // parent's part.
  bool any = false;
  for (std::size_t b = 0; b < segs.size(); ++b) {
    const std::int64_t p = bones[b].parent;
    if (leaf[b] && p >= 0 && p < static_cast<std::int64_t>(bones.size()) && !mask[static_cast<std::size_t>(p)]) mask[b] = 0;
    any = any || mask[b];
  }
  fallback = !any;
  if (any) return mask;
  // No bone runs through the part: the bone nearest to its vertices takes it (first on ties).
  std::size_t best = 0;
  double best_d = std::numeric_limits<double>::infinity();
  for (std::size_t b = 0; b < segs.size(); ++b) {
    double d = std::numeric_limits<double>::infinity();
    for (const Vec2& v : canvas_mesh.verts) d = std::min(d, distance_to_segments(v, segs[b]));
    if (d < best_d) best_d = d, best = b;
  }
  mask[best] = 1;
  return mask;
}

// Joint weights over the allowed bones only: the engine's nearest-joint weights need just the joints,
// so the allowed bones are handed over as roots at their bind joints, and the indices mapped back.
SkinWeights joint_weights_masked(const Mesh& mesh, const std::vector<Bone>& bones, const std::vector<std::uint8_t>& mask,
                                 const JointWeightOptions& options) {
  const std::vector<Vec2> j = joint_positions(bones);
  std::vector<Bone> flat;
  std::vector<std::uint32_t> index;
  for (std::size_t b = 0; b < bones.size(); ++b) {
    if (!mask[b]) continue;
    flat.push_back({bones[b].name, -1, j[b].x, j[b].y, 0, false});
    index.push_back(static_cast<std::uint32_t>(b));
  }
  SkinWeights w = compute_joint_weights(mesh.verts, flat, options);
  for (std::uint32_t& i : w.indices) i = i < index.size() ? index[i] : index[0];
  return w;
}

void add_part_warnings(LayoutStats& st, std::vector<Diagnostic>& ws, std::size_t part) {
  for (Diagnostic& d : ws) {
    d.where.json_pointer = "/parts/" + std::to_string(part) + d.where.json_pointer;
    if (d.severity != Severity::Note) st.warnings.push_back(std::move(d));
  }
}

// The shared skeleton. A template is fitted over the union of the parts (its bones are one figure's,
// so a limb part is weighted by the limb bones lying on it); the shape skeleton follows each part's own
// silhouette (also when `auto` finds no template that fits); hand-placed bones and the engine's chain
// stay over the union.
// `over_body`, `legs` and `ground` as template_bones (for the parts' weights and meshes, and the rig).
Result<std::vector<Bone>> layout_bones(const std::vector<PlacedPart>& parts, const Image& all, int width, int height,
                                       const AutorigOptions& options, const UvPredicate& inside, LayoutStats& st,
                                       std::vector<std::uint8_t>& over_body, std::vector<detail::LegPair>& legs,
                                       std::optional<Bone>& ground) {
  if (options.bones) return *options.bones;
  AutorigStats bone_stats;
  if (options.skeleton_template || options.template_auto) {
    auto fitted = detail::template_bones(all, options, bone_stats, &over_body, &legs, &ground);
    st.template_note = bone_stats.template_note;
    for (Diagnostic& d : bone_stats.mesh_warnings) st.warnings.push_back(std::move(d));
    if (!fitted || !fitted->empty()) return fitted;  // empty: `auto` found no template that fits
  }
  if (options.skeleton == SkeletonMode::Shape) return detail::layout_skeleton(parts, width, height, options);
  AutorigOptions chain = options;
  apply_template_spec({}, chain);
  return autorig_bones(all, chain, inside, bone_stats);
}

}  // namespace

Result<Rig> autorig_parts(const std::vector<PlacedPart>& parts, int width, int height, const AutorigOptions& options,
                          LayoutStats* stats) {
  LayoutStats local;
  LayoutStats& st = stats ? *stats : local;
  st = {};
  if (auto ok = check_autorig_options(options); !ok) return Unexpected{ok.error()};
  if (parts.empty() || parts.size() > kMaxLayoutParts)
    return make_error("layout.parts", std::to_string(parts.size()) + " parts; a layout needs 1.." +
                                          std::to_string(kMaxLayoutParts));
  if (width <= 0 || height <= 0 || width > static_cast<int>(kMaxImageSide) || height > static_cast<int>(kMaxImageSide))
    return make_error("layout.canvas", "canvas " + std::to_string(width) + " x " + std::to_string(height) +
                                           " is outside 1.." + std::to_string(kMaxImageSide));
  if (options.mesh != MeshMode::Outline)
    return make_error("autorig.options", "layouts are meshed with outline meshes only (mesh = outline)");
  const int threshold = options.alpha_threshold;

  // The shared skeleton.
  const Image all = union_image(parts, width, height);
  std::vector<std::size_t> area(parts.size());
  std::size_t total_area = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    area[p] = covered_pixels(parts[p].image, threshold);
    if (area[p] == 0)
      return make_error("autorig.empty", "part \"" + parts[p].name + "\" has no pixel with alpha > " +
                                             std::to_string(threshold), {"", "/parts/" + std::to_string(p)});
    // The skeleton is found on the canvas: a part wholly off it (a mistyped x) would have none.
    const PlacedPart& part = parts[p];
    if (!covers_canvas(part, width, height, threshold))
      return make_error("layout.part.outside",
                        "part \"" + part.name + "\" (" + std::to_string(part.image.width) + " x " +
                            std::to_string(part.image.height) + " at " + std::to_string(part.x) + ", " +
                            std::to_string(part.y) + ") has no covered pixel on the " + std::to_string(width) + " x " +
                            std::to_string(height) + " canvas; move it onto the canvas or grow the canvas",
                        {"", "/parts/" + std::to_string(p)});
    total_area += area[p];
  }
  CoverageOptions co;
  co.alpha_threshold = threshold;
  auto mask = coverage_mask(all, co);
  if (!mask) return Unexpected{mask.error()};
  const CoverageMask& coverage = *mask;
  const UvPredicate inside = [&coverage](double u, double v) { return is_inside(coverage, u, v); };
  std::vector<std::uint8_t> over_body;
  std::vector<detail::LegPair> legs;
  std::optional<Bone> ground;
  auto suggested = layout_bones(parts, all, width, height, options, inside, st, over_body, legs, ground);
  if (!suggested) return Unexpected{suggested.error()};
  const std::vector<Bone> bones = std::move(*suggested);
  const Vec2 origin{options.pivot_x * width, options.pivot_y * height};  // rig origin on the canvas
  const auto segs = bone_segments_canvas(bones, origin);
  std::vector<std::vector<double>> share(parts.size(), std::vector<double>(bones.size()));
  std::vector<double> best(bones.size(), 0);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    for (std::size_t b = 0; b < bones.size(); ++b) {
      share[p][b] = inside_share(segs[b], parts[p], threshold);
      best[b] = std::max(best[b], share[p][b]);
    }
  }

  Rig rig;
  rig.layout = Layout::V2;
  rig.id = options.id;
  for (const Bone& b : bones) rig.bones.push_back({b.name, b.parent, b.x, b.y, b.rot, false});
  const std::size_t budget = options.outline.max_vertices;
  const std::size_t reserve = 3 * parts.size();  // every part can have a triangle
  if (budget < reserve)
    return make_error("autorig.budget", "a vertex budget of " + std::to_string(budget) + " cannot hold " +
                                            std::to_string(parts.size()) + " parts (at least 3 vertices each)");
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const PlacedPart& part = parts[p];
    LayoutPartStats ps;
    // The part's own mesh, in its own pixels (pivot top-left), its share of the vertex budget.
    OutlineMeshOptions mo = outline_options(options, bones, part.image, {origin.x - part.x, origin.y - part.y});
    mo.pivot_x = mo.pivot_y = 0;
    mo.score_coverage = false;
    mo.angle_stats = false;
    mo.max_vertices = 3 + static_cast<std::size_t>(double(budget - reserve) * double(area[p]) / double(total_area));
    std::vector<Diagnostic> mesh_warnings;
    auto mesh = detail::outline_mesh_within_budget(part.image, mo, nullptr, mesh_warnings);
    if (!mesh) {
      Error e = mesh.error();
      e.message = "part \"" + part.name + "\": " + e.message;
      e.where.json_pointer = "/parts/" + std::to_string(p);
      return Unexpected{std::move(e)};
    }
    add_part_warnings(st, mesh_warnings, p);
    Mesh canvas_mesh = *mesh;
    for (Vec2& v : canvas_mesh.verts) v = {v.x + part.x, v.y + part.y};
    Mesh rig_mesh = std::move(*mesh);
    for (Vec2& v : rig_mesh.verts) v = {v.x + part.x - origin.x, v.y + part.y - origin.y};

    const std::vector<std::uint8_t> allowed = part_bones(bones, segs, share[p], best, canvas_mesh, ps.nearest_bone_fallback);
    for (std::size_t b = 0; b < allowed.size(); ++b)
      if (allowed[b]) ps.bones.push_back(b);
    SkinWeights weights;
    if (options.weights == WeightsMode::Heat) {
      detail::slit_between_legs(rig_mesh, bones, legs, mo.max_vertices);  // both legs drawn on one part
      HeatWeightsOptions h = options.heat;
      h.bone_mask = allowed;
      if (std::find(over_body.begin(), over_body.end(), 1) != over_body.end()) h.over_body = over_body;
      auto heat = compute_heat_weights(rig_mesh, bones, h);
      if (!heat) return Unexpected{heat.error()};
      weights = std::move(heat->weights);
      if (ps.nearest_bone_fallback)  // the fallback bone lies off the part by definition: no news
        std::erase_if(heat->warnings, [](const Diagnostic& d) { return d.code == "weights.heat.bone_outside"; });
      add_part_warnings(st, heat->warnings, p);
    } else {
      weights = joint_weights_masked(rig_mesh, bones, allowed, options.joint);
    }
    ps.vertices = rig_mesh.verts.size();
    ps.triangles = rig_mesh.tris.size() / 3;
    st.vertices += ps.vertices;
    st.triangles += ps.triangles;
    Part out;
    out.name = part.name;
    out.sprite = part.sprite;
    out.mesh = std::move(rig_mesh);
    out.skin_indices = std::move(weights.indices);
    out.skin_weights = std::move(weights.weights);
    out.order = part.order;
    rig.parts.push_back(std::move(out));
    st.parts.push_back(std::move(ps));
  }
  if (ground) {  // the template's figure is placed by its feet
    detail::add_ground_bone(rig, *ground);
    for (LayoutPartStats& ps : st.parts)
      for (std::size_t& b : ps.bones) ++b;
  }
  st.bones = rig.bones.size();
  Mesh all_verts;
  for (const Part& p : rig.parts) all_verts.verts.insert(all_verts.verts.end(), p.mesh.verts.begin(), p.mesh.verts.end());
  if (auto ok = detail::check_vertex_budget(all_verts, budget, "layout"); !ok) return Unexpected{ok.error()};
  return rig;
}

}  // namespace rig2d
