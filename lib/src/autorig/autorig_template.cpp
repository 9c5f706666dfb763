// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig --template NAME|FILE|auto: the template's bones for the pipeline, with the warning
// for a poor fit and, under `auto`, the choice and its reason.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "autorig/autorig_internal.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/skin/skeleton.h"
#include "skeleton/templates/ground.h"

namespace rig2d::detail {
namespace {

std::string score_text(double score) {
  char text[16];
  std::snprintf(text, sizeof text, "%.2f", score);
  return text;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// "humanoid 0.82 (mirrored; over the body: upper_arm_l, ...; left out: tail)"
std::string describe(const TemplateFit& fit) {
  std::string out = fit.template_name + " " + score_text(fit.score) + " (" + std::to_string(fit.tips_matched) + " of " +
                    std::to_string(fit.tips) + " extremities matched" + (fit.mirrored ? ", mirrored" : "");
  if (!fit.over_body.empty()) out += "; over the body: " + join(fit.over_body);
  if (!fit.refined.empty()) out += "; refined from colour edges: " + join(fit.refined);
  if (!fit.forced.empty()) out += "; forced: " + join(fit.forced);
  if (!fit.omitted.empty()) out += "; left out: " + join(fit.omitted);
  return out + ")";
}

TemplateFitOptions fit_options(const AutorigOptions& o) {
  TemplateFitOptions f;
  f.alpha_threshold = o.alpha_threshold;
  f.pivot_x = o.pivot_x;
  f.pivot_y = o.pivot_y;
  f.skip_drop_shadow = o.shape.skip_drop_shadow;
  f.min_branch = o.shape.min_branch;
  f.branch_ratio = o.shape.branch_ratio;
  f.colour_edges = o.template_colour_edges;
  return f;
}

// The bundled templates, read once (they are built into the library).
const Result<std::vector<SkeletonTemplate>>& bundled_templates() {
  static const Result<std::vector<SkeletonTemplate>> all = []() -> Result<std::vector<SkeletonTemplate>> {
    std::vector<SkeletonTemplate> out;
    for (const std::string& name : bundled_template_names()) {
      auto tmpl = bundled_template(name);
      if (!tmpl) return Unexpected{tmpl.error()};
      out.push_back(std::move(*tmpl));
    }
    return out;
  }();
  return all;
}

// One flag per bone of the fit: placed over the body.
std::vector<std::uint8_t> over_body_flags(const TemplateFit& fit) {
  std::vector<std::uint8_t> flags(fit.bones.size(), 0);
  for (std::size_t b = 0; b < fit.bones.size(); ++b)
    for (const std::string& name : fit.over_body) flags[b] = flags[b] || fit.bones[b].name == name;
  return flags;
}

// A leg hangs down: its end lies within this many degrees of straight down from its first joint.
constexpr double kLegSpread = 45;
// The two legs of a pair end at least this share of a leg's length apart (ankle to ankle), so a fit
// that put both legs of a pair on one drawn leg (a side view) is never cut down that leg's middle.
constexpr double kLegApart = 0.15;

// Per fitted bone: 1 for `root` and every bone below it.
std::vector<std::uint8_t> chain_flags(const std::vector<Bone>& bones, std::size_t root) {
  std::vector<std::uint8_t> in(bones.size(), 0);
  in[root] = 1;
  for (std::size_t b = root + 1; b < bones.size(); ++b) {  // parents come first
    const std::int64_t p = bones[b].parent;
    if (p >= 0 && static_cast<std::size_t>(p) < b && in[static_cast<std::size_t>(p)]) in[b] = 1;
  }
  return in;
}

// The chain's length (root's joint to its deepest joint) and that deepest joint.
std::pair<double, Vec2> chain_end(const std::vector<Bone>& bones, const std::vector<Vec2>& joints,
                                  const std::vector<std::uint8_t>& in, std::size_t root) {
  std::vector<double> depth(bones.size(), 0);
  std::pair<double, Vec2> end{0, joints[root]};
  for (std::size_t b = root + 1; b < bones.size(); ++b) {
    if (!in[b]) continue;
    const auto p = static_cast<std::size_t>(bones[b].parent);
    depth[b] = depth[p] + std::hypot(joints[b].x - joints[p].x, joints[b].y - joints[p].y);
    if (depth[b] > end.first) end = {depth[b], joints[b]};
  }
  return end;
}

// The template's left/right pairs of legs in the fit: paired bones with one parent, neither over
// the body, whose chains hang down and end apart.
std::vector<LegPair> leg_pairs(const SkeletonTemplate& tmpl, const TemplateFit& fit) {
  std::vector<LegPair> out;
  auto fitted = [&](std::size_t t) -> std::int64_t {
    for (std::size_t b = 0; b < fit.from.size() && b < fit.bones.size(); ++b)
      if (fit.from[b] == t) return static_cast<std::int64_t>(b);
    return -1;
  };
  auto hangs_down = [](Vec2 from, Vec2 to) {
    const double dx = to.x - from.x, dy = to.y - from.y;  // +y is down
    return dy > 0 && std::atan2(std::abs(dx), dy) <= kLegSpread * std::numbers::pi / 180;
  };
  const std::vector<Vec2> joints = joint_positions(fit.bones);
  for (const auto& [ta, tb] : tmpl.symmetry) {
    if (ta >= tmpl.bones.size() || tb >= tmpl.bones.size()) continue;
    const TemplateBone& a = tmpl.bones[ta];
    const TemplateBone& b = tmpl.bones[tb];
    if (a.parent < 0 || a.parent != b.parent || a.over_body || b.over_body) continue;
    const std::int64_t fa = fitted(ta), fb = fitted(tb);
    if (fa < 0 || fb < 0) continue;
    LegPair pair{chain_flags(fit.bones, static_cast<std::size_t>(fa)),
                 chain_flags(fit.bones, static_cast<std::size_t>(fb))};
    const auto [la, ea] = chain_end(fit.bones, joints, pair.left, static_cast<std::size_t>(fa));
    const auto [lb, eb] = chain_end(fit.bones, joints, pair.right, static_cast<std::size_t>(fb));
    if (!hangs_down(joints[static_cast<std::size_t>(fa)], ea) || !hangs_down(joints[static_cast<std::size_t>(fb)], eb) ||
        std::hypot(ea.x - eb.x, ea.y - eb.y) < kLegApart * std::max(la, lb))
      continue;
    out.push_back(std::move(pair));
  }
  return out;
}

const SkeletonTemplate* find_template(const std::vector<SkeletonTemplate>& all, const std::string& name) {
  for (const SkeletonTemplate& t : all)
    if (t.name == name) return &t;
  return nullptr;
}

// The fit without the template's ground bone, which is taken out into `ground` (relative to the rig
// origin): the pipeline meshes and weights the figure's own bones, and the ground bone is put back
// once the rig is made (add_ground_bone).
TemplateFit without_ground(TemplateFit fit, std::optional<Bone>* ground) {
  if (fit.from.empty() || fit.from.front() != kTemplateGround || fit.bones.empty()) return fit;
  fit.from.erase(fit.from.begin());
  Bone stand = step_off(fit.bones);
  if (ground) *ground = std::move(stand);
  return fit;
}

}  // namespace

Result<std::vector<Bone>> template_bones(const Image& image, const AutorigOptions& o, AutorigStats& st,
                                         std::vector<std::uint8_t>* over_body, std::vector<LegPair>* legs,
                                         std::optional<Bone>* ground) {
  const TemplateFitOptions f = fit_options(o);
  if (o.skeleton_template) {
    auto fitted = fit_template(image, *o.skeleton_template, f);
    if (!fitted) return Unexpected{fitted.error()};
    std::optional<TemplateFit> fit = without_ground(std::move(*fitted), ground);
    st.template_note = "template " + describe(*fit);
    if (fit->score < kTemplateFitFloor) {
      Diagnostic d;
      d.severity = Severity::Warning;
      d.code = "autorig.template.poor_fit";
      d.message = "the sprite fits template \"" + fit->template_name + "\" poorly (score " + score_text(fit->score) +
                  " < " + score_text(kTemplateFitFloor) + ")" +
                  (fit->forced.empty() ? std::string() : "; placed from the proportions alone: " + join(fit->forced)) +
                  "; check the bones (rig2d-pose --overlay bones) or try --template auto";
      st.mesh_warnings.push_back(std::move(d));
    }
    if (over_body) *over_body = over_body_flags(*fit);
    if (legs) *legs = leg_pairs(*o.skeleton_template, *fit);
    return std::move(fit->bones);
  }
  const auto& all = bundled_templates();
  if (!all) return Unexpected{all.error()};
  auto chosen = fit_template_auto(image, *all, f);
  if (!chosen) return Unexpected{chosen.error()};
  const std::optional<TemplateFit>& best = chosen->best;
  std::string scores;
  for (const auto& [name, score] : chosen->scores) scores += (scores.empty() ? "" : ", ") + name + " " + score_text(score);
  if (!chosen->skipped.empty()) scores += "; ruled out at a glance: " + join(chosen->skipped);
  for (const auto& [name, why] : chosen->rejected) scores += "; not " + name + ": " + why;
  if (!best || best->score < kTemplateFitFloor) {
    st.template_note = std::string("auto: the shape skeleton, as no template fits well") +
                       (chosen->rejected.empty() ? "" : " and has its kind's parts") + " (" + scores + ")";
    return std::vector<Bone>{};
  }
  st.template_note = "auto: template " + describe(*best) + ", the first to fit well of " + scores;
  TemplateFit fit = without_ground(*best, ground);
  if (over_body) *over_body = over_body_flags(fit);
  if (const SkeletonTemplate* tmpl = find_template(*all, fit.template_name); legs && tmpl) *legs = leg_pairs(*tmpl, fit);
  return std::move(fit.bones);
}

void add_ground_bone(Rig& rig, const Bone& ground) {
  stand_on(rig.bones, ground);
  for (Part& part : rig.parts)
    for (std::uint32_t& index : part.skin_indices) ++index;
}

}  // namespace rig2d::detail
