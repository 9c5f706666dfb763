// SPDX-License-Identifier: Apache-2.0
// A drop shadow baked into the sprite (a dark, semi-transparent patch under a character) is covered
// by the mesh but should shape no bones: left in, it joins the feet into one blob and the legs lose
// their chains. Internal to the shape skeleton.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rig2d/image/image.h"

namespace rig2d::detail {

struct DropShadow {
  std::vector<std::uint8_t> pixels;  // 1 = a shadow pixel (row-major, width x height); empty: no shadow
  double share = 0;                  // deep shadow pixels / covered pixels (the test below)
  // The counts the verdict starts from (0 when no alpha lies between the threshold and half the highest).
  std::size_t covered = 0, solid = 0, shadow_pixels = 0;
  // 1 = alpha > alpha_threshold (row-major), found by the same pass as the counts, for the coverage
  // mask; empty when the counts did not run or the coverage was given.
  std::vector<std::uint8_t> coverage;
};

// Shadow pixels are covered (alpha > alpha_threshold) but at most half as opaque as the sprite's
// most opaque pixel, and dark (no channel above kShadowMaxChannel). The sprite has a drop shadow when
// shadow pixels at least kShadowDepth px inside the coverage (so not an antialiased or blurred dark
// edge) make up kShadowMinShare of the covered pixels, while pixels above half the highest alpha make
// up kShadowMinSolid of them (a semi-transparent sprite with opaque details, a ghost with eyes, is no
// shadow with a figure on it). `covered_pixels`, when given, is the image's coverage as `coverage`
// would hold it (width * height bytes), which the pass then reads instead of writing it.
DropShadow find_drop_shadow(const Image& image, int alpha_threshold, const std::uint8_t* covered_pixels = nullptr);

}  // namespace rig2d::detail
