// SPDX-License-Identifier: Apache-2.0
// Private: figures of a part's skin weights (dominance, rigid area, weight reaching across a gap).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "quality/shape_raster.h"
#include "rig2d/quality/deform_check.h"

namespace rig2d::detail {

// Per vertex, the bone of the slot with the strictly greatest positive weight (first slot on
// ties), or -1 when no slot has weight > 0.
std::vector<std::int64_t> dominant_bones(const Part& part, std::size_t bone_count);

// Fills stats.rigid_fraction: bind area of triangles whose three vertices are each bound to one and
// the same bone (that bone's summed weight >= rigid_weight) over the bind area of all triangles.
void measure_rigid(const Part& part, double rigid_weight, PartDeformStats& stats);

struct LeakOptions {
  double detour = 2;     // ratio: a weight leaks when going around is this many times the straight distance
  double tolerance = 2;  // px added to the allowed detour
};

// Fills the leak fields. A slot weight w of bone b at vertex v leaks when the shortest way from v
// to b through the shape (cells near a solid one, see dilate_rim) is longer than detour * the
// straight distance + tolerance, or does not exist: the weight got there across a gap, not
// through the art. Only the parts of b that lie on the shape count (a bone drawn across the gap
// between two legs is measured from where it is on the art); a bone entirely off the shape, and
// vertices on a piece of the shape no bone touches, are not judged. leaked_by_bone[b]
// accumulates the leaked weight.
void measure_leak(const Rig& rig, const Part& part, const ShapeRaster& shape, const LeakOptions& options,
                  PartDeformStats& stats, std::vector<double>& leaked_by_bone);

// The pieces of measure_leak, for tests.
struct NearestPoint {
  double distance = HUGE_VAL;
  Vec2 point;
};
// The point nearest p and its distance: min over points of std::hypot(q - p), to the bit.
NearestPoint nearest_point(const std::vector<Vec2>& points, Vec2 p);
// Whether a straight run of shape cells joins q's cell to p's within `allowed` px (with room for the
// search's float sums), so the shortest way through the shape between them is within it too.
bool clearly_within(const ShapeRaster& shape, Vec2 p, Vec2 q, double allowed);
// Shortest distances in px through the shape's cells from `sources` (cell indices), 8-connected
// steps of 1 and sqrt 2 cells, exact for every cell within `reach`; a farther cell holds its
// distance or more (infinity when unreached).
std::vector<float> distances_through_shape(const ShapeRaster& shape, const std::vector<std::size_t>& sources,
                                           double reach = HUGE_VAL);

}  // namespace rig2d::detail
