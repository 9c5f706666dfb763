// SPDX-License-Identifier: Apache-2.0
// Fold relief: mends the weights that turn a triangle inside out when one bone bends.
//
// Bending bone b moves each vertex by the share of its weight that b's subtree holds. Where one corner
// of a triangle follows the bend much more than the other two (a crotch vertex between two limbs,
// weighted to the limb that swings into the other), that corner crosses the opposite edge before the
// bend is done. The corner hands part of its weight to b's parent, the side that stays, in steps of a
// quarter, and keeps the least step that lowers the number of folded triangles without raising it
// in any bend. The bends are those of rig2d-validate --deform: every bone with a parent, by +angle and
// -angle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "rig2d/core/types.h"
#include "rig2d/rig/rig.h"
#include "rig2d/weights/skin_weights.h"

namespace rig2d::detail {

struct FoldRelief {
  std::size_t folds_before = 0;      // folded triangles summed over the bends
  std::size_t folds_after = 0;
  std::size_t relieved_vertices = 0;  // weight changes made (a vertex may count more than once)
};

// `weights`: 4 slots per vertex of `verts` (indices < bones.size()), at most `max_influences` used.
// `allowed` (empty = every bone): a bone may take weight only where allowed[bone] != 0. Changed
// vertices keep at most `max_influences` slots, sorted by weight, summing to 1. Deterministic.
FoldRelief relieve_folds(std::span<const Vec2> verts, std::span<const std::uint32_t> tris,
                         std::span<const Bone> bones, std::span<const std::uint8_t> allowed, int max_influences,
                         double angle, SkinWeights& weights);

}  // namespace rig2d::detail
