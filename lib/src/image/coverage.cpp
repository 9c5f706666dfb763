// SPDX-License-Identifier: Apache-2.0
#include "rig2d/image/coverage.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "image/alpha_threshold.h"
#include "rig2d/core/affine.h"
#include "rig2d/core/limits.h"

namespace rig2d {
namespace {

// out[i] = the largest of byte i over `rows` rows of `stride` bytes from `first`. 64 bytes at a time
// held in registers down all the rows, so each byte is loaded once and stored once.
void largest_of_rows(const std::uint8_t* first, std::size_t stride, std::size_t rows, std::uint8_t* out) {
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 64 <= stride; i += 64) {
    const std::uint8_t* p = first + i;
    auto load = [](const std::uint8_t* at) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at)); };
    __m128i a = load(p), b = load(p + 16), c = load(p + 32), d = load(p + 48);
    for (std::size_t r = 1; r < rows; ++r) {
      p += stride;
      a = _mm_max_epu8(a, load(p)), b = _mm_max_epu8(b, load(p + 16));
      c = _mm_max_epu8(c, load(p + 32)), d = _mm_max_epu8(d, load(p + 48));
    }
    auto* o = reinterpret_cast<__m128i*>(out + i);
    _mm_storeu_si128(o, a), _mm_storeu_si128(o + 1, b), _mm_storeu_si128(o + 2, c), _mm_storeu_si128(o + 3, d);
  }
#endif
  for (; i < stride; ++i) {
    std::uint8_t m = first[i];
    for (std::size_t r = 1; r < rows; ++r) m = std::max(m, first[r * stride + i]);
    out[i] = m;
  }
}

int scaled_side(int side, int long_side, int max_side) {
  const double scaled = js_round(static_cast<double>(side) * max_side / long_side);
  return std::max(1, static_cast<int>(scaled));
}

}  // namespace

