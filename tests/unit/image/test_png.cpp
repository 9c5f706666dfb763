// SPDX-License-Identifier: Apache-2.0
// PNG encode/decode round trip, rejection of non-PNG and truncated data, and header limits checked
// before any pixel memory is allocated.
#include <catch2/catch.hpp>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "image/adler32.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

Image test_image(int w, int h) {
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  for (std::size_t i = 0; i < img.rgba.size(); ++i) img.rgba[i] = static_cast<std::uint8_t>((i * 37 + i / 5) & 0xFF);
  img.rgba[3] = 0;  // a fully transparent pixel keeps its colour (straight alpha)
  return img;
}

void put_be32(std::string& s, std::size_t at, std::uint32_t v) {
  s[at] = static_cast<char>(v >> 24);
  s[at + 1] = static_cast<char>(v >> 16);
  s[at + 2] = static_cast<char>(v >> 8);
  s[at + 3] = static_cast<char>(v);
}

// The PNG signature and an IHDR chunk announcing w x h RGBA8, nothing else.
std::string header_only(std::uint32_t w, std::uint32_t h) {
  std::string s("\x89PNG\r\n\x1a\n", 8);
  s += std::string("\0\0\0\x0dIHDR", 8);
  s += std::string(8, '\0');
  put_be32(s, 16, w);
  put_be32(s, 20, h);
  s += std::string("\x08\x06\x00\x00\x00", 5);
  s += std::string(4, '\0');  // CRC (not checked before the limits)
  return s;
}

std::uint32_t get_be32(const std::string& s, std::size_t at) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data() + at);
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

std::string chunk(const std::string& type, const std::string& data) {
  std::string c(4, '\0');
  put_be32(c, 0, static_cast<std::uint32_t>(data.size()));
  c += type + data + std::string(4, '\0');
  const auto crc = ::crc32(0, reinterpret_cast<const Bytef*>(c.data() + 4), static_cast<uInt>(data.size() + 4));
  put_be32(c, c.size() - 4, static_cast<std::uint32_t>(crc));
  return c;
}

// A PNG's parts: everything before its first IDAT, and its inflated image data.
struct PngParts {
  std::string head;
  std::string raw;
};

PngParts split_png(const std::string& png) {
  PngParts parts;
  std::string stream;
  for (std::size_t at = 8; at + 12 <= png.size(); at += 12 + get_be32(png, at)) {
    if (png.compare(at + 4, 4, "IDAT") == 0) {
      if (parts.head.empty()) parts.head = png.substr(0, at);
      stream += png.substr(at + 8, get_be32(png, at));
    }
  }
  parts.raw.resize(stream.size() * 1032 + 64);
  uLongf size = parts.raw.size();
  REQUIRE(::uncompress(reinterpret_cast<Bytef*>(parts.raw.data()), &size,
                       reinterpret_cast<const Bytef*>(stream.data()), stream.size()) == Z_OK);
  parts.raw.resize(size);
  return parts;
}

// head + `raw` compressed, in IDAT chunks of `piece` bytes with a tEXt chunk after the first + IEND.
std::string join_png(const std::string& head, const std::string& raw, std::size_t piece) {
  std::string stream(::compressBound(raw.size()), '\0');
  uLongf size = stream.size();
  REQUIRE(::compress(reinterpret_cast<Bytef*>(stream.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
                     raw.size()) == Z_OK);
  stream.resize(size);
  std::string png = head;
  for (std::size_t at = 0; at < stream.size(); at += piece) {
    png += chunk("IDAT", stream.substr(at, piece));
    if (at == 0) png += chunk("tEXt", std::string("Comment\0between IDATs", 22));
  }
  return png + chunk("IEND", "");
}

}  // namespace

TEST_CASE("png: encode then decode gives the same RGBA8 pixels", "[image][png]") {
  for (const auto& [w, h] : {std::pair{1, 1}, std::pair{5, 3}, std::pair{64, 17}}) {
    const Image img = test_image(w, h);
    auto bytes = encode_png(img);
    REQUIRE(bytes);
    auto info = png_info(*bytes, "rt.png");
    REQUIRE(info);
    CHECK(info->width == w);
    CHECK(info->height == h);
    CHECK(info->channels == 4);
    auto back = decode_png(*bytes, "rt.png");
    REQUIRE(back);
    CHECK(back->width == w);
    CHECK(back->height == h);
    CHECK(back->rgba == img.rgba);
    auto again = encode_png(img);
    REQUIRE(again);
    CHECK(*again == *bytes);  // deterministic bytes
  }
}

