// SPDX-License-Identifier: Apache-2.0
// PNG decode/encode. Dimensions are read from the header and checked against core/limits.h before any
// pixel memory is allocated. Every colour type and bit depth decodes to RGBA8 (16-bit is reduced).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"

namespace rig2d {

struct PngInfo {
  int width = 0;
  int height = 0;
  int channels = 0;  // channels in the file: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  int bit_depth = 8;     // bits per sample (IHDR): 1, 2, 4, 8 or 16
  int samples = 4;       // samples per pixel as stored: 1 grey or palette, 2 grey+alpha, 3 RGB, 4 RGBA
};

// Errors: png.signature (not a PNG), png.too_large, png.corrupt (truncated or bad data, with the
// decoder's reason). `path` only labels errors.
RIG2D_EXPORT Result<PngInfo> png_info(std::string_view bytes, const std::string& path);
RIG2D_EXPORT Result<Image> decode_png(std::string_view bytes, const std::string& path);
// Reads only the head of a file (signature and IHDR; for a palette image also the chunks before the
// first IDAT, which give its channel count) and checks it as png_info does.
RIG2D_EXPORT Result<PngInfo> read_png_info(const std::string& path);
// The most memory decode_png holds at once for such a PNG, in bytes: the inflated rows twice, or once
// next to the image at the file's bit depth, or the RGBA8 conversions (about 1 GiB for a 16384x4096
// 16-bit RGBA).
RIG2D_EXPORT std::uint64_t png_decode_peak_bytes(const PngInfo& info);
// Reads and decodes a file (limits checked on the file size and the header first).
RIG2D_EXPORT Result<Image> load_png(const std::string& path);
// Deterministic PNG bytes (fixed compression level). Errors: png.encode.
RIG2D_EXPORT Result<std::string> encode_png(const Image& image);

}  // namespace rig2d
