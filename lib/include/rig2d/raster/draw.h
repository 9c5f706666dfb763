// SPDX-License-Identifier: Apache-2.0
// Drawing into a Canvas: triangle meshes (textured, flat, per-triangle colours), anti-aliased strokes
// and discs, and label text (raster/font.h). Positions are in pixel space (see canvas.h).
//
// Triangles use the top-left fill rule on fixed-point vertices (1/256 px): a pixel is covered when
// its centre is inside, or on a top or left edge. Triangles sharing an edge therefore never leave a
// crack or cover a pixel twice. Both windings are drawn; degenerate triangles, non-finite vertices
// and vertices beyond +/-2^21 px are skipped (counted in RasterStats). No anti-aliasing on triangles
// (as a GPU mesh draw without MSAA); strokes and discs use 4x4 supersampled coverage.
// All blending is premultiplied source-over: dst = src + dst * (1 - src.a).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "rig2d/core/types.h"
#include "rig2d/export.h"
#include "rig2d/raster/canvas.h"

namespace rig2d {

struct RasterStats {
  std::uint64_t triangles = 0;          // triangles rasterized
  std::uint64_t triangles_skipped = 0;  // degenerate, non-finite, out of range or bad indices
  std::uint64_t pixels = 0;             // pixels shaded
};

// Textured triangles: `positions` in px, `uvs` (same count) in 0..1, `indices` 3 per triangle
// (indices >= positions.size() skip the triangle). Each texel colour is multiplied by `tint`
// (r, g, b / 255) and its alpha by tint.alpha, then blended.
RIG2D_EXPORT void draw_textured_triangles(Canvas& canvas, std::span<const Vec2> positions,
                                          std::span<const Vec2> uvs, std::span<const std::uint32_t> indices,
                                          const Texture& texture, Paint tint, RasterStats* stats = nullptr);

// Flat triangles: paints.size() == 1 paints every triangle alike, otherwise paints[t] is the paint
// of triangle t (indices.size() / 3 entries; missing ones skip the triangle).
RIG2D_EXPORT void fill_triangles(Canvas& canvas, std::span<const Vec2> positions,
                                 std::span<const std::uint32_t> indices, std::span<const Paint> paints,
                                 RasterStats* stats = nullptr);

// Adds 1 to counts[y * width + x] for every pixel each triangle covers (counts.size() ==
// width * height). The fill-rule reference for tests and mesh checks.
RIG2D_EXPORT void accumulate_coverage(std::span<std::uint32_t> counts, int width, int height,
                                      std::span<const Vec2> positions, std::span<const std::uint32_t> indices);

struct Segment {
  Vec2 a, b;
};

// Strokes every segment with `width` px and butt caps, as one path: overlapping segments paint their
// union once (a canvas stroke() of one path). Zero-length segments paint nothing.
RIG2D_EXPORT void stroke_segments(Canvas& canvas, std::span<const Segment> segments, double width, Paint paint);
// A filled axis-aligned rectangle from (x0, y0) to (x1, y1) px, as two flat triangles (same fill rule:
// a rectangle on whole pixels covers exactly the pixels inside it).
RIG2D_EXPORT void fill_rect(Canvas& canvas, double x0, double y0, double x1, double y1, Paint paint);
// A filled disc of `radius` px.
RIG2D_EXPORT void fill_disc(Canvas& canvas, Vec2 centre, double radius, Paint paint);
// A circle outline: the ring between radius - width/2 and radius + width/2.
RIG2D_EXPORT void stroke_circle(Canvas& canvas, Vec2 centre, double radius, double width, Paint paint);

// Blends a straight-alpha image onto the canvas with its top-left at (x, y) (clipped).
RIG2D_EXPORT void draw_image(Canvas& canvas, const Image& image, int x, int y);

// Label text in the label font (raster/font.h) at 7 * `scale` px (scale >= 1), antialiased, with the
// top of the line at (x, y). Widths and heights are whole pixels, rounded up.
RIG2D_EXPORT void draw_text(Canvas& canvas, int x, int y, std::string_view text, int scale, Paint paint);
RIG2D_EXPORT int text_width(std::string_view text, int scale);
RIG2D_EXPORT int text_height(int scale);

}  // namespace rig2d
