// SPDX-License-Identifier: Apache-2.0
// The names overlay: where each bone's label goes (hand-computed boxes, no overlaps, canvas edges,
// crowds) and what render_pose draws with it.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "preview/bone_labels.h"
#include "rig2d/preview/pose.h"
#include "rig2d/preview/pose_job.h"

using namespace rig2d;
using detail::LabelBox;

namespace {

bool overlap(const LabelBox& a, const LabelBox& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

bool covers(const LabelBox& b, Vec2 c, double r) {
  const double dx = std::max({b.x0 - c.x, 0.0, c.x - b.x1}), dy = std::max({b.y0 - c.y, 0.0, c.y - b.y1});
  return dx * dx + dy * dy < r * r;
}

}  // namespace

TEST_CASE("bone labels: right of the joint, else left, above, below", "[preview][overlay]") {
  const std::vector<Vec2> size{{30, 10}};
  // Joint radius 5 + gap 3: the box starts 8 px right of the joint, centred on its line.
  auto b = detail::place_joint_labels(std::vector<Vec2>{{50, 50}}, size, 5, 3, 200, 100);
  REQUIRE(b.size() == 1);
  CHECK(b[0].placed);
  CHECK(b[0].x0 == 58);
  CHECK(b[0].x1 == 88);
  CHECK(b[0].y0 == 45);
  CHECK(b[0].y1 == 55);
  // At the right edge the label goes left: x1 = 190 - 8.
  b = detail::place_joint_labels(std::vector<Vec2>{{190, 50}}, size, 5, 3, 200, 100);
  CHECK(b[0].x1 == 182);
  CHECK(b[0].x0 == 152);
  CHECK(b[0].y0 == 45);
  // Hemmed in left and right (a canvas as narrow as the joint's surroundings): above it.
  b = detail::place_joint_labels(std::vector<Vec2>{{30, 50}}, size, 5, 3, 60, 100);
  CHECK(b[0].x0 == 15);
  CHECK(b[0].y1 == 42);
  // And at the top too: below it.
  b = detail::place_joint_labels(std::vector<Vec2>{{30, 5}}, size, 5, 3, 60, 100);
  CHECK(b[0].x0 == 15);
  CHECK(b[0].y0 == 13);
}

TEST_CASE("bone labels: a chain of close joints gets boxes that neither overlap nor cover a joint",
          "[preview][overlay]") {
  std::vector<Vec2> joints, sizes;
  for (int i = 0; i < 6; ++i) {
    joints.push_back({100.0 + 20 * i, 100.0 + 4 * i});  // closer than a label is wide
    sizes.push_back({32.0 + 3 * i, 14});
  }
  const auto b = detail::place_joint_labels(joints, sizes, 5, 3, 400, 300);
  REQUIRE(b.size() == joints.size());
  for (std::size_t i = 0; i < b.size(); ++i) {
    CHECK(b[i].placed);
    CHECK(b[i].x1 - b[i].x0 == Approx(sizes[i].x));
    CHECK(b[i].y1 - b[i].y0 == Approx(sizes[i].y));
    CHECK((b[i].x0 >= 0 && b[i].y0 >= 0 && b[i].x1 <= 400 && b[i].y1 <= 300));
    for (std::size_t k = 0; k < b.size(); ++k) {
      if (k != i) CHECK_FALSE(overlap(b[i], b[k]));
      CHECK_FALSE(covers(b[i], joints[k], 5));
    }
  }
}

TEST_CASE("bone labels: crowds, non-finite joints and tiny canvases never fail", "[preview][overlay]") {
  // Four joints on one point take the four sides; a fifth has only corners left, each overlapping
  // the box above or below it, and takes the one overlapping least (here all alike: the first).
  std::vector<Vec2> joints(5, Vec2{100, 100});
  std::vector<Vec2> sizes(5, Vec2{30, 12});
  auto b = detail::place_joint_labels(joints, sizes, 5, 3, 300, 300);
  CHECK(b[0].x0 == 108);  // right
  CHECK(b[1].x1 == 92);   // left
  CHECK(b[2].y1 == 92);   // above
  CHECK(b[3].y0 == 108);  // below
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t k = 0; k < i; ++k) CHECK_FALSE(overlap(b[i], b[k]));
  // Upper right: x from round(100 + 8 / sqrt 2) = 106, y from round(100 - 5.66 - 12) = 82.
  CHECK(b[4].x0 == 106);
  CHECK(b[4].y0 == 82);
  // Twenty on one point: every label placed, on the canvas.
  joints.assign(20, Vec2{100, 100});
  sizes.assign(20, Vec2{30, 12});
  b = detail::place_joint_labels(joints, sizes, 5, 3, 300, 300);
  for (const LabelBox& box : b) {
    CHECK(box.placed);
    CHECK((box.x0 >= 0 && box.x1 <= 300 && box.y0 >= 0 && box.y1 <= 300));
  }
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  b = detail::place_joint_labels(std::vector<Vec2>{{nan, 1}, {1, inf}, {5, 5}}, std::vector<Vec2>(3, Vec2{30, 12}), 5,
                                 3, 10, 10);
  CHECK_FALSE(b[0].placed);
  CHECK_FALSE(b[1].placed);
  CHECK(b[2].placed);  // no place fits a 10 px canvas: the right-hand one, clipped when drawn
  CHECK(b[2].x0 == 13);
}

