// SPDX-License-Identifier: Apache-2.0
// Which bones a rig's skin reads. Internal.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rig2d/rig/rig.h"

namespace rig2d::detail {

// Per bone: 1 when some part's kept slot reads it (weight not 0, as the engine skips zero weights;
// index in range), so its skin matrix reaches a vertex.
inline std::vector<std::uint8_t> bones_read_by_skin(const Rig& rig) {
  std::vector<std::uint8_t> read(rig.bones.size(), 0);
  for (const Part& part : rig.parts) {
    const std::size_t slots = std::min(part.skin_indices.size(), part.skin_weights.size());
    for (std::size_t k = 0; k < slots; ++k)
      if (part.skin_weights[k] != 0 && part.skin_indices[k] < read.size()) read[part.skin_indices[k]] = 1;
  }
  return read;
}

}  // namespace rig2d::detail
