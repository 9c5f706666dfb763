// SPDX-License-Identifier: Apache-2.0
// Multi-frame previews: a contact sheet (a grid of frames with labels) and an animated PNG.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"
#include "rig2d/raster/canvas.h"

namespace rig2d {

struct SheetOptions {
  int columns = 0;                   // 0 = ceil(sqrt(frame count))
  int padding = 4;                   // px around and between cells
  int label_scale = 2;               // px per font pixel (the font is 3x5)
  Paint background{38, 38, 38, 1};
  Paint label{224, 224, 224, 1};
};

// Frames (all the same size) in a grid, left to right then top to bottom, each over the sheet
// background with labels[i] (may be shorter than frames) centred under it. A cell is as wide as the
// widest label when that is wider than a frame (small sprites), the frame centred in it, so labels
// never run into each other.
// Errors: pose.sheet (no frames, frames of different sizes), raster.size (sheet too large).
RIG2D_EXPORT Result<Image> contact_sheet(std::span<const Image> frames, std::span<const std::string> labels,
                                         const SheetOptions& options = {});

// An APNG: every frame full size, shown for delays_ms[i] milliseconds (missing entries repeat the
// last one, 100 ms if none), looping forever. Frames are encoded with encode_png and re-chunked
// (IDAT -> fdAT), so the bytes are deterministic. Viewers without APNG support show frame 0.
// Errors: pose.apng (no frames, frames of different sizes), png.encode.
RIG2D_EXPORT Result<std::string> encode_apng(std::span<const Image> frames, std::span<const std::uint32_t> delays_ms);

}  // namespace rig2d
