// SPDX-License-Identifier: Apache-2.0
#include "rig2d/image/png.h"

#include <climits>
#include <cstring>
#include <memory>

#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

#define STBI_NO_STDIO
#include <stb_image.h>
#define STBI_WRITE_NO_STDIO
#include <stb_image_write.h>

namespace rig2d {
namespace {

constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

std::string decoder_reason() {
  const char* reason = stbi_failure_reason();
  return reason ? std::string(" (decoder: ") + reason + ")" : std::string();
}

std::uint32_t read_be32(std::string_view bytes, std::size_t at) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

// stb neither checks CRCs nor needs the IEND chunk, so a cut-off file can decode; require the chunk
// sequence to run intact up to a complete IEND chunk.
bool chunks_complete(std::string_view bytes) {
  std::size_t at = sizeof kSignature;
  while (at + 12 <= bytes.size()) {
    const std::uint64_t end = std::uint64_t(at) + 12 + read_be32(bytes, at);
    if (end > bytes.size()) return false;
    if (std::memcmp(bytes.data() + at + 4, "IEND", 4) == 0) return true;
    at = static_cast<std::size_t>(end);
  }
  return false;
}

}  // namespace

Result<PngInfo> png_info(std::string_view bytes, const std::string& path) {
  if (bytes.size() < sizeof kSignature || std::memcmp(bytes.data(), kSignature, sizeof kSignature) != 0) {
    return make_error("png.signature", "not a PNG file (missing PNG signature)", {path});
  }
  if (bytes.size() > kMaxPngFileBytes || bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    return make_error("png.too_large", "PNG file is larger than " + std::to_string(kMaxPngFileBytes) + " bytes",
                      {path});
  }
  // The IHDR chunk must follow the signature: 4 length + "IHDR" + 4 width + 4 height.
  if (bytes.size() < 24 || std::memcmp(bytes.data() + 12, "IHDR", 4) != 0) {
    return make_error("png.corrupt", "PNG header (IHDR) is missing or truncated", {path});
  }
  auto be32 = [&](std::size_t at) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
  };
  const std::uint32_t w = be32(16);
  const std::uint32_t h = be32(20);
  if (w == 0 || h == 0) return make_error("png.corrupt", "PNG header gives a zero width or height", {path});
  if (w > static_cast<std::uint32_t>(kMaxImageSide) || h > static_cast<std::uint32_t>(kMaxImageSide) ||
      std::uint64_t(w) * h > kMaxImagePixels) {
    return make_error("png.too_large",
                      "image is " + std::to_string(w) + "x" + std::to_string(h) + "; the limit is " +
                          std::to_string(kMaxImageSide) + " px a side and " + std::to_string(kMaxImagePixels) +
                          " pixels",
                      {path});
  }
  int x = 0, y = 0, channels = 0;
  if (!stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()), &x,
                             &y, &channels)) {
    return make_error("png.corrupt", "PNG header is invalid" + decoder_reason(), {path});
  }
  return PngInfo{x, y, channels};
}

Result<Image> decode_png(std::string_view bytes, const std::string& path) {
  auto info = png_info(bytes, path);
  if (!info) return Unexpected{info.error()};
  if (!chunks_complete(bytes)) {
    return make_error("png.corrupt", "PNG data is truncated (the chunks do not reach a complete IEND)", {path});
  }
  int w = 0, h = 0, channels = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()), &w,
                            &h, &channels, 4),
      stbi_image_free);
  if (!pixels) return make_error("png.corrupt", "cannot decode PNG (truncated or corrupt)" + decoder_reason(), {path});
  if (w != info->width || h != info->height) {
    return make_error("png.corrupt", "PNG dimensions changed while decoding", {path});
  }
  Image image;
  image.width = w;
  image.height = h;
  image.rgba.assign(pixels.get(), pixels.get() + std::size_t(w) * std::size_t(h) * 4);
  return image;
}

Result<Image> load_png(const std::string& path) {
  auto bytes = read_file(path, kMaxPngFileBytes);
  if (!bytes) return Unexpected{bytes.error()};
  return decode_png(*bytes, path);
}

Result<std::string> encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0 || image.width > kMaxImageSide || image.height > kMaxImageSide ||
      image.rgba.size() != std::size_t(image.width) * std::size_t(image.height) * 4) {
    return make_error("png.encode", "image size is invalid for PNG encoding");
  }
  std::string out;
  auto sink = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(sink, &out, image.width, image.height, 4, image.rgba.data(), image.width * 4)) {
    return make_error("png.encode", "PNG encoder failed");
  }
  return out;
}

}  // namespace rig2d
