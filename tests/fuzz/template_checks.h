// SPDX-License-Identifier: Apache-2.0
// What fuzz_template and fuzz_inputs check of a template fit: what fit_template promises (the
// template's bones in its order, parents first, its names, after its ground bone; a score within 0..1; every joint finite
// and on a covered pixel, after the rig's parent offsets are summed back).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "rig2d/image/image.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d::fuzz {

inline bool covered(const Image& image, int threshold, double x, double y) {
  if (!(x >= 0 && y >= 0 && x < image.width && y < image.height)) return false;
  const auto at = static_cast<std::size_t>(std::floor(y)) * static_cast<std::size_t>(image.width) +
                  static_cast<std::size_t>(std::floor(x));
  return image.rgba[4 * at + 3] > threshold;
}

inline void check_fit(const TemplateFit& fit, const SkeletonTemplate& tmpl, const Image& image,
                      const TemplateFitOptions& o) {
  if (fit.template_name != tmpl.name || fit.bones.size() != fit.from.size() || fit.bones.empty()) std::abort();
  if (!(fit.score >= 0 && fit.score <= 1)) std::abort();
  // The template's ground bone first, when it has one: the root, where the figure stands.
  const std::size_t first = tmpl.ground.empty() ? 0 : 1;
  if (first == 1 && (fit.from[0] != kTemplateGround || fit.bones[0].name != tmpl.ground || fit.bones[0].parent != -1 ||
                     fit.bones.size() < 2))
    std::abort();
  for (std::size_t i = first; i < fit.bones.size(); ++i) {
    if (fit.from[i] >= tmpl.bones.size() || (i > first && fit.from[i] <= fit.from[i - 1])) std::abort();
    if (fit.bones[i].name != tmpl.bones[fit.from[i]].name) std::abort();
    if (fit.bones[i].parent >= static_cast<std::int64_t>(i) || (i > 0 && fit.bones[i].parent < 0)) std::abort();
  }
  const std::vector<Vec2> joints = joint_positions(fit.bones);
  for (const Vec2& j : joints) {
    const double x = j.x + o.pivot_x * image.width, y = j.y + o.pivot_y * image.height;
    if (!std::isfinite(x) || !std::isfinite(y) || !covered(image, o.alpha_threshold, x, y)) std::abort();
  }
}

}  // namespace rig2d::fuzz
