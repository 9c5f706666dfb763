// SPDX-License-Identifier: Apache-2.0
// PNG encode/decode round trip, rejection of non-PNG and truncated data, and header limits checked
// before any pixel memory is allocated.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

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
