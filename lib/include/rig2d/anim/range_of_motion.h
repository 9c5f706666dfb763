// SPDX-License-Identifier: Apache-2.0
// A range-of-motion test clip: each bone in turn swings from its bind angle to +angle, over to
// -angle and back, while every other bone holds its bind pose. The animator's first check of a new
// rig: every joint bends once, so folds, leaks and stiff joints show up bone by bone.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

inline constexpr double kMaxRangeOfMotionDeg = 180;
inline constexpr double kMaxRangeOfMotionSecondsPerBone = 60;

struct RangeOfMotionOptions {
  double angle_deg = 45;           // swing each way from the bind angle, (0, 180]
  double seconds_per_bone = 1;     // one bone's out-over-back swing, (0, 60]
  std::vector<std::size_t> bones;  // indices into the rig's bones, swung in this order; empty = every
                                   // bone with a parent in bone order (a root bone only turns the whole
                                   // sprite), or every bone when all are roots
};

struct RangeOfMotion {
  Clip clip;                        // one "rz" track per swung bone; duration = bones x seconds_per_bone
  std::vector<std::size_t> bones;   // the swung bones, in clip order (bone k swings over
                                    // [k, k+1) x seconds_per_bone)
  std::vector<Diagnostic> skipped;  // pose.rom.path: a bone a clip cannot address by name-path (a later
                                    // sibling of the same name shadows it, or its name holds a '/')
};

// The clip's tracks address bones by name-path from the rig's root, as the engine binds clips, with
// keys at 0, 1/4, 3/4 and 1 of each bone's slot (bind, bind + angle, bind - angle, bind) and flat
// tangents, so each swing eases in and out and the clip loops without a jump. Its id is derived from
// the rig's id, the angle and the timing, so the same inputs give the same clip. Errors: pose.rom
// (angle or seconds out of range, a bone index past the rig's bones), pose.rom.none (the rig has no
// bone to swing, or none a clip can address). Bones by name: find_bone (preview/pose_input.h).
RIG2D_EXPORT Result<RangeOfMotion> range_of_motion_clip(const Rig& rig, const RangeOfMotionOptions& options = {});

}  // namespace rig2d
