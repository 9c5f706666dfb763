// SPDX-License-Identifier: Apache-2.0
// autorig_file: one sprite file through sidecar, ids, bones file, rig and read-back, in memory.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "rig2d/asset/guid.h"
#include "rig2d/image/png.h"
#include "rig2d/autorig/autorig_file.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig/rig_json_internal.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

constexpr const char* kTexture = "720bff86-1b0e-4293-acfc-a4b7661f835c";

struct Sandbox {
  fs::path dir;
  explicit Sandbox(const std::string& name) : dir(fs::temp_directory_path() / ("rig2d_test_autorig_file_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Sandbox() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir / name, std::ios::binary) << bytes;
  }
};

// 40 x 80, opaque except a transparent top quarter.
std::string sprite_png() {
  Image img;
  img.width = 40;
  img.height = 80;
  img.rgba.assign(40 * 80 * 4, 255);
  for (int y = 0; y < 20; ++y) {
    for (int x = 0; x < 40; ++x) img.rgba[std::size_t(y * 40 + x) * 4 + 3] = 0;
  }
  return *encode_png(img);
}

// 96 x 120 (times `scale`), a body with two limbs and antialiased edges, so the outline, its vertices
// and the heat weights land on arbitrary doubles (numbers the text must carry exactly); with
// `shadow`, a dark translucent drop shadow under its foot.
Image figure(int scale = 1, bool shadow = false) {
  Image img;
  img.width = 96 * scale;
  img.height = 120 * scale;
  img.rgba.assign(std::size_t(img.width) * std::size_t(img.height) * 4, 0);
  auto cover = [](double d) { return d <= 0 ? 1.0 : d >= 1 ? 0.0 : 1 - d; };
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      const double px = (x + 0.5) / scale, py = (y + 0.5) / scale;
      const double body = std::hypot((px - 48) / 26, (py - 50) / 34) * 26 - 26;
      const double arm = std::max(std::fabs(py - 0.6 * px - 30) / 1.17 - 5, px - 90);
      const double leg = std::max(std::fabs(px - 40) - 7, std::fabs(py - 100) - 16);
      const double a = std::max({cover(body), cover(arm) * (px > 40), cover(leg)});
      const std::size_t o = (std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4;
      img.rgba[o] = static_cast<std::uint8_t>(x * 2);
      img.rgba[o + 1] = static_cast<std::uint8_t>(y * 2);
      img.rgba[o + 2] = 90;
      img.rgba[o + 3] = static_cast<std::uint8_t>(std::lround(255 * a));
      if (shadow && a < 0.4 && std::hypot((px - 44) / 30, (py - 113) / 6) < 1) {
        img.rgba[o] = img.rgba[o + 1] = img.rgba[o + 2] = 30;
        img.rgba[o + 3] = 100;
      }
    }
  }
  return img;
}

}  // namespace

TEST_CASE("autorig_file: the checked text is write_rig's and parses back to the same value", "[autorig][file]") {
  // The figure, and three times larger with a drop shadow: larger than the coverage mask, it takes the
  // downscaled mask and the skeleton's shadow from the sheet guess's pixels.
  for (const int scale : {1, 3}) {
    Sandbox box("text" + std::to_string(scale));
    const Image image = figure(scale, scale > 1);
    box.write("fig.png", *encode_png(image));
    box.write("fig.png.meta.json", std::string("{\"version\": 2, \"id\": \"") + kTexture + "\", \"type\": \"2d\"}");
    AutorigFileRequest req;
    req.png_path = box.path("fig.png");
    req.rig_path = box.path("fig.rig2d.json");
    AutorigOptions cli_default, engine, heat_chain;
    cli_default.mesh = heat_chain.mesh = MeshMode::Outline;
    cli_default.weights = heat_chain.weights = WeightsMode::Heat;
    cli_default.skeleton = SkeletonMode::Shape;
    engine.mesh = MeshMode::Grid;
    engine.weights = WeightsMode::Joint;
    engine.skeleton = SkeletonMode::Chain;
    engine.cell_size = 16;
    heat_chain.skeleton = SkeletonMode::Chain;
    for (const AutorigOptions& options : {cli_default, engine, heat_chain}) {
      auto res = autorig_file(req, options);
      REQUIRE(res);
      AutorigOptions o = options;
      o.sprite = res->sprite_guid;
      o.id = res->rig_id;
      auto rig = autorig_image(image, o);
      REQUIRE(rig);
      CHECK(res->rig_text == write_rig(*rig));
      auto parsed = detail::parse_rig_json(res->rig_text, req.rig_path);
      REQUIRE(parsed);
      CHECK(*parsed == detail::rig_to_json(*rig));
      CHECK(detail::to_js_json(*parsed) == res->rig_text);
      const StrictRig strict = read_rig_strict(res->rig_text, req.rig_path);
      CHECK(strict.diagnostics.empty());
      REQUIRE(strict.rig);
      CHECK(strict.rig->parts.at(0).mesh.verts == rig->parts.at(0).mesh.verts);
      CHECK(strict.rig->parts.at(0).skin_weights == rig->parts.at(0).skin_weights);
      auto loaded = read_rig_normalized(res->rig_text, req.rig_path);
      REQUIRE(loaded);
      const Rig expected = normalize_rig(*rig);
      CHECK(loaded->parts.at(0).mesh.verts == expected.parts.at(0).mesh.verts);
      CHECK(loaded->parts.at(0).skin_weights == expected.parts.at(0).skin_weights);
      CHECK(rig->parts.at(0).mesh.verts.size() > 20);
      if (options.skeleton == SkeletonMode::Shape) CHECK((res->stats.skeleton.drop_shadow > 0) == (scale > 1));
    }
  }
}

