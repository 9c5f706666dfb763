// SPDX-License-Identifier: Apache-2.0
// The shape check of passes that index an image's pixels directly. Internal.
#pragma once

#include <cstddef>

#include "rig2d/image/image.h"

namespace rig2d::detail {

// A positive size and exactly 4 bytes per pixel.
inline bool image_well_formed(const Image& image) {
  return image.width > 0 && image.height > 0 &&
         image.rgba.size() == 4ull * static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
}

}  // namespace rig2d::detail
