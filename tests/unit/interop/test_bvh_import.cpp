// SPDX-License-Identifier: Apache-2.0
// Motion onto a template: a hand-written BVH (tests/data/convert/bvh/legs.bvh) with known rotations,
// projected onto the front and side planes, against hand-computed turns; bone maps and their errors;
// a Spine-style clip renamed onto the template's bones.
//
// legs.bvh: Hips at the origin, Spine 10 up (end site 10 more), LeftUpLeg 5 to the left (+x), LeftLeg
// 20 below it (end site 20 more); rotation channels Z, X, Y. Frames (0.5 s apart):
//   0: rest.  1: LeftUpLeg Z 30, LeftLeg Z 45.  2: Hips Z 10, LeftUpLeg X 90 (the leg points at the
//   viewer).  3: LeftUpLeg X -45 (the leg swings forward).
// Front plane (BVH x right, y up; image y down, positive turns clockwise on screen):
//   frame 1: the thigh turns 30 deg counter-clockwise: -pi/6; the shin 45 more: -pi/4 relative to it.
//   frame 2: the hips turn -pi/18, the spine with them (0 relative); thigh and shin point at the viewer,
//            so they keep their last world turns (-30, -75 deg): thigh -30 - (-10) = -20 deg = -pi/9,
//            shin -75 - (-30) = -pi/4.
//   frame 3: the thigh's projection points down again: 0; the shin with it: 0.
// Side plane (BVH z right, y up): frames 0 and 1 turn nothing (rotations about z are edge-on);
//   frame 2: the leg points forward (+z is -20 along it: the foot toward screen left): +pi/2 for the
//            thigh, the hips' turn about z is edge-on (0), the shin follows (0);
//   frame 3: the leg 45 deg forward: the foot goes right and up, counter-clockwise: -pi/4.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "rig2d/interop/retarget.h"
#include "rig2d/io/files.h"

using namespace rig2d;

namespace {

constexpr double kBvhPi = 3.14159265358979323846;
const std::string kBvhDir = std::string(RIG2D_SOURCE_DIR) + "/tests/data/convert/bvh";

const Track& bvh_track(const Clip& clip, const std::string& path) {
  for (const Track& t : clip.tracks)
    if (t.path == path) return t;
  FAIL("no track " << path);
  return clip.tracks.front();
}

void bvh_check_values(const Clip& clip, const std::string& path, const std::vector<double>& want) {
  const Track& t = bvh_track(clip, path);
  INFO(path);
  REQUIRE(t.keys.size() == want.size());
  for (std::size_t f = 0; f < want.size(); ++f) {
    INFO("frame " << f);
    CHECK(t.keys[f].t == Approx(0.5 * double(f)));
    CHECK(t.keys[f].v == Approx(want[f]).margin(1e-12));
  }
}

Clip bvh_import(MotionPlane plane, std::vector<Diagnostic>& warnings) {
  const auto tmpl = bundled_template("humanoid");
  REQUIRE(tmpl);
  auto map = load_bone_map(kBvhDir + "/legs.bonemap.json", *tmpl);
  REQUIRE(map);
  auto text = read_file(kBvhDir + "/legs.bvh", 1 << 20);
  REQUIRE(text);
  BvhImportOptions o;
  o.plane = plane;
  o.clip_name = "legs";
  auto clip = import_bvh_clip(*text, "legs.bvh", *map, *tmpl, o, &warnings);
  REQUIRE(clip);
  return std::move(*clip);
}

}  // namespace

