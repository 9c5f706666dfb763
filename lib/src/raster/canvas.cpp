// SPDX-License-Identifier: Apache-2.0
#include "rig2d/raster/canvas.h"

#include <cmath>
#include <string>

#include "raster/blend.h"
#include "raster/sample.h"
#include "rig2d/core/limits.h"

namespace rig2d {

Result<Canvas> make_canvas(int width, int height, Paint background) {
  if (width < 1 || height < 1 || width > kMaxImageSide || height > kMaxImageSide ||
      static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) > kMaxImagePixels) {
    return make_error("raster.size", "canvas size " + std::to_string(width) + "x" + std::to_string(height) +
                                         " is out of range (1.." + std::to_string(kMaxImageSide) + " px a side, at most " +
                                         std::to_string(kMaxImagePixels) + " pixels)");
  }
  Canvas canvas;
  canvas.width = width;
  canvas.height = height;
  const double a = background.alpha < 0 ? 0 : background.alpha > 1 ? 1 : background.alpha;
  const std::uint8_t px[4] = {detail::to_u8(background.r * a), detail::to_u8(background.g * a),
                              detail::to_u8(background.b * a), detail::to_u8(255 * a)};
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  canvas.rgba.resize(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 4; ++c) canvas.rgba[4 * i + static_cast<std::size_t>(c)] = px[c];
  }
  return canvas;
}

Image canvas_to_image(const Canvas& canvas) {
  Image image;
  image.width = canvas.width;
  image.height = canvas.height;
  image.rgba.resize(canvas.rgba.size());
  for (std::size_t i = 0; i + 3 < canvas.rgba.size(); i += 4) {
    const std::uint8_t a = canvas.rgba[i + 3];
    if (a == 0) continue;  // stays 0,0,0,0
    for (std::size_t c = 0; c < 3; ++c) {
      const unsigned v = (255u * canvas.rgba[i + c] + a / 2u) / a;  // rounded unpremultiply
      image.rgba[i + c] = static_cast<std::uint8_t>(v > 255 ? 255 : v);
    }
    image.rgba[i + 3] = a;
  }
  return image;
}

Result<Paint> parse_color(std::string_view text) {
  if (text == "transparent" || text == "none") return Paint{0, 0, 0, 0};
  std::string_view hex = text;
  if (!hex.empty() && hex.front() == '#') hex.remove_prefix(1);
  auto bad = [&] {
    return make_error("raster.color",
                      "\"" + std::string(text) + "\" is not a colour: use #RRGGBB, #RRGGBBAA or transparent");
  };
  if (hex.size() != 6 && hex.size() != 8) return bad();
  unsigned value[4] = {0, 0, 0, 255};
  for (std::size_t i = 0; i < hex.size(); ++i) {
    const char ch = hex[i];
    unsigned d = 0;
    if (ch >= '0' && ch <= '9') d = static_cast<unsigned>(ch - '0');
    else if (ch >= 'a' && ch <= 'f') d = static_cast<unsigned>(ch - 'a' + 10);
    else if (ch >= 'A' && ch <= 'F') d = static_cast<unsigned>(ch - 'A' + 10);
    else return bad();
    if (i % 2 == 0) value[i / 2] = 0;
    value[i / 2] = value[i / 2] * 16 + d;
  }
  return Paint{static_cast<std::uint8_t>(value[0]), static_cast<std::uint8_t>(value[1]),
               static_cast<std::uint8_t>(value[2]), value[3] / 255.0};
}

Texture make_texture(const Image& image) {
  Texture t;
  const std::size_t n = static_cast<std::size_t>(std::max(image.width, 0)) * static_cast<std::size_t>(std::max(image.height, 0));
  if (n == 0 || image.rgba.size() != 4 * n) return t;
  t.width = image.width;
  t.height = image.height;
  t.premultiplied.resize(4 * n);
  for (std::size_t i = 0; i < 4 * n; i += 4) {
    const unsigned a = image.rgba[i + 3];
    for (std::size_t c = 0; c < 3; ++c) {
      t.premultiplied[i + c] = static_cast<std::uint8_t>((image.rgba[i + c] * a + 127u) / 255u);
    }
    t.premultiplied[i + 3] = static_cast<std::uint8_t>(a);
  }
  return t;
}

void sample_bilinear(const Texture& texture, double u, double v, double out[4]) {
  detail::sample_bilinear_inline(texture, u, v, out);
}

}  // namespace rig2d
