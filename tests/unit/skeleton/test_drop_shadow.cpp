// SPDX-License-Identifier: Apache-2.0
// The drop-shadow rule against a plain per-pixel statement of it (docs/skeleton.md, step 1), on random
// images of every row length around the 16-pixel steps, with values on both sides of each limit.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "skeleton/drop_shadow.h"

namespace rig2d {
namespace {

// The rule written out pixel by pixel: no packing, no early exits.
detail::DropShadow reference(const Image& image, int threshold) {
  const auto w = static_cast<std::size_t>(image.width), h = static_cast<std::size_t>(image.height);
  int highest = 0;
  for (std::size_t i = 0; i < w * h; ++i) highest = std::max(highest, int{image.rgba[4 * i + 3]});
  const int half = highest / 2;
  auto at = [&](std::ptrdiff_t x, std::ptrdiff_t y) -> const std::uint8_t* {
    return &image.rgba[4 * (static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x))];
  };
  auto covered = [&](std::ptrdiff_t x, std::ptrdiff_t y) {
    return x >= 0 && y >= 0 && x < static_cast<std::ptrdiff_t>(w) && y < static_cast<std::ptrdiff_t>(h) &&
           at(x, y)[3] > threshold;
  };
  std::vector<std::uint8_t> shadow(w * h, 0);
  std::size_t n_covered = 0, n_solid = 0, n_shadow = 0, n_deep = 0;
  for (std::ptrdiff_t y = 0; y < static_cast<std::ptrdiff_t>(h); ++y)
    for (std::ptrdiff_t x = 0; x < static_cast<std::ptrdiff_t>(w); ++x) {
      const std::uint8_t* p = at(x, y);
      const bool is_shadow = p[3] > threshold && p[3] <= half && p[0] <= 96 && p[1] <= 96 && p[2] <= 96;
      bool deep = true;  // the 5 x 5 square around it covered: 3 px inside
      for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) deep = deep && covered(x + dx, y + dy);
      shadow[static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x)] = is_shadow;
      n_covered += p[3] > threshold;
      n_solid += p[3] > half;
      n_shadow += is_shadow;
      n_deep += is_shadow && deep;
    }
  if (half <= threshold) return {};
  detail::DropShadow out;
  out.covered = n_covered, out.solid = n_solid, out.shadow_pixels = n_shadow;
  if (n_covered == 0) return out;
  const double covered_count = static_cast<double>(n_covered);
  if (n_shadow / covered_count < 0.02 || n_solid / covered_count < 0.5 || n_deep / covered_count < 0.02) return out;
  out.pixels = shadow;
  out.share = n_deep / covered_count;
  return out;
}

}  // namespace

TEST_CASE("drop shadow: the packed rule matches the per-pixel statement", "[skeleton]") {
  std::mt19937 rng(7);
  int found = 0, cases = 0;
  for (int width = 1; width <= 70; width += (width < 40 ? 1 : 7)) {
    for (int round = 0; round < 6; ++round) {
      Image image;
      image.width = width;
      image.height = 12 + static_cast<int>(rng() % 40);
      image.rgba.assign(4 * static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height), 0);
      // An opaque light figure over a dark translucent patch, plus noise on every limit.
      const double cx = image.width * 0.5, cy = image.height * 0.5;
      const std::uint8_t patch_alpha = static_cast<std::uint8_t>(60 + rng() % 100);
      const double inner = 0.55 + 0.1 * (round % 4);  // the figure: 30-72 % of the ellipse
      for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
          std::uint8_t* p = &image.rgba[4 * (static_cast<std::size_t>(y) * image.width + static_cast<std::size_t>(x))];
          const double fx = (x + 0.5 - cx) / (image.width * 0.5), fy = (y + 0.5 - cy) / (image.height * 0.5);
          if (std::hypot(fx, fy) < inner) {
            p[0] = p[1] = p[2] = 200, p[3] = 255;
          } else if (std::hypot(fx, fy) < 1.0) {
            p[0] = static_cast<std::uint8_t>(88 + rng() % 10), p[1] = static_cast<std::uint8_t>(rng() % 98);
            p[2] = 10, p[3] = patch_alpha;
          }
          if (rng() % 7 == 0) p[static_cast<int>(rng() % 4)] = static_cast<std::uint8_t>(rng());
        }
      for (const int threshold : {0, 8, 100}) {
        const detail::DropShadow want = reference(image, threshold);
        const detail::DropShadow got = detail::find_drop_shadow(image, threshold);
        INFO("width " << image.width << ", height " << image.height << ", threshold " << threshold);
        CHECK(got.covered == want.covered);
        CHECK(got.solid == want.solid);
        CHECK(got.shadow_pixels == want.shadow_pixels);
        CHECK(got.pixels == want.pixels);
        CHECK(got.share == Approx(want.share).margin(1e-12));
        // The coverage found by the counting pass, when it ran: alpha > threshold, pixel by pixel.
        if (!got.coverage.empty()) {
          std::vector<std::uint8_t> covered(got.coverage.size());
          for (std::size_t i = 0; i < covered.size(); ++i) covered[i] = image.rgba[4 * i + 3] > threshold ? 1 : 0;
          CHECK(got.coverage == covered);
        }
        CHECK(got.coverage.empty() == (want.covered == 0));  // the counts ran exactly when something is covered
        // Given the coverage, the pass reads it instead of writing it: the same verdict.
        std::vector<std::uint8_t> given(image.rgba.size() / 4);
        for (std::size_t i = 0; i < given.size(); ++i) given[i] = image.rgba[4 * i + 3] > threshold ? 1 : 0;
        const detail::DropShadow read = detail::find_drop_shadow(image, threshold, given.data());
        CHECK(read.covered == want.covered);
        CHECK(read.solid == want.solid);
        CHECK(read.shadow_pixels == want.shadow_pixels);
        CHECK(read.pixels == want.pixels);
        CHECK(read.share == got.share);
        CHECK(read.coverage.empty());
        found += !want.pixels.empty();
        ++cases;
      }
    }
  }
  // Both verdicts must occur, or the comparison says little.
  CHECK(found > cases / 20);
  CHECK(found < cases * 9 / 10);
}

}  // namespace rig2d
