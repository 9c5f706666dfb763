// SPDX-License-Identifier: Apache-2.0
// The PSD and OpenRaster readers on hand-made bytes: what they decode (hand-computed pixels), and
// every kind of bad input the issue lists, each a located error with its stable code.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>

#include "layered_builders.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/layered/document.h"

using namespace rig2d;
using namespace rig2d::test;
namespace fs = std::filesystem;

namespace {

// A 2 x 2 layer at (1, 1): red, green and blue RLE-coded, alpha raw.
TestPsd two_by_two() {
  TestPsd p;
  TestLayer l;
  l.name = "arm";
  l.top = 1, l.left = 1, l.bottom = 3, l.right = 3;
  l.channels = {rle_channel(0, {std::string("\x01\x0A\x14", 3), std::string("\xFF\x1E", 2)}),  // 10 20 / 30 30
                rle_channel(1, {std::string("\xFF\x28", 2), std::string("\xFF\x32", 2)}),      // 40 40 / 50 50
                raw_channel(2, std::string("\x3C\x46\x50\x5A", 4)),                            // 60 70 / 80 90
                raw_channel(-1, std::string("\xFF\x80\x00\x40", 4))};
  l.opacity = 204;
  p.layers.push_back(l);
  return p;
}

std::string ora(const std::string& stack, std::vector<TestZipEntry> extra = {}) {
  std::vector<TestZipEntry> entries{stored("mimetype", "image/openraster"), deflated("stack.xml", stack)};
  for (auto& e : extra) entries.push_back(std::move(e));
  return make_zip(entries);
}

std::string tiny_png(int w, int h, std::uint8_t alpha) {
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.assign(std::size_t(w) * std::size_t(h) * 4, alpha);
  return *encode_png(img);
}

}  // namespace

TEST_CASE("psd: raw and RLE channels decode to the layer's pixels", "[layered][psd]") {
  auto doc = read_psd(make_psd(two_by_two()), "t.psd");
  REQUIRE(doc);
  REQUIRE(doc->layers.size() == 1);
  const DocumentLayer& l = doc->layers[0];
  CHECK(l.name == "arm");
  CHECK(l.x == 1);
  CHECK(l.y == 1);
  CHECK(l.opacity == Approx(0.8));
  REQUIRE(l.image.width == 2);
  REQUIRE(l.image.height == 2);
  const std::vector<std::uint8_t> want{10, 40, 60, 255, 20, 40, 70, 128, 30, 50, 80, 0, 30, 50, 90, 64};
  CHECK(l.image.rgba == want);
  CHECK(doc->warnings.empty());
}

