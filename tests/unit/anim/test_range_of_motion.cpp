// SPDX-License-Identifier: Apache-2.0
// The range-of-motion test clip: which bones swing, when, how far, and that the clip reaches exactly
// those bones through the engine's name-path binding; plus write_clip's round trip.
#include <catch2/catch.hpp>
#include <cmath>

#include "rig2d/anim/curve.h"
#include "rig2d/anim/range_of_motion.h"
#include "rig2d/anim/rig_pose.h"
#include "support/test_math.h"

using namespace rig2d;
using Catch::Matchers::WithinAbs;

namespace {

// base (root) -> mid -> tip, with bind angles so "bind +- swing" is not "0 +- swing".
Rig arm_rig() {
  Rig rig;
  rig.id = "0b5b6a4e-3c1d-4f2a-9e8b-7a6c5d4e3f21";
  rig.bones = {{"base", -1, 0, 0, 0.25}, {"mid", 0, 10, 0, -0.5}, {"tip", 1, 10, 0, 0.1}};
  rig.parts.resize(1);
  rig.parts[0].mesh.verts = {{0, 0}, {20, 0}};
  return rig;
}

// The rotation every bone has at `time` when the clip plays on the rig.
std::vector<double> rotations_at(const Rig& rig, const Clip& clip, double time) {
  RigPose pose = bind_pose(rig);
  apply_clip(clip, bind_clip(clip, rig), time, pose);
  std::vector<double> rot;
  for (const BoneLocal& b : pose.bones) rot.push_back(b.rot);
  return rot;
}

}  // namespace

TEST_CASE("range of motion: each bone with a parent swings in turn, the others hold", "[anim][rom]") {
  const Rig rig = arm_rig();
  RangeOfMotionOptions o;
  o.angle_deg = 30;
  o.seconds_per_bone = 2;
  auto rom = range_of_motion_clip(rig, o);
  REQUIRE(rom);
  CHECK(rom->bones == std::vector<std::size_t>{1, 2});  // the root only turns the whole sprite
  CHECK(rom->skipped.empty());
  CHECK(rom->clip.duration == 4);
  CHECK(rom->clip.loop);
  REQUIRE(rom->clip.tracks.size() == 2);
  CHECK(rom->clip.tracks[0].path == "base/mid");
  CHECK(rom->clip.tracks[1].path == "base/mid/tip");
  CHECK(rom->clip.tracks[1].field == "rz");

  const double swing = kPi / 6;
  // (time, expected rotation of base, mid, tip): keys at 0, 1/4, 3/4 and 1 of each 2 s slot.
  const std::vector<std::pair<double, std::vector<double>>> expected = {
      {0.0, {0.25, -0.5, 0.1}}, {0.5, {0.25, -0.5 + swing, 0.1}}, {1.5, {0.25, -0.5 - swing, 0.1}},
      {2.0, {0.25, -0.5, 0.1}}, {2.5, {0.25, -0.5, 0.1 + swing}}, {3.5, {0.25, -0.5, 0.1 - swing}},
      {4.0, {0.25, -0.5, 0.1}}};
  for (const auto& [t, want] : expected) {
    INFO("t = " << t);
    const std::vector<double> got = rotations_at(rig, rom->clip, t);
    for (std::size_t b = 0; b < want.size(); ++b) CHECK_THAT(got[b], WithinAbs(want[b], 1e-9));
  }
  // Between keys the swing eases: a third of the way out it is past a third of the swing (flat
  // tangents make a smoothstep-like curve), and it never overshoots the keys.
  const double at_third = rotations_at(rig, rom->clip, 0.5 / 3)[1] + 0.5;
  CHECK(at_third > 0.2 * swing);
  CHECK(at_third < 0.5 * swing);
  for (double t = 0; t <= 4; t += 0.01) {
    const std::vector<double> got = rotations_at(rig, rom->clip, t);
    CHECK(std::fabs(got[1] + 0.5) <= swing + 1e-9);
    CHECK(std::fabs(got[2] - 0.1) <= swing + 1e-9);
  }
}

