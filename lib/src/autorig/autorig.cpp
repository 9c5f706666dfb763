// SPDX-License-Identifier: Apache-2.0
#include "rig2d/autorig/autorig.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <numbers>
#include <set>
#include <string>

#include "rig2d/core/affine.h"
#include "rig2d/core/limits.h"
#include "rig2d/geometry/bend_points.h"
#include "rig2d/image/coverage.h"
#include "rig2d/skin/skeleton.h"
#include "autorig/autorig_internal.h"
#include "autorig/mesh_budget.h"
#include "image/coverage_pixels.h"
#include "skeleton/shape_skeleton_covered.h"

namespace rig2d {
namespace {

// At --detail medium and low: a piece of the shape skeleton at most about twice as long as it is
// wide (its limbs reach no farther than twice its root's inscribed radius: a head, an eye, a hand,
// what animators give one bone and a quad) gets one bone, and a one-bone mesh is the fewest-corner
// hull that keeps the coverage promise, whose transparent border is at most 2 px per px of outline.
constexpr double kDetailRigidReach = 2.0;
constexpr double kDetailMaxBorder = 2.0;
// ... and so does a piece whose limbs reach under 16 px from its root (an eyebrow, a mouth, a nose):
// a bone there would be under 8 px, a bend of it barely visible.
constexpr double kDetailRigidLength = 16.0;
constexpr double kPixelCornerMargin = 0.75;  // px: past sqrt(2)/2, a pixel's corner from its centre

Rig make_v1_rig(const std::optional<std::string>& id, const std::string& sprite, const std::vector<Bone>& bones,
                Mesh mesh, SkinWeights weights) {
  Rig rig;
  rig.id = id;
  rig.layout = Layout::V1;
  for (const Bone& b : bones) rig.bones.push_back({b.name, b.parent, b.x, b.y, b.rot, false});
  Part part;
  part.sprite = sprite;
  part.mesh = std::move(mesh);
  part.skin_indices = std::move(weights.indices);
  part.skin_weights = std::move(weights.weights);
  rig.parts.push_back(std::move(part));
  return rig;
}

// Shortest round-trip text ("0", "1.5", "nan"), for messages.
std::string number_text(double value) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, res.ptr);
}

std::string field_error(std::string_view field, std::string_view limit, double value) {
  return std::string(field) + " = " + number_text(value) + " is outside its limit " + std::string(limit);
}

// Range checks of every numeric option; the first failure names the field.
Result<void> check_options(const AutorigOptions& o) {
  auto fail = [](std::string message) { return make_error("autorig.options", std::move(message)); };
  if (o.alpha_threshold < 0 || o.alpha_threshold > 255) {
    return fail(field_error("alpha_threshold", "[0, 255]", o.alpha_threshold));
  }
  for (const auto& [name, value] : {std::pair{"cols", o.cols}, std::pair{"rows", o.rows}}) {
    if (value && !(*value >= 1 && *value <= kMaxGridCells)) {
      return fail(field_error(name, "[1, 1024]", *value));
    }
  }
  if (!(o.cell_size > 0 && o.cell_size <= kMaxImageSide)) {
    return fail(field_error("cell_size", "(0, 16384] px", o.cell_size));
  }
  if (!(o.pivot_x >= 0 && o.pivot_x <= 1)) return fail(field_error("pivot_x", "[0, 1]", o.pivot_x));
  if (!(o.pivot_y >= 0 && o.pivot_y <= 1)) return fail(field_error("pivot_y", "[0, 1]", o.pivot_y));
  if (o.bone_count && (*o.bone_count < 2 || *o.bone_count > 6)) {
    return fail(field_error("bone_count", "[2, 6]", *o.bone_count));
  }
  if (!(o.joint.falloff > 0 && o.joint.falloff <= kMaxFalloff)) {
    return fail(field_error("falloff", "(0, 16]", o.joint.falloff));
  }
  if (!(o.joint.radius >= 0 && std::isfinite(o.joint.radius))) {
    return fail(field_error("radius", "[0, inf) px", o.joint.radius));
  }
  if (!(o.joint.max_influences >= 1 && o.joint.max_influences <= kMaxInfluences &&
        o.joint.max_influences == std::floor(o.joint.max_influences))) {
    return fail(field_error("max_influences", "1..4", o.joint.max_influences));
  }
  if (o.heat.max_influences < 1 || o.heat.max_influences > kMaxInfluences) {
    return fail(field_error("max_influences", "1..4", o.heat.max_influences));
  }
  if (!(o.heat.min_weight >= 0 && o.heat.min_weight < 0.25)) {
    return fail(field_error("min_weight", "[0, 0.25)", o.heat.min_weight));
  }
  if (o.heat.smooth_passes < 0 || o.heat.smooth_passes > 100) {
    return fail(field_error("smooth_passes", "0..100", o.heat.smooth_passes));
  }
  if (!(o.heat.default_leaf_length >= 0 && std::isfinite(o.heat.default_leaf_length))) {
    return fail(field_error("default_leaf_length", "[0, inf) px", o.heat.default_leaf_length));
  }
  return {};
}

