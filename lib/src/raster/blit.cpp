// SPDX-License-Identifier: Apache-2.0
#include <algorithm>

#include "raster/blend.h"
#include "rig2d/raster/draw.h"

namespace rig2d {

void draw_image(Canvas& canvas, const Image& image, int x, int y) {
  if (image.rgba.size() != 4 * static_cast<std::size_t>(std::max(0, image.width)) * static_cast<std::size_t>(std::max(0, image.height))) {
    return;
  }
  const auto stride = static_cast<std::size_t>(canvas.width);
  for (int j = 0; j < image.height; ++j) {
    const int py = y + j;
    if (py < 0 || py >= canvas.height) continue;
    for (int i = 0; i < image.width; ++i) {
      const int px = x + i;
      if (px < 0 || px >= canvas.width) continue;
      const std::uint8_t* s = &image.rgba[4 * (static_cast<std::size_t>(j) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(i))];
      const double a = s[3] / 255.0;
      std::uint8_t* dst = &canvas.rgba[4 * (static_cast<std::size_t>(py) * stride + static_cast<std::size_t>(px))];
      detail::blend_over(dst, s[0] * a, s[1] * a, s[2] * a, s[3]);
    }
  }
}

}  // namespace rig2d
