// SPDX-License-Identifier: Apache-2.0
#include "rig2d/image/png.h"

#include <zlib.h>

#include <array>
#include <algorithm>
#include <climits>
#include <cstring>
#include <fstream>
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

// CRC-32 as PNG uses it (ISO 3309), zlib's.
std::uint32_t crc32(std::string_view bytes) {
  return static_cast<std::uint32_t>(
      ::crc32_z(::crc32_z(0, nullptr, 0), reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

// One chunk's CRC, the chunk starting at `at` (its length field) with `length` data bytes.
bool chunk_crc_ok(std::string_view bytes, std::size_t at, std::uint32_t length) {
  return crc32(bytes.substr(at + 4, std::size_t(length) + 4)) == read_be32(bytes, at + 8 + length);
}

struct ChunkWalk {
  bool has_empty_idat = false;  // stb passes a null buffer to memcpy on an empty first IDAT
};

// stb checks neither CRCs nor the zlib checksum, and does not need IEND, so a corrupt or cut-off file
// can decode to garbage. Every chunk must be whole with a correct CRC, up to a complete IEND.
Result<ChunkWalk> walk_chunks(std::string_view bytes, const std::string& path) {
  ChunkWalk walk;
  std::size_t at = sizeof kSignature;
  while (at + 12 <= bytes.size()) {
    const std::uint32_t length = read_be32(bytes, at);
    const std::uint64_t end = std::uint64_t(at) + 12 + length;
    if (end > bytes.size()) break;
    const std::string type(bytes.substr(at + 4, 4));
    if (!chunk_crc_ok(bytes, at, length)) {
      return make_error("png.corrupt", "the " + type + " chunk at byte " + std::to_string(at) +
                                           " has a bad CRC (the file is damaged)", {path});
    }
    if (type == "IDAT" && length == 0) walk.has_empty_idat = true;
    if (type == "IEND") return walk;
    at = static_cast<std::size_t>(end);
  }
  return make_error("png.corrupt", "PNG data is truncated (the chunks do not reach a complete IEND)", {path});
}

// Inflates the concatenated IDAT data into a small scratch buffer (nothing is kept), so zlib checks the
// stream's structure and its Adler-32 checksum before stb trusts it.
Result<void> check_zlib_stream(std::string_view bytes, const std::string& path) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return make_error("png.corrupt", "cannot start the zlib check", {path});
  std::array<unsigned char, 1 << 15> scratch{};
  int status = Z_OK;
  std::size_t at = sizeof kSignature;
  while (status == Z_OK && at + 12 <= bytes.size()) {
    const std::uint32_t length = read_be32(bytes, at);
    if (bytes.compare(at + 4, 4, "IEND") == 0) break;  // walk_chunks saw every chunk up to here whole
    if (bytes.compare(at + 4, 4, "IDAT") == 0) {
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + at + 8));
      z.avail_in = length;
      while (status == Z_OK && z.avail_in > 0) {
        z.next_out = scratch.data();
        z.avail_out = static_cast<uInt>(scratch.size());
        status = inflate(&z, Z_NO_FLUSH);
        if (status == Z_BUF_ERROR) status = Z_OK;  // no progress possible without more input
      }
    }
    at += 12 + std::size_t(length);
  }
  // Drain what zlib still holds once the input is all given.
  while (status == Z_OK) {
    z.next_out = scratch.data();
    z.avail_out = static_cast<uInt>(scratch.size());
    status = inflate(&z, Z_FINISH);
    if (status == Z_BUF_ERROR && z.avail_out != 0) break;  // the stream ended early
    if (status == Z_BUF_ERROR) status = Z_OK;
  }
  const std::string reason = z.msg ? std::string(" (zlib: ") + z.msg + ")" : std::string();
  inflateEnd(&z);
  if (status == Z_STREAM_END) return {};
  if (status == Z_DATA_ERROR) {
    return make_error("png.corrupt", "the image data's zlib stream is damaged" + reason, {path});
  }
  return make_error("png.corrupt", "the image data's zlib stream is incomplete" + reason, {path});
}

