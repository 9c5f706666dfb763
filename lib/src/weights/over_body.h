// SPDX-License-Identifier: Apache-2.0
// Bones drawn over the rest of the figure (HeatWeightsOptions::over_body: an arm held against the
// torso): where they may take vertices from the body's own bones, and how softly they blend.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rig2d/rig/rig.h"
#include "rig2d/weights/bone_segments.h"

namespace rig2d::detail {

struct OverBodyBones {
  // Per bone, px: how far from its segments a bone over the body is a vertex's nearest bone (+inf for
  // the body's own bones).
  std::vector<double> reach;
  // Per bone, px: the least length its heat softening is set from (0 for the body's own bones).
  std::vector<double> soft_length;
  bool layered = false;  // some allowed bones are over the body and some are not
};

// `joints` = joint_positions(bones); `allowed` as HeatWeightsOptions::bone_mask (empty = every bone).
OverBodyBones over_body_bones(std::span<const Bone> bones, std::span<const Vec2> joints,
                              std::span<const std::uint8_t> over_body, std::span<const std::uint8_t> allowed);

// A leaf over the body (a hand against the thigh) ends within its reach of its joint, not where the
// mesh ends along its direction (down through the leg to the feet).
void cap_over_body_leaves(std::vector<BoneSegment>& segments, const OverBodyBones& over);

// Whether a bone over the body may be the nearest bone of a vertex `d` px from it whose nearest body
// bone is `body_d` px away.
bool over_body_takes(const OverBodyBones& over, std::uint32_t bone, double d, double body_d);

}  // namespace rig2d::detail