TEST_CASE("range of motion: chosen bones, a root-only rig, bad options", "[anim][rom]") {
  const Rig rig = arm_rig();
  RangeOfMotionOptions o;
  o.bones = {2, 0};  // tip, then base
  auto rom = range_of_motion_clip(rig, o);
  REQUIRE(rom);
  CHECK(rom->bones == std::vector<std::size_t>{2, 0});
  CHECK(rom->clip.tracks[1].path == "base");
  CHECK_THAT(rotations_at(rig, rom->clip, 1.25)[0], WithinAbs(0.25 + kPi / 4, 1e-9));  // 45 deg by default

  Rig roots = arm_rig();
  for (Bone& b : roots.bones) b.parent = -1;
  auto all = range_of_motion_clip(roots);
  REQUIRE(all);
  CHECK(all->bones == std::vector<std::size_t>{0, 1, 2});  // nothing but roots: swing them all

  o.bones = {1, 3};  // past the rig's three bones (names are find_bone's: the pose job test)
  auto unknown = range_of_motion_clip(rig, o);
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().code == "pose.rom");
  CHECK_THAT(unknown.error().message, Catch::Contains("bone index 3 is past the rig's 3 bones"));
  o.bones.clear();
  for (const double bad : {0.0, -10.0, 181.0, std::nan("")}) {
    o.angle_deg = bad;
    CHECK(range_of_motion_clip(rig, o).error().code == "pose.rom");
  }
  o.angle_deg = 45;
  o.seconds_per_bone = 0;
  CHECK(range_of_motion_clip(rig, o).error().code == "pose.rom");
  CHECK(range_of_motion_clip(Rig{}).error().code == "pose.rom.none");
}

TEST_CASE("range of motion: a bone the clip cannot address is left out and said", "[anim][rom]") {
  Rig rig = arm_rig();
  // Two children of base named "mid": the engine binds "base/mid" to the later one.
  rig.bones.push_back({"mid", 0, 0, 10, 0});
  rig.bones.push_back({"a/b", 0, 0, -10, 0});
  auto rom = range_of_motion_clip(rig);
  REQUIRE(rom);
  CHECK(rom->bones == std::vector<std::size_t>{3});  // the later mid only
  // The first mid, the tip below it (its path runs through the later mid, which has no tip) and a/b.
  REQUIRE(rom->skipped.size() == 3);
  CHECK(rom->skipped[0].code == "pose.rom.path");
  CHECK_THAT(rom->skipped[0].message, Catch::Contains("\"base/mid\""));
  CHECK_THAT(rom->skipped[1].message, Catch::Contains("\"base/mid/tip\""));
  CHECK_THAT(rom->skipped[2].message, Catch::Contains("\"base/a/b\""));
}

TEST_CASE("range of motion: the id follows the rig, angle, timing and bones", "[anim][rom]") {
  const Rig rig = arm_rig();
  const std::string id = range_of_motion_clip(rig)->clip.id;
  CHECK(id == range_of_motion_clip(rig)->clip.id);
  RangeOfMotionOptions o;
  o.angle_deg = 30;
  CHECK(range_of_motion_clip(rig, o)->clip.id != id);
  Rig other = rig;
  other.id = "1b5b6a4e-3c1d-4f2a-9e8b-7a6c5d4e3f21";
  CHECK(range_of_motion_clip(other)->clip.id != id);
}

TEST_CASE("write_clip: the written clip reads back to the same tracks", "[anim][rom]") {
  const auto rom = range_of_motion_clip(arm_rig());
  REQUIRE(rom);
  const std::string text = write_clip(rom->clip, KeyTangentMode::Free);
  CHECK_THAT(text, Catch::Contains("\"tangentMode\": \"free\""));
  CHECK_THAT(write_clip(rom->clip), Catch::Contains("\"tangentMode\": \"linear\""));
  auto back = read_clip(text, "rom.anim.json");
  REQUIRE(back);
  CHECK(back->id == rom->clip.id);
  CHECK(back->duration == rom->clip.duration);
  REQUIRE(back->tracks.size() == rom->clip.tracks.size());
  for (std::size_t i = 0; i < back->tracks.size(); ++i) {
    CHECK(back->tracks[i].path == rom->clip.tracks[i].path);
    REQUIRE(back->tracks[i].keys.size() == 4);
    for (std::size_t k = 0; k < 4; ++k) {
      CHECK(back->tracks[i].keys[k].t == rom->clip.tracks[i].keys[k].t);
      CHECK(back->tracks[i].keys[k].v == rom->clip.tracks[i].keys[k].v);  // shortest round-trip doubles
      CHECK(back->tracks[i].keys[k].out_tangent == 0);
    }
  }
}
