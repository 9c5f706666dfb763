// SPDX-License-Identifier: Apache-2.0
// The rasterizer: fill rule (watertightness), texture mapping, bilinear filter, premultiplied
// blending, tint, strokes, discs and text, each against hand-computed pixels.
#include <catch2/catch.hpp>

#include <random>

#include "rig2d/core/limits.h"
#include "rig2d/raster/canvas.h"
#include "rig2d/raster/draw.h"

using namespace rig2d;

namespace {

struct Rgba {
  int r, g, b, a;
  friend bool operator==(const Rgba&, const Rgba&) = default;
};

Rgba at(const Image& img, int x, int y) {
  const std::size_t i = 4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x));
  return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]};
}

Canvas canvas(int w, int h, Paint bg = {0, 0, 0, 1}) {
  auto c = make_canvas(w, h, bg);
  REQUIRE(c);
  return std::move(*c);
}

// A (cols x rows) grid over [x0,x1] x [y0,y1]; interior vertices jittered by up to +-0.45 cell.
struct Grid {
  std::vector<Vec2> pos;
  std::vector<std::uint32_t> idx;
};

Grid jittered_grid(double x0, double y0, double x1, double y1, int cols, int rows, unsigned seed, bool mix_winding) {
  Grid g;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.45, 0.45);
  const double cw = (x1 - x0) / cols, ch = (y1 - y0) / rows;
  for (int r = 0; r <= rows; ++r) {
    for (int c = 0; c <= cols; ++c) {
      double x = x0 + c * cw, y = y0 + r * ch;
      if (c > 0 && c < cols) x += jitter(rng) * cw;
      if (r > 0 && r < rows) y += jitter(rng) * ch;
      g.pos.push_back({x, y});
    }
  }
  auto id = [&](int c, int r) { return static_cast<std::uint32_t>(r * (cols + 1) + c); };
  int t = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const std::uint32_t a = id(c, r), b = id(c + 1, r), d = id(c, r + 1), e = id(c + 1, r + 1);
      const std::uint32_t tris[2][3] = {{a, d, e}, {a, e, b}};
      for (const auto& tri : tris) {
        if (mix_winding && (t++ % 2)) g.idx.insert(g.idx.end(), {tri[0], tri[2], tri[1]});
        else g.idx.insert(g.idx.end(), {tri[0], tri[1], tri[2]});
      }
    }
  }
  return g;
}

}  // namespace

TEST_CASE("raster: a jittered mesh over a rect covers each pixel of it exactly once", "[raster]") {
  const int w = 64, h = 48;
  for (const unsigned seed : {1u, 7u, 42u}) {
    for (const bool mix : {false, true}) {
      const Grid g = jittered_grid(3, 5, 57, 41, 9, 6, seed, mix);
      std::vector<std::uint32_t> counts(w * h, 0);
      accumulate_coverage(counts, w, h, g.pos, g.idx);
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const bool inside = x >= 3 && x < 57 && y >= 5 && y < 41;  // centres strictly inside
          INFO("seed " << seed << " mix " << mix << " pixel " << x << "," << y);
          REQUIRE(counts[y * w + x] == (inside ? 1u : 0u));
        }
      }
    }
  }
}

TEST_CASE("raster: a fan whose edges run through pixel centres covers each pixel once (tie rule)", "[raster]") {
  // Square [10.5, 30.5]^2 with the hub and all rim vertices on pixel centres; spokes hit centres.
  std::vector<Vec2> pos{{20.5, 20.5}};
  for (int i = 0; i < 4; ++i) pos.push_back({10.5 + 5 * i, 10.5});
  for (int i = 0; i < 4; ++i) pos.push_back({30.5, 10.5 + 5 * i});
  for (int i = 0; i < 4; ++i) pos.push_back({30.5 - 5 * i, 30.5});
  for (int i = 0; i < 4; ++i) pos.push_back({10.5, 30.5 - 5 * i});
  std::vector<std::uint32_t> idx;
  for (std::uint32_t i = 1; i <= 16; ++i) idx.insert(idx.end(), {0, i, i % 16 + 1});
  std::vector<std::uint32_t> counts(40 * 40, 0);
  accumulate_coverage(counts, 40, 40, pos, idx);
  // Top and left boundary centres belong to the square, bottom and right ones do not.
  for (int y = 0; y < 40; ++y) {
    for (int x = 0; x < 40; ++x) {
      const bool inside = x >= 10 && x < 30 && y >= 10 && y < 30;
      INFO("pixel " << x << "," << y);
      REQUIRE(counts[y * 40 + x] == (inside ? 1u : 0u));
    }
  }
}

