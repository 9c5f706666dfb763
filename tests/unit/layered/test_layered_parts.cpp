// SPDX-License-Identifier: Apache-2.0
// From a document to parts and rig: hidden layers skipped, opacity baked, groups kept or flattened,
// #rigid parts one quad on one bone, names made safe and unique, the atlas packed without overlap,
// and GUIDs kept on a re-run.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "json/json_util.h"
#include "rig2d/asset/guid.h"
#include "rig2d/io/files.h"
#include "rig2d/layered/atlas_pack.h"
#include "rig2d/layered/document_parts.h"
#include "rig2d/autorig/autorig_document.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

const fs::path kDocuments = fs::path(RIG2D_SOURCE_DIR) / "tests/data/layered";

LayeredDocument figure() {
  auto d = read_layered_document((kDocuments / "agpsd-figure.psd").string());
  REQUIRE(d);
  return std::move(*d);
}

const DocumentPart* find(const std::vector<DocumentPart>& parts, const std::string& name) {
  for (const DocumentPart& p : parts)
    if (p.name == name) return &p;
  return nullptr;
}

AutorigOptions tool_like_options() {
  AutorigOptions o;
  o.mesh = MeshMode::Outline;
  o.skeleton = SkeletonMode::Shape;
  o.weights = WeightsMode::Heat;
  return o;
}

}  // namespace

TEST_CASE("document_parts: visible layers in order, opacity baked, #rigid read", "[layered][parts]") {
  const LayeredDocument doc = figure();
  std::vector<Diagnostic> warnings;
  auto parts = document_parts(doc, GroupMode::Parts, "f.psd", warnings);
  REQUIRE(parts);
  std::vector<std::string> names;
  for (const DocumentPart& p : *parts) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"leg_l", "leg_r", "body", "upper", "lower", "arm_r", "head", "shadow", "hat"});
  CHECK(warnings.empty());
  const DocumentPart* hat = find(*parts, "hat");
  REQUIRE(hat);
  CHECK(hat->rigid);
  CHECK(hat->source_name == "hat#rigid");
  CHECK_FALSE(find(*parts, "body")->rigid);
  // shadow: opacity 128/255 baked into each alpha, rounded
  const DocumentLayer& layer = doc.layers[7];
  const DocumentPart* shadow = find(*parts, "shadow");
  REQUIRE(shadow);
  for (int y = 0; y < shadow->image.height; ++y)
    for (int x = 0; x < shadow->image.width; ++x) {
      const int lx = shadow->x + x - layer.x, ly = shadow->y + y - layer.y;
      const int a = layer.image.rgba[(std::size_t(ly) * std::size_t(layer.image.width) + std::size_t(lx)) * 4 + 3];
      REQUIRE(int(shadow->image.rgba[(std::size_t(y) * std::size_t(shadow->image.width) + std::size_t(x)) * 4 + 3]) ==
              (a * 128 + 127) / 255);
    }
  // arm_r reaches past the right edge: cropped to the canvas
  const DocumentPart* arm = find(*parts, "arm_r");
  CHECK(arm->x + arm->image.width == 96);
  // every part is cropped to its art: an opaque pixel on each edge
  for (const DocumentPart& p : *parts) {
    bool top = false, left = false;
    for (int x = 0; x < p.image.width; ++x) top = top || p.image.rgba[std::size_t(x) * 4 + 3] > 0;
    for (int y = 0; y < p.image.height; ++y) left = left || p.image.rgba[std::size_t(y) * std::size_t(p.image.width) * 4 + 3] > 0;
    CHECK((top && left));
  }
}

TEST_CASE("document_parts: --groups flatten makes a group one part", "[layered][parts]") {
  const LayeredDocument doc = figure();
  std::vector<Diagnostic> warnings;
  auto parts = document_parts(doc, GroupMode::Flatten, "f.psd", warnings);
  REQUIRE(parts);
  CHECK(parts->size() == 8);
  const DocumentPart* arm = find(*parts, "arm_l");
  REQUIRE(arm);
  CHECK_FALSE(find(*parts, "upper"));
  // Its box is the union of both layers' art; where only one layer has art, the part is that layer's pixel.
  const DocumentLayer& lower = doc.layers[4];
  const DocumentLayer& upper = doc.layers[3];
  std::size_t checked = 0;
  for (int y = 0; y < arm->image.height; ++y)
    for (int x = 0; x < arm->image.width; ++x) {
      const int cx = arm->x + x, cy = arm->y + y;
      auto alpha = [&](const DocumentLayer& l) {
        const int lx = cx - l.x, ly = cy - l.y;
        if (lx < 0 || ly < 0 || lx >= l.image.width || ly >= l.image.height) return 0;
        return int(l.image.rgba[(std::size_t(ly) * std::size_t(l.image.width) + std::size_t(lx)) * 4 + 3]);
      };
      const int a = int(arm->image.rgba[(std::size_t(y) * std::size_t(arm->image.width) + std::size_t(x)) * 4 + 3]);
      if (alpha(upper) == 0) {
        REQUIRE(a == alpha(lower));
        ++checked;
      }
    }
  CHECK(checked > 100);
}

