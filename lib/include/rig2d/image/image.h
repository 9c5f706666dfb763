// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

namespace rig2d {

// RGBA8, row-major, top-left origin, straight (not premultiplied) alpha; rgba.size() == 4*width*height.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;
};

}  // namespace rig2d