TEST_CASE("raster: degenerate, non-finite and out-of-range triangles are skipped", "[raster]") {
  Canvas c = canvas(8, 8);
  const std::vector<Vec2> pos{{0, 0}, {4, 4}, {8, 8}, {std::nan(""), 1}, {1e9, 0}, {0, 8}};
  const std::vector<std::uint32_t> idx{0, 1, 2, 0, 3, 5, 0, 4, 5, 0, 1, 99, 0, 5, 2};
  const Paint white{255, 255, 255, 1};
  RasterStats stats;
  fill_triangles(c, pos, idx, std::span<const Paint>(&white, 1), &stats);
  CHECK(stats.triangles == 1);
  CHECK(stats.triangles_skipped == 4);
  CHECK(stats.pixels == 28);  // the lower-left half: 1 + 2 + ... + 7 pixel centres strictly below the diagonal
}

TEST_CASE("raster: an axis-aligned quad at texel resolution copies the texture exactly", "[raster]") {
  Image tex;
  tex.width = 8;
  tex.height = 4;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 8; ++x) {
      tex.rgba.insert(tex.rgba.end(), {static_cast<std::uint8_t>(30 * x), static_cast<std::uint8_t>(60 * y),
                                       static_cast<std::uint8_t>(255 - 20 * x), 255});
    }
  }
  const Texture t = make_texture(tex);
  Canvas c = canvas(12, 9, {0, 0, 0, 0});
  const std::vector<Vec2> pos{{2, 3}, {10, 3}, {10, 7}, {2, 7}};
  const std::vector<Vec2> uv{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const std::vector<std::uint32_t> idx{0, 1, 2, 0, 2, 3};
  draw_textured_triangles(c, pos, uv, idx, t, {255, 255, 255, 1});
  const Image out = canvas_to_image(c);
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 12; ++x) {
      const bool inside = x >= 2 && x < 10 && y >= 3 && y < 7;
      INFO(x << "," << y);
      CHECK(at(out, x, y) == (inside ? at(tex, x - 2, y - 3) : Rgba{0, 0, 0, 0}));
    }
  }
}

TEST_CASE("raster: bilinear sampling between texel centres, clamped at the edges", "[raster]") {
  Image tex;
  tex.width = 2;
  tex.height = 1;
  tex.rgba = {0, 0, 0, 255, 255, 255, 255, 255};
  const Texture t = make_texture(tex);
  double px[4];
  sample_bilinear(t, 0.25, 0.5, px);  // centre of texel 0
  CHECK(px[0] == 0);
  sample_bilinear(t, 0.5, 0.5, px);  // halfway
  CHECK(px[0] == 127.5);
  sample_bilinear(t, 0.625, 0.5, px);
  CHECK(px[0] == 191.25);
  sample_bilinear(t, -3, 9, px);  // clamp to texel 0
  CHECK(px[0] == 0);
  CHECK(px[3] == 255);
  sample_bilinear(t, std::nan(""), 0.5, px);
  CHECK(px[3] == 0);
}

