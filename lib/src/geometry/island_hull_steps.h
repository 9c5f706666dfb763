// SPDX-License-Identifier: Apache-2.0
// island_hulls in its two steps, for a search over the corners (the vertex budget's hulls, a one-bone
// sprite's fewest-corner hull): the islands' convex hulls, which do not depend on the corners, made
// once, then cut down as often as the search asks. Internal.
#pragma once

#include <cstddef>
#include <vector>

#include "rig2d/geometry/island_hulls.h"

namespace rig2d::detail {

// The convex hull of each island of `rings`, islands whose hulls overlap sharing one, each wound like
// an island: island_hulls before any corner is cut.
std::vector<Ring> uncut_island_hulls(const std::vector<Ring>& rings);

// Per island of `rings`, the convex polygon of its points that reach furthest in 32 directions (of at
// most 256 of its points): inside the island's convex hull, so inside every hull island_hulls makes of
// it, in one pass over the points instead of a sort.
std::vector<Ring> inscribed_island_hulls(const std::vector<Ring>& rings);

// island_hulls(rings, max_corners, frame) given `hulls` = uncut_island_hulls(rings).
std::vector<Ring> cut_island_hulls(std::vector<Ring> hulls, std::size_t max_corners, const ClipFrame& frame);

}  // namespace rig2d::detail
