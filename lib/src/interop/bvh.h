// SPDX-License-Identifier: Apache-2.0
// BVH motion capture files: the joint hierarchy, its channels and the frames, and joint positions by
// forward kinematics. Private to interop (retarget.h is the public side).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"

namespace rig2d::detail {

struct BvhVec {
  double x = 0, y = 0, z = 0;
};

enum class BvhChannel { Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation };

struct BvhJoint {
  std::string name;
  std::int64_t parent = -1;  // index of the parent joint, -1 = the root
  BvhVec offset;             // from the parent joint, in the parent's frame
  std::vector<BvhChannel> channels;
  std::size_t first_value = 0;     // index of its first channel in a frame's values
  std::optional<BvhVec> end_site;  // a leaf's End Site offset
  std::vector<std::size_t> children;
};

struct BvhFile {
  std::vector<BvhJoint> joints;  // parents first
  std::size_t frames = 0;
  double frame_time = 0;  // s
  std::size_t values_per_frame = 0;
  std::vector<double> values;  // frames * values_per_frame
};

inline constexpr std::size_t kMaxBvhJoints = 1024;
inline constexpr std::size_t kMaxBvhValues = 10'000'000;

// Errors (file, line:col): bvh.syntax, bvh.channels, bvh.frames, bvh.limits.
Result<BvhFile> read_bvh(std::string_view text, const std::string& path);

// Every joint's world position and each end site's (nullopt for joints without one) at `frame`
// (SIZE_MAX = the rest pose: every channel 0).
struct BvhPose {
  std::vector<BvhVec> joints;
  std::vector<std::optional<BvhVec>> end_sites;
};
BvhPose bvh_pose(const BvhFile& file, std::size_t frame);

}  // namespace rig2d::detail
