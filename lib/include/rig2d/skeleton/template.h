// SPDX-License-Identifier: Apache-2.0
// Skeleton templates: one named skeleton for every character of a kind (a humanoid, a quadruped, a
// tree), so every rig made from it has the same bone names and clips carry across rigs. A template
// is a `*.rig2d-template.json` file (schemas/rig2d-template.schema.json); seven are bundled. See
// docs/templates.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

inline constexpr std::size_t kMaxTemplateBones = 256;

// A closed interval; a single number in the file is {v, v}.
struct TemplateRange {
  double min = 0;
  double max = 0;
  friend bool operator==(const TemplateRange&, const TemplateRange&) = default;
};

// What the template's lengths are fractions of.
enum class TemplateMeasure {
  Height,  // the figure's height (alpha bounding box): characters standing up
  Width,   // its width: fish, snakes lying along the ground
  Long,    // its longer side: props
};

struct TemplateBone {
  std::string name;             // the rig's bone name: anatomical, the same in every rig of the template
  std::int64_t parent = -1;     // index into SkeletonTemplate::bones (parents come first), -1 = the root
  TemplateRange length;         // parent joint -> this joint, fraction of the figure measure; root: unused
  TemplateRange direction;      // degrees of that link in image space (0 = +x, screen right; 90 = +y,
                                // down; -90 = up), as drawn facing the viewer; max - min <= 360
  double rest = 0;              // degrees: where the link points at rest (an arm hanging down), within
                                // `direction`; the file's "rest", else the range's middle
  bool optional = false;        // left out when the sprite has no such part (a tail, wings)
  bool over_body = false;       // may lie over the rest of the figure (arms held against the torso):
                                // placed from the proportions where the silhouette shows no limb
  bool tip = false;             // ends at an extremity of the shape (a foot, a hand, the head's top; a
                                // tree's root at the trunk's foot)
  TemplateRange extent;         // a tip leaf: how far the part reaches past its joint (the foot past the
                                // ankle), fraction of the figure measure
  bool narrow = false;          // the joint sits where the shape is narrowest near its place along the
                                // limb (a neck, a waist, a wrist)
  bool spot = false;            // an optional leaf at a small dark spot drawn inside its parent's part,
                                // found as a level, mirrored pair with its symmetry partner (the eyes in
                                // a face); left out when the art shows no such pair
  friend bool operator==(const TemplateBone&, const TemplateBone&) = default;
};

struct SkeletonTemplate {
  std::string name;             // "humanoid"
  std::string description;
  TemplateMeasure measure = TemplateMeasure::Height;
  TemplateRange root_x{0.5, 0.5};  // the root joint: fraction of the figure's bounding box, 0 = left
  TemplateRange root_y{0.5, 0.5};  // 0 = top
  std::string ground;            // when not empty, a fit puts a bone of this name where the figure
                                 // stands (the covered pixel nearest the bottom of the shape under
                                 // the root joint) as the root's parent: the character is placed by
                                 // its feet, as in Spine's and most engines' rigs. rig2d-autorig gives
                                 // it no skin weight
  std::vector<TemplateBone> bones;  // parents first; exactly one root
  std::vector<std::pair<std::size_t, std::size_t>> symmetry;  // left/right pairs (indices into bones)
  friend bool operator==(const SkeletonTemplate&, const SkeletonTemplate&) = default;
};

// Reads a template file. Parents may be named in any order; the bones come back parents first, in
// file order otherwise. Errors (each with the file, the JSON pointer and line:col): json.syntax /
// json.too_deep / json.range, template.root (not an object), template.key (an unknown key: the file is
// rejected rather than half understood), template.type (a value of the wrong type), template.name (a
// missing, empty or malformed name), template.bone.name (empty, not [A-Za-z0-9_.-], or a duplicate),
// template.bone.parent (names no bone), template.bone.cycle (a bone is its own ancestor),
// template.bone.root (no root or more than one), template.bone.length (negative, not finite, or
// min > max), template.bone.direction (not finite, min > max or wider than 360), template.symmetry (a
// pair naming a missing bone, a bone paired with itself or in two pairs, or a pair of a root),
// template.bone.spot (a spot bone that is the root, a tip or not optional), template.ground (not a
// good name, or a bone's).
RIG2D_EXPORT Result<SkeletonTemplate> read_skeleton_template(std::string_view text, const std::string& path);
// read_file + read_skeleton_template. Errors: io.* as read_file, then as above.
RIG2D_EXPORT Result<SkeletonTemplate> load_skeleton_template(const std::string& path);

// The templates built into the library (the same files are installed under share/rig2d/templates/),
// in a fixed order: humanoid, quadruped, bird, fish, snake, tree, prop.
RIG2D_EXPORT std::vector<std::string> bundled_template_names();
// A bundled template by name. Errors: template.unknown (no such bundled template; the message lists them).
RIG2D_EXPORT Result<SkeletonTemplate> bundled_template(std::string_view name);
// The bundled template file's text ("" for an unknown name), for `--list-templates` and installing.
RIG2D_EXPORT std::string_view bundled_template_text(std::string_view name);

// `spec` is a bundled template's name when it has no '/', '\\' or '.', else a template file's path.
RIG2D_EXPORT Result<SkeletonTemplate> resolve_skeleton_template(const std::string& spec);

