// SPDX-License-Identifier: Apache-2.0
// A two-quad strip for bend tests: the quads' figures are easy to work out by hand.
#pragma once

#include <cstdint>
#include <string>

#include "rig2d/rig/rig.h"

namespace rig2d::test {

// Two 10 x (2 half_height) quads along +x: vertices at x = 0 and x = 10 follow "root", those at
// x = 20 follow "tip" (joint at (10, 0)). With end_bone, a leaf "end" at x = 20 that weighs nothing.
inline Rig strip_rig(double half_height, bool end_bone) {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}, {"tip", 0, 10, 0, 0}};
  if (end_bone) rig.bones.push_back({"end", 1, 10, 0, 0});
  Part part;
  const double h = half_height;
  part.mesh.verts = {{0, -h}, {10, -h}, {20, -h}, {0, h}, {10, h}, {20, h}};
  part.mesh.uvs = {{0, 0}, {0.5, 0}, {1, 0}, {0, 1}, {0.5, 1}, {1, 1}};
  part.mesh.tris = {0, 3, 1, 1, 3, 4, 1, 4, 2, 2, 4, 5};
  for (const std::uint32_t bone : {0u, 0u, 1u, 0u, 0u, 1u}) {
    part.skin_indices.insert(part.skin_indices.end(), {bone, 0, 0, 0});
    part.skin_weights.insert(part.skin_weights.end(), {1, 0, 0, 0});
  }
  rig.parts = {part};
  return rig;
}

}  // namespace rig2d::test
