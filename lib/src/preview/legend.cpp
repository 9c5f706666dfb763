// SPDX-License-Identifier: Apache-2.0
#include "rig2d/preview/legend.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "rig2d/preview/pose.h"
#include "rig2d/raster/draw.h"
#include "rig2d/raster/font.h"

namespace rig2d {
namespace {

constexpr int kBarHeight = 14;
constexpr int kTickLength = 4;
constexpr int kSwatch = 12;
// Narrower legends cannot hold their tick labels / a typical bone name; the panel is widened.
constexpr int kMinWidth = 180;

std::string bone_label(const Rig& rig, std::uint32_t b) {
  return b < rig.bones.size() ? rig.bones[b].name : "#" + std::to_string(b);
}

}  // namespace

Result<Image> weight_legend(std::string_view bone_name, Ramp ramp, int width, const LegendStyle& s) {
  const FontMetrics m = label_metrics(s.font_size);
  const int w = std::max(width, kMinWidth);
  const int bar_top = s.padding + m.height + s.padding / 2;
  const int h = bar_top + kBarHeight + kTickLength + m.height + s.padding;
  auto canvas = make_canvas(w, h, s.background);
  if (!canvas) return Unexpected{canvas.error()};
  const std::string title = elide_label("weight of " + std::string(bone_name), s.font_size, w - 2.0 * s.padding);
  draw_label(*canvas, s.padding, s.padding + m.ascent, title, s.font_size, s.text);
  // The bar: one column per pixel, coloured at the column centre's weight.
  const int x0 = s.padding + 8, x1 = w - s.padding - 8;  // room for the end labels' halves
  for (int x = x0; x < x1; ++x) {
    const double t = x1 - x0 > 1 ? (x + 0.5 - x0) / (x1 - x0) : 0;
    fill_rect(*canvas, x, bar_top, x + 1, bar_top + kBarHeight, ramp_color(ramp, t));
  }
  static constexpr const char* kTicks[] = {"0", "0.25", "0.5", "0.75", "1"};
  for (int k = 0; k < 5; ++k) {
    const double x = x0 + (x1 - x0) * k / 4.0;
    const double tx = std::clamp(x, x0 + 0.5, x1 - 0.5);
    fill_rect(*canvas, tx - 0.5, bar_top + kBarHeight, tx + 0.5, bar_top + kBarHeight + kTickLength, s.text);
    const double lw = label_advance(kTicks[k], s.font_size);
    draw_label(*canvas, std::round(x - lw / 2), bar_top + kBarHeight + kTickLength + m.ascent, kTicks[k], s.font_size,
               s.text);
  }
  return canvas_to_image(*canvas);
}

Result<Image> bone_legend(const Rig& rig, std::span<const std::uint32_t> bones, int width, const LegendStyle& s) {
  const FontMetrics m = label_metrics(s.font_size);
  const int w = std::max(width, kMinWidth);
  const int line = std::max(m.height, kSwatch) + s.padding / 2;
  const double max_name = w - 2.0 * s.padding - kSwatch - 4;
  // Layout first (positions of every entry), then draw on a canvas of the right height.
  struct Entry {
    int x, row;
    std::string name;
    std::uint32_t bone;
  };
  std::vector<Entry> entries;
  int x = s.padding, row = 0;
  for (const std::uint32_t b : bones) {
    std::string name = elide_label(bone_label(rig, b), s.font_size, max_name);
    const int item = kSwatch + 4 + static_cast<int>(std::ceil(label_advance(name, s.font_size)));
    if (x > s.padding && x + item > w - s.padding) {
      x = s.padding;
      ++row;
    }
    entries.push_back({x, row, std::move(name), b});
    x += item + std::max(10, 2 * s.padding);
  }
  const int rows = entries.empty() ? 1 : row + 1;
  auto canvas = make_canvas(w, 2 * s.padding + rows * line, s.background);
  if (!canvas) return Unexpected{canvas.error()};
  for (const Entry& e : entries) {
    const int top = s.padding + e.row * line;
    const int sy = top + (line - kSwatch) / 2;
    fill_rect(*canvas, e.x, sy, e.x + kSwatch, sy + kSwatch, bone_color(e.bone));
    const int baseline = top + (line - m.height) / 2 + m.ascent;
    draw_label(*canvas, e.x + kSwatch + 4, baseline, e.name, s.font_size, s.text);
  }
  if (entries.empty()) draw_label(*canvas, s.padding, s.padding + m.ascent, "no bones", s.font_size, s.text);
  return canvas_to_image(*canvas);
}

std::vector<std::uint32_t> dominant_bones_shown(const Rig& rig) {
  std::set<std::uint32_t> shown;
  for (const Part& part : rig.parts) {
    if (!part.visible.value_or(true)) continue;
    const std::vector<std::uint32_t> field = dominant_bone_field(part);
    for (const std::uint32_t v : part.mesh.tris) {  // every corner paints its region of a triangle
      if (v < field.size()) shown.insert(field[v]);
    }
  }
  return {shown.begin(), shown.end()};
}

Result<Image> stack_below(const Image& top, const Image& bottom, Paint background) {
  auto canvas = make_canvas(std::max(top.width, bottom.width), top.height + bottom.height, background);
  if (!canvas) return Unexpected{canvas.error()};
  draw_image(*canvas, top, 0, 0);
  draw_image(*canvas, bottom, 0, top.height);
  return canvas_to_image(*canvas);
}

}  // namespace rig2d
