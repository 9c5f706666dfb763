// SPDX-License-Identifier: Apache-2.0
// Weight legends: the colour bar runs the ramp from 0 to 1, bone swatches carry the dominant-map
// colours and wrap into rows, and the bones listed are those the dominant map paints.
#include <catch2/catch.hpp>

#include <array>

#include "rig2d/preview/legend.h"
#include "rig2d/preview/pose.h"

using namespace rig2d;

namespace {

std::array<int, 4> px(const Image& img, int x, int y) {
  const std::size_t i = 4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x));
  return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]};
}

bool has_colour(const Image& img, Paint p) {
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      if (px(img, x, y) == std::array<int, 4>{p.r, p.g, p.b, 255}) return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("ramp: viridis ends and middle from matplotlib's table, grey is round(255 t)", "[raster][legend]") {
  const Paint lo = ramp_color(Ramp::Viridis, 0), mid = ramp_color(Ramp::Viridis, 0.5), hi = ramp_color(Ramp::Viridis, 1);
  CHECK((lo.r == 68 && lo.g == 1 && lo.b == 84));      // #440154
  CHECK((mid.r == 33 && mid.g == 145 && mid.b == 140));  // entry 128
  CHECK((hi.r == 253 && hi.g == 231 && hi.b == 37));   // #fde725
  CHECK(ramp_color(Ramp::Viridis, -3).r == lo.r);
  CHECK(ramp_color(Ramp::Viridis, std::nan("")).b == lo.b);
  CHECK(ramp_color(Ramp::Grey, 0.5).g == 128);
  // Perceptual ordering: luminance (Rec. 709 weights) rises monotonically along viridis.
  double previous = -1;
  for (int i = 0; i <= 255; ++i) {
    const Paint c = ramp_color(Ramp::Viridis, i / 255.0);
    const double y = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
    CHECK(y >= previous - 0.5);  // 8-bit rounding may dip by less than one level
    previous = y;
  }
}

TEST_CASE("legend: weight bar spans the ramp from left to right", "[preview][legend]") {
  auto bar = weight_legend("arm", Ramp::Viridis, 240);
  REQUIRE(bar);
  CHECK(bar->width == 240);
  // Scan the row through the middle of the bar: leftmost coloured pixel near viridis(0), rightmost near viridis(1).
  int row = -1;
  for (int y = 0; y < bar->height && row < 0; ++y) {
    if (px(*bar, 120, y)[1] > 100 && px(*bar, 120, y)[2] > 100 && px(*bar, 120, y)[0] < 60) row = y;  // teal middle
  }
  REQUIRE(row >= 0);
  const auto left = px(*bar, 14, row + 2), right = px(*bar, 240 - 15, row + 2);
  CHECK(left[0] < 80);
  CHECK(left[2] > 70);   // dark violet
  CHECK(right[0] > 240);
  CHECK(right[2] < 60);  // yellow
  auto narrow = weight_legend("arm", Ramp::Grey, 10);
  REQUIRE(narrow);
  CHECK(narrow->width == 180);  // widened to hold its tick labels
}

TEST_CASE("legend: bone swatches in dominant-map colours, wrapped into rows", "[preview][legend]") {
  Rig rig;
  for (int b = 0; b < 6; ++b) rig.bones.push_back({"bone_" + std::to_string(b), -1, 0, 0, 0});
  const std::vector<std::uint32_t> one{2}, all{0, 1, 2, 3, 4, 5};
  auto single = bone_legend(rig, one, 200);
  auto many = bone_legend(rig, all, 200);
  REQUIRE(single);
  REQUIRE(many);
  CHECK(has_colour(*single, bone_color(2)));
  CHECK_FALSE(has_colour(*single, bone_color(0)));
  for (const std::uint32_t b : all) CHECK(has_colour(*many, bone_color(b)));
  CHECK(many->height > single->height);  // six names do not fit one 200 px row
  CHECK(bone_legend(rig, std::vector<std::uint32_t>{99}, 200));  // an index past the bones is labelled, not a crash
}

TEST_CASE("legend: the bones listed are the ones the dominant map paints", "[preview][legend]") {
  Rig rig;
  rig.bones = {{"a", -1, 0, 0, 0}, {"b", -1, 0, 0, 0}, {"c", -1, 0, 0, 0}, {"d", -1, 0, 0, 0}};
  Part p;
  p.mesh.verts = {{0, 0}, {8, 0}, {8, 8}, {0, 8}, {20, 20}};
  p.mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {1, 1}};
  p.mesh.tris = {0, 1, 2, 2, 3, 0};
  // Dominant bones per vertex: v0 c, v1 a, v2 b, v3 a, and v4 d, a vertex no triangle uses. Every
  // triangle corner paints its own region, so a, b and c show; d paints nothing.
  p.skin_indices = {2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0};
  p.skin_weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  rig.parts = {p};
  CHECK(dominant_bones_shown(rig) == std::vector<std::uint32_t>{0, 1, 2});
  rig.parts[0].visible = false;
  CHECK(dominant_bones_shown(rig).empty());
}

TEST_CASE("legend: stack_below widens to the wider image", "[preview][legend]") {
  Image a{10, 4, std::vector<std::uint8_t>(10 * 4 * 4, 255)};
  Image b{20, 3, std::vector<std::uint8_t>(20 * 3 * 4, 0)};
  auto s = stack_below(a, b, {1, 2, 3, 1});
  REQUIRE(s);
  CHECK(s->width == 20);
  CHECK(s->height == 7);
  CHECK(px(*s, 0, 0) == std::array<int, 4>{255, 255, 255, 255});
  CHECK(px(*s, 15, 1) == std::array<int, 4>{1, 2, 3, 255});  // beside the narrower top
  CHECK(px(*s, 15, 5) == std::array<int, 4>{1, 2, 3, 255});  // b is transparent: the background shows
}