// Parents must name another bone (or be -1) and the chain must reach a root: the engine tolerates
// anything, but a rig we write should be one the strict reader accepts.
Result<void> check_bones(const std::vector<Bone>& bones, const std::string& code, const std::string& pointer_root) {
  auto fail = [&](std::size_t i, const std::string& field, std::string message) {
    Location where;
    where.json_pointer = pointer_root + "/" + std::to_string(i) + (field.empty() ? "" : "/" + field);
    return make_error(code, std::move(message), where);
  };
  if (bones.empty()) {
    Location where;
    where.json_pointer = pointer_root;
    return make_error(code, "no bones: a rig needs at least one bone", where);
  }
  if (bones.size() > kMaxBones) {
    Location where;
    where.json_pointer = pointer_root;
    return make_error(code, std::to_string(bones.size()) + " bones; the limit is " + std::to_string(kMaxBones),
                      where);
  }
  std::set<std::string> names;
  const auto n = static_cast<std::int64_t>(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const Bone& b = bones[i];
    if (b.name.empty()) return fail(i, "name", "bone name is empty");
    if (!names.insert(b.name).second) return fail(i, "name", "duplicate bone name \"" + b.name + "\"");
    if (!std::isfinite(b.x)) return fail(i, "x", "bone x is not a finite number");
    if (!std::isfinite(b.y)) return fail(i, "y", "bone y is not a finite number");
    if (!std::isfinite(b.rot)) return fail(i, "rot", "bone rot is not a finite number");
    if (b.parent < -1 || b.parent >= n || b.parent == static_cast<std::int64_t>(i)) {
      return fail(i, "parent", "parent " + std::to_string(b.parent) + " is not -1 or another bone's index (0.." +
                                   std::to_string(n - 1) + ")");
    }
  }
  for (std::size_t i = 0; i < bones.size(); ++i) {
    std::int64_t cur = static_cast<std::int64_t>(i);
    for (std::int64_t steps = 0; cur >= 0; ++steps) {
      if (steps > n) return fail(i, "parent", "bone \"" + bones[i].name + "\" is part of a parent cycle");
      cur = bones[static_cast<std::size_t>(cur)].parent;
    }
  }
  return {};
}

}  // namespace

double grid_cells_for(double side, double cell_size) {
  return std::max(1.0, std::min(static_cast<double>(kMaxAutoGridCells), js_round(side / std::max(1.0, cell_size))));
}

Result<Rig> build_rig(const BuildRigOptions& o) {
  GridMeshOptions grid;
  grid.width = o.width;
  grid.height = o.height;
  grid.cols = o.cols ? *o.cols : grid_cells_for(o.width, o.cell_size);
  grid.rows = o.rows ? *o.rows : grid_cells_for(o.height, o.cell_size);
  grid.pivot_x = o.pivot_x;
  grid.pivot_y = o.pivot_y;
  auto mesh = generate_grid_mesh(grid, o.is_inside);
  if (!mesh) return Unexpected{mesh.error()};
  SkinWeights weights = compute_joint_weights(mesh->verts, o.bones, o.weights);
  return make_v1_rig(o.id, o.sprite, o.bones, std::move(*mesh), std::move(weights));
}

Result<Rig> auto_rig(const AutoRigOptions& o) {
  SuggestBonesOptions suggest;
  suggest.width = o.build.width;
  suggest.height = o.build.height;
  suggest.count = o.bone_count;
  suggest.pivot_x = o.build.pivot_x;
  suggest.pivot_y = o.build.pivot_y;
  suggest.axis = o.axis;
  BuildRigOptions build = o.build;
  build.bones = suggest_bones(suggest, o.build.is_inside);
  return build_rig(build);
}

