// SPDX-License-Identifier: Apache-2.0
// Alpha coverage as the engine's editor sees it: a binary mask (alpha > threshold) at most
// kMaxCoverageSide px on its longest side, and the UV-space lookup the generators cull with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"

namespace rig2d {

inline constexpr int kDefaultAlphaThreshold = 8;  // alpha > 8 of 255 counts as opaque (editor default)
inline constexpr int kMaxCoverageSide = 256;      // px: the editor's mask size limit

// Row-major, top-left origin; inside[y * width + x] is 1 when mask cell (x, y) is covered.
struct CoverageMask {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> inside;
};

struct CoverageOptions {
  int alpha_threshold = kDefaultAlphaThreshold;  // [0, 255]; a pixel is covered when alpha > it
  int max_side = kMaxCoverageSide;               // [1, kMaxImageSide] px; longest mask side
};

// Mask size for a w x h image: unchanged when max(w, h) <= max_side, else the long side becomes
// max_side and the short one max(1, round(short * max_side / long)). Mask cell (x, y) covers the source
// pixels [floor(x*w/mw), ceil((x+1)*w/mw)) x [floor(y*h/mh), ceil((y+1)*h/mh)) and is covered when ANY
// of them is, so downscaling never drops an opaque pixel (it may widen the coverage by < 1 cell).
// Errors: coverage.image (empty or inconsistent image), coverage.options (threshold or max_side out
// of range).
RIG2D_EXPORT Result<CoverageMask> coverage_mask(const Image& image, const CoverageOptions& options = {});

// The engine's isInside(u, v): false when u or v is outside [0, 1] (or NaN), else the mask cell
// (floor(u*w), floor(v*h)), each clamped to the last row/column. An empty mask is never inside.
RIG2D_EXPORT bool is_inside(const CoverageMask& mask, double u, double v);

// Number of covered cells.
RIG2D_EXPORT std::size_t covered_cells(const CoverageMask& mask);

}  // namespace rig2d