TEST_CASE("document_parts: names made safe and unique, hidden and clear layers skipped", "[layered][parts]") {
  LayeredDocument doc;
  doc.width = doc.height = 4;
  DocumentLayer l;
  l.image.width = l.image.height = 1;
  l.image.rgba = {1, 2, 3, 255};
  for (const char* name : {"a b", "a_b", "", "x/../y #rigid", "hidden"}) {
    l.name = name;
    l.index = doc.layers.size();
    l.visible = std::string(name) != "hidden";
    doc.layers.push_back(l);
  }
  l.name = "clear";
  l.image.rgba = {1, 2, 3, 0};
  l.visible = true;
  l.index = doc.layers.size();
  doc.layers.push_back(l);
  std::vector<Diagnostic> warnings;
  auto parts = document_parts(doc, GroupMode::Parts, "d.psd", warnings);
  REQUIRE(parts);
  std::vector<std::string> names;
  for (const DocumentPart& p : *parts) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"a_b", "a_b-2", "layer2", "x____y"});
  CHECK((*parts)[3].rigid);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].code == "layered.layer.empty");
  CHECK_THAT(warnings[0].message, Catch::Contains("layer 5 \"clear\""));
}

TEST_CASE("pack_atlas: no overlaps, padding kept, power-of-two sides", "[layered][atlas]") {
  std::vector<Image> images;
  for (int i = 0; i < 12; ++i) {
    Image img;
    img.width = 5 + (i * 7) % 23;
    img.height = 3 + (i * 11) % 17;
    img.rgba.assign(std::size_t(img.width) * std::size_t(img.height) * 4, std::uint8_t(i + 1));
    images.push_back(img);
  }
  AtlasOptions o;
  o.padding = 3;
  for (bool pot : {false, true}) {
    o.power_of_two = pot;
    auto placed = pack_atlas(images, o);
    REQUIRE(placed);
    if (pot) {
      CHECK((placed->width & (placed->width - 1)) == 0);
      CHECK((placed->height & (placed->height - 1)) == 0);
    }
    for (std::size_t i = 0; i < images.size(); ++i) {
      CHECK(placed->x[i] >= o.padding);
      CHECK(placed->y[i] >= o.padding);
      CHECK(placed->x[i] + images[i].width <= placed->width);
      CHECK(placed->y[i] + images[i].height <= placed->height);
      for (std::size_t j = 0; j < i; ++j) {
        const bool apart = placed->x[i] + images[i].width + 2 * o.padding <= placed->x[j] ||
                           placed->x[j] + images[j].width + 2 * o.padding <= placed->x[i] ||
                           placed->y[i] + images[i].height + 2 * o.padding <= placed->y[j] ||
                           placed->y[j] + images[j].height + 2 * o.padding <= placed->y[i];
        CHECK(apart);
      }
    }
    // Every image's pixels land where the placement says.
    const Image atlas = compose_atlas(images, *placed);
    for (std::size_t i = 0; i < images.size(); ++i)
      CHECK(atlas.rgba[(std::size_t(placed->y[i]) * std::size_t(atlas.width) + std::size_t(placed->x[i])) * 4] == i + 1);
  }
  o.max_side = 16;
  auto small = pack_atlas(images, o);
  REQUIRE_FALSE(small);
  CHECK(small.error().code == "atlas.too_large");
}

