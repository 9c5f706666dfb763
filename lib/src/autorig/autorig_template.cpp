// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig --template NAME|FILE|auto: the template's bones for the pipeline, with the warning
// for a poor fit and, under `auto`, the choice and its reason.
#include <cstdio>
#include <string>

#include "autorig/autorig_internal.h"
#include "rig2d/skeleton/template.h"

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

}  // namespace

Result<std::vector<Bone>> template_bones(const Image& image, const AutorigOptions& o, AutorigStats& st,
                                         std::vector<std::uint8_t>* over_body) {
  const TemplateFitOptions f = fit_options(o);
  if (o.skeleton_template) {
    auto fit = fit_template(image, *o.skeleton_template, f);
    if (!fit) return Unexpected{fit.error()};
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
  if (!best || best->score < kTemplateFitFloor) {
    st.template_note = "auto: the shape skeleton, as no template fits well (" + scores + ")";
    return std::vector<Bone>{};
  }
  st.template_note = "auto: template " + describe(*best) + ", the first to fit well of " + scores;
  if (over_body) *over_body = over_body_flags(*best);
  return best->bones;
}

}  // namespace rig2d::detail
