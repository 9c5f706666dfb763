// SPDX-License-Identifier: Apache-2.0
// skin_rig against the engine's skinning vectors (ENGINE-SPEC §5.1, §5.2, §5.3 #6, §5.4), plus pose
// input parsing and the vertex dump.
#include <catch2/catch.hpp>

#include "rig2d/preview/pose.h"
#include "rig2d/preview/pose_input.h"
#include "support/test_math.h"

using namespace rig2d;
using Catch::Matchers::WithinAbs;

namespace {

Rig r1() {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}, {"arm", 0, 10, 0, 0}};
  Part p;
  p.name = "main";
  p.mesh.verts = {{0, 0}, {10, 0}, {20, 0}, {20, 10}};
  p.mesh.uvs = {{0, 0}, {.5, 0}, {1, 0}, {1, .5}};
  p.mesh.tris = {0, 1, 2, 0, 2, 3};
  p.skin_indices = {0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  p.skin_weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  rig.parts = {p};
  return rig;
}

std::vector<double> flat(const std::vector<Vec2>& v) {
  std::vector<double> out;
  for (const Vec2& p : v) out.insert(out.end(), {p.x, p.y});
  return out;
}
}  // namespace

TEST_CASE("skin_rig: R1 bind and the 90 degree arm bend (spec 5.1 #1, #2)", "[preview][skin]") {
  const Rig rig = r1();
  RigPose pose = bind_pose(rig);
  CHECK(flat(skin_rig(rig, pose)[0]) == std::vector<double>{0, 0, 10, 0, 20, 0, 20, 10});
  REQUIRE(apply_pose_assignment(rig, "arm.rot=1.5707963267948966", pose));
  CHECK(flat(skin_rig(rig, pose)[0]) ==
        std::vector<double>{0, 0, 10, 0, 10, 10, static_cast<float>(1.7763568394002505e-15), 10});
}

TEST_CASE("skin_rig: deform offsets are added to the bind vertices first (spec 5.3 #6)", "[preview][skin]") {
  Rig rig = r1();
  rig.bones.resize(1);
  for (std::size_t i = 0; i < rig.parts[0].skin_indices.size(); ++i) rig.parts[0].skin_indices[i] = 0;
  RigPose pose = bind_pose(rig);
  pose.deform[0] = {0, 0, 0, 0, 5, 5, -2, 0};
  CHECK(flat(skin_rig(rig, pose)[0]) == std::vector<double>{0, 0, 10, 0, 25, 5, 18, 10});
  pose.deform[0] = {1, 0};  // too short: the rest count as 0
  CHECK(flat(skin_rig(rig, pose)[0]) == std::vector<double>{1, 0, 10, 0, 20, 0, 20, 10});
}

TEST_CASE("skin_rig: multi-part rig shares the skeleton (spec 5.4 #3, #4)", "[preview][skin]") {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}, {"arm", 0, 10, 0, 0}};
  Part a, b;
  a.name = "partRoot";
  a.mesh.verts = {{0, 0}};
  a.skin_indices = {0, 0, 0, 0};
  a.skin_weights = {1, 0, 0, 0};
  b.name = "partArm";
  b.mesh.verts = {{10, 0}};
  b.skin_indices = {1, 0, 0, 0};
  b.skin_weights = {1, 0, 0, 0};
  rig.parts = {a, b};
  RigPose pose = bind_pose(rig);
  pose.bones[1] = {10, 0, kPi / 2, 1, 1};
  const auto out = skin_rig(rig, pose);
  CHECK(flat(out[0]) == std::vector<double>{0, 0});
  CHECK_THAT(out[1][0].x, WithinAbs(10, 1e-5));
  CHECK_THAT(out[1][0].y, WithinAbs(0, 1e-5));
}

TEST_CASE("skin_rig: noScale stops scale inheritance (spec 5.4 #5, #6, 2.5 step 9)", "[preview][skin]") {
  Rig rig;
  rig.bones = {{"p", -1, 0, 0, 0}, {"c", 0, 10, 0, 0}};
  Part part;
  part.mesh.verts = {{10, 0}};
  part.skin_indices = {1, 0, 0, 0};
  part.skin_weights = {1, 0, 0, 0};
  rig.parts = {part};
  RigPose pose = bind_pose(rig);
  pose.bones[0].sx = pose.bones[0].sy = 2;
  Vec2 v = skin_rig(rig, pose)[0][0];
  CHECK_THAT(v.x, WithinAbs(20, 1e-5));
  CHECK_THAT(v.y, WithinAbs(0, 1e-5));
  pose.bones[0].rot = kPi / 2;
  v = skin_rig(rig, pose)[0][0];
  CHECK_THAT(v.x, WithinAbs(0, 1e-5));
  CHECK_THAT(v.y, WithinAbs(20, 1e-5));
  rig.bones[1].no_scale = true;
  v = skin_rig(rig, pose)[0][0];
  CHECK_THAT(v.x, WithinAbs(0, 1e-5));
  CHECK_THAT(v.y, WithinAbs(10, 1e-5));
  pose.bones[0].rot = 0;
  v = skin_rig(rig, pose)[0][0];
  CHECK_THAT(v.x, WithinAbs(10, 1e-5));
}

TEST_CASE("skin_rig: bones sharing a name skin with the last one's matrix (nowByName)", "[preview][skin]") {
  Rig rig;
  rig.bones = {{"b", -1, 0, 0, 0}, {"b", -1, 0, 0, 0}};
  Part part;
  part.mesh.verts = {{1, 0}, {2, 0}};
  part.skin_indices = {0, 0, 0, 0, 1, 0, 0, 0};
  part.skin_weights = {1, 0, 0, 0, 1, 0, 0, 0};
  rig.parts = {part};
  RigPose pose = bind_pose(rig);
  pose.bones[1].x = 5;  // only the second entity moves, but both bones follow it
  CHECK(flat(skin_rig(rig, pose)[0]) == std::vector<double>{6, 0, 7, 0});
  pose = bind_pose(rig);
  pose.bones[0].x = 5;  // the first entity is shadowed
  CHECK(flat(skin_rig(rig, pose)[0]) == std::vector<double>{1, 0, 2, 0});
}

