// SPDX-License-Identifier: Apache-2.0
// Rig clips as Godot 4 Animation sub-resources for the .tscn export: one Animation per clip in an
// AnimationLibrary, played by an AnimationPlayer beside the Skeleton2D. Private to the library.
#pragma once

#include <string>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/core/error.h"
#include "rig2d/rig/rig.h"

namespace rig2d::interop {

// A Godot text-resource string: quotes and backslashes escaped, newlines as \n.
std::string godot_quote(const std::string& s);

struct GodotAnimations {
  std::string sub_resources;  // the [sub_resource] sections, each ending in a blank line
  std::string player;         // the AnimationPlayer [node] section ("" when there is no clip)
  std::size_t count = 0;      // sub-resources written (for load_steps)
};

// `bone_nodes[i]` is bone i's node path under the Skeleton2D. Bone x / y / rz / sx / sy tracks become
// value tracks on position:x, position:y, rotation, scale:x, scale:y of its Bone2D (the values as the
// rig has them: local, radians, y down, as the Bone2D rest is written). Other tracks and deform tracks
// are left out with a warning (convert.godot.export.track / .deform).
GodotAnimations godot_animations(const Rig& rig, const std::vector<std::string>& bone_nodes,
                                 const std::vector<Clip>& clips, std::vector<Diagnostic>& diagnostics);

}  // namespace rig2d::interop