Result<CoverageMask> coverage_mask(const Image& image, const CoverageOptions& options) {
  if (image.width <= 0 || image.height <= 0 || image.width > kMaxImageSide || image.height > kMaxImageSide ||
      image.rgba.size() != std::size_t(image.width) * std::size_t(image.height) * 4) {
    return make_error("coverage.image", "image is empty or its pixel buffer does not match its size");
  }
  if (options.alpha_threshold < 0 || options.alpha_threshold > 255) {
    return make_error("coverage.options",
                      "alpha threshold " + std::to_string(options.alpha_threshold) + " is outside 0..255");
  }
  if (options.max_side < 1 || options.max_side > kMaxImageSide) {
    return make_error("coverage.options", "mask size " + std::to_string(options.max_side) + " is outside 1.." +
                                              std::to_string(kMaxImageSide));
  }
  const int w = image.width;
  const int h = image.height;
  const int long_side = std::max(w, h);
  CoverageMask mask;
  if (long_side <= options.max_side) {
    mask.width = w;
    mask.height = h;
  } else {
    mask.width = w >= h ? options.max_side : scaled_side(w, long_side, options.max_side);
    mask.height = h > w ? options.max_side : scaled_side(h, long_side, options.max_side);
  }
  const auto mw = static_cast<std::int64_t>(mask.width);
  const auto mh = static_cast<std::int64_t>(mask.height);
  mask.inside.assign(std::size_t(mw * mh), 0);
  const int threshold = options.alpha_threshold;
  if (mask.width == w && mask.height == h) {  // one cell per pixel: a plain threshold, the common case
    detail::threshold_alpha(image.rgba.data(), mask.inside.size(), options.alpha_threshold, mask.inside.data());
    return mask;
  }

  // Cell (x, y) covers source columns floor(x*w/mw) .. ceil((x+1)*w/mw) - 1 (the integer form of
  // x*w < (sx+1)*mw and sx*mw < (x+1)*w) and likewise rows. Per mask row: the bytewise maximum of its
  // source rows' RGBA (some row's alpha > threshold exactly when the largest is; about half an
  // instruction a pixel, where thresholding every row cost two), thresholded once, then
  // each cell is the OR over its columns, read from a table of ORs over runs of 1, 2, 4, ... columns:
  // two overlapping runs cover any cell (a loop over each cell's few columns, or a running scan, cost
  // more than the cells' work).
  auto first_source = [](std::int64_t cell, std::int64_t source_side, std::int64_t cells) {
    return (cell * source_side) / cells;
  };
  auto last_source = [](std::int64_t cell, std::int64_t source_side, std::int64_t cells) {
    return ((cell + 1) * source_side + cells - 1) / cells - 1;
  };
  const auto width = static_cast<std::size_t>(w);
  std::size_t levels = 1;  // runs of 2^k columns, k < levels
  std::vector<std::size_t> run_a(static_cast<std::size_t>(mw)), run_b(static_cast<std::size_t>(mw));
  for (std::int64_t x = 0; x < mw; ++x) {
    const auto first = static_cast<std::size_t>(first_source(x, w, mw));
    const auto last = static_cast<std::size_t>(last_source(x, w, mw));
    std::size_t k = 0;
    while ((std::size_t{2} << k) <= last - first + 1) ++k;
    levels = std::max(levels, k + 1);
    run_a[std::size_t(x)] = k * width + first;  // runs [first, first + 2^k) and (last - 2^k, last]
    run_b[std::size_t(x)] = k * width + last + 1 - (std::size_t{1} << k);
  }
  std::vector<std::uint8_t> runs(levels * width), largest(width * 4);
  for (std::int64_t y = 0; y < mh; ++y) {
    std::uint8_t* any = runs.data();
    std::uint8_t* top = largest.data();
    const std::size_t first_row = static_cast<std::size_t>(first_source(y, h, mh));
    const std::size_t rows = static_cast<std::size_t>(last_source(y, h, mh)) - first_row + 1;
    largest_of_rows(image.rgba.data() + first_row * width * 4, width * 4, rows, top);
    detail::threshold_alpha(top, width, threshold, any);
    for (std::size_t k = 1; k < levels; ++k) {
      const std::uint8_t* below = runs.data() + (k - 1) * width;
      std::uint8_t* level = runs.data() + k * width;
      const std::size_t half = std::size_t{1} << (k - 1);
      for (std::size_t sx = 0; sx + 2 * half <= width; ++sx) level[sx] = below[sx] | below[sx + half];
    }
    std::uint8_t* out = mask.inside.data() + std::size_t(y * mw);
    for (std::size_t x = 0; x < std::size_t(mw); ++x) out[x] = runs[run_a[x]] | runs[run_b[x]];
  }
  return mask;
}

bool is_inside(const CoverageMask& mask, double u, double v) {
  if (mask.width <= 0 || mask.height <= 0) return false;
  if (!(u >= 0 && u <= 1 && v >= 0 && v <= 1)) return false;  // also rejects NaN
  const int x = std::min(mask.width - 1, static_cast<int>(std::floor(u * mask.width)));
  const int y = std::min(mask.height - 1, static_cast<int>(std::floor(v * mask.height)));
  return mask.inside[std::size_t(y) * std::size_t(mask.width) + std::size_t(x)] != 0;
}

std::size_t covered_cells(const CoverageMask& mask) {
  // Cells equal to 1, counted in byte blocks that cannot overflow: the loop vectorizes.
  std::size_t covered = 0;
  const std::uint8_t* cells = mask.inside.data();
  for (std::size_t begin = 0; begin < mask.inside.size(); begin += 255) {
    const std::size_t end = std::min(mask.inside.size(), begin + 255);
    std::uint8_t block = 0;
    for (std::size_t i = begin; i < end; ++i) block = static_cast<std::uint8_t>(block + (cells[i] == 1));
    covered += block;
  }
  return covered;
}

}  // namespace rig2d