TEST_CASE("render: the names overlay draws each name in its box and nothing elsewhere", "[preview][render][overlay]") {
  Rig rig;
  rig.bones = {{"root", -1, 20, 30, 0}, {"arm", 0, 60, 0, 0}};
  Part part;
  part.mesh.verts = {{0, 0}, {1, 0}, {0, 1}};
  part.mesh.uvs = {{0, 0}, {1, 0}, {0, 1}};
  part.mesh.tris = {0, 1, 2};
  part.skin_indices = std::vector<std::uint32_t>(12, 0);
  part.skin_weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  part.visible = false;
  rig.parts = {part};
  RenderOptions plain;
  plain.view = {160, 60, 1, 0, 0};
  plain.background = {0, 0, 0, 1};
  RenderOptions named = plain;
  named.overlays.names = true;
  const RigPose pose = bind_pose(rig);
  const auto a = render_pose(rig, {}, pose, skin_rig(rig, pose), plain);
  const auto b = render_pose(rig, {}, pose, skin_rig(rig, pose), named);
  REQUIRE(a);
  REQUIRE(b);
  // Joints at (20,30) and (80,30): each label right of its joint, starting 8 px off; "root" ends well
  // before the arm's joint disc, so both keep the first place.
  int changed = 0, outside = 0, bright = 0;
  for (int y = 0; y < 60; ++y) {
    for (int x = 0; x < 160; ++x) {
      const std::size_t i = 4 * (static_cast<std::size_t>(y) * 160 + static_cast<std::size_t>(x));
      if (a->rgba[i] == b->rgba[i] && a->rgba[i + 1] == b->rgba[i + 1] && a->rgba[i + 2] == b->rgba[i + 2]) continue;
      ++changed;
      const bool in_root = x >= 28 && x < 75 && y >= 20 && y < 40;
      const bool in_arm = x >= 88 && x < 140 && y >= 20 && y < 40;
      outside += !(in_root || in_arm);
      bright += b->rgba[i] > 128;  // text pixels, light on the dark box
    }
  }
  CHECK(changed > 0);
  CHECK(outside == 0);
  CHECK(bright > 20);
  // The box is dark, translucent over the black background: its pixels stay dark.
  CHECK(static_cast<int>(b->rgba[4 * (30 * 160 + 29)]) < 40);
}

TEST_CASE("parse_overlays: names", "[preview][overlay]") {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}};
  auto ov = parse_overlays(rig, "bones,names");
  REQUIRE(ov);
  CHECK(ov->bones);
  CHECK(ov->names);
  auto bad = parse_overlays(rig, "labels");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "pose.overlay");
  CHECK(bad.error().message.find("names") != std::string::npos);
}