TEST_CASE("frame_uvs: atlas remap stored as float32 (spec 2.7, 5.2 #1, #2, #3)", "[preview][skin]") {
  const std::vector<Vec2> uvs{{0, 0}, {1, 0}, {1, 1}, {.5, .5}};
  CHECK(flat(frame_uvs(uvs, UvRect{0.25, 0, 0.25, 0.125})) ==
        std::vector<double>{0.25, 0, 0.5, 0, 0.5, 0.125, 0.375, 0.0625});
  const std::vector<Vec2> quad{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  CHECK(flat(frame_uvs(quad, UvRect{1.0 / 128, 1.0 / 64, 0.5, 0.5})) ==
        std::vector<double>{0.0078125, 0.015625, 0.5078125, 0.015625, 0.5078125, 0.515625, 0.0078125, 0.515625});
  CHECK(flat(frame_uvs(std::vector<Vec2>{{.25, .5}}, std::nullopt)) == std::vector<double>{.25, .5});
  // The slice of 5.2 #3: rect {64, 32, 128, 64} on a 256 x 512 sheet.
  const auto sliced = frame_uvs(quad, UvRect{64.0 / 256, 32.0 / 512, 128.0 / 256, 64.0 / 512});
  CHECK_THAT(sliced[0].x, WithinAbs(0.25, 1e-6));
  CHECK_THAT(sliced[1].x, WithinAbs(0.75, 1e-6));
}

TEST_CASE("pose input: assignments, with errors naming the rig's bones", "[preview][pose]") {
  Rig rig = r1();
  rig.bones.push_back({"hand.l", 1, 5, 0, 0});
  RigPose pose = bind_pose(rig);
  REQUIRE(apply_pose_assignment(rig, "arm.rot=0.5", pose));
  REQUIRE(apply_pose_assignment(rig, "hand.l.x=-4.25", pose));  // dotted bone name
  REQUIRE(apply_pose_assignment(rig, "root.sy=2", pose));
  CHECK(pose.bones[1].rot == 0.5);
  CHECK(pose.bones[2].x == -4.25);
  CHECK(pose.bones[0].sy == 2);
  auto bad = apply_pose_assignment(rig, "elbow.rot=1", pose);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "pose.bone");
  CHECK(bad.error().message == "no bone named \"elbow\"; the rig's bones are: root, arm, hand.l");
  CHECK(apply_pose_assignment(rig, "arm.rotation=1", pose).error().code == "pose.field");
  CHECK(apply_pose_assignment(rig, "arm.rot=abc", pose).error().code == "pose.value");
  CHECK(apply_pose_assignment(rig, "arm.rot=inf", pose).error().code == "pose.value");
  CHECK(apply_pose_assignment(rig, "armrot=1", pose).error().code == "pose.syntax");
  CHECK(apply_pose_assignment(rig, "arm.rot", pose).error().code == "pose.syntax");
}

TEST_CASE("pose input: pose files with located errors", "[preview][pose]") {
  const Rig rig = r1();
  RigPose pose = bind_pose(rig);
  REQUIRE(apply_pose_file(rig, R"({"bones": {"arm": {"rot": 1.5, "sx": 2}}, "sprite": {"color": "#102030", "flipX": true, "opacity": 0.25}})",
                          "p.json", pose));
  CHECK(pose.bones[1].rot == 1.5);
  CHECK(pose.bones[1].sx == 2);
  CHECK(pose.sprite.color == 0x102030);
  CHECK(pose.sprite.flip_x);
  CHECK(pose.sprite.opacity == 0.25);
  auto e = apply_pose_file(rig, "{\"bones\": {\n  \"leg\": {\"x\": 1}}}", "p.json", pose);
  REQUIRE_FALSE(e);
  CHECK(e.error().code == "pose.bone");
  CHECK(e.error().where.json_pointer == "/bones/leg");
  CHECK(e.error().where.line == 2);
  CHECK(apply_pose_file(rig, R"({"bones": {"arm": {"x": "1"}}})", "p.json", pose).error().code == "pose.value");
  CHECK(apply_pose_file(rig, R"({"bones": {"arm": {"z": 1}}})", "p.json", pose).error().code == "pose.field");
  CHECK(apply_pose_file(rig, R"([1])", "p.json", pose).error().code == "pose.file");
  CHECK(apply_pose_file(rig, R"({"sprite": {"color": -1}})", "p.json", pose).error().code == "pose.value");
  CHECK(apply_pose_file(rig, "{", "p.json", pose).error().code == "json.syntax");
}

TEST_CASE("vertices_json: JSON.stringify layout with engine number text", "[preview][pose]") {
  const Rig rig = r1();
  RigPose pose = bind_pose(rig);
  pose.bones[1].rot = kPi / 2;
  const VertexFrame frames[] = {{0.5, skin_rig(rig, pose)}};
  const std::string json = vertices_json(rig, frames);
  CHECK(json.rfind("{\n  \"frames\": [\n    {\n      \"time\": 0.5,\n      \"parts\": [\n        {\n          \"name\": \"main\",", 0) == 0);
  // 2^-49 survives the float32 store and prints as V8 prints it.
  CHECK(json.find("\n              1.7763568394002505e-15,\n") != std::string::npos);
  CHECK(json.back() == '}');
}
