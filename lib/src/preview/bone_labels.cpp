// SPDX-License-Identifier: Apache-2.0
#include "preview/bone_labels.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "rig2d/raster/draw.h"
#include "rig2d/raster/font.h"

namespace rig2d::detail {
namespace {

constexpr double kLabelSize = 11;       // px, the contact sheet's caption size
constexpr double kPadding = 2;          // px of box around the text
constexpr double kGap = 3;              // px between a joint's disc and its label
constexpr double kMaxLabelWidth = 160;  // px of text; longer names are elided
constexpr Paint kLabelBox{16, 16, 20, 0.72};
constexpr Paint kLabelText{240, 240, 240, 1};

// 0 for a box not placed (its corners are all 0).
double overlap_area(const LabelBox& a, const LabelBox& b) {
  const double w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0), h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

bool covers_disc(const LabelBox& box, Vec2 c, double r) {
  const double dx = std::max({box.x0 - c.x, 0.0, c.x - box.x1});
  const double dy = std::max({box.y0 - c.y, 0.0, c.y - box.y1});
  return dx * dx + dy * dy < r * r;
}

// The eight places around a joint, in order of preference: beside it first (a name reads on the
// line of its joint), then above and below, then the corners.
std::vector<LabelBox> candidates(Vec2 joint, Vec2 size, double offset) {
  const double w = size.x, h = size.y, x = joint.x, y = joint.y;
  const double d = offset / std::numbers::sqrt2;  // the corners keep the same clearance
  const Vec2 places[8] = {{x + offset, y - h / 2}, {x - offset - w, y - h / 2}, {x - w / 2, y - offset - h},
                           {x - w / 2, y + offset}, {x + d, y - d - h},          {x + d, y + d},
                           {x - d - w, y - d - h},  {x - d - w, y + d}};
  std::vector<LabelBox> out;
  for (const Vec2 c : places) {
    // Whole pixels: the text's baseline snaps to one anyway, and the box then matches it.
    const double x0 = std::round(c.x), y0 = std::round(c.y);
    out.push_back({x0, y0, x0 + w, y0 + h, true});
  }
  return out;
}

}  // namespace

std::vector<LabelBox> place_joint_labels(std::span<const Vec2> joints, std::span<const Vec2> sizes, double joint_radius,
                                         double gap, int width, int height) {
  std::vector<LabelBox> placed(joints.size());
  const auto finite = [](Vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y); };
  const auto on_canvas = [&](const LabelBox& b) { return b.x0 >= 0 && b.y0 >= 0 && b.x1 <= width && b.y1 <= height; };
  for (std::size_t i = 0; i < joints.size() && i < sizes.size(); ++i) {
    if (!finite(joints[i])) continue;
    // What a place costs: the area it shares with the labels placed so far, plus a whole label's
    // area for every other joint it hides. The first free place wins; in a crowd, the least bad one.
    const auto cost = [&](const LabelBox& b) {
      double c = 0;
      for (std::size_t k = 0; k < i; ++k) c += overlap_area(b, placed[k]);
      for (std::size_t k = 0; k < joints.size(); ++k)
        if (k != i && finite(joints[k]) && covers_disc(b, joints[k], joint_radius)) c += (b.x1 - b.x0) * (b.y1 - b.y0);
      return c;
    };
    const std::vector<LabelBox> options = candidates(joints[i], sizes[i], joint_radius + gap);
    placed[i] = options.front();  // when no place stays on the canvas: clipped on the right
    double best = -1;
    for (const LabelBox& b : options) {
      if (!on_canvas(b)) continue;
      const double c = cost(b);
      if (best < 0 || c < best) placed[i] = b, best = c;
      if (c == 0) break;
    }
  }
  return placed;
}

void draw_joint_labels(Canvas& canvas, std::span<const Vec2> joints, std::span<const std::string> names,
                       double joint_radius) {
  const FontMetrics m = label_metrics(kLabelSize);
  std::vector<std::string> text;
  std::vector<Vec2> sizes;
  for (std::size_t i = 0; i < joints.size() && i < names.size(); ++i) {
    text.push_back(elide_label(names[i], kLabelSize, kMaxLabelWidth));
    sizes.push_back({std::ceil(label_advance(text.back(), kLabelSize)) + 2 * kPadding, m.height + 2 * kPadding});
  }
  const std::vector<LabelBox> boxes =
      place_joint_labels(joints.first(text.size()), sizes, joint_radius, kGap, canvas.width, canvas.height);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const LabelBox& b = boxes[i];
    if (!b.placed) continue;
    fill_rect(canvas, b.x0, b.y0, b.x1, b.y1, kLabelBox);
    draw_label(canvas, b.x0 + kPadding, b.y0 + kPadding + m.ascent, text[i], kLabelSize, kLabelText);
  }
}

}  // namespace rig2d::detail