TEST_CASE("psd: bad input is a located error with its code", "[layered][psd]") {
  SECTION("wrong signature") {
    std::string b = make_psd(two_by_two());
    b[0] = 'X';
    auto d = read_psd(b, "t.psd");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.signature");
    CHECK(d.error().where.file == "t.psd");
  }
  SECTION("every truncation is an error, never a crash") {
    const std::string b = make_psd(two_by_two());
    for (std::size_t n = 0; n + 1 < b.size(); ++n) {
      auto d = read_psd(std::string_view(b).substr(0, n), "t.psd");
      INFO("prefix " << n);
      // The merged image is not read unless asked, so a cut inside it still reads.
      if (n >= b.size() - 2 - 3 * 16) continue;
      REQUIRE_FALSE(d);
      CHECK(d.error().code.rfind("psd.", 0) == 0);
    }
  }
  SECTION("an RLE row that decodes to the wrong size") {
    TestPsd p = two_by_two();
    p.layers[0].channels[0] = rle_channel(0, {std::string("\x02\x0A\x14\x1E", 4), std::string("\xFF\x1E", 2)});
    auto d = read_psd(make_psd(p), "t.psd");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.rle");
    CHECK_THAT(d.error().message, Catch::Contains("layer 0 \"arm\"") && Catch::Contains("byte "));
  }
  SECTION("a channel length past the end") {
    TestPsd p = two_by_two();
    std::string b = make_psd(p);
    b.resize(b.size() - 2 - 3 * 16 - 3);  // cut into the last channel's data and the rest
    auto d = read_psd(b, "t.psd");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.truncated");
    CHECK_THAT(d.error().message, Catch::Contains("needs"));
  }
  SECTION("a 300000 px document") {
    TestPsd p;
    p.version = 2;
    p.width = 300000;
    p.height = 16;
    auto d = read_psd(make_psd(p).substr(0, 26), "t.psb");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.too_large");
    p.version = 1;  // PSD's own limit is 30000
    d = read_psd(make_psd(p).substr(0, 26), "t.psd");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.header");
  }
  SECTION("an RGB document with fewer than 3 channels (found by fuzz_psd)") {
    TestPsd p;
    p.channels = 2;
    auto d = read_psd(make_psd(p), "t.psd", {2048ull << 20, true});
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.header");
  }
  SECTION("negative layer bounds") {
    TestPsd p = two_by_two();
    p.layers[0].bottom = 0;  // above its top
    auto d = read_psd(make_psd(p), "t.psd");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.layer.bounds");
    CHECK_THAT(d.error().message, Catch::Contains("layer 0 \"arm\""));
  }
  SECTION("a layer far outside the canvas") {
    TestPsd p = two_by_two();
    p.layers[0].left = -100000;
    auto d = read_psd(make_psd(p), "t.psd");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.layer.bounds");
  }
  SECTION("a layer over the memory budget fails before it is allocated") {
    TestPsd p = two_by_two();
    p.width = p.height = 4000;
    p.layers[0].bottom = p.layers[0].right = 4001;
    DocumentReadOptions o;
    o.max_bytes = 1 << 20;
    auto d = read_psd(make_psd(p).substr(0, 2000), "t.psd", o);  // the pixels are not even there
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "memory.budget");
    CHECK_THAT(d.error().message, Catch::Contains("layer 0 \"arm\""));
  }
  SECTION("16-bit, CMYK and Lab documents are refused by name") {
    TestPsd p = two_by_two();
    p.depth = 16;
    auto d = read_psd(make_psd(p), "t.psd");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.depth");
    p.depth = 8;
    p.mode = 4;
    d = read_psd(make_psd(p), "t.psd");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "psd.mode");
  }
}

TEST_CASE("psd: blend modes other than normal are warned about, by layer", "[layered][psd]") {
  TestPsd p = two_by_two();
  p.layers[0].blend = "mul ";
  auto d = read_psd(make_psd(p), "t.psd");
  REQUIRE(d);
  REQUIRE(d->warnings.size() == 1);
  CHECK(d->warnings[0].code == "psd.layer.blend");
  CHECK_THAT(d->warnings[0].message, Catch::Contains("layer 0 \"arm\"") && Catch::Contains("mul "));
  CHECK_FALSE(d->layers[0].normal_blend);
}

TEST_CASE("ora: stack.xml's nested stacks, offsets, opacity and visibility", "[layered][ora]") {
  const std::string stack =
      "<?xml version='1.0' encoding='UTF-8'?>\n<image w=\"8\" h=\"6\"><stack>"
      "<layer name=\"top &amp; co\" src=\"data/a.png\" x=\"1\" y=\"2\" opacity=\"0.5\"/>"
      "<stack name=\"g\" x=\"2\" y=\"1\" visibility=\"hidden\"><layer name=\"inner\" src=\"data/b.png\" x=\"1\"/></stack>"
      "</stack></image>";
  auto d = read_ora(ora(stack, {stored("data/a.png", tiny_png(2, 3, 255)), deflated("data/b.png", tiny_png(1, 1, 7))}),
                    "t.ora");
  REQUIRE(d);
  CHECK(d->width == 8);
  CHECK(d->height == 6);
  REQUIRE(d->layers.size() == 2);
  // bottom first: "inner" (listed last) is drawn first
  CHECK(d->layers[0].name == "inner");
  CHECK(d->layers[0].x == 3);  // its stack's x + its own
  CHECK(d->layers[0].y == 1);
  CHECK(d->layers[0].groups == std::vector<std::size_t>{0});
  CHECK_FALSE(d->groups[0].visible);
  CHECK(d->layers[1].name == "top & co");
  CHECK(d->layers[1].opacity == 0.5);
  CHECK(d->layers[1].image.width == 2);
  CHECK(d->layers[1].image.height == 3);
}

