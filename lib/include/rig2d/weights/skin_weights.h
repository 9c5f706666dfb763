// SPDX-License-Identifier: Apache-2.0
// Per-vertex skin weights in the engine's layout: kSlotsPerVertex (4) slots per vertex.
#pragma once

#include <cstdint>
#include <vector>

#include "rig2d/rig/rig.h"

namespace rig2d {

// indices[4v+k] / weights[4v+k]: slot k of vertex v. Used slots come first, sorted by weight
// (descending); weights of a vertex sum to 1; unused slots are index 0, weight 0.
struct SkinWeights {
  std::vector<std::uint32_t> indices;
  std::vector<double> weights;
};

}  // namespace rig2d
