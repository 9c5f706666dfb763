// SPDX-License-Identifier: Apache-2.0
// Private: figures of a part's skin weights (dominance, rigid area, weight reaching across a gap).
#pragma once

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

// Fills the leak fields: a slot weight w of bone b at vertex v leaks when the straight path from v
// to the nearest point of b's segments, once it has entered the solid shape, leaves it for longer
// than gap_tolerance px and enters it again. leaked_by_bone[b] accumulates the leaked weight.
void measure_leak(const Rig& rig, const Part& part, const ShapeRaster& shape, double gap_tolerance,
                  PartDeformStats& stats, std::vector<double>& leaked_by_bone);

}  // namespace rig2d::detail
