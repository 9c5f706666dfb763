// SPDX-License-Identifier: Apache-2.0
// PNG header parse + decode + re-encode. Any input must give an image or a png.* error, never a crash.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rig2d/image/png.h"

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
  } else if (image.error().code.rfind("png.", 0) != 0) {
    std::abort();
  }
  return 0;
}