AutorigOptions AutorigOptions::tool_defaults() {
  AutorigOptions options;
  options.mesh = MeshMode::Outline;
  options.detail = MeshDetail::Medium;
  options.skeleton = SkeletonMode::Shape;
  options.weights = WeightsMode::Heat;
  options.coverage_stats = false;
  return options;
}

std::string_view mesh_mode_name(MeshMode mode) {
  switch (mode) {
    case MeshMode::Grid: return "grid";
    case MeshMode::Outline: return "outline";
  }
  return "?";
}

std::string_view mesh_detail_name(MeshDetail detail) {
  switch (detail) {
    case MeshDetail::Low: return "low";
    case MeshDetail::Medium: return "medium";
    case MeshDetail::High: return "high";
  }
  return "?";
}

std::string_view weights_mode_name(WeightsMode mode) {
  switch (mode) {
    case WeightsMode::Joint: return "joint";
    case WeightsMode::Heat: return "heat";
  }
  return "?";
}

std::optional<MeshMode> parse_mesh_mode(std::string_view name) {
  if (name == "grid") return MeshMode::Grid;
  if (name == "outline") return MeshMode::Outline;
  return std::nullopt;
}

std::optional<WeightsMode> parse_weights_mode(std::string_view name) {
  if (name == "joint") return WeightsMode::Joint;
  if (name == "heat") return WeightsMode::Heat;
  return std::nullopt;
}

std::string_view skeleton_mode_name(SkeletonMode mode) {
  switch (mode) {
    case SkeletonMode::Shape: return "shape";
    case SkeletonMode::Chain: return "chain";
  }
  return "?";
}

std::optional<SkeletonMode> parse_skeleton_mode(std::string_view name) {
  if (name == "shape") return SkeletonMode::Shape;
  if (name == "chain") return SkeletonMode::Chain;
  return std::nullopt;
}

// The bones autorig_image weights: hand-placed, the shape skeleton, or the engine's chain over the
// coverage mask (`inside`).
Result<std::vector<Bone>> autorig_bones(const Image& image, const AutorigOptions& o, const UvPredicate& inside,
                                        AutorigStats& st, std::vector<std::uint8_t>* over_body,
                                        std::vector<detail::LegPair>* legs, std::vector<std::uint8_t>* covered_pixels,
                                        std::optional<Bone>* ground) {
  if (o.bones) return *o.bones;
  if (o.skeleton_template || o.template_auto) {
    auto fitted = detail::template_bones(image, o, st, over_body, legs, ground);
    if (!fitted || !fitted->empty()) return fitted;  // empty: `auto` found no template that fits
  }
  if (o.skeleton == SkeletonMode::Shape) {
    ShapeSkeletonOptions shape = o.shape;
    shape.alpha_threshold = o.alpha_threshold;
    shape.pivot_x = o.pivot_x;
    shape.pivot_y = o.pivot_y;
    if (o.mesh == MeshMode::Outline && o.detail != MeshDetail::High) {
      if (shape.rigid_reach == 0) shape.rigid_reach = kDetailRigidReach;
      if (shape.rigid_length == 0) shape.rigid_length = kDetailRigidLength;
    }
    std::vector<std::uint8_t> covered;
    if (covered_pixels != nullptr) covered.swap(*covered_pixels);
    return detail::shape_skeleton_covered(image, shape, &st.skeleton, std::move(covered));
  }
  SuggestBonesOptions suggest;
  suggest.width = image.width;
  suggest.height = image.height;
  if (o.bone_count) suggest.count = *o.bone_count;
  suggest.pivot_x = o.pivot_x;
  suggest.pivot_y = o.pivot_y;
  suggest.axis = o.axis;
  return suggest_bones(suggest, inside);
}

// The outline options the pipeline runs with: threshold and pivot are the rig's own.
OutlineMeshOptions outline_options(const AutorigOptions& o) {
  OutlineMeshOptions m = o.outline;
  m.alpha_threshold = std::min(o.alpha_threshold, 254);  // 255 covers nothing: autorig.empty comes first
  m.pivot_x = o.pivot_x;
  m.pivot_y = o.pivot_y;
  m.score_coverage = o.coverage_stats;
  m.angle_stats = o.coverage_stats;  // read only where the coverage is (-v)
  return m;
}

