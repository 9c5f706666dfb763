// SPDX-License-Identifier: Apache-2.0
// Asset index: sidecars, derived sprites, slices, JSON asset ids, duplicates (ENGINE-SPEC §1.4, §1.5, §1.9).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "rig2d/asset/asset_index.h"
#include "rig2d/asset/guid.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

struct TempTree {
  fs::path root;
  explicit TempTree(const std::string& name) {
    root = fs::temp_directory_path() / ("rig2d-test-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~TempTree() { fs::remove_all(root); }
  void write(const std::string& rel, const std::string& text) const {
    const fs::path p = root / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
};

const std::string kSheet = "aaaaaaaa-0000-4000-8000-000000000001";
const std::string kSlice = "bbbbbbbb-0000-4000-8000-000000000002";

}  // namespace

TEST_CASE("asset index: textures, derived sprites and slices resolve", "[asset]") {
  TempTree t("index");
  t.write("assets/tex/sheet.png", "not decoded by the index");
  t.write("assets/tex/sheet.png.meta.json",
          R"({"version":2,"id":")" + kSheet + R"(","type":"2d","spriteSheet":{"width":256,"height":512},)"
          R"("sprites":[{"guid":")" + kSlice + R"(","name":"a","rect":{"x":64,"y":32,"w":128,"h":64}}]})");
  t.write("assets/tex/plain.png", "x");
  t.write("assets/tex/plain.png.meta.json", R"({"version":2,"id":"cccccccc-0000-4000-8000-000000000003"})");
  t.write("assets/rigs/bar.rig2d.json", R"({"id":"dddddddd-0000-4000-8000-000000000004","bones":[]})");
  t.write("assets/scenes/main.json", R"({"id":"eeeeeeee-0000-4000-8000-000000000005","entities":[]})");
  t.write("assets/rigs/broken.rig2d.json", "{ not json");

  auto index = AssetIndex::scan((t.root / "assets").string());
  REQUIRE(index);
  CHECK(index->diagnostics().empty());

  const auto slice = index->resolve_sprite(kSlice);
  REQUIRE(slice);
  CHECK_FALSE(slice->whole_image);
  CHECK(slice->x == 64);
  CHECK(slice->y == 32);
  CHECK(slice->w == 128);
  CHECK(slice->h == 64);
  CHECK(slice->sheet_w == 256);
  CHECK(slice->sheet_h == 512);
  CHECK(slice->texture_guid == kSheet);
  CHECK(fs::path(slice->texture_path).filename() == "sheet.png");

  // The derived whole-image sprite exists for a 2d texture ...
  const auto whole = index->resolve_sprite(derive_guid("sprite:" + kSheet));
  REQUIRE(whole);
  CHECK(whole->whole_image);
  CHECK_FALSE(whole->raw_texture);
  CHECK(whole->texture_guid == kSheet);
  // ... but not for a texture without a type (3d by default, §1.4).
  CHECK_FALSE(index->resolve_sprite(derive_guid("sprite:cccccccc-0000-4000-8000-000000000003")));
  const auto raw = index->resolve_sprite("CCCCCCCC-0000-4000-8000-000000000003");
  REQUIRE(raw);
  CHECK(raw->raw_texture);

  const AssetEntry* rig = index->find("dddddddd-0000-4000-8000-000000000004");
  REQUIRE(rig);
  CHECK(rig->kind == AssetKind::Rig);
  const AssetEntry* scene = index->find("eeeeeeee-0000-4000-8000-000000000005");
  REQUIRE(scene);
  CHECK(scene->kind == AssetKind::Scene);
  CHECK(index->find("ffffffff-0000-4000-8000-000000000006") == nullptr);
}

TEST_CASE("asset index: bad sidecars and duplicate GUIDs are diagnostics, not failures", "[asset]") {
  TempTree t("dups");
  t.write("a.png.meta.json", R"({"version":2,"id":")" + kSheet + R"("})");
  t.write("b.png.meta.json", R"({"version":2,"id":")" + kSheet + R"("})");
  t.write("c.png.meta.json", R"({"version":2})");
  t.write("d.png.meta.json", "{");
  auto index = AssetIndex::scan(t.root.string());
  REQUIRE(index);
  std::vector<std::string> codes;
  for (const auto& d : index->diagnostics()) codes.push_back(d.code);
  std::sort(codes.begin(), codes.end());
  CHECK(codes == std::vector<std::string>{"asset.guid.duplicate", "asset.meta.id", "asset.meta.parse"});
  // The first path keeps the GUID.
  REQUIRE(index->find(kSheet));
  CHECK(fs::path(index->find(kSheet)->path).filename() == "a.png");

  CHECK_FALSE(AssetIndex::scan((t.root / "missing").string()));
}

TEST_CASE("asset index: default root is the nearest 'assets' ancestor", "[asset]") {
  TempTree t("root");
  t.write("proj/assets/rigs/x.rig2d.json", "{}");
  t.write("proj/other/y.rig2d.json", "{}");
  CHECK(fs::path(default_asset_root((t.root / "proj/assets/rigs/x.rig2d.json").string())) == t.root / "proj/assets");
  CHECK(fs::path(default_asset_root((t.root / "proj/other/y.rig2d.json").string())) == t.root / "proj/other");
  CHECK(fs::path(default_asset_root((t.root / "proj/other").string())) == t.root / "proj/other");
}