TEST_CASE("autorig_file: sprite GUID, derived id, verified rig text", "[autorig][file]") {
  Sandbox box("basic");
  box.write("hero.png", sprite_png());
  box.write("hero.png.meta.json", std::string("{\"version\": 2, \"id\": \"") + kTexture + "\", \"type\": \"2d\"}");
  AutorigFileRequest req;
  req.png_path = box.path("hero.png");
  req.rig_path = box.path("hero.rig2d.json");
  AutorigOptions options;
  options.cell_size = 10;
  auto res = autorig_file(req, options);
  REQUIRE(res);
  CHECK(res->texture_guid == kTexture);
  CHECK(res->sprite_guid == "fc9dd3be-30ee-f801-04ad-db58d0b2a243");  // spec 1.5 vector
  CHECK(res->rig_id == uuid_v5(kRigIdNamespace, res->sprite_guid));
  CHECK_FALSE(res->id_kept);
  CHECK_FALSE(res->meta_text);
  CHECK(res->warnings.empty());
  CHECK(res->stats.cols == 4);
  CHECK(res->stats.rows == 8);
  CHECK(res->stats.mask_width == 40);
  // Transparent pixel rows 0..19: grid row 0 (samples at pixel rows 0, 5, 10) is culled; row 1 is kept
  // by its bottom-edge sample at pixel row 20. Rows 1..7 remain.
  CHECK(res->stats.triangles == 7 * 4 * 2);
  // Engine key order, no trailing newline.
  CHECK(res->rig_text.rfind("{\n  \"id\": \"" + res->rig_id + "\",\n  \"sprite\": \"" + res->sprite_guid + "\",\n  \"bones\": [", 0) == 0);
  CHECK(res->rig_text.back() == '}');
  auto back = read_rig_normalized(res->rig_text, "x");
  REQUIRE(back);
  CHECK(back->parts[0].mesh.verts.size() == res->stats.vertices);
  // Nothing was written.
  CHECK_FALSE(fs::exists(req.rig_path));
}

TEST_CASE("autorig_file: existing id kept, bones file used, deterministic text", "[autorig][file]") {
  Sandbox box("rerun");
  box.write("a.png", sprite_png());
  box.write("a.png.meta.json", std::string("{\"version\": 2, \"id\": \"") + kTexture + "\", \"type\": \"2d\"}");
  box.write("a.bones.json", R"([{"name":"hip","y":40},{"name":"head","parent":0,"y":-60}])");
  AutorigFileRequest req;
  req.png_path = box.path("a.png");
  req.rig_path = box.path("a.rig2d.json");
  req.bones_path = box.path("a.bones.json");
  auto first = autorig_file(req, {});
  auto again = autorig_file(req, {});
  REQUIRE(first);
  REQUIRE(again);
  CHECK(first->rig_text == again->rig_text);
  CHECK(first->rig_text.find("\"name\": \"hip\"") != std::string::npos);
  CHECK(first->stats.bones == 2);

  box.write("a.rig2d.json", R"({"id": "0a0b0c0d-1111-4222-8333-444455556666"})");
  auto kept = autorig_file(req, {});
  REQUIRE(kept);
  CHECK(kept->id_kept);
  CHECK(kept->rig_id == "0a0b0c0d-1111-4222-8333-444455556666");

  box.write("a.bones.json", R"([{"name":"hip","parent":1},{"name":"head","parent":0}])");
  auto cycle = autorig_file(req, {});
  REQUIRE_FALSE(cycle);
  CHECK(cycle.error().code == "bones.parent");
  CHECK(cycle.error().where.file == req.bones_path);
}

