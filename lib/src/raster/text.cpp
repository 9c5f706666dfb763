// SPDX-License-Identifier: Apache-2.0
// A 3x5 pixel font for frame labels (contact sheets). Each glyph is 5 rows of 3 bits, MSB = left.
#include <cctype>

#include "raster/blend.h"
#include "rig2d/raster/draw.h"

namespace rig2d {
namespace {

struct Glyph {
  char ch;
  unsigned char rows[5];
};

constexpr Glyph kGlyphs[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 3, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 2, 2}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'a', {2, 5, 7, 5, 5}}, {'b', {6, 5, 6, 5, 6}},
    {'c', {3, 4, 4, 4, 3}}, {'d', {6, 5, 5, 5, 6}}, {'e', {7, 4, 6, 4, 7}}, {'f', {7, 4, 6, 4, 4}},
    {'g', {3, 4, 5, 5, 3}}, {'h', {5, 5, 7, 5, 5}}, {'i', {7, 2, 2, 2, 7}}, {'j', {1, 1, 1, 5, 2}},
    {'k', {5, 5, 6, 5, 5}}, {'l', {4, 4, 4, 4, 7}}, {'m', {5, 7, 7, 5, 5}}, {'n', {6, 5, 5, 5, 5}},
    {'o', {2, 5, 5, 5, 2}}, {'p', {6, 5, 6, 4, 4}}, {'q', {2, 5, 5, 6, 3}}, {'r', {6, 5, 6, 5, 5}},
    {'s', {3, 4, 2, 1, 6}}, {'t', {7, 2, 2, 2, 2}}, {'u', {5, 5, 5, 5, 7}}, {'v', {5, 5, 5, 5, 2}},
    {'w', {5, 5, 7, 7, 5}}, {'x', {5, 5, 2, 5, 5}}, {'y', {5, 5, 2, 2, 2}}, {'z', {7, 1, 2, 4, 7}},
    {'.', {0, 0, 0, 0, 2}}, {',', {0, 0, 0, 2, 4}}, {':', {0, 2, 0, 2, 0}}, {'=', {0, 7, 0, 7, 0}},
    {'-', {0, 0, 7, 0, 0}}, {'+', {0, 2, 7, 2, 0}}, {'/', {1, 1, 2, 4, 4}}, {'%', {5, 1, 2, 4, 5}},
    {'(', {1, 2, 2, 2, 1}}, {')', {4, 2, 2, 2, 4}}, {' ', {0, 0, 0, 0, 0}},
};
constexpr unsigned char kUnknown[5] = {7, 5, 5, 5, 7};

const unsigned char* glyph_rows(char ch) {
  const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const Glyph& g : kGlyphs) {
    if (g.ch == lower) return g.rows;
  }
  return kUnknown;
}

}  // namespace

int text_width(std::string_view text, int scale) {
  if (text.empty() || scale < 1) return 0;
  return static_cast<int>(text.size()) * 4 * scale - scale;  // 3 px glyph + 1 px gap, no trailing gap
}

int text_height(int scale) { return scale < 1 ? 0 : 5 * scale; }

void draw_text(Canvas& canvas, int x, int y, std::string_view text, int scale, Paint paint) {
  if (scale < 1) return;
  const double a = paint.alpha < 0 ? 0 : paint.alpha > 1 ? 1 : paint.alpha;
  const auto stride = static_cast<std::size_t>(canvas.width);
  for (std::size_t k = 0; k < text.size(); ++k) {
    const unsigned char* rows = glyph_rows(text[k]);
    const int gx = x + static_cast<int>(k) * 4 * scale;
    for (int row = 0; row < 5; ++row) {
      for (int col = 0; col < 3; ++col) {
        if (!(rows[row] & (4 >> col))) continue;
        for (int dy = 0; dy < scale; ++dy) {
          const int py = y + row * scale + dy;
          if (py < 0 || py >= canvas.height) continue;
          for (int dx = 0; dx < scale; ++dx) {
            const int px = gx + col * scale + dx;
            if (px < 0 || px >= canvas.width) continue;
            std::uint8_t* dst = &canvas.rgba[4 * (static_cast<std::size_t>(py) * stride + static_cast<std::size_t>(px))];
            detail::blend_over(dst, paint.r * a, paint.g * a, paint.b * a, 255 * a);
          }
        }
      }
    }
  }
}

}  // namespace rig2d
