// SPDX-License-Identifier: Apache-2.0
#include "rig2d/image/coverage.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "image/alpha_threshold.h"
#include "image/coverage_pixels.h"
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
  for (; i + 16 <= stride; i += 16) {  // the rest 16 at a time (a row of 0/1 bytes is rarely a multiple of 64)
    const std::uint8_t* p = first + i;
    __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    for (std::size_t r = 1; r < rows; ++r) a = _mm_max_epu8(a, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p += stride)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), a);
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

// The mask's size for a w x h image (coverage_mask's rule), its cells not yet set.
CoverageMask sized_mask(int w, int h, int max_side) {
  CoverageMask mask;
  const int long_side = std::max(w, h);
  if (long_side <= max_side) {
    mask.width = w;
    mask.height = h;
  } else {
    mask.width = w >= h ? max_side : scaled_side(w, long_side, max_side);
    mask.height = h > w ? max_side : scaled_side(h, long_side, max_side);
  }
  mask.inside.assign(std::size_t(mask.width) * std::size_t(mask.height), 0);
  return mask;
}

// Sets the cells of a mask smaller than its w x h image. `rows_covered(first_row, rows, out)` sets
// out[sx] to 1 where some pixel of column sx in those rows is covered, else to 0.
//
// Cell (x, y) covers source columns floor(x*w/mw) .. ceil((x+1)*w/mw) - 1 (the integer form of
// x*w < (sx+1)*mw and sx*mw < (x+1)*w) and likewise rows. Per mask row: which columns its source rows
// cover, then each cell is the OR over its columns, read from a table of ORs over runs of 1, 2, 4, ...
// columns: two overlapping runs cover any cell (a loop over each cell's few columns, or a running scan,
// cost more than the cells' work).
template <typename RowsCovered>
void downscale(int w, int h, CoverageMask& mask, RowsCovered rows_covered) {
  const auto mw = static_cast<std::int64_t>(mask.width);
  const auto mh = static_cast<std::int64_t>(mask.height);
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
  std::vector<std::uint8_t> runs(levels * width);
  for (std::int64_t y = 0; y < mh; ++y) {
    const std::size_t first_row = static_cast<std::size_t>(first_source(y, h, mh));
    const std::size_t rows = static_cast<std::size_t>(last_source(y, h, mh)) - first_row + 1;
    rows_covered(first_row, rows, runs.data());
    for (std::size_t k = 1; k < levels; ++k) {
      const std::uint8_t* below = runs.data() + (k - 1) * width;
      std::uint8_t* level = runs.data() + k * width;
      const std::size_t half = std::size_t{1} << (k - 1);
      for (std::size_t sx = 0; sx + 2 * half <= width; ++sx) level[sx] = below[sx] | below[sx + half];
    }
    std::uint8_t* out = mask.inside.data() + std::size_t(y * mw);
    for (std::size_t x = 0; x < std::size_t(mw); ++x) out[x] = runs[run_a[x]] | runs[run_b[x]];
  }
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
  CoverageMask mask = sized_mask(w, h, options.max_side);
  const int threshold = options.alpha_threshold;
  if (mask.width == w && mask.height == h) {  // one cell per pixel: a plain threshold, the common case
    detail::threshold_alpha(image.rgba.data(), mask.inside.size(), threshold, mask.inside.data());
    return mask;
  }
  // A cell's source rows: the bytewise maximum of their RGBA (some row's alpha > threshold exactly when
  // the largest is; about half an instruction a pixel, where thresholding every row cost two),
  // thresholded once.
  const auto width = static_cast<std::size_t>(w);
  std::vector<std::uint8_t> largest(width * 4);
  downscale(w, h, mask, [&](std::size_t first_row, std::size_t rows, std::uint8_t* out) {
    largest_of_rows(image.rgba.data() + first_row * width * 4, width * 4, rows, largest.data());
    detail::threshold_alpha(largest.data(), width, threshold, out);
  });
  return mask;
}

CoverageMask detail::coverage_mask_of_pixels(int width, int height, const std::vector<std::uint8_t>& covered,
                                             int max_side) {
  CoverageMask mask = sized_mask(width, height, max_side);
  if (mask.width == width && mask.height == height) {
    mask.inside = covered;
    return mask;
  }
  // The largest of 0/1 bytes is their OR: a quarter of the RGBA's bytes, and no threshold.
  const auto w = static_cast<std::size_t>(width);
  downscale(width, height, mask, [&](std::size_t first_row, std::size_t rows, std::uint8_t* out) {
    largest_of_rows(covered.data() + first_row * w, w, rows, out);
  });
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
