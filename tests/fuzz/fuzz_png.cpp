// SPDX-License-Identifier: Apache-2.0
// PNG header parse + decode + re-encode + alpha coverage. Any input must give an image or a png.* error,
// never a crash; a decoded image gives a coverage mask that agrees with its alpha channel.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rig2d/image/coverage.h"
#include "rig2d/image/png.h"

namespace {

// At full size the mask is exactly alpha > threshold; downscaled it stays within max_side and never
// has fewer covered cells than it would have with no opaque pixel dropped (at least one when any is).
void check_coverage(const rig2d::Image& image) {
  std::size_t opaque = 0;
  for (std::size_t i = 3; i < image.rgba.size(); i += 4) opaque += image.rgba[i] > rig2d::kDefaultAlphaThreshold;
  auto mask = rig2d::coverage_mask(image);
  if (!mask) std::abort();
  const std::size_t covered = rig2d::covered_cells(*mask);
  if (mask->width == image.width && mask->height == image.height) {
    if (covered != opaque) std::abort();
  } else if (std::max(mask->width, mask->height) != rig2d::kMaxCoverageSide || (opaque > 0) != (covered > 0)) {
    std::abort();
  }
  // A small mask: every cell is also what the engine's UV lookup sees at the cell's centre.
  auto small = rig2d::coverage_mask(image, {rig2d::kDefaultAlphaThreshold, 7});
  if (!small || std::max(small->width, small->height) > 7) std::abort();
  for (int y = 0; y < small->height; ++y) {
    for (int x = 0; x < small->width; ++x) {
      const bool in = rig2d::is_inside(*small, (x + 0.5) / small->width, (y + 0.5) / small->height);
      if (in != (small->inside[static_cast<std::size_t>(y * small->width + x)] != 0)) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto info = rig2d::png_info(bytes, "fuzz.png");
  // Skip decodes that would only measure the allocator (stb's own fuzzer does the same).
  if (info && static_cast<std::uint64_t>(info->width) * static_cast<std::uint64_t>(info->height) > (1u << 22)) return 0;
  auto image = rig2d::decode_png(bytes, "fuzz.png");
  if (image) {
    if (image->rgba.size() != static_cast<std::size_t>(image->width) * static_cast<std::size_t>(image->height) * 4) std::abort();
    auto encoded = rig2d::encode_png(*image);
    if (!encoded) std::abort();
    auto again = rig2d::decode_png(*encoded, "fuzz.png");
    if (!again || again->rgba != image->rgba) std::abort();  // lossless round trip
    check_coverage(*image);
  } else if (image.error().code.rfind("png.", 0) != 0) {
    std::abort();
  }
  return 0;
}