TEST_CASE("BVH import: the front plane's turns are the hand-computed ones", "[interop][bvh]") {
  std::vector<Diagnostic> warnings;
  const Clip clip = bvh_import(MotionPlane::Front, warnings);
  CHECK(clip.name == "legs");
  CHECK(clip.duration == Approx(1.5));
  CHECK_FALSE(clip.loop);
  REQUIRE(clip.tracks.size() == 4);  // hips, spine, thigh_l, shin_l (RightUpLeg is not in the file)
  bvh_check_values(clip, "root/hips", {0, 0, -kBvhPi / 18, 0});
  bvh_check_values(clip, "root/hips/spine", {0, 0, 0, 0});
  bvh_check_values(clip, "root/hips/thigh_l", {0, -kBvhPi / 6, -kBvhPi / 9, 0});
  bvh_check_values(clip, "root/hips/thigh_l/shin_l", {0, -kBvhPi / 4, -kBvhPi / 4, 0});
  // Central differences: the thigh's slope at frame 1 is (frame 2 - frame 0) / 1 s.
  CHECK(bvh_track(clip, "root/hips/thigh_l").keys[1].out_tangent == Approx(-kBvhPi / 9));
  std::size_t degenerate = 0, missing = 0;
  for (const Diagnostic& d : warnings) {
    if (d.code == "bvh.degenerate") {
      ++degenerate;
      CHECK(d.message.find("from frame 2") != std::string::npos);
    }
    if (d.code == "bvh.map.missing") {
      ++missing;
      CHECK(d.message.find("RightUpLeg") != std::string::npos);
    }
  }
  CHECK(degenerate == 2);  // LeftUpLeg and LeftLeg in frame 2
  CHECK(missing == 1);
}

TEST_CASE("BVH import: the side plane sees the swings about x", "[interop][bvh]") {
  std::vector<Diagnostic> warnings;
  const Clip clip = bvh_import(MotionPlane::Side, warnings);
  bvh_check_values(clip, "root/hips", {0, 0, 0, 0});
  bvh_check_values(clip, "root/hips/spine", {0, 0, 0, 0});
  bvh_check_values(clip, "root/hips/thigh_l", {0, 0, kBvhPi / 2, -kBvhPi / 4});
  bvh_check_values(clip, "root/hips/thigh_l/shin_l", {0, 0, 0, 0});
  for (const Diagnostic& d : warnings) CHECK(d.code != "bvh.degenerate");
}

TEST_CASE("BVH import: the built-in humanoid names find a Mixamo-style skeleton", "[interop][bvh]") {
  const auto tmpl = bundled_template("humanoid");
  REQUIRE(tmpl);
  auto text = read_file(kBvhDir + "/legs.bvh", 1 << 20);
  REQUIRE(text);
  std::string mixamo = *text;
  for (const char* name : {"Hips", "Spine", "LeftUpLeg", "LeftLeg"}) {
    const std::string from = std::string(" ") + name + "\n";
    const auto at = mixamo.find(from);
    REQUIRE(at != std::string::npos);
    mixamo.replace(at, from.size(), std::string(" mixamorig:") + name + "\n");
  }
  std::vector<Diagnostic> warnings;
  auto clip = import_bvh_clip(mixamo, "m.bvh", humanoid_mocap_bone_map(), *tmpl, {}, &warnings);
  REQUIRE(clip);
  bvh_check_values(*clip, "root/hips/thigh_l", {0, -kBvhPi / 6, -kBvhPi / 9, 0});
  for (const Diagnostic& d : warnings) CHECK(d.code != "bvh.map.missing");  // alternatives are not news
}

