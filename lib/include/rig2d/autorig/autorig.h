// SPDX-License-Identifier: Apache-2.0
// Auto-rigging pipelines. build_rig / auto_rig are the engine's buildRig2D / autoRig2D (ENGINE-SPEC
// §3.4), number for number. autorig_image is what rig2d-autorig runs: coverage -> mesh -> bones ->
// weights for one decoded sprite, with every option range-checked. Mesh and weight schemes are picked
// by MeshMode / WeightsMode; each mode is one case of one switch in autorig.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/geometry/grid_mesh.h"
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/image/image.h"
#include "rig2d/rig/rig.h"
#include "rig2d/skeleton/shape_skeleton.h"
#include "rig2d/skeleton/suggest_bones.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/weights/heat_weights.h"
#include "rig2d/weights/joint_weights.h"

namespace rig2d {

inline constexpr double kDefaultCellSize = 48;  // px, the engine's buildRig2D default
inline constexpr int kMaxAutoGridCells = 24;    // cells per side when derived from the cell size

// buildRig2D's inputs. Units: px in texture space (origin at the pivot, +y down).
struct BuildRigOptions {
  std::optional<std::string> id;  // copied verbatim; the rig has no id when unset
  std::string sprite;             // copied verbatim into the v1 `sprite`
  std::vector<Bone> bones;        // re-emitted as {name, parent, x, y, rot} (no_scale dropped)
  double width = 0;               // px
  double height = 0;              // px
  std::optional<double> cols;     // explicit grid columns (not capped); unset: from cell_size
  std::optional<double> rows;     // explicit grid rows; unset: from cell_size
  double cell_size = kDefaultCellSize;  // px; cells = max(1, min(24, round(side / max(1, cell_size))))
  double pivot_x = 0.5;           // fraction of the width
  double pivot_y = 0.5;           // fraction of the height
  UvPredicate is_inside;          // culls grid cells and (auto_rig) confines bones; empty = none
  JointWeightOptions weights;     // default: unbounded inverse-distance, power 2
};

// buildRig2D: grid mesh + nearest-joint weights over the given bones, as a v1 rig (id, sprite, bones,
// mesh, skinIndices, skinWeights). Errors: grid.too_large.
RIG2D_EXPORT Result<Rig> build_rig(const BuildRigOptions& options);

// autoRig2D: suggest_bones(width, height, bone_count, axis, pivots, is_inside), then build_rig with
// those bones (`build.bones` is ignored). Errors: grid.too_large.
struct AutoRigOptions {
  BuildRigOptions build;
  std::optional<double> bone_count;  // clamped to 2..6 by suggest_bones; unset: from the axis length
  BoneAxis axis = BoneAxis::Auto;
};
RIG2D_EXPORT Result<Rig> auto_rig(const AutoRigOptions& options);

// The engine's grid size for one side: max(1, min(24, round(side / max(1, cell_size)))).
RIG2D_EXPORT double grid_cells_for(double side, double cell_size);

enum class MeshMode {
  Grid,     // the engine's generateGridMesh, culled by coverage
  Outline,  // the alpha outline, simplified and tessellated by refined CDT (geometry/outline_mesh.h)
};
enum class WeightsMode {
  Joint,  // the engine's computeAutoWeights (nearest joint)
  Heat,   // shape-aware bone heat (weights/heat_weights.h): distances through the sprite
};

RIG2D_EXPORT std::string_view mesh_mode_name(MeshMode mode);
RIG2D_EXPORT std::string_view mesh_detail_name(MeshDetail detail);  // "low", "medium", "high"
RIG2D_EXPORT std::string_view weights_mode_name(WeightsMode mode);
RIG2D_EXPORT std::string_view skeleton_mode_name(SkeletonMode mode);
// Parses "grid" / "outline" / "joint" / "heat" / "shape" / "chain" (the CLI spellings). nullopt for an
// unknown name.
RIG2D_EXPORT std::optional<MeshMode> parse_mesh_mode(std::string_view name);
RIG2D_EXPORT std::optional<WeightsMode> parse_weights_mode(std::string_view name);
RIG2D_EXPORT std::optional<SkeletonMode> parse_skeleton_mode(std::string_view name);

inline constexpr double kMaxGridCells = 1024;    // cells per side, explicit --cols/--rows
inline constexpr double kMaxFalloff = 16;        // distance exponent

// Everything rig2d-autorig can set. Each field says its unit, default and limit; autorig_image
// rejects out-of-limit values with autorig.options naming the field.
struct AutorigOptions {
  std::optional<std::string> id;  // rig GUID written as `id`; unset = no id
  std::string sprite;             // sprite GUID written as `sprite` (a texture's derived sprite)

  int alpha_threshold = 8;        // [0, 255]: a pixel is covered when alpha > threshold
  bool cull = true;               // drop grid cells with no covered sample (bones still follow coverage)

  MeshMode mesh = MeshMode::Grid;  // the library keeps the engine's scheme; tool_defaults() has outline
  OutlineMeshOptions outline;      // MeshMode::Outline: margin, tolerance, min area, min angle, max edge,
                                   // vertex budget (its threshold and pivot are replaced by the fields here)
  MeshDetail detail = MeshDetail::High;  // MeshMode::Outline: High meshes with `outline` as given (edges
                                   // of at most half a bone); Medium and Low raise its tolerance and
                                   // margin with the sprite (detail_tolerance) and put interior vertices
                                   // only across the bones (bend_points), max_edge then only a cap;
                                   // rig2d-autorig defaults to Medium
  std::optional<double> cols;     // grid columns [1, 1024]; unset: width / cell_size, capped at 24
  std::optional<double> rows;     // grid rows [1, 1024]; unset: height / cell_size, capped at 24
  double cell_size = kDefaultCellSize;  // px (0, 16384]
  double pivot_x = 0.5;           // [0, 1], fraction of the width (0 = left edge)
  double pivot_y = 0.5;           // [0, 1], fraction of the height (0 = top edge)

