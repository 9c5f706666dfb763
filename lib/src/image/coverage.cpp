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
  const auto threshold = static_cast<std::uint8_t>(options.alpha_threshold);
  if (mask.width == w && mask.height == h) {  // one cell per pixel: a plain threshold, the common case
    detail::threshold_alpha(image.rgba.data(), mask.inside.size(), options.alpha_threshold, mask.inside.data());
    return mask;
  }

  // Cell (x, y) covers source columns floor(x*w/mw) .. ceil((x+1)*w/mw) - 1 (the integer form of
  // x*w < (sx+1)*mw and sx*mw < (x+1)*w) and likewise rows. Per mask row: OR the thresholds of its
  // source rows column by column (a plain loop that vectorizes), then each cell the OR over its
  // columns: contiguous reads, nothing stored inside the inner loops.
  auto first_source = [](std::int64_t cell, std::int64_t source_side, std::int64_t cells) {
    return (cell * source_side) / cells;
  };
  auto last_source = [](std::int64_t cell, std::int64_t source_side, std::int64_t cells) {
    return ((cell + 1) * source_side + cells - 1) / cells - 1;
  };
  std::vector<std::int64_t> first_col(static_cast<std::size_t>(mw)), last_col(static_cast<std::size_t>(mw));
  for (std::int64_t x = 0; x < mw; ++x) {
    first_col[std::size_t(x)] = first_source(x, w, mw);
    last_col[std::size_t(x)] = last_source(x, w, mw);
  }
  std::vector<std::uint8_t> columns(static_cast<std::size_t>(w));
  for (std::int64_t y = 0; y < mh; ++y) {
    std::uint8_t* any = columns.data();
    std::fill(any, any + w, std::uint8_t{0});
    for (std::int64_t sy = first_source(y, h, mh); sy <= last_source(y, h, mh); ++sy) {
      const std::uint8_t* alpha = image.rgba.data() + std::size_t(sy) * std::size_t(w) * 4 + 3;
      for (std::size_t sx = 0; sx < std::size_t(w); ++sx) any[sx] |= alpha[4 * sx] > threshold ? 1 : 0;
    }
    std::uint8_t* out = mask.inside.data() + std::size_t(y * mw);
    for (std::size_t x = 0; x < std::size_t(mw); ++x) {
      std::uint8_t c = 0;
      for (std::int64_t sx = first_col[x]; sx <= last_col[x]; ++sx) c |= any[sx];
      out[x] = c;
    }
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