TEST_CASE("BVH import: bad files and maps are located errors", "[interop][bvh]") {
  const auto tmpl = bundled_template("humanoid");
  REQUIRE(tmpl);
  const auto bvh_error = [&](const std::string& text) {
    auto clip = import_bvh_clip(text, "bad.bvh", humanoid_mocap_bone_map(), *tmpl, {});
    REQUIRE_FALSE(clip.has_value());
    CHECK(clip.error().where.file == "bad.bvh");
    return clip.error();
  };
  const std::string head = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n";
  Error e =
      bvh_error(head + "  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n0 0 0\n1 2\n");
  CHECK(e.code == "bvh.frames");
  CHECK(e.where.line == 16);  // where the file ends, a value short
  e = bvh_error("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 1 Wrotation\n}\n");
  CHECK(e.code == "bvh.channels");
  CHECK(e.where.line == 5);
  CHECK(e.where.column == 14);
  e = bvh_error(head + "  OFSET 1 2 3\n}\n");
  CHECK(e.code == "bvh.syntax");
  CHECK(e.where.line == 6);
  e = bvh_error(head + "}\nMOTION\nFrames: 1\nFrame Time: 0\n0 0 0\n");
  CHECK(e.code == "bvh.frames");
  e = bvh_error(head + "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 nan 0\n");
  CHECK(e.code == "bvh.syntax");
  auto none =
      import_bvh_clip("HIERARCHY\nROOT Thing\n{\n OFFSET 0 0 0\n CHANNELS 0\n}\nMOTION\nFrames: 1\nFrame Time: 1\n",
                      "t.bvh", humanoid_mocap_bone_map(), *tmpl, {});
  REQUIRE_FALSE(none);
  CHECK(none.error().code == "bvh.map");

  const auto map_error = [&](const std::string& text) {
    auto map = read_bone_map(text, "m.json", *tmpl);
    REQUIRE_FALSE(map.has_value());
    CHECK(map.error().where.file == "m.json");
    return map.error();
  };
  e = map_error(R"({"bones": {"Hips": "hip"}})");
  CHECK(e.code == "bonemap.bone");
  CHECK(e.where.json_pointer == "/bones/Hips");
  e = map_error(R"({"bones": {"Hips": "hips", "Pelvis": "hips"}})");
  CHECK(e.code == "bonemap.bone");
  CHECK(e.where.json_pointer == "/bones/Pelvis");
  e = map_error(R"({"bone": {}})");
  CHECK(e.code == "bonemap.key");
  e = map_error(R"({"bones": {"Hips": 1}})");
  CHECK(e.code == "bonemap.type");
}

TEST_CASE("a Spine-style clip onto the template: names mapped, bind rotation taken off", "[interop][bvh]") {
  const auto tmpl = bundled_template("humanoid");
  REQUIRE(tmpl);
  auto map = read_bone_map(R"({"bones": {"pelvis": "hips", "leg_front": "thigh_l"}})", "spine.bonemap.json", *tmpl);
  REQUIRE(map);
  Rig source;
  source.bones = {{"root", -1, 0, 0, 0, false},
                  {"pelvis", 0, 0, -40, 1.2, false},
                  {"leg_front", 1, 10, 0, 0.5, false},
                  {"cape", 1, 0, 0, 0, false}};
  Clip clip;
  clip.name = "walk";
  clip.tracks.push_back({"root/pelvis/leg_front", "Transform", "rz", TrackType::Number, {{0, 0.5}, {0.5, 0.8}}});
  clip.tracks.push_back({"root/pelvis", "Transform", "rz", TrackType::Number, {{0, 1.2}, {0.5, 1.1}}});
  clip.tracks.push_back({"root/pelvis", "Transform", "y", TrackType::Number, {{0, -40}, {0.5, -42}}});
  clip.tracks.push_back({"root/pelvis/cape", "Transform", "rz", TrackType::Number, {{0, 0}, {0.5, 0.2}}});
  std::vector<Diagnostic> warnings;
  const Clip out = map_clip_to_template(clip, source, *map, *tmpl, &warnings);
  REQUIRE(out.tracks.size() == 2);
  CHECK(out.tracks[0].path == "root/hips/thigh_l");
  CHECK(out.tracks[0].keys[0].v == Approx(0).margin(1e-12));  // 0.5 - its bind 0.5
  CHECK(out.tracks[0].keys[1].v == Approx(0.3));
  CHECK(out.tracks[1].path == "root/hips");
  CHECK(out.tracks[1].keys[1].v == Approx(-0.1));  // 1.1 - 1.2
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].code == "convert.map.field");     // the pelvis's y track
  CHECK(warnings[1].code == "convert.map.unmapped");  // the cape
}
