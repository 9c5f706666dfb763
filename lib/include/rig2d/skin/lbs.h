// SPDX-License-Identifier: Apache-2.0
// Four-influence linear blend skinning, as the engine's skinVertex2D. No allocation.
#pragma once

#include <cstdint>
#include <span>

#include "rig2d/core/affine.h"
#include "rig2d/export.h"

namespace rig2d {

// One vertex: sum over slots k of w[k] * (skin[idx[k]] applied to p), slots with w == 0 or an index
// >= skin.size() skipped, weights not renormalized. Result in double.
RIG2D_EXPORT Vec2 skin_vertex(Vec2 p, const std::uint32_t* idx, const double* w,
                              std::span<const Affine2> skin);

// Sizes: skin_indices and skin_weights hold 4 * bind.size(), out.size() == bind.size().
// `out` is rounded to float32 as the engine's buffer stores it. With no bones every vertex is (0,0).
// Runs 8 vertices at a time with AVX-512 when the CPU has it (up to 32 bones); every path gives the
// same bits.
RIG2D_EXPORT void skin_vertices(std::span<const Vec2> bind, std::span<const std::uint32_t> skin_indices,
                                std::span<const double> skin_weights, std::span<const Affine2> skin,
                                std::span<Vec2> out);

}  // namespace rig2d