// Half the median distance between a bone's joint and its children's: an outline mesh with longer
// edges can leave a bone's stretch without an interior vertex, so it could not bend there (a 40 px
// blob with 9 px bones would be one fan of outline vertices around a single inner one). 0 without
// two distinct joints.
double bone_edge_bound(const std::vector<Bone>& bones) {
  const std::vector<Vec2> joints = joint_positions(bones);
  std::vector<double> links;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const std::int64_t p = bones[i].parent;
    if (p < 0 || p >= static_cast<std::int64_t>(bones.size())) continue;
    const Vec2 a = joints[i], b = joints[static_cast<std::size_t>(p)];
    const double d = std::hypot(a.x - b.x, a.y - b.y);
    if (d > 1e-9 && std::isfinite(d)) links.push_back(d);
  }
  if (links.empty()) return 0;
  std::nth_element(links.begin(), links.begin() + static_cast<std::ptrdiff_t>(links.size() / 2), links.end());
  return 0.5 * links[links.size() / 2];
}

// High: edges no longer than half a bone everywhere. Medium and Low: a tolerance that grows with the
// sprite and interior vertices only across joints and bones (where the weights change).
OutlineMeshOptions outline_options(const AutorigOptions& o, const std::vector<Bone>& bones, const Image& image,
                                   Vec2 joint_to_px) {
  OutlineMeshOptions m = outline_options(o);
  if (o.detail == MeshDetail::High) {
    if (const double bound = bone_edge_bound(bones); m.max_edge > 0 && bound > 0)
      m.max_edge = std::min(m.max_edge, std::max(4.0, bound));
    return m;
  }
  m.tolerance = detail_tolerance(o.detail, image.width, image.height, m.tolerance);
  m.margin = std::min(64.0, std::max(m.margin, m.tolerance));
  // A triangle narrower than the outline's own error band gains nothing from a Steiner point: split,
  // it leaves 1-2 px triangles whose corners skin differently (a notch between two limbs), which LBS
  // crushes or turns over when one limb bends.
  m.min_refine_edge = 2 * m.tolerance;
  if (bones.size() == 1) {  // one bone moves every vertex alike: the outline alone, no vertex inside
    m.min_angle_deg = 0;
    m.max_edge = 0;
    return m;
  }
  BendSkeleton skeleton;
  for (const Vec2& j : joint_positions(bones))
    skeleton.joints.push_back({j.x + joint_to_px.x, j.y + joint_to_px.y});
  for (const Bone& b : bones) skeleton.parents.push_back(b.parent);
  m.interior_points = bend_points(image, m.alpha_threshold, skeleton, 1.0 + m.tolerance);
  return m;
}


Result<void> check_autorig_options(const AutorigOptions& o) {
  if (auto ok = check_options(o); !ok) return ok;
  if (o.mesh == MeshMode::Outline) {
    if (auto ok = check_outline_options(outline_options(o)); !ok)
      return make_error("autorig.options", ok.error().message);
  }
  if (o.skeleton == SkeletonMode::Shape && !o.bones) {
    ShapeSkeletonOptions shape = o.shape;
    shape.pivot_x = shape.pivot_y = 0.5;  // the rig's own, checked above
    shape.alpha_threshold = 0;
    if (auto ok = check_shape_skeleton_options(shape); !ok) return make_error("autorig.options", ok.error().message);
  }
  if (o.bones) return check_bones(*o.bones, "autorig.bones", "/bones");
  return {};
}

