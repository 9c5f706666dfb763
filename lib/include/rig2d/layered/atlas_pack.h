// SPDX-License-Identifier: Apache-2.0
// Packing part images into one atlas texture (stb_rect_pack's skyline packer): deterministic, the
// same sizes always give the same places.
#pragma once

#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"

namespace rig2d {

struct AtlasOptions {
  int padding = 2;            // [Units: px] clear px around every image [Limit: 0..64]
  bool power_of_two = false;  // both sides rounded up to a power of two
  int max_side = 8192;        // [Units: px] [Limit: 1..kMaxImageSide]
};

struct AtlasPlacement {
  int width = 0, height = 0;          // the atlas
  std::vector<int> x, y;              // each image's top-left in it (inside its padding)
};

// Places images of these sizes: width fixed first (the widest image, or the square root of the total
// area with padding, whichever is larger, rounded up to 8 px), then as low as they pack. Errors:
// atlas.options (padding or max_side out of range), atlas.too_large (they do not fit max_side).
RIG2D_EXPORT Result<AtlasPlacement> pack_atlas(const std::vector<Image>& images, const AtlasOptions& options);

// The atlas image: every image copied to its place, clear elsewhere.
RIG2D_EXPORT Image compose_atlas(const std::vector<Image>& images, const AtlasPlacement& placement);

}  // namespace rig2d