TEST_CASE("ora: bad input is a located error with its code", "[layered][ora]") {
  const std::string ok_stack = "<image w=\"4\" h=\"4\"><stack><layer src=\"data/a.png\"/></stack></image>";
  SECTION("an entry named ../ or an absolute path") {
    for (const char* name : {"../evil.png", "data/../../evil.png", "/etc/passwd", "C:evil", "data\\..\\..\\x"}) {
      auto d = read_ora(ora(ok_stack, {stored(name, "x")}), "t.ora");
      INFO(name);
      REQUIRE_FALSE(d);
      CHECK(d.error().code == "ora.zip.path");
    }
  }
  SECTION("a zip bomb: a declared size over the budget") {
    TestZipEntry bomb = deflated("data/a.png", std::string(1 << 16, '\0'));
    bomb.size = 3ull << 30;  // 3 GiB declared
    auto d = read_ora(ora(ok_stack, {bomb}), "t.ora");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "memory.budget");
  }
  SECTION("a zip bomb: more inflated than declared") {
    TestZipEntry bomb = deflated("data/a.png", std::string(1 << 20, '\0'));
    bomb.size = 100;
    auto d = read_ora(ora(ok_stack, {bomb}), "t.ora");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "memory.budget");
    CHECK_THAT(d.error().message, Catch::Contains("past its declared"));
  }
  SECTION("stack.xml that is not XML, with line:col") {
    auto d = read_ora(ora("<image w=\"4\" h=\"4\">\n  <stack>\n  <layer src=\"a.png\" </stack></image>"), "t.ora");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "ora.xml");
    CHECK(d.error().where.line == 3);
    CHECK(d.error().where.column > 1);
  }
  SECTION("stack.xml nested 10000 deep") {
    std::string deep = "<image w=\"4\" h=\"4\">";
    for (int i = 0; i < 10000; ++i) deep += "<stack>";
    for (int i = 0; i < 10000; ++i) deep += "</stack>";
    deep += "</image>";
    auto d = read_ora(ora(deep), "t.ora");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "ora.xml.depth");
  }
  SECTION("a layer whose PNG is not in the archive") {
    auto d = read_ora(ora(ok_stack), "t.ora");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "ora.layer.src");
    CHECK_THAT(d.error().message, Catch::Contains("layer 0"));
  }
  SECTION("a layer PNG that does not decode names the layer") {
    auto d = read_ora(ora(ok_stack, {stored("data/a.png", "\x89PNG\r\n\x1a\nbroken")}), "t.ora");
    REQUIRE_FALSE(d);
    CHECK(d.error().code.rfind("png.", 0) == 0);
    CHECK_THAT(d.error().message, Catch::Contains("layer 0 (data/a.png)"));
  }
  SECTION("not an OpenRaster zip") {
    auto d = read_ora(make_zip({stored("mimetype", "application/zip")}), "t.ora");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "ora.mimetype");
    d = read_ora("PK\x03\x04 not a zip at all", "t.ora");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "ora.zip");
  }
  SECTION("a bad CRC") {
    std::string b = ora(ok_stack, {stored("data/a.png", tiny_png(1, 1, 255))});
    const std::size_t at = b.find("IHDR");
    b[at + 5] ^= 1;
    auto d = read_ora(b, "t.ora");
    REQUIRE_FALSE(d);
    CHECK(d.error().code == "ora.zip");
    CHECK_THAT(d.error().message, Catch::Contains("CRC"));
  }
  SECTION("every truncation is an error, never a crash") {
    const std::string b = ora(ok_stack, {stored("data/a.png", tiny_png(2, 2, 255))});
    for (std::size_t n = 0; n < b.size(); ++n) {
      auto d = read_ora(std::string_view(b).substr(0, n), "t.ora");
      INFO("prefix " << n);
      REQUIRE_FALSE(d);
    }
  }
}

TEST_CASE("read_layered_document: by signature, any extension", "[layered]") {
  const fs::path dir = fs::temp_directory_path() / ("rig2d_test_layered_dispatch_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string psd = (dir / "x.ora").string();  // a PSD misnamed
  REQUIRE(write_file_atomic(psd, make_psd(two_by_two())));
  auto d = read_layered_document(psd);
  REQUIRE(d);
  CHECK(d->format == LayeredFormat::Psd);
  const std::string other = (dir / "y.psd").string();
  REQUIRE(write_file_atomic(other, "GIF89a"));
  auto e = read_layered_document(other);
  REQUIRE_FALSE(e);
  CHECK(e.error().code == "layered.format");
  fs::remove_all(dir);
  CHECK(layered_format_of("a/B.PSB") == LayeredFormat::Psb);
  CHECK(layered_format_of("a.ora") == LayeredFormat::Ora);
  CHECK_FALSE(layered_format_of("a.psd/x"));
}