// The mesh, one case per MeshMode: the engine's culled grid (its coverage figures only with
// coverage_stats), or the outline mesh within the vertex budget.
Result<Mesh> autorig_mesh(const Image& image, const AutorigOptions& o, const std::vector<Bone>& bones,
                          const UvPredicate& inside, AutorigStats& st) {
  switch (o.mesh) {
    case MeshMode::Grid: {
      GridMeshOptions grid;
      const double width = image.width, height = image.height;
      grid.width = width;
      grid.height = height;
      grid.cols = o.cols ? *o.cols : grid_cells_for(width, o.cell_size);
      grid.rows = o.rows ? *o.rows : grid_cells_for(height, o.cell_size);
      grid.pivot_x = o.pivot_x;
      grid.pivot_y = o.pivot_y;
      st.cols = grid.cols;
      st.rows = grid.rows;
      auto mesh = generate_grid_mesh(grid, o.cull ? inside : UvPredicate{});
      if (!mesh) return Unexpected{mesh.error()};
      if (o.coverage_stats) {
        st.coverage = mesh_coverage(*mesh, image, o.alpha_threshold);
        st.yardstick = outline_yardstick(*mesh, image, o.alpha_threshold);
      }
      return mesh;
    }
    case MeshMode::Outline: {
      // A hull needs no more margin than covers every pixel's square whole (--margin, 0.75 px).
      detail::HullLimits hull;
      if (o.detail != MeshDetail::High && bones.size() == 1) hull = {kDetailMaxBorder, std::max(kPixelCornerMargin, o.outline.margin)};
      auto mesh = detail::outline_mesh_within_budget(
          image, outline_options(o, bones, image, {o.pivot_x * image.width, o.pivot_y * image.height}), &st.outline,
          st.mesh_warnings, hull);
      if (!mesh) return Unexpected{mesh.error()};
      st.coverage = st.outline.coverage;
      st.yardstick = st.outline.yardstick;
      return mesh;
    }
  }
  return make_error("autorig.options", "unknown mesh mode");
}

// The outline mesh's figures made those of `mesh`, which replaced it: its counts, smallest angle,
// the bend points (`interior`, image px) still among its vertices, and the scores when asked for.
void remeasure_outline(const Image& image, const AutorigOptions& o, const Mesh& mesh, const std::vector<Vec2>& interior,
                       AutorigStats& st) {
  st.outline.vertices = mesh.verts.size();
  st.outline.triangles = mesh.tris.size() / 3;
  st.outline.min_angle_deg = o.coverage_stats ? 180 : 0;
  for (std::size_t t = 0; o.coverage_stats && t + 2 < mesh.tris.size(); t += 3) {
    const Vec2 p[3] = {mesh.verts[mesh.tris[t]], mesh.verts[mesh.tris[t + 1]], mesh.verts[mesh.tris[t + 2]]};
    for (int k = 0; k < 3; ++k) {  // the angle at p[k]
      const Vec2 a = p[(k + 1) % 3], b = p[(k + 2) % 3];
      const double u = std::atan2((a.x - p[k].x) * (b.y - p[k].y) - (a.y - p[k].y) * (b.x - p[k].x),
                                  (a.x - p[k].x) * (b.x - p[k].x) + (a.y - p[k].y) * (b.y - p[k].y));
      st.outline.min_angle_deg = std::min(st.outline.min_angle_deg, std::fabs(u) * 180 / std::numbers::pi);
    }
  }
  const Vec2 pivot{o.pivot_x * image.width, o.pivot_y * image.height};
  st.outline.interior_points = static_cast<std::size_t>(std::count_if(interior.begin(), interior.end(), [&](Vec2 q) {
    return std::any_of(mesh.verts.begin(), mesh.verts.end(), [&](Vec2 v) {
      return std::fabs(v.x + pivot.x - q.x) < 1e-6 && std::fabs(v.y + pivot.y - q.y) < 1e-6;
    });
  }));
  if (o.coverage_stats) {
    st.outline.coverage = st.coverage = mesh_coverage(mesh, image, o.alpha_threshold);
    st.outline.yardstick = st.yardstick = outline_yardstick(mesh, image, o.alpha_threshold);
  }
}

// At medium and low, an island of a many-bone rig that one bone drives wholly (a detached piece with
// a bone of its own) becomes a few-corner hull, as a one-bone rig's mesh does; the mesh figures are
// then those of the final mesh.
void rigid_islands_as_hulls(const Image& image, const AutorigOptions& o, const std::vector<Bone>& bones, Mesh& mesh,
                            SkinWeights& weights, AutorigStats& st) {
  if (o.mesh != MeshMode::Outline || o.detail == MeshDetail::High || bones.size() < 2) return;
  const detail::HullLimits hull{kDetailMaxBorder, std::max(kPixelCornerMargin, o.outline.margin)};
  if (detail::rigid_island_hulls(image, outline_options(o), hull, mesh, weights) == 0) return;
  const Vec2 pivot{o.pivot_x * image.width, o.pivot_y * image.height};
  remeasure_outline(image, o, mesh, outline_options(o, bones, image, pivot).interior_points, st);
}

