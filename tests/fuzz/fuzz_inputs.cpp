// SPDX-License-Identifier: Apache-2.0
// The small files and strings users write by hand, on any bytes: --bones files, texture sidecars,
// part layouts, pose files and --pose assignments, colours and overlay lists. No reader may crash or
// return an error without a code, and what a reader accepts keeps the promises its header makes.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/core/limits.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/autorig_inputs.h"
#include "rig2d/autorig/layout.h"
#include "rig2d/preview/pose_input.h"
#include "rig2d/preview/pose_job.h"
#include "rig2d/autorig/slices.h"
#include "rig2d/raster/canvas.h"

namespace {

template <class T>
bool coded(const rig2d::Result<T>& result) {
  if (!result && result.error().code.empty()) std::abort();
  return result.has_value();
}

// Names unique and non-empty, coordinates finite, every parent in range and no cycle.
void check_bones(const std::vector<rig2d::Bone>& bones) {
  if (bones.empty() || bones.size() > rig2d::kMaxBones) std::abort();
  std::set<std::string> names;
  const auto n = static_cast<std::int64_t>(bones.size());
  for (const rig2d::Bone& b : bones) {
    if (b.name.empty() || !names.insert(b.name).second) std::abort();
    if (!std::isfinite(b.x) || !std::isfinite(b.y) || !std::isfinite(b.rot)) std::abort();
    if (b.parent < -1 || b.parent >= n) std::abort();
  }
  for (const rig2d::Bone& b : bones) {
    std::int64_t at = b.parent;
    for (std::int64_t steps = 0; at >= 0; ++steps) {
      if (steps > n) std::abort();
      at = bones[static_cast<std::size_t>(at)].parent;
    }
  }
}

void check_layout(const rig2d::PartLayout& layout) {
  if (layout.width < 1 || layout.height < 1 || layout.width > rig2d::kMaxImageSide ||
      layout.height > rig2d::kMaxImageSide) {
    std::abort();
  }
  if (layout.parts.empty() || layout.parts.size() > rig2d::kMaxLayoutParts) std::abort();
  std::set<std::string> names;
  for (const rig2d::LayoutPart& p : layout.parts) {
    if (p.name.empty() || !names.insert(p.name).second) std::abort();
    if (p.png.empty() && !p.slice) std::abort();
  }
}

// A three-bone chain the pose readers address by name.
const rig2d::Rig& small_rig() {
  static const rig2d::Rig rig = [] {
    rig2d::Rig r;
    r.bones = {{"root", -1, 0, 0, 0}, {"arm", 0, 10, 0, 0}, {"arm.hand", 1, 10, 0, 0}};
    return r;
  }();
  return rig;
}

void check_pose(const rig2d::RigPose& pose) {
  for (const rig2d::BoneLocal& b : pose.bones) {
    for (double v : {b.x, b.y, b.rot, b.sx, b.sy}) {
      if (!std::isfinite(v)) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  if (auto bones = rig2d::parse_bones_json(text, "fuzz.bones.json"); coded(bones)) check_bones(*bones);

  if (coded(rig2d::parse_sprite_meta(text, "fuzz.png.meta.json"))) {
    // Setting the type keeps a sidecar readable, and then it says 2d.
    auto typed = rig2d::sprite_meta_with_2d_type(text, "fuzz.png.meta.json");
    if (!typed) std::abort();
    auto again = rig2d::parse_sprite_meta(*typed, "typed.meta.json");
    if (!again || again->type != rig2d::TextureType::TwoD) std::abort();
  }
  (void)coded(rig2d::parse_sprite_slices(text, "fuzz.png.meta.json"));

  if (auto layout = rig2d::parse_part_layout(text, "fuzz.layout.json"); coded(layout)) check_layout(*layout);

  const rig2d::Rig& rig = small_rig();
  rig2d::RigPose pose = rig2d::bind_pose(rig);
  if (coded(rig2d::apply_pose_file(rig, text, "fuzz.pose.json", pose))) check_pose(pose);
  rig2d::RigPose assigned = rig2d::bind_pose(rig);
  if (coded(rig2d::apply_pose_assignment(rig, text, assigned))) check_pose(assigned);

  (void)coded(rig2d::parse_color(text));
  (void)coded(rig2d::parse_overlays(rig, std::string(text)));
  return 0;
}