TEST_CASE("autorig_file: sidecars minted, retyped, missing", "[autorig][file]") {
  Sandbox box("meta");
  box.write("s.png", sprite_png());
  AutorigFileRequest req;
  req.png_path = box.path("s.png");
  req.rig_path = box.path("s.rig2d.json");
  auto missing = autorig_file(req, {});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == "meta.missing");
  CHECK(missing.error().where.file == box.path("s.png.meta.json"));

  req.write_meta = true;
  auto minted = autorig_file(req, {});
  REQUIRE(minted);
  REQUIRE(minted->meta_text);
  CHECK(minted->meta_created);
  CHECK(minted->texture_guid == mint_texture_guid("s.png", sprite_png()));
  CHECK(*minted->meta_text == new_sprite_meta_text(minted->texture_guid));
  CHECK(minted->sprite_guid == whole_image_sprite_guid(minted->texture_guid));

  box.write("s.png.meta.json", std::string("{\"version\": 2, \"id\": \"") + kTexture + "\"}");
  req.write_meta = false;
  auto untyped = autorig_file(req, {});
  REQUIRE(untyped);
  REQUIRE(untyped->warnings.size() == 1);
  CHECK(untyped->warnings[0].code == "meta.type");
  CHECK_FALSE(untyped->meta_text);
  req.write_meta = true;
  auto retyped = autorig_file(req, {});
  REQUIRE(retyped);
  REQUIRE(retyped->meta_text);
  CHECK_FALSE(retyped->meta_created);
  CHECK(retyped->warnings.empty());
  CHECK(parse_sprite_meta(*retyped->meta_text, "m")->type == TextureType::TwoD);
  CHECK(retyped->texture_guid == kTexture);
}

TEST_CASE("autorig_file: minted GUIDs count the path from the mint root, under no assets/ folder", "[autorig][file]") {
  Sandbox box("mint");
  fs::create_directories(box.dir / "a");
  fs::create_directories(box.dir / "b");
  fs::create_directories(box.dir / "assets" / "c");
  for (const char* name : {"a/s.png", "b/s.png", "assets/c/s.png"}) box.write(name, sprite_png());
  const auto mint = [&](const std::string& png, const std::string& root) {
    AutorigFileRequest req;
    req.png_path = box.path(png);
    req.rig_path = box.path(png + ".rig2d.json");
    req.write_meta = true;
    req.mint_root = root;
    auto out = autorig_file(req, {});
    REQUIRE(out);
    return out->texture_guid;
  };
  // Without a root, a copy with the same name and bytes elsewhere gets the same GUID: the engine's
  // scanner would re-mint one of them, and its rig's sprite would no longer resolve.
  CHECK(mint("a/s.png", "") == mint_texture_guid("s.png", sprite_png()));
  CHECK(mint("b/s.png", "") == mint("a/s.png", ""));
  // From the folder holding both, each counts its own path.
  CHECK(mint("a/s.png", box.dir.string()) == mint_texture_guid("a/s.png", sprite_png()));
  CHECK(mint("b/s.png", box.dir.string()) == mint_texture_guid("b/s.png", sprite_png()));
  // A root the PNG is not inside is ignored; an assets/ folder above the PNG always wins.
  CHECK(mint("a/s.png", box.path("b")) == mint_texture_guid("s.png", sprite_png()));
  CHECK(mint("assets/c/s.png", box.dir.string()) == mint_texture_guid("c/s.png", sprite_png()));
}

TEST_CASE("autorig_file: up-to-date check follows the inputs' times", "[autorig][file]") {
  Sandbox box("fresh");
  box.write("u.png", sprite_png());
  box.write("u.png.meta.json", std::string("{\"version\": 2, \"id\": \"") + kTexture + "\", \"type\": \"2d\"}");
  AutorigFileRequest req;
  req.png_path = box.path("u.png");
  req.rig_path = box.path("u.rig2d.json");
  CHECK_FALSE(autorig_output_up_to_date(req));
  box.write("u.rig2d.json", "{}");
  const auto now = fs::last_write_time(req.rig_path);
  fs::last_write_time(req.png_path, now - std::chrono::seconds(10));
  fs::last_write_time(box.path("u.png.meta.json"), now - std::chrono::seconds(10));
  CHECK(autorig_output_up_to_date(req));
  fs::last_write_time(box.path("u.png.meta.json"), now + std::chrono::seconds(10));
  CHECK_FALSE(autorig_output_up_to_date(req));
  fs::remove(box.path("u.png.meta.json"));
  CHECK_FALSE(autorig_output_up_to_date(req));
}