// The file without its zero-length IDAT chunks (legal, and meaningless), which stb mishandles.
std::string without_empty_idat(std::string_view bytes) {
  std::string out(bytes.substr(0, sizeof kSignature));
  std::size_t at = sizeof kSignature;
  while (at + 12 <= bytes.size()) {
    const std::uint32_t length = read_be32(bytes, at);
    const std::size_t size = 12 + std::size_t(length);
    if (bytes.compare(at + 4, 4, "IEND") == 0) {
      out.append(bytes.substr(at, size));
      break;
    }
    if (!(length == 0 && bytes.compare(at + 4, 4, "IDAT") == 0)) out.append(bytes.substr(at, size));
    at += size;
  }
  return out;
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
  if (bytes.size() < 33 || be32(8) != 13 || !chunk_crc_ok(bytes, 8, 13)) {
    return make_error("png.corrupt", "PNG header (IHDR) has a bad CRC or length (the file is damaged)", {path});
  }
  int x = 0, y = 0, channels = 0;
  if (!stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()), &x,
                             &y, &channels)) {
    return make_error("png.corrupt", "PNG header is invalid" + decoder_reason(), {path});
  }
  const int depth = static_cast<unsigned char>(bytes[24]);
  const int color_type = static_cast<unsigned char>(bytes[25]);
  const int samples = color_type == 2 ? 3 : color_type == 4 ? 2 : color_type == 6 ? 4 : 1;
  return PngInfo{x, y, channels, depth, samples};
}

namespace {

// A palette image's channel count (3, or 4 with a tRNS chunk) is only known once the decoder reaches
// the first IDAT, so the chunks before it are read too (bounded: ancillary chunks can be large).
void append_chunks_before_idat(std::istream& in, std::string& head) {
  constexpr std::size_t kMaxHead = std::size_t{16} << 20;
  while (head.size() < kMaxHead) {
    char header[8];
    in.read(header, 8);
    if (in.gcount() != 8) return;
    head.append(header, 8);
    if (std::memcmp(header + 4, "IDAT", 4) == 0) return;
    const auto* p = reinterpret_cast<const unsigned char*>(header);
    const std::uint64_t length = (std::uint64_t(p[0]) << 24) | (std::uint64_t(p[1]) << 16) | (std::uint64_t(p[2]) << 8) | p[3];
    if (length + 4 > kMaxHead - head.size()) return;
    std::string body(static_cast<std::size_t>(length) + 4, '\0');
    in.read(body.data(), static_cast<std::streamsize>(body.size()));
    head.append(body.data(), static_cast<std::size_t>(in.gcount()));
    if (static_cast<std::size_t>(in.gcount()) != body.size()) return;
  }
}

}  // namespace

Result<PngInfo> read_png_info(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("io.not_found", "cannot open the file", {path});
  std::string head(33, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  constexpr int kPaletteColorType = 3;
  if (head.size() == 33 && static_cast<unsigned char>(head[25]) == kPaletteColorType) append_chunks_before_idat(in, head);
  return png_info(head, path);
}

std::uint64_t png_decode_peak_bytes(const PngInfo& info) {
  const std::uint64_t px = std::uint64_t(info.width) * std::uint64_t(info.height);
  const std::uint64_t bytes_per_sample = info.bit_depth == 16 ? 2 : 1;
  const std::uint64_t row = (std::uint64_t(info.width) * std::uint64_t(info.samples) * std::uint64_t(info.bit_depth) + 7) / 8;
  // stb's phases (it frees each buffer once the next exists): inflated rows + image at file depth (up
  // to 4 samples); 16-bit image + its 8-bit copy; 8-bit image + RGBA8; stb's RGBA8 + our copy.
  const std::uint64_t inflate = std::uint64_t(info.height) * (1 + row) + px * 4 * bytes_per_sample;
  const std::uint64_t narrow = bytes_per_sample == 2 ? px * 4 * 3 : 0;
  const std::uint64_t rgba = px * 4 * 2;
  return std::max({inflate, narrow, rgba});
}

Result<Image> decode_png(std::string_view bytes, const std::string& path) {
  auto info = png_info(bytes, path);
  if (!info) return Unexpected{info.error()};
  auto walk = walk_chunks(bytes, path);
  if (!walk) return Unexpected{walk.error()};
  if (auto zlib_ok = check_zlib_stream(bytes, path); !zlib_ok) return Unexpected{zlib_ok.error()};
  std::string cleaned;
  if (walk->has_empty_idat) {
    cleaned = without_empty_idat(bytes);
    bytes = cleaned;
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