// The weights, one case per WeightsMode: the engine's joint weights, or bone heat (its warnings
// into the stats).
Result<SkinWeights> autorig_weights(const Mesh& mesh, const std::vector<Bone>& bones, const AutorigOptions& o,
                                    const std::vector<std::uint8_t>& over_body, AutorigStats& st) {
  switch (o.weights) {
    case WeightsMode::Joint:
      return compute_joint_weights(mesh.verts, bones, o.joint);
    case WeightsMode::Heat: {
      HeatWeightsOptions h = o.heat;
      if (std::find(over_body.begin(), over_body.end(), 1) != over_body.end()) h.over_body = over_body;
      auto heat = compute_heat_weights(mesh, bones, h);
      if (!heat) return Unexpected{heat.error()};
      st.weight_warnings = std::move(heat->warnings);
      return std::move(heat->weights);
    }
  }
  return make_error("autorig.options", "unknown weights mode");
}

Result<Rig> autorig_image(const Image& image, const AutorigOptions& o, AutorigStats* stats) {
  return detail::autorig_image_covered(image, o, stats, nullptr);
}

Result<Rig> detail::autorig_image_covered(const Image& image, const AutorigOptions& o, AutorigStats* stats,
                                          std::vector<std::uint8_t>* covered_pixels) {
  if (auto ok = check_autorig_options(o); !ok) return Unexpected{ok.error()};
  AutorigStats local_stats;
  AutorigStats& st = stats ? *stats : local_stats;
  st = {};
  st.image_width = image.width;
  st.image_height = image.height;

  auto t = std::chrono::steady_clock::now();
  CoverageOptions coverage_options;
  coverage_options.alpha_threshold = o.alpha_threshold;
  std::vector<std::uint8_t> pixels;  // the image's per-pixel coverage, when given for an image coverage_mask takes
  const bool maskable = image.width > 0 && image.height > 0 && image.width <= kMaxImageSide &&
                        image.height <= kMaxImageSide && image.rgba.size() == 4 * std::size_t(image.width) * std::size_t(image.height);
  if (covered_pixels != nullptr && maskable && covered_pixels->size() == image.rgba.size() / 4)
    pixels = std::move(*covered_pixels);
  auto mask = !pixels.empty() ? Result<CoverageMask>(coverage_mask_of_pixels(image.width, image.height, pixels))
                              : coverage_mask(image, coverage_options);
  if (!mask) return Unexpected{mask.error()};
  st.mask_width = mask->width;
  st.mask_height = mask->height;
  st.covered_cells = covered_cells(*mask);
  st.coverage_ms = detail::ms_since(t);
  if (st.covered_cells == 0) {
    return make_error("autorig.empty", "the sprite has no pixel with alpha > " + std::to_string(o.alpha_threshold) +
                                           " (fully transparent); nothing to rig");
  }
  const CoverageMask& coverage = *mask;
  const UvPredicate inside = [&coverage](double u, double v) { return is_inside(coverage, u, v); };

  // Bones first (they need only the coverage): the outline mesh is made fine enough to bend between
  // them. Hand-placed, or suggested (shape skeleton or the engine's chain).
  t = std::chrono::steady_clock::now();
  std::vector<std::uint8_t> over_body;
  std::vector<detail::LegPair> legs;
  std::optional<Bone> ground;
  auto suggested = autorig_bones(image, o, inside, st, &over_body, &legs, &pixels, &ground);
  if (!suggested) return Unexpected{suggested.error()};
  std::vector<Bone> bones = std::move(*suggested);
  st.bones_ms = detail::ms_since(t);

  t = std::chrono::steady_clock::now();
  auto built = autorig_mesh(image, o, bones, inside, st);
  if (!built) return Unexpected{built.error()};
  Mesh mesh = std::move(*built);
  if (o.weights == WeightsMode::Heat)  // legs drawn touching are cut apart
    detail::slit_between_legs(mesh, bones, legs, o.outline.max_vertices);
  st.mesh_ms = detail::ms_since(t);
  if (auto ok = detail::check_vertex_budget(mesh, o.outline.max_vertices, mesh_mode_name(o.mesh).data()); !ok)
    return Unexpected{ok.error()};
  if (mesh.verts.empty() || mesh.tris.empty()) {
    return make_error("autorig.mesh.empty",
                      "every grid cell was culled: the covered area (" + std::to_string(st.covered_cells) +
                          " mask cells) falls between the grid's samples; use a smaller cell size or --no-cull");
  }

  t = std::chrono::steady_clock::now();
  auto weights = autorig_weights(mesh, bones, o, over_body, st);
  if (!weights) return Unexpected{weights.error()};
  st.weights_ms = detail::ms_since(t);

  t = std::chrono::steady_clock::now();
  rigid_islands_as_hulls(image, o, bones, mesh, *weights, st);
  st.mesh_ms += detail::ms_since(t);

  st.bone_vertices.clear();
  for (const Bone& b : bones) st.bone_vertices.push_back({b.name, 0});
  for (std::size_t v = 0; v < mesh.verts.size(); ++v) {  // slot 0 holds the largest weight
    const std::uint32_t b = weights->indices[4 * v];
    if (weights->weights[4 * v] > 0 && b < bones.size()) ++st.bone_vertices[b].vertices;
  }
  st.vertices = mesh.verts.size();
  st.triangles = mesh.tris.size() / 3;
  Rig rig = make_v1_rig(o.id, o.sprite, bones, std::move(mesh), std::move(*weights));
  if (ground) {  // the template's figure is placed by its feet
    detail::add_ground_bone(rig, *ground);
    st.bone_vertices.insert(st.bone_vertices.begin(), {ground->name, 0});
  }
  st.bones = rig.bones.size();
  return rig;
}

