// SPDX-License-Identifier: Apache-2.0
// Alpha coverage mask and the engine's UV-space isInside (ENGINE-SPEC §3.4 editor usage).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "image/coverage_pixels.h"
#include "rig2d/image/coverage.h"

using namespace rig2d;

namespace {

Image blank(int w, int h) {
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.assign(std::size_t(w) * std::size_t(h) * 4, 0);
  return img;
}

void set_alpha(Image& img, int x, int y, std::uint8_t a) {
  img.rgba[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4 + 3] = a;
}

// alpha > threshold per pixel, one 0/1 byte each.
std::vector<std::uint8_t> pixel_coverage(const Image& img, int threshold) {
  std::vector<std::uint8_t> covered(img.rgba.size() / 4);
  for (std::size_t i = 0; i < covered.size(); ++i) covered[i] = img.rgba[4 * i + 3] > threshold ? 1 : 0;
  return covered;
}

bool cell(const CoverageMask& m, int x, int y) { return m.inside[std::size_t(y) * std::size_t(m.width) + std::size_t(x)] != 0; }

// Reference downscale written from the rule's statement: cell (x, y) is covered iff any source pixel in
// [floor(x*w/mw), ceil((x+1)*w/mw)) x [floor(y*h/mh), ceil((y+1)*h/mh)) has alpha > threshold.
bool reference_cell(const Image& img, const CoverageMask& m, int x, int y, int threshold) {
  const std::int64_t w = img.width, h = img.height, mw = m.width, mh = m.height;
  const std::int64_t x0 = (x * w) / mw, x1 = ((x + 1) * w + mw - 1) / mw;
  const std::int64_t y0 = (y * h) / mh, y1 = ((y + 1) * h + mh - 1) / mh;
  for (std::int64_t sy = y0; sy < y1; ++sy) {
    for (std::int64_t sx = x0; sx < x1; ++sx) {
      if (img.rgba[std::size_t((sy * w + sx) * 4 + 3)] > threshold) return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("coverage: alpha > threshold, default 8", "[image][coverage]") {
  Image img = blank(3, 1);
  set_alpha(img, 0, 0, 8);
  set_alpha(img, 1, 0, 9);
  set_alpha(img, 2, 0, 255);
  auto m = coverage_mask(img);
  REQUIRE(m);
  CHECK(m->width == 3);
  CHECK(m->height == 1);
  CHECK_FALSE(cell(*m, 0, 0));
  CHECK(cell(*m, 1, 0));
  CHECK(cell(*m, 2, 0));
  CHECK(covered_cells(*m) == 2);

  CoverageOptions zero;
  zero.alpha_threshold = 0;
  auto m0 = coverage_mask(img, zero);
  REQUIRE(m0);
  CHECK(covered_cells(*m0) == 3);
}

TEST_CASE("coverage: large images shrink to 256 px on the long side, keeping every opaque pixel",
          "[image][coverage]") {
  Image img = blank(512, 128);
  set_alpha(img, 511, 127, 200);
  set_alpha(img, 3, 1, 200);
  auto m = coverage_mask(img);
  REQUIRE(m);
  CHECK(m->width == 256);
  CHECK(m->height == 64);
  CHECK(covered_cells(*m) == 2);
  CHECK(cell(*m, 255, 63));
  CHECK(cell(*m, 1, 0));

  // Tall image, non-integer ratio: 100 x 300 -> round(100 * 256 / 300) = round(85.33) = 85 x 256.
  auto tall = coverage_mask(blank(100, 300));
  REQUIRE(tall);
  CHECK(tall->width == 85);
  CHECK(tall->height == 256);
  CHECK(covered_cells(*tall) == 0);
}

TEST_CASE("coverage: downscaled mask equals the footprint rule cell by cell", "[image][coverage]") {
  // Ratios just over 1, 2 and 4 columns a cell, whole ratios, and cells up to 64 columns wide
  // (4000 / 60); mask sides from the default 256 down to 7; thresholds 8, 0 and 254.
  struct Case {
    int w, h, max_side, threshold;
  };
  for (const Case c : {Case{300, 100, 256, 8}, Case{257, 3, 256, 8}, Case{1000, 999, 256, 8}, Case{5, 700, 256, 8},
                       Case{513, 40, 256, 0}, Case{1025, 31, 256, 254}, Case{512, 512, 128, 8}, Case{4000, 50, 60, 8},
                       Case{1000, 77, 7, 8}, Case{300, 300, 299, 8}}) {
    Image img = blank(c.w, c.h);
    std::uint32_t seed = 12345u + std::uint32_t(c.w);
    for (int y = 0; y < c.h; ++y) {
      for (int x = 0; x < c.w; ++x) {
        seed = seed * 1664525u + 1013904223u;
        // Sparse opaque pixels so that cells differ, some alpha right at the threshold, and empty
        // blocks so that even wide cells are not all covered.
        const std::uint32_t r = (x * 7 / c.w) % 3 == 0 ? 255 : seed >> 24;
        set_alpha(img, x, y,
                  r < 2   ? 255
                  : r < 4 ? std::uint8_t(c.threshold)
                  : r < 6 ? std::uint8_t(c.threshold + 1)
                          : 0);
      }
    }
    CoverageOptions o;
    o.max_side = c.max_side;
    o.alpha_threshold = c.threshold;
    auto m = coverage_mask(img, o);
    REQUIRE(m);
    CHECK(std::max(m->width, m->height) == std::min(c.max_side, std::max(c.w, c.h)));
    std::size_t mismatches = 0, covered = 0;
    for (int y = 0; y < m->height; ++y) {
      for (int x = 0; x < m->width; ++x) {
        const bool expected = reference_cell(img, *m, x, y, c.threshold);
        covered += expected ? 1 : 0;
        mismatches += cell(*m, x, y) != expected ? 1 : 0;
      }
    }
    CAPTURE(c.w, c.h, c.max_side, c.threshold);
    CHECK(covered > 0);
    CHECK(covered < m->inside.size());
    CHECK(mismatches == 0);
    // The same mask from the pixels' 0/1 coverage (what autorig_file's sheet guess keeps).
    const CoverageMask of_pixels = detail::coverage_mask_of_pixels(c.w, c.h, pixel_coverage(img, c.threshold), c.max_side);
    CHECK((of_pixels.width == m->width && of_pixels.height == m->height));
    CHECK(of_pixels.inside == m->inside);
  }
}

TEST_CASE("coverage: the full-size mask is alpha > threshold at every width and threshold", "[image][coverage]") {
  // Widths around the 16-pixel steps; alpha values at and next to each threshold.
  std::uint32_t seed = 99u;
  for (const int threshold : {0, 1, 8, 127, 128, 200, 254, 255}) {
    for (int w = 1; w <= 70; ++w) {
      Image img = blank(w, 3);
      for (std::size_t i = 0; i < img.rgba.size(); ++i) {
        seed = seed * 1664525u + 1013904223u;
        const int pick = int(seed >> 29);  // 0..7
        const int near = threshold + (pick % 3) - 1;
        img.rgba[i] = std::uint8_t(pick < 6 ? std::clamp(near, 0, 255) : pick == 6 ? 0 : 255);
      }
      CoverageOptions o;
      o.alpha_threshold = threshold;
      auto m = coverage_mask(img, o);
      REQUIRE(m);
      REQUIRE(m->inside.size() == std::size_t(w) * 3);
      std::size_t mismatches = 0;
      for (std::size_t i = 0; i < m->inside.size(); ++i)
        mismatches += m->inside[i] != (img.rgba[4 * i + 3] > threshold ? 1 : 0) ? 1 : 0;
      CAPTURE(threshold, w);
      CHECK(mismatches == 0);
      CHECK(detail::coverage_mask_of_pixels(w, 3, pixel_coverage(img, threshold)).inside == m->inside);
    }
  }
}

TEST_CASE("coverage: is_inside is the engine's clamped UV lookup", "[image][coverage]") {
  Image img = blank(4, 2);
  set_alpha(img, 3, 1, 255);  // bottom-right pixel only
  set_alpha(img, 0, 0, 255);  // top-left pixel
  auto m = coverage_mask(img);
  REQUIRE(m);
  CHECK(is_inside(*m, 0, 0));
  CHECK(is_inside(*m, 0.2499, 0.4999));
  CHECK_FALSE(is_inside(*m, 0.25, 0));  // floor(0.25 * 4) = 1
  CHECK(is_inside(*m, 1, 1));           // floor(4) clamps to column 3, floor(2) to row 1
  CHECK(is_inside(*m, 0.75, 0.5));
  CHECK_FALSE(is_inside(*m, 0.74, 0.5));
  CHECK_FALSE(is_inside(*m, -1e-12, 0));
  CHECK_FALSE(is_inside(*m, 1.0000001, 1));
  CHECK_FALSE(is_inside(*m, 0, std::nan("")));
  CHECK_FALSE(is_inside(CoverageMask{}, 0.5, 0.5));
}

TEST_CASE("coverage: bad inputs are errors", "[image][coverage]") {
  CHECK(coverage_mask(Image{}).error().code == "coverage.image");
  Image wrong = blank(4, 4);
  wrong.rgba.pop_back();
  CHECK(coverage_mask(wrong).error().code == "coverage.image");
  CoverageOptions bad;
  bad.alpha_threshold = 256;
  CHECK(coverage_mask(blank(2, 2), bad).error().code == "coverage.options");
  bad.alpha_threshold = 8;
  bad.max_side = 0;
  CHECK(coverage_mask(blank(2, 2), bad).error().code == "coverage.options");
}