TEST_CASE("png: data that is not a PNG is png.signature", "[image][png]") {
  for (const std::string& junk : {std::string(), std::string("hello"), std::string("{\"bones\": []}"),
                                  std::string("\x89PNG\r\n\x1a", 7), std::string(64, '\0')}) {
    auto r = decode_png(junk, "junk.png");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == "png.signature");
    CHECK(r.error().where.file == "junk.png");
  }
}

TEST_CASE("png: every truncation of a valid PNG is rejected cleanly", "[image][png]") {
  auto bytes = encode_png(test_image(5, 3));
  REQUIRE(bytes);
  for (std::size_t n = 0; n < bytes->size(); ++n) {
    // A fresh copy per prefix so a sanitizer sees any read past its end.
    const std::string prefix = bytes->substr(0, n);
    auto r = decode_png(prefix, "cut.png");
    INFO("prefix of " << n << " of " << bytes->size() << " bytes");
    REQUIRE_FALSE(r);
    const std::string& code = r.error().code;
    CHECK((code == "png.signature" || code == "png.corrupt"));
  }
}

TEST_CASE("png: huge header dimensions are png.too_large before any allocation", "[image][png]") {
  const auto side = static_cast<std::uint32_t>(kMaxImageSide);
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{side + 1, 1}, {1, side + 1},
                            {side, side},  // each side fits, the pixel count does not
                            {0x7FFFFFFF, 0x7FFFFFFF}, {0xFFFFFFFF, 0xFFFFFFFF}}) {
    INFO(w << " x " << h);
    const std::string crafted = header_only(w, h);
    auto info = png_info(crafted, "huge.png");
    REQUIRE_FALSE(info);
    CHECK(info.error().code == "png.too_large");
    auto image = decode_png(crafted, "huge.png");
    REQUIRE_FALSE(image);
    CHECK(image.error().code == "png.too_large");
  }
  // Within the limits, a header without pixel data is merely corrupt.
  auto small = decode_png(header_only(4, 4), "empty.png");
  REQUIRE_FALSE(small);
  CHECK(small.error().code == "png.corrupt");
}

TEST_CASE("png: damaged chunk CRCs and a wrong zlib checksum are refused before decoding", "[image][png]") {
  const fs::path dir = fs::path(RIG2D_SOURCE_DIR) / "tests" / "data" / "png";
  for (const auto& [name, says] : {std::pair<const char*, const char*>{"bad-ihdr-crc.png", "bad CRC"},
                                   {"bad-idat-crc.png", "IDAT chunk at byte 33 has a bad CRC"},
                                   {"bad-adler.png", "zlib stream is damaged"}}) {
    INFO(name);
    auto bytes = read_file((dir / name).string(), kMaxPngFileBytes);
    REQUIRE(bytes);
    auto image = decode_png(*bytes, name);
    REQUIRE_FALSE(image);
    CHECK(image.error().code == "png.corrupt");
    CHECK(image.error().message.find(says) != std::string::npos);
  }
}

TEST_CASE("png: empty IDAT chunks decode like the file without them, or fail cleanly", "[image][png]") {
  const fs::path dir = fs::path(RIG2D_SOURCE_DIR) / "tests" / "data" / "png";
  auto read = [&](const char* name) {
    auto bytes = read_file((dir / name).string(), kMaxPngFileBytes);
    REQUIRE(bytes);
    return *bytes;
  };
  auto plain = decode_png(read("rgba8.png"), "rgba8.png");
  REQUIRE(plain);
  for (const char* name : {"empty-first-idat.png", "empty-middle-idat.png"}) {
    INFO(name);
    auto image = decode_png(read(name), name);
    REQUIRE(image);
    CHECK(image->width == plain->width);
    CHECK(image->height == plain->height);
    CHECK(image->rgba == plain->rgba);
  }
  auto none = decode_png(read("only-empty-idat.png"), "only-empty-idat.png");
  REQUIRE_FALSE(none);
  CHECK(none.error().code == "png.corrupt");
  CHECK(none.error().message.find("zlib stream is incomplete") != std::string::npos);
}

