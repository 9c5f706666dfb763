// SPDX-License-Identifier: Apache-2.0
// Legends for the weight views: a colour bar for a weight heatmap and bone-name swatches for the
// dominant-bone map, as panels stacked under a frame. Labels use the label font (raster/font.h).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"
#include "rig2d/raster/canvas.h"
#include "rig2d/raster/color_ramp.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

struct LegendStyle {
  double font_size = 12;               // px (label font)
  int padding = 6;                     // px around and between items
  Paint background{38, 38, 38, 1};
  Paint text{224, 224, 224, 1};
};

// "weight of BONE" over a horizontal bar of `ramp` from 0 (left) to 1 (right), ticked and labelled
// at 0, 0.25, 0.5, 0.75 and 1. `width` px (at least 180). Errors: raster.size.
RIG2D_EXPORT Result<Image> weight_legend(std::string_view bone_name, Ramp ramp, int width,
                                         const LegendStyle& style = {});

// One swatch in bone_color(b) and the bone's name per entry of `bones`, in the given order, wrapped
// into rows `width` px wide (at least 180) (a name too long for a row is elided with "…"). Indices past the rig's
// bones are labelled "#N". Errors: raster.size.
RIG2D_EXPORT Result<Image> bone_legend(const Rig& rig, std::span<const std::uint32_t> bones, int width,
                                       const LegendStyle& style = {});

// The bones the dominant-bone map paints (the dominant bone of each visible triangle's first
// vertex, as render_pose colours it), ascending, each once.
RIG2D_EXPORT std::vector<std::uint32_t> dominant_bones_shown(const Rig& rig);

// `top` with `bottom` under it, both left-aligned; the result is as wide as the wider one and the
// uncovered area is `background`. Errors: raster.size.
RIG2D_EXPORT Result<Image> stack_below(const Image& top, const Image& bottom, Paint background);

}  // namespace rig2d
