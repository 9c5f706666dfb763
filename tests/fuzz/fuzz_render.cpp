// SPDX-License-Identifier: Apache-2.0
// The posing and rendering path on any bytes: read as a rig, render it at the bind pose and bent,
// with every overlay and an onion-skin ghost, and play its range-of-motion clip (every track must
// reach its own bone, and the written clip must read back); read as a clip, bind it to a fixed rig
// and sample it. Nothing may crash, every render must come back at the requested size, and skinning
// through SkinPlans must give skin_rig's bits.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "rig2d/anim/curve.h"
#include "rig2d/anim/range_of_motion.h"
#include "rig2d/preview/pose.h"
#include "rig2d/rig/rig_json.h"

namespace {

// Each render also draws the bind pose as an onion-skin ghost under the pose.
void render_checked(const rig2d::Rig& rig, const rig2d::RigPose& pose) {
  rig2d::RenderOptions opt;
  opt.view = {48, 40, 0.75, 24, 20};
  opt.overlays.wireframe = opt.overlays.bones = opt.overlays.names = true;
  const rig2d::RigPose bind = rig2d::bind_pose(rig);
  const auto bind_skinned = rig2d::skin_rig(rig, bind);
  opt.ghosts.push_back({&bind, &bind_skinned, {}, 0.4, 0x80b0ff});
  if (!rig.bones.empty()) opt.overlays.weights_bone = rig.bones.size() - 1;
  const auto skinned = rig2d::skin_rig(rig, pose);
  // Skinning through prepared plans gives the same bits, whatever the rig (a NaN's payload aside:
  // which of two NaN operands an instruction passes on is not part of the result).
  const auto planned = rig2d::skin_rig(rig, pose, rig2d::plan_skin(rig));
  const auto same = [](double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
  };
  if (planned.size() != skinned.size()) std::abort();
  for (std::size_t p = 0; p < skinned.size(); ++p) {
    if (planned[p].size() != skinned[p].size()) std::abort();
    for (std::size_t v = 0; v < skinned[p].size(); ++v) {
      if (!same(planned[p][v].x, skinned[p][v].x) || !same(planned[p][v].y, skinned[p][v].y)) std::abort();
    }
  }
  auto img = rig2d::render_pose(rig, {}, pose, skinned, opt);
  if (!img || img->width != 48 || img->height != 40 || img->rgba.size() != 48u * 40u * 4u) std::abort();
  opt.overlays.dominant = true;
  opt.overlays.weight_view = true;
  if (!rig2d::render_pose(rig, {}, pose, skinned, opt)) std::abort();
}

void play_range_of_motion(const rig2d::Rig& rig) {
  auto rom = rig2d::range_of_motion_clip(rig);
  if (!rom) return;
  const rig2d::ClipBinding binding = rig2d::bind_clip(rom->clip, rig);
  if (binding.bones.size() != rom->bones.size()) std::abort();
  for (std::size_t k = 0; k < binding.bones.size(); ++k)
    if (binding.bones[k].bone != rom->bones[binding.bones[k].track]) std::abort();
  for (const double t : {0.25, 0.75 + static_cast<double>(rom->bones.size() - 1)}) {
    rig2d::RigPose pose = rig2d::bind_pose(rig);
    rig2d::apply_clip(rom->clip, binding, t, pose);
    render_checked(rig, pose);
  }
  auto back = rig2d::read_clip(rig2d::write_clip(rom->clip, rig2d::KeyTangentMode::Free), "rom.anim.json");
  if (!back || back->tracks.size() != rom->clip.tracks.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto rig = rig2d::read_rig_normalized(text, "fuzz.rig2d.json")) {
    std::size_t work = 0;
    for (const auto& part : rig->parts) work += part.mesh.tris.size() + part.mesh.verts.size();
    if (work <= 200000) {
      rig2d::RigPose pose = rig2d::bind_pose(*rig);
      render_checked(*rig, pose);
      for (std::size_t b = 0; b < pose.bones.size(); ++b) pose.bones[b].rot += 0.3 * static_cast<double>(b + 1);
      if (!pose.bones.empty()) pose.bones[0].sx = -1.5;
      pose.sprite.flip_x = true;
      render_checked(*rig, pose);
      play_range_of_motion(*rig);
    }
  }
  if (auto clip = rig2d::read_clip(text, "fuzz.anim.json")) {
    rig2d::Rig rig;
    rig.bones = {{"root", -1, 0, 0, 0}, {"arm", 0, 10, 0, 0}, {"hand", 1, 5, 0, 0}};
    rig.parts.resize(1);
    rig.parts[0].name = "main";
    rig.parts[0].mesh.verts = {{0, 0}, {10, 0}, {15, 0}};
    rig.parts[0].mesh.tris = {0, 1, 2};
    rig.parts[0].skin_indices = {0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0};
    rig.parts[0].skin_weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const rig2d::ClipBinding binding = rig2d::bind_clip(*clip, rig);
    for (const double t : {-1.0, 0.0, 0.25, 0.5, 1.0, 7.5}) {
      rig2d::RigPose pose = rig2d::bind_pose(rig);
      rig2d::apply_clip(*clip, binding, rig2d::advance_clip_time(0, t, clip->duration, clip->loop), pose);
      render_checked(rig, pose);
    }
  }
  return 0;
}