TEST_CASE("png: read_png_info answers for every colour type, palette images included", "[image][png]") {
  // A palette image's channel count needs its PLTE/tRNS chunks; the file head alone used to be refused.
  const fs::path dir = fs::path(RIG2D_SOURCE_DIR) / "tests" / "data" / "png";
  for (const char* name : {"palette8.png", "palette8-trns.png", "palette4-trns.png", "palette1-adam7.png",
                           "gray16-trns.png", "rgba8.png"}) {
    INFO(name);
    const std::string path = (dir / name).string();
    auto bytes = read_file(path, kMaxPngFileBytes);
    REQUIRE(bytes);
    auto whole = png_info(*bytes, path);
    REQUIRE(whole);
    auto head = read_png_info(path);
    REQUIRE(head);
    CHECK(head->width == whole->width);
    CHECK(head->height == whole->height);
    CHECK(head->channels == whole->channels);
    CHECK(head->bit_depth == whole->bit_depth);
    CHECK(head->samples == whole->samples);
  }
  auto trns = read_png_info((dir / "palette8-trns.png").string());
  REQUIRE(trns);
  CHECK(trns->channels == 4);  // tRNS gives the palette an alpha channel
  auto opaque = read_png_info((dir / "palette8.png").string());
  REQUIRE(opaque);
  CHECK(opaque->channels == 3);
  CHECK(opaque->samples == 1);
}

TEST_CASE("png: the pixels do not depend on how the image data is split, nor on data past the image",
          "[image][png]") {
  // decode_png hands stb the stream it checked (rebuilt as stored blocks) only when it inflates to
  // exactly the rows stb needs; more data goes to stb as the original file, less fails there.
  const fs::path dir = fs::path(RIG2D_SOURCE_DIR) / "tests" / "data" / "png";
  for (const char* name : {"rgba8.png", "rgba16-adam7.png", "palette8-trns-adam7.png", "gray1.png"}) {
    INFO(name);
    auto bytes = read_file((dir / name).string(), kMaxPngFileBytes);
    REQUIRE(bytes);
    auto plain = decode_png(*bytes, name);
    REQUIRE(plain);
    const PngParts parts = split_png(*bytes);
    for (std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{1} << 20}) {
      INFO("IDAT chunks of " << piece << " bytes");
      auto image = decode_png(join_png(parts.head, parts.raw, piece), name);
      REQUIRE(image);
      CHECK(image->rgba == plain->rgba);
    }
    auto longer = decode_png(join_png(parts.head, parts.raw + std::string(100, '\x2a'), 1 << 20), name);
    REQUIRE(longer);
    CHECK(longer->rgba == plain->rgba);
    auto shorter = decode_png(join_png(parts.head, parts.raw.substr(0, parts.raw.size() - 1), 1 << 20), name);
    REQUIRE_FALSE(shorter);
    CHECK(shorter.error().code == "png.corrupt");
  }
}

TEST_CASE("png: the Adler-32 the image data is checked with is zlib's", "[image][png]") {
  std::mt19937 rng(7);
  std::vector<unsigned char> bytes(200000);
  for (unsigned char& b : bytes) b = static_cast<unsigned char>(rng());
  const std::vector<unsigned char> ones(200000, 0xff);  // the largest sums: lane and s2 overflow would show
  for (const std::vector<unsigned char>* data : {&std::as_const(bytes), &ones}) {
    for (std::size_t n : {0, 1, 15, 16, 17, 5551, 5552, 5553, 5568, 65535, 65536, 100003, 200000}) {
      for (std::size_t offset : {0, 3}) {
        const std::size_t len = std::min(n, data->size() - offset);
        INFO(n << " bytes at " << offset);
        const unsigned char* p = data->data() + offset;
        CHECK(detail::adler32(1, p, len) == ::adler32(1, p, static_cast<uInt>(len)));
        // Continued in uneven pieces, as inflate hands the bytes over.
        std::uint32_t pieces = 1;
        for (std::size_t at = 0, step = 1; at < len; at += step, step = step * 3 + 1) {
          pieces = detail::adler32(pieces, p + at, std::min(step, len - at));
        }
        CHECK(pieces == ::adler32(1, p, static_cast<uInt>(len)));
      }
    }
  }
}
