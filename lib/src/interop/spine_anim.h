// SPDX-License-Identifier: Apache-2.0
// Spine animations -> .anim.json clips (private to the library).
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "interop/common.h"

namespace rig2d::interop {

struct SpineAnimContext {
  const JsonSource& src;
  const Rig& rig;  // the imported rig: bind pose and bone names
  const std::map<std::string, int>& bone_index;
  std::vector<Diagnostic>& diagnostics;
  std::vector<std::array<double, 4>> parent_linear;  // per bone: the parent's Spine world a, b, c, d (identity for roots)
  std::vector<bool> rigid;                           // per bone: its setup world transform has no scale or shear
};

// One animation: bone rotate / translate (translatex, translatey) timelines become rz / x / y tracks;
// everything else is reported. Throws ConvertFailure on malformed timelines.
Clip spine_animation_to_clip(SpineAnimContext& ctx, const std::string& name, const detail::Json& anim,
                             const std::string& rig_id);

// Spine's piecewise-linear reading of a Bézier segment: the 9 interior points at u = 0.1 .. 0.9.
std::array<Vec2, 9> spine_bezier_samples(double t0, double v0, double cx1, double cy1, double cx2, double cy2, double t1,
                                         double v1);

}  // namespace rig2d::interop