TEST_CASE("autorig_file: keep_bones re-uses the existing rig's bones", "[autorig][file]") {
  Sandbox box("keep");
  box.write("k.png", sprite_png());
  box.write("k.png.meta.json", std::string("{\"version\": 2, \"id\": \"") + kTexture + "\", \"type\": \"2d\"}");
  AutorigFileRequest req;
  req.png_path = box.path("k.png");
  req.rig_path = box.path("k.rig2d.json");
  req.keep_bones = true;
  // No rig yet: suggested bones (40 x 80 -> 2 bones).
  auto first = autorig_file(req, {});
  REQUIRE(first);
  CHECK_FALSE(first->bones_kept);
  CHECK(first->stats.bones == 2);
  box.write("k.rig2d.json", R"({"id": "0a0b0c0d-1111-4222-8333-444455556666",
    "bones": [{"name": "hip", "parent": -1, "x": 0, "y": 30, "rot": 0}, {"name": "neck", "parent": 0, "x": 1, "y": -50, "rot": 0.25},
              {"name": "head", "parent": 1, "x": 0, "y": -10, "rot": 0}]})");
  auto kept = autorig_file(req, {});
  REQUIRE(kept);
  CHECK(kept->bones_kept);
  CHECK(kept->id_kept);
  CHECK(kept->stats.bones == 3);
  auto rig = read_rig_normalized(kept->rig_text, "k");
  REQUIRE(rig);
  CHECK(rig->bones[1].name == "neck");
  CHECK(rig->bones[1].x == 1);
  CHECK(rig->bones[1].rot == 0.25);
  // It wins over a bones file; a broken existing rig is an error against that rig.
  box.write("other.bones.json", R"([{"name":"x"}])");
  req.bones_path = box.path("other.bones.json");
  CHECK(autorig_file(req, {})->stats.bones == 3);
  box.write("k.rig2d.json", R"({"bones": []})");
  auto broken = autorig_file(req, {});
  REQUIRE_FALSE(broken);
  CHECK(broken.error().code == "bones.empty");
  CHECK(broken.error().where.file == req.rig_path);
}

TEST_CASE("autorig_file: bytes the caller has read are rigged instead of the files", "[autorig][file]") {
  Sandbox box("given_bytes");
  const std::string meta = std::string("{\"version\": 2, \"id\": \"") + kTexture + "\", \"type\": \"2d\"}";
  box.write("hero.png", sprite_png());
  box.write("hero.png.meta.json", meta);
  AutorigFileRequest req;
  req.png_path = box.path("hero.png");
  req.rig_path = box.path("hero.rig2d.json");
  AutorigOptions options;
  options.cell_size = 10;
  auto from_files = autorig_file(req, options);
  REQUIRE(from_files);

  // The same bytes given: the same rig, even with the files gone.
  const std::string png = sprite_png();
  fs::remove(req.png_path);
  fs::remove(req.png_path + ".meta.json");
  req.png_bytes = png;
  req.sidecar_text = meta;
  auto given = autorig_file(req, options);
  REQUIRE(given);
  CHECK(given->rig_text == from_files->rig_text);
  CHECK(given->texture_guid == kTexture);

  // Other bytes given than the file holds: the given ones are rigged (a different image, a different
  // texture id), so a caller's digest of them names what was rigged.
  box.write("hero.png", sprite_png());
  box.write("hero.png.meta.json", meta);
  const std::string other = *encode_png(figure());
  const std::string other_meta = "{\"version\": 2, \"id\": \"11111111-2222-4333-8444-555555555555\", \"type\": \"2d\"}";
  req.png_bytes = other;
  req.sidecar_text = other_meta;
  auto swapped = autorig_file(req, options);
  REQUIRE(swapped);
  CHECK(swapped->texture_guid == "11111111-2222-4333-8444-555555555555");
  CHECK(swapped->stats.image_width == 96);
  CHECK(swapped->rig_text != from_files->rig_text);

  // Without a sidecar text the sidecar file is read (and its absence is still meta.missing).
  req.sidecar_text.reset();
  fs::remove(req.png_path + ".meta.json");
  auto missing = autorig_file(req, options);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == "meta.missing");
}
