// SPDX-License-Identifier: Apache-2.0
// Few-corner hulls of the islands of an outline: what a sheet of many separate sprites is meshed with
// when its outline is over the vertex budget. Each hull contains its island whole (a hull never clips
// what the outline covers), unlike a coarser outline, whose shortcuts cut corners.
#pragma once

#include <cstddef>
#include <vector>

#include "rig2d/export.h"
#include "rig2d/geometry/simplify.h"
#include "rig2d/geometry/triangulate.h"

namespace rig2d {

// The convex hull of each island of `rings` (the rings wound as islands: negative shoelace sum, y
// down; holes lie inside their island and are covered), islands whose hulls overlap sharing one; then
// each hull, in order, cut down towards `max_corners` corners (>= 3) by removing, while any is left,
// the edge whose neighbouring edges, extended to meet, add the least area, where the added triangle
// stays inside `frame` and off every other hull. So no two hulls overlap, and a hull with no room to
// lose more corners keeps more than `max_corners` (a parallelogram, whose opposite edges never meet,
// stops at 4). Each hull is wound like an island; the hulls come in
// the order of their first island. Deterministic.
RIG2D_EXPORT std::vector<Ring> island_hulls(const std::vector<Ring>& rings, std::size_t max_corners,
                                            const ClipFrame& frame);

}  // namespace rig2d
