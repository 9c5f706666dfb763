// SPDX-License-Identifier: Apache-2.0
// A sprite from a few fuzzer bytes: its width and height, then a byte per pixel into a 16-colour
// palette. Mutations of it change shapes and colours; mutations of PNG bytes mostly break the PNG's
// checksums and stop at the decoder.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rig2d/image/image.h"

namespace rig2d::fuzz {

// Width and height (1..256), then a byte per pixel, its low four bits a colour of the palette (0:
// transparent; three half-transparent ones); pixels past the data are transparent. An empty image
// for fewer than two bytes.
inline Image palette_image(const std::uint8_t* data, std::size_t size) {
  static constexpr std::uint8_t kPalette[16][4] = {
      {0, 0, 0, 0},         {0, 0, 0, 255},      {255, 255, 255, 255}, {128, 128, 128, 255},
      {240, 200, 160, 255}, {200, 40, 40, 255},  {40, 160, 60, 255},   {40, 60, 200, 255},
      {240, 220, 60, 255},  {120, 70, 30, 255},  {20, 20, 80, 255},    {200, 200, 200, 255},
      {250, 140, 30, 255},  {0, 0, 0, 64},       {0, 0, 0, 128},       {90, 40, 120, 200}};
  Image image;
  if (size < 2) return image;
  image.width = 1 + data[0];
  image.height = 1 + data[1];
  const std::size_t pixels = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
  image.rgba.assign(4 * pixels, 0);
  for (std::size_t i = 0; i < pixels && i + 2 < size; ++i)
    for (std::size_t c = 0; c < 4; ++c) image.rgba[4 * i + c] = kPalette[data[i + 2] & 15][c];
  return image;
}

}  // namespace rig2d::fuzz