Result<void> verify_rig(const Rig& rig) {
  auto fail = [](std::string pointer, std::string message) {
    Location where;
    where.json_pointer = std::move(pointer);
    return make_error("autorig.verify", "generated rig failed its check: " + std::move(message), where);
  };
  if (auto ok = check_bones(rig.bones, "autorig.verify", "/bones"); !ok) return ok;
  if (rig.parts.size() != 1) return fail("", "expected exactly one part");
  const Part& part = rig.parts[0];
  const Mesh& m = part.mesh;
  const std::size_t n = m.verts.size();
  if (n == 0 || n > kMaxVertices) return fail("/mesh/verts", "vertex count " + std::to_string(n) + " out of range");
  if (m.uvs.size() != n) return fail("/mesh/uvs", "uv count differs from the vertex count");
  if (m.tris.empty() || m.tris.size() % 3 != 0 || m.tris.size() > kMaxTriangleIndices) {
    return fail("/mesh/tris", "triangle index count " + std::to_string(m.tris.size()) + " is not a positive multiple of 3");
  }
  for (std::size_t i = 0; i < m.tris.size(); ++i) {
    if (m.tris[i] >= n) return fail("/mesh/tris/" + std::to_string(i), "triangle index out of range");
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (!std::isfinite(m.verts[v].x) || !std::isfinite(m.verts[v].y)) {
      return fail("/mesh/verts/" + std::to_string(v), "vertex is not finite");
    }
    if (!(m.uvs[v].x >= 0 && m.uvs[v].x <= 1 && m.uvs[v].y >= 0 && m.uvs[v].y <= 1)) {
      return fail("/mesh/uvs/" + std::to_string(v), "uv outside [0, 1]");
    }
  }
  if (part.skin_indices.size() != n * kSlotsPerVertex || part.skin_weights.size() != n * kSlotsPerVertex) {
    return fail("/skinIndices", "skin arrays must hold 4 entries per vertex");
  }
  for (std::size_t v = 0; v < n; ++v) {
    double sum = 0;
    for (int k = 0; k < kSlotsPerVertex; ++k) {
      const std::size_t o = v * kSlotsPerVertex + std::size_t(k);
      if (part.skin_indices[o] >= rig.bones.size()) {
        return fail("/skinIndices/" + std::to_string(o), "bone index out of range");
      }
      const double w = part.skin_weights[o];
      if (!std::isfinite(w) || w < 0) return fail("/skinWeights/" + std::to_string(o), "weight not finite or < 0");
      sum += w;
    }
    if (std::fabs(sum - 1) > 1e-6) {
      return fail("/skinWeights/" + std::to_string(v * kSlotsPerVertex), "weights of vertex " + std::to_string(v) +
                                                                              " sum to " + std::to_string(sum));
    }
  }
  return {};
}

}  // namespace rig2d
