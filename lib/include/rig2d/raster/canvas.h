// SPDX-License-Identifier: Apache-2.0
// The software renderer's surfaces: a premultiplied-alpha RGBA8 canvas and textures sampled
// bilinearly. Pixel space: origin top-left, +y down, pixel (i, j) covers [i, i+1) x [j, j+1).
// Everything is integer or fixed-order double arithmetic, so the same calls give the same bytes.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"

namespace rig2d {

// A straight-alpha colour with a separate opacity (what a draw call paints with).
struct Paint {
  std::uint8_t r = 0, g = 0, b = 0;
  double alpha = 1;  // 0..1, multiplies coverage
};

// Premultiplied RGBA8, row-major; rgba.size() == 4 * width * height.
struct Canvas {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;
};

// A canvas filled with `background` (straight alpha; {0,0,0,0} = transparent).
// Errors: raster.size (a side < 1 or > kMaxImageSide, or more than kMaxImagePixels), checked
// before allocating.
RIG2D_EXPORT Result<Canvas> make_canvas(int width, int height, Paint background);

// Straight-alpha image of the canvas (colour = premultiplied * 255 / alpha, rounded; alpha 0 -> 0).
RIG2D_EXPORT Image canvas_to_image(const Canvas& canvas);

// Parses "#RRGGBB", "#RRGGBBAA", "RRGGBB" or "transparent"/"none". Errors: raster.color.
RIG2D_EXPORT Result<Paint> parse_color(std::string_view text);

// A texture ready for sampling: premultiplied RGBA8 (c * a / 255, rounded), like a GPU upload.
struct Texture {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> premultiplied;
};

// `image` must be well formed (rgba.size() == 4 * width * height); an empty image gives an empty
// texture, which samples as transparent.
RIG2D_EXPORT Texture make_texture(const Image& image);

// Bilinear sample at (u, v) in 0..1 UV space (u right, v down), texel centres at (i + 0.5) / width,
// clamped to the edge. Out: premultiplied r, g, b, a in 0..255. Non-finite UVs give transparent.
RIG2D_EXPORT void sample_bilinear(const Texture& texture, double u, double v, double out[4]);

}  // namespace rig2d
