// SPDX-License-Identifier: Apache-2.0
// Spine constraints (IK, transform, path, physics) applied once to the setup pose, as the Spine editor
// shows it in setup mode (private to the library).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "interop/common.h"
#include "interop/spine_bones.h"

namespace rig2d::interop {

struct SpineSetupContext {
  const JsonSource& src;
  const detail::Json& root;
  std::vector<SpineBone>& bones;  // setup-pose world transforms in; constrained ones out
  const std::map<std::string, int>& bone_index;
  std::vector<Diagnostic>& diagnostics;
  // The skins shown over the default one, in the order they are combined (later ones win). A
  // constraint or bone marked "skin" is active only when one of them lists it; a path constraint's
  // path attachment is looked up in them, last first, then in the default skin. Empty: the default
  // skin alone, as a skeleton with no skin set.
  std::vector<std::string> skins;
};

// Runs the skeleton's update order once from the setup pose, as the 4.2 runtimes' updateCache and
// updateWorldTransform do: constraints by their "order", each preceded by the bones it reads and
// followed by the bones below the ones it moved. Physics constraints are at rest in the setup pose
// and move nothing. Adds a note per constraint naming the bones it moved and by how much (rig2d keeps
// no constraint: clips are not re-solved). Throws ConvertFailure on a malformed constraint.
void apply_setup_constraints(SpineSetupContext& ctx);

}  // namespace rig2d::interop