TEST_CASE("raster: premultiplied source-over of a translucent texture (hand-computed)", "[raster]") {
  Image tex;
  tex.width = tex.height = 1;
  tex.rgba = {255, 0, 0, 128};
  const Texture t = make_texture(tex);
  CHECK(int(t.premultiplied[0]) == 128);  // (255 * 128 + 127) / 255
  Canvas c = canvas(4, 4, {0, 0, 255, 1});
  const std::vector<Vec2> pos{{0, 0}, {4, 0}, {4, 4}, {0, 4}};
  const std::vector<Vec2> uv{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const std::vector<std::uint32_t> idx{0, 1, 2, 0, 2, 3};
  draw_textured_triangles(c, pos, uv, idx, t, {255, 255, 255, 1});
  // r = 128 + 0, b = 0 + 255 * (1 - 128/255) = 127, a = 128 + 255 * 127/255 = 255.
  CHECK(at(canvas_to_image(c), 1, 1) == Rgba{128, 0, 127, 255});
}

TEST_CASE("raster: tint multiplies the colour, opacity the alpha (hand-computed)", "[raster]") {
  Image tex;
  tex.width = tex.height = 1;
  tex.rgba = {255, 255, 255, 255};
  const Texture t = make_texture(tex);
  const std::vector<Vec2> pos{{0, 0}, {2, 0}, {2, 2}, {0, 2}};
  const std::vector<Vec2> uv{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const std::vector<std::uint32_t> idx{0, 1, 2, 0, 2, 3};
  Canvas opaque = canvas(2, 2);
  draw_textured_triangles(opaque, pos, uv, idx, t, {0x80, 0x40, 0x20, 1});
  CHECK(at(canvas_to_image(opaque), 0, 0) == Rgba{128, 64, 32, 255});
  Canvas clear = canvas(2, 2, {0, 0, 0, 0});
  draw_textured_triangles(clear, pos, uv, idx, t, {0x80, 0x40, 0x20, 0.5});
  // premultiplied (64, 32, 16, 128) -> straight (128, 64, 32, 128)
  CHECK(at(canvas_to_image(clear), 1, 1) == Rgba{128, 64, 32, 128});
}

TEST_CASE("raster: strokes are butt-capped and a path paints its union once", "[raster]") {
  Canvas c = canvas(16, 12);
  const Segment line[] = {{{2, 5.5}, {12, 5.5}}};
  stroke_segments(c, line, 1, {255, 255, 255, 1});
  Image img = canvas_to_image(c);
  for (int x = 0; x < 16; ++x) {
    INFO(x);
    CHECK(at(img, x, 5).r == (x >= 2 && x < 12 ? 255 : 0));
    CHECK(at(img, x, 4).r == 0);
    CHECK(at(img, x, 6).r == 0);
  }
  // A line on a pixel boundary half-covers the two rows (8 of 16 samples each).
  Canvas d = canvas(16, 12);
  const Segment edge[] = {{{0, 5}, {16, 5}}};
  stroke_segments(d, edge, 1, {255, 255, 255, 1});
  img = canvas_to_image(d);
  CHECK(at(img, 7, 4).r == 128);
  CHECK(at(img, 7, 5).r == 128);
  // Two overlapping translucent segments in one call: the overlap is painted once.
  Canvas e = canvas(16, 12);
  const Segment cross[] = {{{0, 5.5}, {16, 5.5}}, {{7.5, 0}, {7.5, 12}}};
  stroke_segments(e, cross, 1, {255, 255, 255, 0.5});
  img = canvas_to_image(e);
  CHECK(at(img, 7, 5).r == 128);
  CHECK(at(img, 3, 5).r == 128);
}

TEST_CASE("raster: discs and rings", "[raster]") {
  Canvas c = canvas(20, 20);
  fill_disc(c, {10, 10}, 5, {74, 158, 255, 1});
  Image img = canvas_to_image(c);
  CHECK(at(img, 10, 10) == Rgba{74, 158, 255, 255});
  CHECK(at(img, 7, 9) == Rgba{74, 158, 255, 255});
  CHECK(at(img, 16, 10) == Rgba{0, 0, 0, 255});
  CHECK(at(img, 2, 2) == Rgba{0, 0, 0, 255});
  Canvas r = canvas(20, 20);
  stroke_circle(r, {10, 10}, 5, 1.5, {255, 255, 255, 1});
  img = canvas_to_image(r);
  CHECK(at(img, 10, 10).r == 0);  // hollow
  // Pixel (14, 9): the ring is 4.25..5.75 from the centre; the 4 samples of the column x = 14.125
  // lie within 4.25 (d^2 <= 17.8 < 18.06), the other 12 inside the ring: 12/16 * 255 = 191.25.
  CHECK(at(img, 14, 9).r == 191);
  CHECK(at(img, 13, 13).r == 255);  // d^2 in [19.5, 30.0]: every sample on the ring
}

TEST_CASE("raster: bitmap text", "[raster]") {
  Canvas c = canvas(12, 8);
  draw_text(c, 1, 1, "1.", 1, {255, 255, 255, 1});
  const Image img = canvas_to_image(c);
  // '1' rows: .#. ##. .#. .#. ###
  const char* rows[5] = {".#.", "##.", ".#.", ".#.", "###"};
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 3; ++x) CHECK(at(img, 1 + x, 1 + y).r == (rows[y][x] == '#' ? 255 : 0));
  }
  CHECK(at(img, 6, 5).r == 255);  // the '.' at column 1 of the second glyph, bottom row
  CHECK(text_width("1.", 1) == 7);
  CHECK(text_width("t=0.5", 2) == 38);
}

TEST_CASE("raster: canvas sizes are checked before allocating", "[raster]") {
  CHECK_FALSE(make_canvas(0, 5, {}));
  CHECK_FALSE(make_canvas(5, -1, {}));
  CHECK_FALSE(make_canvas(kMaxImageSide + 1, 1, {}));
  CHECK(make_canvas(kMaxImageSide, 1, {}));
  auto huge = make_canvas(kMaxImageSide, kMaxImageSide, {});
  REQUIRE_FALSE(huge);
  CHECK(huge.error().code == "raster.size");
}

TEST_CASE("raster: colours parse from hex", "[raster]") {
  auto c = parse_color("#ff8000");
  REQUIRE(c);
  CHECK(c->r == 255);
  CHECK(c->g == 128);
  CHECK(c->b == 0);
  CHECK(c->alpha == 1);
  auto t = parse_color("00000080");
  REQUIRE(t);
  CHECK(t->alpha == 128 / 255.0);
  CHECK(parse_color("transparent")->alpha == 0);
  CHECK_FALSE(parse_color("#12345"));
  CHECK(parse_color("#zzzzzz").error().code == "raster.color");
}
