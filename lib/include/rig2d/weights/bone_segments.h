// SPDX-License-Identifier: Apache-2.0
// Bones as line segments in rig space, the geometry shape-aware weighting measures distances to.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

struct BoneSegment {
  std::uint32_t bone = 0;  // index into the bone list
  Vec2 a;                  // the bone's joint, rig space px
  Vec2 b;                  // the far end, px; b == a for a point bone
  bool leaf = false;       // made by the leaf rule (the bone has no child joint apart from its own)
};

// One segment per (bone, child) pair: joint -> child joint (children sitting on the joint are
// skipped). A bone without such a child is a leaf: it extends from its joint along its parent's
// direction (its own +x axis for a root or a zero-length parent link) as far as the mesh continues
// from the joint; when the joint is not inside `mesh` (or the mesh ends there) it gets
// `default_leaf_length` px instead (0 = a point). Bone joints come from the bind pose
// (joint_positions). Segments are ordered by bone, then child index. Non-finite joints give no segment.
RIG2D_EXPORT std::vector<BoneSegment> bone_segments(std::span<const Bone> bones, const Mesh& mesh,
                                                    double default_leaf_length = 0);

}  // namespace rig2d
