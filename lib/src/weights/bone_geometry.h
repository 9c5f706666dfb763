// SPDX-License-Identifier: Apache-2.0
// bone_segments over an already-built mesh graph (shared by the public call and the heat weights).
#pragma once

#include <span>
#include <vector>

#include "rig2d/weights/bone_segments.h"
#include "weights/mesh_graph.h"

namespace rig2d::detail {

// `joints` = joint_positions(bones). See rig2d::bone_segments for the rules.
std::vector<BoneSegment> bone_segments_on(std::span<const Bone> bones, std::span<const Vec2> joints,
                                          std::span<const Vec2> verts, const MeshGraph& graph,
                                          double default_leaf_length);

}  // namespace rig2d::detail
