// SPDX-License-Identifier: Apache-2.0
// Documents written by programs that are not rig2d (scripts/make-layered-fixtures.sh: ag-psd, GIMP,
// Krita) read as their writers meant them: the rig made from each, rendered at bind through its atlas
// and sidecar as the engine resolves them, equals the program's own composite of the document.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/layered/document.h"
#include "rig2d/layered/document_parts.h"
#include "rig2d/autorig/autorig_document.h"
#include "rig2d/preview/pose.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

const fs::path kData = fs::path(RIG2D_SOURCE_DIR) / "tests/data/layered";

AutorigOptions cli_defaults() {
  AutorigOptions o;
  o.mesh = MeshMode::Outline;
  o.skeleton = SkeletonMode::Shape;
  o.weights = WeightsMode::Heat;
  return o;
}

struct Sandbox {
  fs::path dir;
  explicit Sandbox(const std::string& name) : dir(fs::temp_directory_path() / ("rig2d_test_layered_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Sandbox() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

void write_all(const std::vector<OutputFile>& files) {
  for (const OutputFile& f : files) {
    fs::create_directories(fs::path(f.path).parent_path());
    std::ofstream(f.path, std::ios::binary) << f.bytes;
  }
}

// The rig rendered at bind, canvas-sized, its textures resolved through the sidecars in `root`.
Image bind_render(const std::string& rig_path, const std::string& root, int w, int h, double pivot_x, double pivot_y) {
  auto text = read_file(rig_path, 1 << 26);
  REQUIRE(text);
  auto rig = read_rig_normalized(*text, rig_path);
  REQUIRE(rig);
  auto assets = AssetIndex::scan(root);
  REQUIRE(assets);
  const PartTextures tex = load_part_textures(*rig, *assets, rig_path);
  for (const Diagnostic& d : tex.warnings) INFO(format_diagnostic(d));
  REQUIRE(tex.warnings.empty());
  RenderOptions ro;
  ro.view = {w, h, 1, pivot_x * w, pivot_y * h};
  const RigPose pose = bind_pose(*rig);
  auto img = render_pose(*rig, tex.parts, pose, skin_rig(*rig, pose), ro);
  REQUIRE(img);
  return *img;
}

struct Agreement {
  double within_2 = 0;  // share of pixels whose premultiplied RGB and alpha are all within 2 LSB
  int worst = 0;        // the largest difference of any channel
};

// Premultiplied comparison: a clear pixel is clear whatever colour a writer leaves under it, and a
// faint one's colour counts as much as it shows.
Agreement agree(const Image& a, const Image& b) {
  REQUIRE(a.width == b.width);
  REQUIRE(a.height == b.height);
  Agreement out;
  std::size_t close = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4) {
    int diff = std::abs(int(a.rgba[i + 3]) - int(b.rgba[i + 3]));
    for (int c = 0; c < 3; ++c) {
      const int pa = (a.rgba[i + c] * a.rgba[i + 3] + 127) / 255, pb = (b.rgba[i + c] * b.rgba[i + 3] + 127) / 255;
      diff = std::max(diff, std::abs(pa - pb));
    }
    close += diff <= 2;
    out.worst = std::max(out.worst, diff);
  }
  out.within_2 = double(close) / double(a.rgba.size() / 4);
  return out;
}

}  // namespace

TEST_CASE("layered: each program's document rigs to its own composite at bind", "[layered][fixtures]") {
  // document, the composite by the program named, what wrote the document
  const std::vector<std::array<std::string, 2>> cases{
      {"agpsd-figure.psd", "agpsd-figure.gimp.png"},  // ag-psd's PSD, GIMP's composite
      {"gimp-figure.psd", "gimp-figure.png"},         // GIMP's PSD (RLE), GIMP's composite
      {"krita-figure.ora", "krita-figure.png"},       // Krita's OpenRaster, Krita's composite
      {"krita-gimp.psd", "krita-gimp.png"},           // Krita's PSD, Krita's composite
  };
  for (const auto& [doc_name, composite_name] : cases) {
    DYNAMIC_SECTION(doc_name) {
      Sandbox box("fixture_" + doc_name);
      fs::copy_file(kData / doc_name, box.dir / doc_name);
      DocumentRigRequest request;
      request.document_path = box.path(doc_name);
      request.rig_path = box.path(fs::path(doc_name).stem().string() + ".rig2d.json");
      auto res = autorig_document(request, cli_defaults());
      REQUIRE(res);
      write_all(res->textures);
      std::ofstream(request.rig_path, std::ios::binary) << res->rig_text;
      auto composite = load_png((kData / composite_name).string());
      REQUIRE(composite);
      const Image render = bind_render(request.rig_path, box.dir.string(), composite->width, composite->height, 0.5, 0.5);
      const Agreement a = agree(render, *composite);
      INFO(doc_name << " vs " << composite_name << ": " << a.within_2 * 100 << "% of pixels within 2 LSB, worst "
                    << a.worst);
      CHECK(a.within_2 >= 0.99);
      std::printf("%s vs %s: %.3f%% of pixels within 2 LSB, worst %d\n", doc_name.c_str(), composite_name.c_str(),
                  a.within_2 * 100, a.worst);
    }
  }
}

TEST_CASE("layered: ag-psd's PSD and Krita's OpenRaster of it hold the same layers", "[layered][fixtures]") {
  auto psd = read_layered_document((kData / "agpsd-figure.psd").string());
  auto ora = read_layered_document((kData / "krita-figure.ora").string());
  REQUIRE(psd);
  REQUIRE(ora);
  CHECK(psd->format == LayeredFormat::Psd);
  CHECK(ora->format == LayeredFormat::Ora);
  CHECK(psd->width == 96);
  CHECK(psd->height == 128);
  REQUIRE(psd->layers.size() == 10);
  REQUIRE(ora->layers.size() == 10);
  const std::vector<std::string> names{"leg_l", "leg_r", "body", "upper", "lower", "arm_r",
                                       "head",  "shadow", "hat#rigid", "sketch"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    CHECK(psd->layers[i].name == names[i]);
    CHECK(ora->layers[i].name == names[i]);
    // Krita may store a layer at another size (its own bounds), so compare on the canvas.
    CHECK(psd->layers[i].visible == (names[i] != "sketch"));
    CHECK(ora->layers[i].visible == psd->layers[i].visible);
    CHECK(std::abs(ora->layers[i].opacity - psd->layers[i].opacity) < 1e-3);
  }
  CHECK(psd->layers[7].opacity == Approx(128 / 255.0));  // ag-psd writes 0.5 as 128
  // The group: "upper" and "lower" sit in "arm_l", the others in none.
  REQUIRE(psd->groups.size() == 1);
  CHECK(psd->groups[0].name == "arm_l");
  CHECK(psd->layers[3].groups == std::vector<std::size_t>{0});
  CHECK(psd->layers[4].groups == std::vector<std::size_t>{0});
  CHECK(psd->layers[2].groups.empty());
  REQUIRE(ora->groups.size() == 1);
  CHECK(ora->groups[0].name == "arm_l");
  CHECK(ora->layers[3].groups == std::vector<std::size_t>{0});
  // Every visible pixel of every layer is the same in both files, at the same place on the canvas.
  for (std::size_t i = 0; i < names.size(); ++i) {
    const DocumentLayer &p = psd->layers[i], &o = ora->layers[i];
    std::size_t differing = 0, opaque = 0;
    for (int y = 0; y < p.image.height; ++y)
      for (int x = 0; x < p.image.width; ++x) {
        const std::uint8_t* a = &p.image.rgba[(std::size_t(y) * std::size_t(p.image.width) + std::size_t(x)) * 4];
        if (a[3] == 0) continue;
        ++opaque;
        const int ox = p.x + x - o.x, oy = p.y + y - o.y;
        if (ox < 0 || oy < 0 || ox >= o.image.width || oy >= o.image.height) {
          ++differing;
          continue;
        }
        const std::uint8_t* b = &o.image.rgba[(std::size_t(oy) * std::size_t(o.image.width) + std::size_t(ox)) * 4];
        differing += !std::equal(a, a + 4, b);
      }
    INFO(names[i] << ": " << differing << " of " << opaque << " pixels differ");
    CHECK(opaque > 0);
    CHECK(differing == 0);
  }
}
