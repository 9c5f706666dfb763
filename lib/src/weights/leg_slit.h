// SPDX-License-Identifier: Apache-2.0
// A slit between two legs drawn touching: the mesh is cut apart along the line between them, so
// each side is skinned by its own leg only and a clip that swings them together overlaps them
// instead of turning the triangles that bridged them inside out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rig2d/rig/rig.h"

namespace rig2d::detail {

// The two legs of one pair, per bone: 1 = in that leg's chain (the leg's first bone and all its
// descendants).
struct LegPair {
  std::vector<std::uint8_t> left;
  std::vector<std::uint8_t> right;
};

// Cuts `mesh` between the legs of each pair where their triangles meet: a triangle belongs to the
// leg whose bone is nearest to its centroid (or to neither), and every vertex that only triangles of
// the two legs of one pair share is duplicated, the copy taking the second leg's triangles. The cut
// ends where another bone's triangles begin (the crotch). The copies are appended in vertex order.
// Returns the number of vertices added (0: the mesh is unchanged, also when the copies would take it
// over `max_vertices`). Deterministic.
std::size_t slit_between_legs(Mesh& mesh, std::span<const Bone> bones, std::span<const LegPair> legs,
                              std::size_t max_vertices);

}  // namespace rig2d::detail