struct TemplateFitOptions {
  int alpha_threshold = 8;       // a pixel is inside when alpha > threshold. [Limit: 0..255]
  double pivot_x = 0.5;          // rig origin, fraction of the image width. [Limit: 0..1]
  double pivot_y = 0.5;
  bool skip_drop_shadow = true;  // as ShapeSkeletonOptions
  double min_branch = 4;         // px: the medial axis's spurs, as ShapeSkeletonOptions. [Limit: 0..1e6]
  double branch_ratio = 0.5;     // [Limit: 0..10]
  bool colour_edges = false;     // refine limbs placed over the body (arms held against the torso) from
                                 // the sprite's inner colour edges, where they clearly show the limb, in a fit
                                 // `auto` would take (opt-in: it costs about as much again; docs/templates.md)
};

// TemplateFit::from of the template's ground bone (SkeletonTemplate::ground), which is no entry of
// SkeletonTemplate::bones.
inline constexpr std::size_t kTemplateGround = static_cast<std::size_t>(-1);

// How well a template fits a sprite, and what it took.
struct TemplateFit {
  std::string template_name;
  std::vector<Bone> bones;              // texture space (origin at the pivot, px), parents first, the
                                        // template's names in its order; optional bones left out. The
                                        // template's ground bone, when it has one, comes first
  std::vector<std::size_t> from;        // per bone: its index in the template (kTemplateGround for the
                                        // ground bone)
  double score = 0;                     // 0..1: extremities explained both ways, links within their
                                        // ranges, links inside the shape
  bool mirrored = false;                // fitted facing the other way (directions mirrored left-right)
  std::size_t tips = 0;                 // extremities of the shape (tips of its medial axis)
  std::size_t tips_matched = 0;         // ... matched to a template tip
  std::vector<std::string> forced;      // required bones the shape showed nothing of, placed from the
                                        // proportions alone (arms held over the body are not counted)
  std::vector<std::string> over_body;   // placed over the body from the proportions
  std::vector<std::string> refined;     // ... of those, moved onto the limb the sprite's inner colour
                                        // edges draw (a sleeve and a hand against the shirt)
  std::vector<std::string> omitted;     // optional bones the sprite lacks
};

// Fits `tmpl` into the sprite's shape: the medial axis's extremities are matched to the template's
// tips by where the proportions put them; branching bones go to the axis point joining their limbs
// (the tree median), the bones between along the axis path at their proportional place (narrow ones
// where the shape is narrowest nearby); limbs the silhouette does not show are placed from the
// proportions (over the body, or forced), and limbs over the body are then moved onto the tube of
// colour edges that draws them where the sprite shows one clearly (`refined`; docs/templates.md).
// Tried as drawn and mirrored; the better fit wins. A template with a ground bone gets it first,
// where the figure stands (SkeletonTemplate::ground). Every joint lies on an opaque pixel. Deterministic. Errors: skeleton.options, skeleton.empty,
// coverage.image.
RIG2D_EXPORT Result<TemplateFit> fit_template(const Image& image, const SkeletonTemplate& tmpl,
                                              const TemplateFitOptions& options = {});

// `auto`: the template chosen for one sprite, and what was tried.
struct TemplateAutoFit {
  std::optional<TemplateFit> best;                     // the chosen fit; under kTemplateFitFloor when none
                                                       // fits well (empty only when none was fitted)
  std::vector<std::pair<std::string, double>> scores;  // each template fitted, in the order tried
  std::vector<std::string> skipped;                    // ruled out by the cheap look, never fitted
  std::vector<std::pair<std::string, std::string>> rejected;  // fitted well, yet the shape lacks the
                                                       // kind's parts: each template and why not
};

// Chooses a template for a sprite, measuring its shape once. A cheap look first: a template measured
// by the height needs a figure at least as tall as wide (by the width: as wide as tall), and its
// required extremities (tips neither optional nor over the body) must all be found where its
// proportions expect them (as drawn or mirrored), paired ones (feet) at ends of the shape's medial
// axis and at most one inside it (a round head); other templates are skipped unfitted. The rest are
// fitted in list order and the first scoring kTemplateFitFloor whose shape has the parts of its kind
// wins, so list the common kinds first. The second look, at a fit that scores well: no required bone
// placed from the proportions alone; a head at least 0.3 of the body's width (not an ear or a horn);
// paired feet at ends of the shape; a fish's tail narrowing behind its body and fanning out into a
// fin; a quadruped's legs at least a body depth apart; a snake three times as long as wide; a tree's
// trunk narrower than its crown; a rigid prop only for a shape without extremities. A fit failing it is `rejected`. When none is
// taken, `best` is the best fit below the floor (empty when every fit was rejected or none was
// fitted), and the caller keeps the shape skeleton. Errors as fit_template.
RIG2D_EXPORT Result<TemplateAutoFit> fit_template_auto(const Image& image, const std::vector<SkeletonTemplate>& templates,
                                                       const TemplateFitOptions& options = {});

// A fit scoring below this has `autorig.template.poor_fit`; under `auto` the shape skeleton is kept.
inline constexpr double kTemplateFitFloor = 0.6;

}  // namespace rig2d
