// SPDX-License-Identifier: Apache-2.0
// Spine bones and their world transforms, as the runtimes compute them for the setup pose (skeleton at
// the origin, scale 1). Shared by the importer and the constraint solver (private to the library).
#pragma once

#include <string>

namespace rig2d::interop {

enum class SpineInherit { Normal, OnlyTranslation, NoRotationOrReflection, NoScale, NoScaleOrReflection };

// A bone's local transform: the setup pose as read, or the applied one a constraint left.
struct SpineLocal {
  double x = 0, y = 0, rotation = 0, scale_x = 1, scale_y = 1, shear_x = 0, shear_y = 0;
};

struct SpineBone {
  std::string name;
  int parent = -1;
  double x = 0, y = 0, rotation = 0, scale_x = 1, scale_y = 1, shear_x = 0, shear_y = 0;  // setup pose
  SpineInherit inherit = SpineInherit::Normal;
  SpineLocal applied;  // what the world transform was last computed from
  // World transform, Spine layout: world = (a*x + b*y + wx, c*x + d*y + wy), y up.
  double a = 1, b = 0, c = 0, d = 1, wx = 0, wy = 0;

  SpineLocal setup() const { return {x, y, rotation, scale_x, scale_y, shear_x, shear_y}; }
};

// cos and sin of degrees, exact at multiples of 90 (cos 90 = 0, not 6e-17), so axis-aligned setups
// give clean numbers.
double cos_deg(double deg);
double sin_deg(double deg);

// The runtimes' Bone.updateWorldTransform from `local` (which becomes the bone's applied transform).
void spine_update_world(SpineBone& bone, const SpineBone* parent, const SpineLocal& local);
inline void spine_update_world(SpineBone& bone, const SpineBone* parent) { spine_update_world(bone, parent, bone.setup()); }

// The runtimes' Bone.updateAppliedTransform: the local transform that gives the bone's current world
// transform (after a constraint changed the world transform directly).
void spine_update_applied(SpineBone& bone, const SpineBone* parent);

}  // namespace rig2d::interop
