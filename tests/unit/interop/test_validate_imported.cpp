// SPDX-License-Identifier: Apache-2.0
// Imported rigs are valid rig2d assets: the rig, its texture sidecar and its clip pass the validator
// with the sprite GUIDs resolved through an asset index, and the clip binds to the rig's bones.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/interop/godot.h"
#include "rig2d/interop/spine.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/validate/validate.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::size_t count(const FileReport& report, Severity s) { return report.count(s); }

void expect_valid(const fs::path& dir, const ImportResult& imported, const std::string& page) {
  spit(dir / "hero.rig2d.json", write_rig(imported.rig));
  REQUIRE(imported.sheets.size() == 1);
  auto sidecar = write_texture_sidecar(imported.sheets[0], "", "");
  REQUIRE(sidecar.has_value());
  spit(dir / (page + ".meta.json"), *sidecar);
  auto index = AssetIndex::scan(dir.string());
  REQUIRE(index.has_value());
  Validator validator;
  for (const char* file : {"hero.rig2d.json", "hero.png.meta.json"}) {
    const FileReport report = validator.validate_file((dir / file).string(), &*index);
    INFO(file);
    for (const Diagnostic& d : report.diagnostics) INFO(format_diagnostic(d));
    CHECK(count(report, Severity::Error) == 0);
    CHECK(count(report, Severity::Warning) == 0);
  }
}

}  // namespace

TEST_CASE("imported rigs pass rig2d-validate with their sidecars", "[interop]") {
  const fs::path data = fs::path(RIG2D_SOURCE_DIR) / "tests/data/convert";
  const fs::path dir = fs::temp_directory_path() / ("rig2d-test-convert-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(data / "spine/hero.png", dir / "hero.png");

  SECTION("from Spine") {
    auto atlas = parse_spine_atlas(slurp(data / "spine/hero.atlas"), "hero.atlas");
    REQUIRE(atlas.has_value());
    ImportOptions options;
    options.rig_id = "12345678-1234-4234-8234-123456789abc";
    auto imported = import_spine(slurp(data / "spine/hero.json"), "hero.json", &*atlas, options);
    REQUIRE(imported.has_value());
    expect_valid(dir, *imported, "hero.png");
    // The clip addresses bones by name-path and every track binds.
    REQUIRE(imported->clips.size() == 1);
    spit(dir / "wave.anim.json", write_clip(imported->clips[0]));
    auto clip = load_clip((dir / "wave.anim.json").string());
    REQUIRE(clip.has_value());
    CHECK(clip->tracks.size() == imported->clips[0].tracks.size());
    const ClipBinding binding = bind_clip(*clip, imported->rig, "wave.anim.json");
    CHECK(binding.skipped.empty());
    CHECK(binding.bones.size() == clip->tracks.size());
  }
  SECTION("from Godot") {
    GodotImportOptions options;
    options.rig_id = "12345678-1234-4234-8234-123456789abd";
    options.resolve_texture = [](const std::string&) { return std::optional<GodotTexture>(GodotTexture{64, 64}); };
    auto imported = import_godot(slurp(data / "godot/hero.tscn"), "hero.tscn", options);
    REQUIRE(imported.has_value());
    REQUIRE(imported->sheets.size() == 1);
    imported->sheets[0].image = "hero.png";
    expect_valid(dir, *imported, "hero.png");
  }
  fs::remove_all(dir);
}
