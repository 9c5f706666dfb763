// SPDX-License-Identifier: Apache-2.0
// Pose sources for rig2d-pose: command-line assignments, pose files, and the vertex dump.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

// The index of the bone called `name` (the last one on duplicates, as the engine's boneIndexByName).
// Errors: pose.bone, whose message lists the rig's bone names.
RIG2D_EXPORT Result<std::size_t> find_bone(const Rig& rig, std::string_view name);

// Applies "BONE.FIELD=VALUE" (fields x, y: px; rot: radians; sx, sy: scale) to pose.bones; the bone
// name may contain dots (the last dot before '=' splits). Values are absolute locals, not deltas.
// Errors: pose.syntax, pose.bone, pose.field, pose.value (not a finite number).
RIG2D_EXPORT Result<void> apply_pose_assignment(const Rig& rig, std::string_view assignment, RigPose& pose);

// A pose file: {"bones": {"<name>": {"x": px, "y": px, "rot": rad, "sx": s, "sy": s}, ...},
//               "sprite": {"color": "#RRGGBB" or 0xRRGGBB number, "opacity": 0..1, "flipX": bool,
//                          "flipY": bool, "visible": bool}}; every member optional.
// Errors: json.*, pose.file (wrong shape), pose.bone, pose.field, pose.value; with pointer and line:col.
RIG2D_EXPORT Result<void> apply_pose_file(const Rig& rig, std::string_view text, const std::string& path,
                                          RigPose& pose);

// One rendered frame's skinned vertices, for --dump-vertices.
struct VertexFrame {
  std::optional<double> time;                   // s, for clip frames
  std::vector<std::vector<Vec2>> parts;         // skin_rig output
};

// {"frames": [{"time"?: s, "parts": [{"name": ..., "positions": [[x, y], ...]}]}]} as
// JSON.stringify(v, null, 2): float32 positions printed as the engine prints them.
RIG2D_EXPORT std::string vertices_json(const Rig& rig, std::span<const VertexFrame> frames);

}  // namespace rig2d