  std::optional<std::vector<Bone>> bones;  // hand-placed bones (texture space); unset = suggested
  SkeletonMode skeleton = SkeletonMode::Chain;  // how bones are suggested; the library keeps the
                                  // engine's chain, tool_defaults() has the shape skeleton
  ShapeSkeletonOptions shape;     // SkeletonMode::Shape: budget, smallest branch, bone length, bend
                                  // (its threshold and pivot are replaced by the fields here)
  std::optional<SkeletonTemplate> skeleton_template;  // fit this template into the shape instead
                                  // (skeleton/template.h): named bones every rig of it shares
  bool template_auto = false;     // fit every bundled template; the best that fits well wins, else
                                  // the skeleton above (AutorigStats::template_note says which and why)
  bool template_colour_edges = false;  // a template's arms placed over the body are refined from the
                                  // sprite's inner colour edges (TemplateFitOptions::colour_edges)
  std::optional<int> bone_count;  // [2, 6] SkeletonMode::Chain bones; unset = about one per 96 px
  BoneAxis axis = BoneAxis::Auto; // SkeletonMode::Chain direction

  WeightsMode weights = WeightsMode::Heat;
  JointWeightOptions joint;       // falloff (0, 16], radius >= 0 px (0 = unbounded), max_influences 1..4
  HeatWeightsOptions heat;        // max_influences 1..4, min_weight [0, 0.25), smooth_passes 0..100

  bool coverage_stats = true;     // score the mesh against the alpha mask into AutorigStats::coverage
                                  // (and outline.coverage/fit) and measure its angles (outline.min_angle_deg,
                                  // skinny_triangles): statistics only, never in the rig

  // rig2d-autorig's defaults, exactly: what the tool rigs with when given no option (an outline mesh
  // at medium detail, the shape skeleton, heat weights; no coverage statistics, which -v turns on). The tool starts
  // from this preset, so autorig_image(image, AutorigOptions::tool_defaults()) writes the tool's
  // bytes. A default-constructed AutorigOptions keeps the engine's own scheme instead (the grid
  // mesh and the straight chain of buildRig2D / autoRig2D).
  RIG2D_EXPORT static AutorigOptions tool_defaults();
};

// Range checks of every AutorigOptions field (the limits above). Errors: autorig.options naming the
// field; autorig.bones for bad hand-placed bones (see autorig_image).
RIG2D_EXPORT Result<void> check_autorig_options(const AutorigOptions& options);

// What autorig_image did, for `-v` output (times are wall-clock ms; never part of the rig).
struct AutorigStats {
  int image_width = 0, image_height = 0;
  int mask_width = 0, mask_height = 0;
  std::size_t covered_cells = 0;   // mask cells with alpha > threshold
  double cols = 0, rows = 0;       // grid size used
  std::size_t vertices = 0, triangles = 0, bones = 0;
  double coverage_ms = 0, mesh_ms = 0, bones_ms = 0, weights_ms = 0;
  std::vector<Diagnostic> weight_warnings;  // heat weights: how a degenerate piece was handled
                                            // (autorig_file keeps only the notes here, for -v)
  std::vector<Diagnostic> mesh_warnings;    // e.g. autorig.budget.coarsened: the outline was coarsened
                                            // to fit the vertex budget (autorig_file moves them out)
  OutlineMeshStats outline;        // MeshMode::Outline only: contour, simplification, quality, IoU
  ShapeSkeletonStats skeleton;     // SkeletonMode::Shape (suggested bones) only
  std::string template_note;       // a template fit (or `auto`): which, its score, and why
  CoverageScore coverage;          // either mesh vs the alpha mask (pixel centres, alpha > threshold)
  struct BoneVertices {
    std::string bone;
    std::size_t vertices = 0;  // vertices whose largest weight is this bone's
  };
  std::vector<BoneVertices> bone_vertices;  // per bone, in bone order
  OutlineYardstick yardstick;      // either mesh vs the alpha (geometry/outline_mesh.h)
};

// One sprite to a v1 rig: coverage mask (image/coverage.h), mesh by options.mesh, bones (given or
// suggested over the coverage), weights by options.weights. Grid + Joint reproduces auto_rig /
// build_rig with is_inside = the coverage mask. Errors: autorig.options (a field out of its limit),
// autorig.bones (hand-placed bones: empty, over kMaxBones, non-finite, bad parent, cycle, duplicate
// or empty name), autorig.empty (no pixel with alpha > threshold), autorig.mesh.empty (coverage too
// thin for the grid: every cell culled), autorig.budget (the mesh cannot fit options.outline.max_vertices,
// which bounds both mesh schemes; an outline over it is first coarsened, with a warning in
// stats->mesh_warnings), coverage.image, grid.too_large.
RIG2D_EXPORT Result<Rig> autorig_image(const Image& image, const AutorigOptions& options,
                                       AutorigStats* stats = nullptr);

// Structural checks on a generated rig before it is written: one part, counts agree (uvs, 4 slots per
// vertex), every triangle index and bone index in range, finite verts, uvs in [0, 1], weights finite,
// >= 0 and summing to 1 (1e-6), bones non-empty with unique names and valid, acyclic parents.
// Errors: autorig.verify (the first failed check, with its JSON pointer).
RIG2D_EXPORT Result<void> verify_rig(const Rig& rig);

}  // namespace rig2d
