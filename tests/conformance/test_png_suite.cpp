// SPDX-License-Identifier: Apache-2.0
// PNG conformance: every colour type, bit depth, palette/tRNS, Adam7 interlacing and corrupt files of
// tests/data/png (made by scripts/make-png-suite.py) decode to the expected RGBA8 or fail cleanly.
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {
const fs::path kSuite = fs::path(RIG2D_SOURCE_DIR) / "tests" / "data" / "png";

std::string read(const fs::path& p) {
  auto bytes = read_file(p.string(), kMaxPngFileBytes);
  REQUIRE(bytes);
  return *bytes;
}
}  // namespace

TEST_CASE("png suite: every file decodes exactly or fails with a png.* code", "[image][conformance]") {
  const auto manifest = nlohmann::json::parse(read(kSuite / "suite.json"));
  REQUIRE(manifest.size() >= 40);
  int decoded = 0;
  for (auto it = manifest.begin(); it != manifest.end(); ++it) {
    const std::string name = it.key();
    INFO(name);
    const std::string bytes = read(kSuite / name);
    auto image = decode_png(bytes, name);
    if (it.value()["expect"] == "error") {
      REQUIRE_FALSE(image);
      CHECK(image.error().code.rfind("png.", 0) == 0);
      CHECK(image.error().where.file == name);
      continue;
    }
    REQUIRE(image);
    const std::string expected = read(kSuite / (name.substr(0, name.size() - 4) + ".rgba"));
    std::uint32_t w = 0, h = 0;
    std::memcpy(&w, expected.data(), 4);
    std::memcpy(&h, expected.data() + 4, 4);
    CHECK(image->width == static_cast<int>(w));
    CHECK(image->height == static_cast<int>(h));
    REQUIRE(image->rgba.size() + 8 == expected.size());
    CHECK(std::memcmp(image->rgba.data(), expected.data() + 8, image->rgba.size()) == 0);
    ++decoded;
  }
  CHECK(decoded >= 30);
}

TEST_CASE("png suite: header info reports the file's channels before decoding", "[image][conformance]") {
  auto info = png_info(read(kSuite / "grayalpha8.png"), "grayalpha8.png");
  REQUIRE(info);
  CHECK(info->channels == 2);
  auto huge = png_info(read(kSuite / "huge-dimensions.png"), "huge-dimensions.png");
  REQUIRE_FALSE(huge);
  CHECK(huge.error().code == "png.too_large");
}

TEST_CASE("png suite: every prefix of a valid PNG is rejected cleanly", "[image][conformance]") {
  const std::string bytes = read(kSuite / "rgba8-adam7.png");
  for (std::size_t n = 0; n + 12 < bytes.size(); ++n) {  // the last 12 bytes are the IEND chunk
    // A fresh copy per prefix so ASan sees any read past the end.
    const std::string prefix(bytes.data(), n);
    auto image = decode_png(prefix, "prefix.png");
    INFO("prefix length " << n);
    CHECK_FALSE(image);
  }
}
