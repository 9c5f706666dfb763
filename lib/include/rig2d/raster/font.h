// SPDX-License-Identifier: Apache-2.0
// Label text for previews: DejaVu Sans (Debian's fonts-dejavu-core), compiled into the library at
// build time and rasterized with stb_truetype, antialiased. Text is UTF-8; invalid bytes and control
// characters draw as U+FFFD, characters the font lacks as its empty box. Sizes are the pixel height
// from the font's ascender to its descender [Limit: 1..512 px; outside nothing is drawn or measured].
// Glyph origins snap to quarter pixels and baselines to whole pixels, so the same call gives the
// same bytes on every run.
#pragma once

#include <string>
#include <string_view>

#include "rig2d/export.h"
#include "rig2d/raster/canvas.h"

namespace rig2d {

// Vertical extent of a line at `size` px, rounded outwards to whole pixels.
struct FontMetrics {
  int ascent = 0;   // px above the baseline
  int descent = 0;  // px below the baseline (positive)
  int height = 0;   // ascent + descent
};

RIG2D_EXPORT FontMetrics label_metrics(double size);

// The pen advance of `text` in px (with kerning); 0 for empty text or a size out of range.
RIG2D_EXPORT double label_advance(std::string_view text, double size);

// Draws `text` with its pen starting at x (px) on the baseline y (px, rounded to a whole pixel),
// source-over in `paint` (coverage * paint.alpha). Clipped to the canvas.
RIG2D_EXPORT void draw_label(Canvas& canvas, double x, double baseline_y, std::string_view text, double size,
                             Paint paint);

// `text` if it fits in max_width px, else its longest prefix (whole code points) followed by "…"
// that fits; "" when not even the ellipsis fits.
RIG2D_EXPORT std::string elide_label(std::string_view text, double size, double max_width);

}  // namespace rig2d
