// SPDX-License-Identifier: Apache-2.0
// draw_textured_triangles with a chosen pixel kernel, so tests can force the portable one and check
// that the packed one writes the same bytes. Private to the library.
#pragma once

#include <cstdint>
#include <span>

#include "rig2d/raster/draw.h"

namespace rig2d::detail {

enum class PixelKernel {
  portable,  // plain integer code
  packed,    // SSE2 where the build targets it, else the portable code
};

void draw_textured_triangles_with(PixelKernel kernel, Canvas& canvas, std::span<const Vec2> positions,
                                  std::span<const Vec2> uvs, std::span<const std::uint32_t> indices,
                                  const Texture& texture, Paint tint, RasterStats* stats);

}  // namespace rig2d::detail
