// SPDX-License-Identifier: Apache-2.0
// The label font: DejaVu Sans through stb_truetype. An underscore really draws (the old 3x5 font
// had none), edges are antialiased, measuring agrees with drawing, and the bytes repeat exactly.
#include <catch2/catch.hpp>

#include <cmath>

#include "rig2d/raster/canvas.h"
#include "rig2d/raster/draw.h"
#include "rig2d/raster/font.h"

using namespace rig2d;

namespace {

constexpr double kSize = 20;
constexpr double kPenX = 4;
constexpr int kBaseline = 26;

Canvas label_canvas(std::string_view text) {
  auto c = make_canvas(160, 36, {0, 0, 0, 0});
  REQUIRE(c);
  draw_label(*c, kPenX, kBaseline, text, kSize, {255, 255, 255, 1});
  return std::move(*c);
}

int alpha_at(const Canvas& c, int x, int y) {
  return c.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(c.width) + static_cast<std::size_t>(x)) + 3];
}

// Columns strictly inside the pen span of the character after `before` in `text`.
struct Span {
  int first, last;
};
Span glyph_span(std::string_view before, std::string_view through) {
  const double a = kPenX + label_advance(before, kSize), b = kPenX + label_advance(through, kSize);
  return {static_cast<int>(std::ceil(a)) + 1, static_cast<int>(std::floor(b)) - 2};
}

// The lowest row below the baseline in which every column of `span` carries ink (alpha >= 128), or -1.
int solid_row_below_baseline(const Canvas& c, Span span) {
  const FontMetrics m = label_metrics(kSize);
  for (int y = kBaseline; y <= kBaseline + m.descent && y < c.height; ++y) {
    bool solid = span.last >= span.first;
    for (int x = span.first; x <= span.last; ++x) solid = solid && alpha_at(c, x, y) >= 128;
    if (solid) return y;
  }
  return -1;
}

}  // namespace

TEST_CASE("font: figure_01 has an underscore between the glyph boxes, below the baseline", "[raster][font]") {
  const Canvas with = label_canvas("figure_01");
  const Span underscore = glyph_span("figure", "figure_");
  REQUIRE(underscore.last - underscore.first >= 4);  // DejaVu's '_' is about 10 px wide at 20 px
  const int row = solid_row_below_baseline(with, underscore);
  CHECK(row >= kBaseline);
  CHECK(row <= kBaseline + label_metrics(kSize).descent);
  // The same text with a space there has no ink in that box at all.
  const Canvas without = label_canvas("figure 01");
  int ink = 0;
  for (int y = kBaseline; y < with.height; ++y) {
    for (int x = underscore.first; x <= underscore.last; ++x) ink += alpha_at(without, x, y);
  }
  CHECK(ink == 0);
  // The digits after it are drawn where the layout put them (ink inside the "01" span).
  const Span digits = glyph_span("figure_", "figure_01");
  int digit_ink = 0;
  for (int y = 0; y < kBaseline; ++y) {
    for (int x = digits.first; x <= digits.last; ++x) digit_ink += alpha_at(with, x, y) > 0;
  }
  CHECK(digit_ink > 20);
}

TEST_CASE("font: labels are antialiased and byte-identical across draws", "[raster][font]") {
  const Canvas a = label_canvas("figure_01 (hero.rig2d.json)");
  const Canvas b = label_canvas("figure_01 (hero.rig2d.json)");
  CHECK(a.rgba == b.rgba);
  int partial = 0, full = 0;
  for (std::size_t i = 3; i < a.rgba.size(); i += 4) {
    partial += a.rgba[i] > 0 && a.rgba[i] < 255;
    full += a.rgba[i] == 255;
  }
  CHECK(partial > 50);  // grey edge pixels: coverage, not a bitmap font
  CHECK(full > 50);
}

TEST_CASE("font: metrics, advances and elision", "[raster][font]") {
  const FontMetrics m = label_metrics(kSize);
  // ascent + descent is the pixel height, each rounded up on its own.
  CHECK(m.height >= 20);
  CHECK(m.height <= 21);
  CHECK(m.ascent > 3 * m.descent);
  CHECK(label_metrics(0).height == 0);
  CHECK(label_metrics(1e6).height == 0);
  CHECK(label_advance("", kSize) == 0);
  CHECK(label_advance("figure_01", kSize) > label_advance("figure01", kSize));
  // Doubling the size doubles the advance (kerning and widths scale together), to float precision.
  CHECK(label_advance("Wavy", 2 * kSize) == Approx(2 * label_advance("Wavy", kSize)).epsilon(1e-5));
  // Malformed UTF-8 and controls draw the replacement character instead of vanishing.
  CHECK(label_advance("\xff", kSize) == Approx(label_advance("\xEF\xBF\xBD", kSize)));
  CHECK(label_advance("\x01", kSize) == Approx(label_advance("\xEF\xBF\xBD", kSize)));
  CHECK(label_advance("\xE2\x82", kSize) == Approx(2 * label_advance("\xEF\xBF\xBD", kSize)));  // truncated
  const std::string long_name = "a_really_long_file_name.rig2d.json";
  const std::string cut = elide_label(long_name, kSize, 100);
  CHECK(label_advance(cut, kSize) <= 100);
  CHECK(cut.size() > 3);
  CHECK(cut.substr(cut.size() - 3) == "\xE2\x80\xA6");
  CHECK(long_name.rfind(cut.substr(0, cut.size() - 3), 0) == 0);
  CHECK(elide_label("short", kSize, 100) == "short");
  CHECK(elide_label(long_name, kSize, 1).empty());
  // The fixed-scale calls are the same font at 7 px per scale step.
  CHECK(text_height(2) == label_metrics(14).height);
  CHECK(text_width("t=0.5", 2) == static_cast<int>(std::ceil(label_advance("t=0.5", 14))));
}

TEST_CASE("font: clipping and odd positions never write outside the canvas", "[raster][font]") {
  auto c = make_canvas(8, 8, {0, 0, 0, 0});
  REQUIRE(c);
  draw_label(*c, -5, 4, "WWWW", 30, {255, 0, 0, 1});
  draw_label(*c, 1e30, 4, "W", 30, {255, 0, 0, 1});
  draw_label(*c, std::nan(""), 4, "W", 30, {255, 0, 0, 1});
  draw_label(*c, 0, 1e9, "W", 30, {255, 0, 0, 1});
  CHECK(c->rgba.size() == 8u * 8u * 4u);
  int ink = 0;
  for (std::size_t i = 3; i < c->rgba.size(); i += 4) ink += c->rgba[i] > 0;
  CHECK(ink > 0);  // the first call's glyphs overlap the canvas
}
