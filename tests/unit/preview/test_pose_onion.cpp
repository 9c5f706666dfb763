// SPDX-License-Identifier: Apache-2.0
// Onion skin: ghost frames under the current one (hand-computed pixels) and the pose job's --onion.
#include <catch2/catch.hpp>

#include "rig2d/preview/pose.h"
#include "rig2d/preview/pose_job.h"

using namespace rig2d;

namespace {

const std::string kOnionData = std::string(RIG2D_SOURCE_DIR) + "/tests/data/pose";

// A 4 x 4 px quad over rig (0..4, 0..4), every vertex on the one bone.
Rig quad_rig() {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}};
  Part part;
  part.mesh.verts = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
  part.mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  part.mesh.tris = {0, 1, 2, 0, 2, 3};
  part.skin_indices = std::vector<std::uint32_t>(16, 0);
  part.skin_weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  rig.parts = {part};
  return rig;
}

std::array<int, 4> onion_px(const Image& img, int x, int y) {
  const std::size_t i =
      4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x));
  return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]};
}

}  // namespace

TEST_CASE("render: a ghost frame is drawn tinted and faint, under the current frame", "[preview][render][onion]") {
  const Rig rig = quad_rig();
  const Image white{2, 2, std::vector<std::uint8_t>(16, 255)};
  const std::vector<PartTexture> tex{{std::make_shared<const Texture>(make_texture(white)), std::nullopt}};
  const RigPose ghost_pose = bind_pose(rig);  // the quad at x 0..4
  RigPose pose = bind_pose(rig);
  pose.bones[0].x = 2;  // the current quad at x 2..6
  const auto ghost_skinned = skin_rig(rig, ghost_pose);
  RenderOptions opt;
  opt.view = {8, 4, 1, 0, 0};
  const auto plain = render_pose(rig, tex, pose, skin_rig(rig, pose), opt);
  REQUIRE(plain);
  CHECK(onion_px(*plain, 1, 1) == std::array<int, 4>{0, 0, 0, 0});

  GhostFrame ghost;
  ghost.pose = &ghost_pose;
  ghost.skinned = &ghost_skinned;
  ghost.opacity = 0.5;
  ghost.tint = 0x80b0ff;
  opt.ghosts = {ghost};
  const auto onion = render_pose(rig, tex, pose, skin_rig(rig, pose), opt);
  REQUIRE(onion);
  // Where only the ghost is: white times the tint, at half opacity (alpha round(127.5) = 128). The
  // canvas holds premultiplied bytes: green 176 * 0.5 = 88, read back as 88 * 255 / 128 = 175.3.
  CHECK(onion_px(*onion, 1, 1) == std::array<int, 4>{128, 175, 255, 128});
  // Where both are, the current frame is on top and opaque; beyond both, nothing.
  CHECK(onion_px(*onion, 3, 1) == std::array<int, 4>{255, 255, 255, 255});
  CHECK(onion_px(*onion, 5, 1) == std::array<int, 4>{255, 255, 255, 255});
  CHECK(onion_px(*onion, 7, 1) == std::array<int, 4>{0, 0, 0, 0});
  CHECK(onion_px(*onion, 3, 1) == onion_px(*plain, 3, 1));

  // The ghost's own sprite opacity and tint multiply in: 0.5 * 0.5 = alpha 64; red 0x80 * 0x80 / 255
  // = 64 (premultiplied 16, read back 63.75); green 176 * 0.25 = 44, read back 175.3.
  RigPose faint = ghost_pose;
  faint.sprite.opacity = 0.5;
  faint.sprite.color = 0x80ffff;
  opt.ghosts[0].pose = &faint;
  const auto fainter = render_pose(rig, tex, pose, skin_rig(rig, pose), opt);
  REQUIRE(fainter);
  CHECK(onion_px(*fainter, 1, 1) == std::array<int, 4>{64, 175, 255, 64});
  // A hidden ghost sprite, or a ghost without a pose, draws nothing.
  faint.sprite.visible = false;
  CHECK(render_pose(rig, tex, pose, skin_rig(rig, pose), opt)->rgba == plain->rgba);
  opt.ghosts[0].pose = nullptr;
  CHECK(render_pose(rig, tex, pose, skin_rig(rig, pose), opt)->rgba == plain->rgba);
}

TEST_CASE("pose job: --onion draws the frames sampled before each frame", "[preview][job][onion]") {
  PoseJob job;
  job.rig_path = kOnionData + "/assets/rigs/bar.rig2d.json";
  job.range_of_motion = RangeOfMotionOptions{};
  job.framing.fit = true;
  job.background = {32, 32, 32, 1};
  auto plain = run_pose_job(job);
  REQUIRE(plain);
  job.onion = 2;
  auto onion = run_pose_job(job);
  REQUIRE(onion);
  REQUIRE(onion->frame_pngs.size() == plain->frame_pngs.size());
  // The first frame has nothing before it; the next ones show where the bar was.
  CHECK(onion->frame_pngs[0] == plain->frame_pngs[0]);
  CHECK(onion->frame_pngs[1] != plain->frame_pngs[1]);
  CHECK(onion->frame_pngs[3] != plain->frame_pngs[3]);
  CHECK(onion->view.width == plain->view.width);
  CHECK(onion->diagnostics.size() == plain->diagnostics.size());
  // Deterministic; and the vertex dump keeps every frame's vertices (ghosts need them after).
  job.vertices = true;
  auto again = run_pose_job(job);
  REQUIRE(again);
  CHECK(again->frame_pngs == onion->frame_pngs);
  job.onion = 0;
  auto dumped = run_pose_job(job);
  REQUIRE(dumped);
  CHECK(again->vertices_json == dumped->vertices_json);

  // One sampled frame has no frames before it: a warning, and the frame as without --onion.
  job.onion = 3;
  job.vertices = false;
  job.times = {0.25};
  auto one = run_pose_job(job);
  REQUIRE(one);
  REQUIRE(one->frame_pngs.size() == 1);
  bool warned = false;
  for (const Diagnostic& d : one->diagnostics) warned = warned || d.code == "pose.onion.none";
  CHECK(warned);
}