TEST_CASE("autorig_document: a rigid part is one quad on one bone, re-runs keep every GUID", "[layered][rig]") {
  const fs::path dir = fs::temp_directory_path() / ("rig2d_test_layered_rerun_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kDocuments / "agpsd-figure.psd", dir / "hero.psd");
  DocumentRigRequest request;
  request.document_path = (dir / "hero.psd").string();
  request.rig_path = (dir / "hero.rig2d.json").string();
  auto first = autorig_document(request, tool_like_options());
  REQUIRE(first);
  REQUIRE(first->textures.size() == 2);
  CHECK(first->textures[0].path == (dir / "hero.atlas.png").string());
  CHECK(first->textures[1].path == (dir / "hero.atlas.png.meta.json").string());
  auto rig = read_rig_normalized(first->rig_text, "hero.rig2d.json");
  REQUIRE(rig);
  REQUIRE(rig->parts.size() == 9);
  const Part& hat = rig->parts[8];
  CHECK(hat.name == "hat");
  CHECK(hat.mesh.verts.size() == 4);
  CHECK(hat.mesh.tris.size() == 6);
  for (std::size_t v = 0; v < 4; ++v) {
    CHECK(hat.skin_weights[v * 4] == 1);
    CHECK(hat.skin_indices[v * 4] == hat.skin_indices[0]);
  }
  CHECK(rig->parts[6].mesh.verts.size() > 4);  // the head is meshed along its outline
  // The same document again: the same bytes.
  auto again = autorig_document(request, tool_like_options());
  REQUIRE(again);
  CHECK(again->rig_text == first->rig_text);
  CHECK(again->textures[0].bytes == first->textures[0].bytes);
  CHECK(again->textures[1].bytes == first->textures[1].bytes);
  // GUIDs given by hand in the sidecar (and the rig's id) are kept on a re-run.
  auto meta = detail::parse_json(first->textures[1].bytes, "meta");
  REQUIRE(meta);
  (*meta)["id"] = "11111111-2222-4333-8444-555555555555";
  (*meta)["sprites"][6]["guid"] = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
  (*meta)["filter"] = "nearest";  // a key of the user's own
  REQUIRE(write_file_atomic(first->textures[1].path, detail::to_js_json(*meta)));
  REQUIRE(write_file_atomic(request.rig_path, first->rig_text));
  auto kept = autorig_document(request, tool_like_options());
  REQUIRE(kept);
  CHECK(kept->id_kept);
  CHECK(kept->rig_id == first->rig_id);
  auto kept_meta = detail::parse_json(kept->textures[1].bytes, "meta");
  REQUIRE(kept_meta);
  CHECK((*kept_meta)["id"] == "11111111-2222-4333-8444-555555555555");
  CHECK((*kept_meta)["sprites"][6]["guid"] == "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee");
  CHECK((*kept_meta)["sprites"][5]["guid"] == (*meta)["sprites"][5]["guid"]);
  CHECK((*kept_meta)["filter"] == "nearest");
  auto kept_rig = read_rig_normalized(kept->rig_text, "hero.rig2d.json");
  REQUIRE(kept_rig);
  CHECK(kept_rig->parts[6].sprite == "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee");
  fs::remove_all(dir);
}

TEST_CASE("document_to_layout: the layout file and a PNG per part", "[layered][rig]") {
  const fs::path dir = fs::temp_directory_path() / ("rig2d_test_layered_layout_" + std::to_string(::getpid()));
  auto res = document_to_layout((kDocuments / "gimp-figure.psd").string(), (dir / "hero.layout.json").string(),
                                GroupMode::Parts);
  REQUIRE(res);
  REQUIRE(res->files.size() == 2 * 4 + 1);
  CHECK(res->files[0].path == (dir / "hero.layers/legs.png").string());
  CHECK(res->files[1].path == (dir / "hero.layers/legs.png.meta.json").string());
  auto layout = parse_part_layout(res->files.back().bytes, "hero.layout.json");
  REQUIRE(layout);
  CHECK(layout->width == 96);
  CHECK(layout->height == 128);
  REQUIRE(layout->parts.size() == 4);
  CHECK(layout->parts[2].name == "arm");
  CHECK(layout->parts[2].png == "hero.layers/arm.png");
  CHECK(layout->parts[2].x == 0);  // cropped to the canvas: the layer starts at -10
}

TEST_CASE("autorig_document: rigging's canvas counts against the memory budget before any part is made",
          "[layered][rig][budget]") {
  // Rigging holds about 9 bytes a canvas pixel besides the layers it read (4 bytes a layer pixel).
  const LayeredDocument doc = figure();
  std::uint64_t peak = 9 * std::uint64_t(doc.width) * std::uint64_t(doc.height);
  for (const DocumentLayer& layer : doc.layers) peak += 4 * std::uint64_t(layer.image.width) * layer.image.height;
  DocumentRigRequest request;
  request.document_path = (kDocuments / "agpsd-figure.psd").string();
  request.rig_path = "budget-figure.rig2d.json";
  request.memory_budget = peak - 1;
  auto over = autorig_document(request, tool_like_options());
  REQUIRE_FALSE(over);
  CHECK(over.error().code == "memory.budget");
  CHECK(over.error().where.file == request.document_path);
  CHECK(over.error().message.find(std::to_string(doc.width) + " x " + std::to_string(doc.height) + " canvas") !=
        std::string::npos);
  request.memory_budget = peak;
  CHECK(autorig_document(request, tool_like_options()));
}
