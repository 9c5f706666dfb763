// SPDX-License-Identifier: Apache-2.0
// Godot .tscn import (NodePath bones, per-bone weights, n-gons, internal vertices, renormalization)
// and the round trips rig -> Spine -> rig and rig -> Godot -> rig.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <nlohmann/json.hpp>

#include "interop/godot_text.h"
#include "rig2d/anim/curve.h"
#include "rig2d/interop/godot.h"
#include "rig2d/interop/spine.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(RIG2D_SOURCE_DIR) + "/tests/data/convert/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool has_code(const std::vector<Diagnostic>& diags, const std::string& code) {
  for (const Diagnostic& d : diags) {
    if (d.code == code) return true;
  }
  return false;
}

// Bone -> weight of one vertex (slot order and zero-weight padding do not matter).
std::map<std::uint32_t, double> influences(const Part& p, std::size_t v) {
  std::map<std::uint32_t, double> out;
  for (int k = 0; k < 4; ++k) {
    const double w = p.skin_weights[v * 4 + static_cast<std::size_t>(k)];
    if (w > 0) out[p.skin_indices[v * 4 + static_cast<std::size_t>(k)]] += w;
  }
  return out;
}

// A v2 rig: a three-bone chain turned every which way, two parts with blended weights, draw orders.
Rig sample_rig() {
  Rig rig;
  rig.id = "11111111-2222-4333-8444-555555555555";
  rig.version = 2;
  rig.layout = Layout::V2;
  rig.bones = {{"root", -1, 5, -3, 0.3, false}, {"upper", 0, 20, 0, -0.7, false}, {"lower", 1, 18, 2, 1.1, false}};
  Part torso;
  torso.name = "torso";
  torso.sprite = "aaaaaaaa-0000-4000-8000-000000000001";
  torso.mesh.verts = {{-10, -10}, {10, -10}, {12, 15}, {-9, 14}};
  torso.mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  torso.mesh.tris = {0, 2, 1, 0, 3, 2};
  torso.skin_indices = {0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 2, 0, 0, 0};
  torso.skin_weights = {1, 0, 0, 0, 0.75, 0.25, 0, 0, 0.6, 0.4, 0, 0, 1, 0, 0, 0};
  torso.order = 1;
  Part arm = torso;
  arm.name = "arm";
  arm.sprite = "aaaaaaaa-0000-4000-8000-000000000002";
  for (Vec2& v : arm.mesh.verts) v = {v.x * 0.5 + 30, v.y * 0.25 - 4};
  arm.skin_indices = {2, 1, 0, 0, 1, 2, 0, 0, 0, 1, 2, 0, 2, 0, 0, 0};
  arm.skin_weights = {0.5, 0.5, 0, 0, 0.2, 0.8, 0, 0, 0.1, 0.3, 0.6, 0, 1, 0, 0, 0};
  arm.order = 0;
  rig.parts = {arm, torso};
  return rig;
}

void check_round_trip(const Rig& a, const Rig& b) {
  REQUIRE(b.bones.size() == a.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    INFO("bone " << a.bones[i].name);
    CHECK(b.bones[i].name == a.bones[i].name);
    CHECK(b.bones[i].parent == a.bones[i].parent);
    CHECK(b.bones[i].x == Approx(a.bones[i].x).margin(1e-5));
    CHECK(b.bones[i].y == Approx(a.bones[i].y).margin(1e-5));
    CHECK(b.bones[i].rot == Approx(a.bones[i].rot).margin(1e-6));
  }
  REQUIRE(b.parts.size() == a.parts.size());
  CHECK(b.layout == a.layout);
  for (std::size_t p = 0; p < a.parts.size(); ++p) {
    const Part& pa = a.parts[p];
    const Part& pb = b.parts[p];
    INFO("part " << pa.name.value_or("main"));
    CHECK(pb.name.value_or("main") == pa.name.value_or("main"));
    CHECK(pb.order.value_or(0) == pa.order.value_or(0));
    CHECK(pb.mesh.tris == pa.mesh.tris);
    REQUIRE(pb.mesh.verts.size() == pa.mesh.verts.size());
    for (std::size_t v = 0; v < pa.mesh.verts.size(); ++v) {
      CHECK(static_cast<float>(pb.mesh.verts[v].x) == Approx(static_cast<float>(pa.mesh.verts[v].x)).margin(1e-4));
      CHECK(static_cast<float>(pb.mesh.verts[v].y) == Approx(static_cast<float>(pa.mesh.verts[v].y)).margin(1e-4));
      CHECK(pb.mesh.uvs[v].x == Approx(pa.mesh.uvs[v].x).margin(1e-6));
      CHECK(pb.mesh.uvs[v].y == Approx(pa.mesh.uvs[v].y).margin(1e-6));
      const auto wa = influences(pa, v), wb = influences(pb, v);
      REQUIRE(wb.size() == wa.size());
      for (const auto& [bone, w] : wa) CHECK(wb.at(bone) == Approx(w).epsilon(1e-6));
    }
  }
}

// Sprites resolve to rects on one 64x64 page, so the exporters place UVs on it.
ExportOptions sample_export() {
  ExportOptions options;
  options.resolve_sprite = [](const std::string& guid) -> std::optional<ExportSprite> {
    if (guid.back() == '1') return ExportSprite{"page.png", 64, 64, 2, 2, 24, 40, "torso"};
    if (guid.back() == '2') return ExportSprite{"page.png", 64, 64, 30, 2, 12, 30, "arm"};
    return std::nullopt;
  };
  return options;
}

}  // namespace

TEST_CASE("godot import: NodePath bones, weights, n-gons and internal vertices", "[interop]") {
  GodotImportOptions options;
  options.resolve_texture = [](const std::string& res) -> std::optional<GodotTexture> {
    if (res == "res://hero.png") return GodotTexture{64, 64};
    return std::nullopt;
  };
  auto r = import_godot(fixture("godot/hero.tscn"), "hero.tscn", options);
  REQUIRE(r.has_value());
  const Rig& rig = r->rig;
  REQUIRE(rig.bones.size() == 2);
  CHECK(rig.bones[0].name == "hip");
  CHECK(rig.bones[1].parent == 0);
  CHECK(rig.bones[1].y == Approx(20));
  CHECK(rig.bones[1].rot == Approx(M_PI / 2));
  REQUIRE(rig.parts.size() == 1);
  const Part& p = rig.parts[0];
  // The polygon and the skeleton sit at the same place: vertices are kept as written.
  REQUIRE(p.mesh.verts.size() == 5);
  CHECK(p.mesh.verts[2] == Vec2{10, 30});
  // The quad n-gon becomes 2 triangles: 1 + 2 + 1.
  CHECK(p.mesh.tris.size() == 12);
  // UV pixels over the 64x64 texture; the whole image is the sprite.
  CHECK(p.mesh.uvs[1].x == Approx(22.0 / 64));
  // No sidecar yet: the part draws the texture's own whole-image sprite, and no slice is added.
  REQUIRE(r->sheets.size() == 1);
  CHECK(r->sheets[0].whole_image);
  CHECK(r->sheets[0].slices.empty());
  CHECK(p.sprite == whole_image_sprite_guid(r->sheets[0].texture_guid));
  // A sidecar that already has slices gets a whole-image slice named after the image instead.
  GodotImportOptions sliced = options;
  sliced.sidecars.push_back({"res://hero.png", R"({"version": 2, "id": "cccccccc-0000-4000-8000-000000000000",
      "type": "2d", "sprites": [{"guid": "cccccccc-0000-4000-8000-000000000001", "name": "eye", "rect": {"x": 0, "y": 0, "w": 4, "h": 4}}]})"});
  auto r2 = import_godot(fixture("godot/hero.tscn"), "hero.tscn", sliced);
  REQUIRE(r2.has_value());
  REQUIRE(r2->sheets.at(0).slices.size() == 1);
  const SliceOut& hero = r2->sheets[0].slices[0];
  CHECK((hero.name == "hero" && hero.w == 64 && hero.h == 64));
  CHECK(r2->rig.parts[0].sprite == hero.guid);
  auto merged = write_texture_sidecar(r2->sheets[0], sliced.sidecars[0].text, "hero.png.meta.json");
  REQUIRE(merged.has_value());  // the known "eye" slice stays, "hero" joins it
  CHECK(merged->find("\"eye\"") != std::string::npos);
  CHECK(merged->find("\"hero\"") != std::string::npos);
  CHECK(merged->find("cccccccc-0000-4000-8000-000000000000") != std::string::npos);
  // Vertex 4 had 0.3 + 0.3: renormalized to a half each, and reported.
  const auto w4 = influences(p, 4);
  CHECK(w4.at(0) == Approx(0.5));
  CHECK(w4.at(1) == Approx(0.5));
  CHECK(has_code(r->diagnostics, "convert.weights.renormalized"));
  CHECK(has_code(r->diagnostics, "convert.godot.ngon"));
  for (std::size_t t = 0; t < p.mesh.tris.size(); t += 3) {  // rig2d winding
    const Vec2 a = p.mesh.verts[p.mesh.tris[t]], b = p.mesh.verts[p.mesh.tris[t + 1]], c = p.mesh.verts[p.mesh.tris[t + 2]];
    CHECK((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y) < 0);
  }
}

TEST_CASE("godot import: without polygons the outline minus internal vertices is triangulated", "[interop]") {
  std::string text = fixture("godot/hero.tscn");
  const std::size_t at = text.find("polygons = ");
  text.erase(at, text.find('\n', at) - at + 1);
  auto r = import_godot(text, "outline.tscn", {});
  REQUIRE(r.has_value());
  CHECK(r->rig.parts[0].mesh.tris.size() == 6);  // the 4 outline corners; vertex 4 is internal
  CHECK(has_code(r->diagnostics, "convert.godot.uv"));  // no texture size known
}

TEST_CASE("godot import: errors name the line and a stable code", "[interop]") {
  std::string text = fixture("godot/hero.tscn");
  const std::size_t at = text.find("NodePath(\"hip/leg\")");
  text.replace(at, 19, "NodePath(\"hip/knee\")");
  auto r = import_godot(text, "bad.tscn", {});
  REQUIRE(r.has_value());
  // A stale bone path is skipped with a warning at the bones = [...] line; its weights go.
  const auto missing = std::find_if(r->diagnostics.begin(), r->diagnostics.end(),
                                    [](const Diagnostic& d) { return d.code == "godot.polygon.bone.missing"; });
  REQUIRE(missing != r->diagnostics.end());
  CHECK(missing->where.line == 25);
  CHECK(missing->message.find("it carried weight") != std::string::npos);
  const Part& body = r->rig.parts[0];
  // Vertex 4 had hip 0.3 + knee 0.3: hip alone, renormalized to 1. Vertex 2 had knee only: the first bone.
  CHECK(body.skin_indices[16] == 0);
  CHECK(body.skin_weights[16] == 1.0);
  CHECK(body.skin_weights[8] == 1.0);
  CHECK(has_code(r->diagnostics, "convert.weights.renormalized"));
  CHECK(has_code(r->diagnostics, "convert.weights.zero"));
  // The index as written, not the vertex count.
  std::string bad_index = fixture("godot/hero.tscn");
  bad_index.replace(bad_index.find("PackedInt32Array(0, 1, 4)"), 25, "PackedInt32Array(0, 1, -7)");
  auto index = import_godot(bad_index, "bad.tscn", {});
  REQUIRE_FALSE(index.has_value());
  CHECK(index.error().code == "godot.polygon.index");
  CHECK(index.error().message.find("polygon index -7 is not a vertex (the polygon has 5)") != std::string::npos);
  auto syntax = import_godot("[gd_scene format=3]\n\n[node name=\"A\" type=\"Node2D\"]\nposition = Vector2(1, \n", "s.tscn", {});
  REQUIRE_FALSE(syntax.has_value());
  CHECK(syntax.error().code == "godot.syntax");
  CHECK(syntax.error().where.line > 0);
  auto none = import_godot("[gd_scene format=3]\n\n[node name=\"A\" type=\"Node2D\"]\n", "n.tscn", {});
  REQUIRE_FALSE(none.has_value());
  CHECK(none.error().code == "godot.skeleton");
}

TEST_CASE("godot import: nameless nodes, no skinned polygon and uvs off the texture", "[interop]") {
  const std::string hero = fixture("godot/hero.tscn");
  std::string nameless = hero;
  nameless.replace(nameless.find("name=\"leg\""), 10, "name=\"\"");
  auto r = import_godot(nameless, "nameless.tscn", {});
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().code == "godot.syntax");
  CHECK(r.error().where.line == 13);
  std::string latin1 = hero;
  latin1.replace(latin1.find("name=\"leg\""), 10, "name=\"l\xE9g\"");  // a Latin-1 byte, not UTF-8
  auto bad_text = import_godot(latin1, "latin1.tscn", {});
  REQUIRE_FALSE(bad_text.has_value());
  CHECK(bad_text.error().code == "godot.syntax");
  CHECK(bad_text.error().where.line == 13);
  CHECK(bad_text.error().where.column == 14);
  std::string utf8 = hero;
  utf8.replace(utf8.find("name=\"body\""), 11,
               "name=\"b\xC3\xB6"
               "dy\"");  // a UTF-8 name is fine
  auto good_text = import_godot(utf8, "utf8.tscn", {});
  REQUIRE(good_text.has_value());
  CHECK(good_text->rig.parts[0].name ==
        "b\xC3\xB6"
        "dy");

  // Two siblings of one name would make "hip/leg" ambiguous.
  std::string twins = hero;
  twins.replace(twins.find("name=\"body\""), 11, "name=\"Skeleton2D\"");
  auto twin = import_godot(twins, "twins.tscn", {});
  REQUIRE_FALSE(twin.has_value());
  CHECK(twin.error().code == "godot.syntax");
  CHECK(twin.error().where.line == 18);

  // A Skeleton2D without Bone2D leaves the weights nothing to name.
  std::string boneless = hero;
  boneless.erase(boneless.find("[node name=\"hip\""),
                 boneless.find("[node name=\"body\"") - boneless.find("[node name=\"hip\""));
  auto no_bones = import_godot(boneless, "boneless.tscn", {});
  REQUIRE_FALSE(no_bones.has_value());
  CHECK(no_bones.error().code == "godot.bone");
  CHECK(no_bones.error().where.line == 7);

  // The polygon skinned to nothing: warned about, and then there is nothing to import.
  std::string unskinned = hero;
  unskinned.erase(unskinned.find("skeleton = NodePath"),
                  std::string("skeleton = NodePath(\"../Skeleton2D\")\n").size());
  auto none = import_godot(unskinned, "unskinned.tscn", {});
  REQUIRE_FALSE(none.has_value());
  CHECK(none.error().code == "godot.polygon.none");
  CHECK(none.error().where.line == 7);  // the Skeleton2D

  // A 20 x 40 texture: uv (22, 42) lies beyond it and is clamped to its corner.
  GodotImportOptions options;
  options.resolve_texture = [](const std::string&) { return std::optional<GodotTexture>(GodotTexture{20, 40}); };
  auto small = import_godot(hero, "small.tscn", options);
  REQUIRE(small.has_value());
  const Part& part = small->rig.parts[0];
  CHECK(part.mesh.uvs[0].x == Approx(0.1));
  CHECK(part.mesh.uvs[2].x == 1);
  CHECK(part.mesh.uvs[2].y == 1);
  CHECK(has_code(small->diagnostics, "convert.godot.uv.clamped"));
}

TEST_CASE("round trip: rig -> Spine -> rig keeps bones, meshes and weights", "[interop]") {
  const Rig rig = sample_rig();
  auto spine = export_spine(rig, sample_export());
  REQUIRE(spine.has_value());
  REQUIRE_FALSE(spine->atlas.empty());
  auto atlas = parse_spine_atlas(spine->atlas, "out.atlas");
  REQUIRE(atlas.has_value());
  // The sprites come back under their GUIDs when the page's sidecar already names the slices.
  ImportOptions options;
  options.sidecars.push_back({"page.png", R"({"version": 2, "id": "bbbbbbbb-0000-4000-8000-000000000000", "sprites": [
    {"guid": "aaaaaaaa-0000-4000-8000-000000000001", "name": "torso"}, {"guid": "aaaaaaaa-0000-4000-8000-000000000002", "name": "arm"}]})"});
  auto back = import_spine(spine->text, "out.json", &*atlas, options);
  REQUIRE(back.has_value());
  Rig expected = rig;
  std::stable_sort(expected.parts.begin(), expected.parts.end(), [](const Part& a, const Part& b) { return *a.order < *b.order; });
  check_round_trip(expected, back->rig);
  CHECK(back->rig.parts[0].sprite == "aaaaaaaa-0000-4000-8000-000000000002");
  CHECK(back->rig.parts[1].sprite == "aaaaaaaa-0000-4000-8000-000000000001");
}

TEST_CASE("round trip: rig -> Godot -> rig keeps bones, meshes, weights and rig2d fields", "[interop]") {
  const Rig rig = sample_rig();
  auto scene = export_godot(rig, sample_export());
  REQUIRE(scene.has_value());
  CHECK(scene->text.find("type=\"Skeleton2D\"") != std::string::npos);
  auto back = import_godot(scene->text, "out.tscn", {});
  REQUIRE(back.has_value());
  check_round_trip(rig, back->rig);
  CHECK(back->rig.id == rig.id);
  CHECK(back->rig.parts[0].sprite == rig.parts[0].sprite);
}

TEST_CASE("spine export: the hull is the outline, listed first and in order", "[interop]") {
  // A square with its centre listed first: 5 vertices, 4 on the outline. Spine's hull is the count of
  // leading vertices that run around the outline, so the centre must move behind the corners.
  Rig rig = sample_rig();
  rig.parts.resize(1);
  Part& square = rig.parts[0];
  square.mesh.verts = {{0, 0}, {-10, -10}, {10, -10}, {10, 10}, {-10, 10}};
  square.mesh.uvs = {{0.5, 0.5}, {0, 0}, {1, 0}, {1, 1}, {0, 1}};
  square.mesh.tris = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 1};
  square.skin_indices.assign(20, 0);
  square.skin_weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  auto spine = export_spine(rig, {});
  REQUIRE(spine.has_value());
  const auto doc = nlohmann::json::parse(spine->text);
  const auto& mesh = doc["skins"][0]["attachments"].begin()->begin().value();
  CHECK(mesh["hull"] == 4);
  // Exported order: corners 1, 2, 3, 4 (uvs (0,0), (1,0), (1,1), (0,1)), then the centre.
  const std::vector<double> uvs = mesh["uvs"].get<std::vector<double>>();
  CHECK(uvs == std::vector<double>{0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5});
  // Every triangle keeps its corners: (centre, i, i+1) becomes (4, i-1, i).
  CHECK(mesh["triangles"].get<std::vector<int>>() == std::vector<int>{4, 0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0});
  auto back = import_spine(spine->text, "square.json", nullptr, {});
  REQUIRE(back.has_value());
  REQUIRE(back->rig.parts[0].mesh.verts.size() == 5);
  CHECK(back->rig.parts[0].mesh.verts[4].x == Approx(0).margin(1e-4));
  CHECK(back->rig.parts[0].mesh.verts[4].y == Approx(0).margin(1e-4));
}

TEST_CASE("spine export: pages are bare file names, same-named textures apart, the 4.2 version", "[interop]") {
  // Three textures: ../art/hero.png (arm, order 0, met first), hero.png beside the export (torso)
  // and ../other/HERO.png (a third part): the one beside the export keeps "hero.png", the others
  // get -2 and -3 in the order parts meet them, compared without case.
  Rig rig = sample_rig();
  Part extra = rig.parts[1];
  extra.name = "extra";
  extra.sprite = "aaaaaaaa-0000-4000-8000-000000000003";
  extra.order = 2;
  rig.parts.push_back(extra);
  ExportOptions options;
  options.resolve_sprite = [](const std::string& guid) -> std::optional<ExportSprite> {
    if (guid.back() == '1') return ExportSprite{"hero.png", 64, 64, 2, 2, 24, 40, "torso", "out/hero.png"};
    if (guid.back() == '2') return ExportSprite{"../art/hero.png", 64, 64, 30, 2, 12, 30, "arm", "art/hero.png"};
    return ExportSprite{"../other/HERO.png", 32, 32, 0, 0, 8, 8, "extra", "other/HERO.png"};
  };
  auto spine = export_spine(rig, options);
  REQUIRE(spine.has_value());
  const auto doc = nlohmann::json::parse(spine->text);
  CHECK(doc["skeleton"]["spine"] == "4.2.43");
  REQUIRE(spine->pages.size() == 3);
  CHECK(spine->pages[0].name == "hero-2.png");
  CHECK(spine->pages[0].file == "art/hero.png");
  CHECK(spine->pages[1].name == "hero.png");
  CHECK(spine->pages[1].file == "out/hero.png");
  CHECK(spine->pages[2].name == "HERO-3.png");
  CHECK(spine->pages[2].image == "../other/HERO.png");
  auto atlas = parse_spine_atlas(spine->atlas, "out.atlas");
  REQUIRE(atlas.has_value());
  REQUIRE(atlas->pages.size() == 3);
  CHECK(atlas->pages[0].name == "hero-2.png");
  CHECK(atlas->pages[0].regions.at(0).name == "arm");
  CHECK(atlas->pages[1].name == "hero.png");
  CHECK(atlas->pages[1].regions.at(0).name == "torso");
  CHECK(atlas->pages[2].name == "HERO-3.png");
  CHECK(atlas->pages[2].width == 32);
  int renamed = 0;
  for (const Diagnostic& d : spine->diagnostics) renamed += d.code == "convert.spine.export.page.renamed";
  CHECK(renamed == 2);
}

namespace {

// The value of `key` in a parsed Godot dictionary (nullptr when absent).
const godot::Value* godot_anim_dict_get(const godot::Value& dict, const std::string& key) {
  for (std::size_t i = 0; i + 1 < dict.items.size(); i += 2)
    if (dict.items[i].text == key) return &dict.items[i + 1];
  return nullptr;
}

std::vector<double> godot_anim_numbers(const godot::Value& v) {
  std::vector<double> out;
  if (v.kind == godot::Value::Kind::Array) {
    for (const godot::Value& item : v.items) out.push_back(item.number);
  } else {
    v.numbers(out);
  }
  return out;
}

}  // namespace

TEST_CASE("godot export: clips become an AnimationPlayer with value tracks on the Bone2D nodes", "[interop]") {
  const Rig rig = sample_rig();
  Clip clip;
  clip.name = "wave";
  clip.duration = 2;
  // upper.rz: linear up to 0.3 rad, held (stepped) there, then back to its rest -0.7 at 2 s.
  Track rz{"root/upper", "Transform", "rz", TrackType::Number, {}};
  rz.keys = {{0, -0.7, 1, 1, {}, {}}, {1, 0.3, 1, kStepped, {}, {}}, {2, -0.7, 0, 0, {}, {}}};
  // root.x: flat tangents, so x = 5 + 10 (3t^2 - 2t^3) (time runs linearly along this Bezier).
  Track x{"root", "Transform", "x", TrackType::Number, {}};
  x.keys = {{0, 5, 0, 0, {}, {}}, {1, 15, 0, 0, {}, {}}};
  Track sx{"root/upper/lower", "Transform", "sx", TrackType::Number, {}};
  sx.keys = {{0, 1, 1, 1, {}, {}}, {1, 2, 1, 1, {}, {}}};
  Track shown{"root", "Sprite", "visible", TrackType::Boolean, {}};
  shown.keys = {{0, 1, 0, kStepped, {}, {}}};
  clip.tracks = {rz, x, sx, shown};
  ExportOptions options = sample_export();
  options.clips = {clip};
  auto scene = export_godot(rig, options);
  REQUIRE(scene.has_value());
  CHECK(has_code(scene->diagnostics, "convert.godot.export.track"));  // the Sprite.visible track
  CHECK_FALSE(has_code(scene->diagnostics, "convert.godot.export.clips"));
  CHECK(scene->text.rfind("[gd_scene load_steps=4 format=3]", 0) == 0);  // page.png, Animation, AnimationLibrary
  auto sections = godot::parse_tscn(scene->text, "out.tscn");
  REQUIRE(sections.has_value());
  const godot::Section* anim = nullptr;
  const godot::Section* player = nullptr;
  for (const godot::Section& sec : *sections) {
    if (sec.tag == "sub_resource" && sec.attribute_text("type") == "Animation") anim = &sec;
    if (sec.tag == "node" && sec.attribute_text("type") == "AnimationPlayer") player = &sec;
  }
  REQUIRE(anim != nullptr);
  REQUIRE(player != nullptr);
  CHECK(anim->property("resource_name")->text == "wave");
  CHECK(anim->property("length")->number == 2);
  CHECK(anim->property("loop_mode")->number == 1);
  REQUIRE(player->property("libraries") != nullptr);
  const auto track = [&](int i, const char* what) { return anim->property("tracks/" + std::to_string(i) + "/" + what); };
  REQUIRE(track(3, "path") == nullptr);  // three tracks: the Sprite track is left out
  CHECK(track(0, "path")->items.at(0).text == "Skeleton2D/root/upper:rotation");
  CHECK(track(1, "path")->items.at(0).text == "Skeleton2D/root:position:x");
  CHECK(track(2, "path")->items.at(0).text == "Skeleton2D/root/upper/lower:scale:x");
  CHECK(track(0, "interp")->number == 1);
  CHECK(track(0, "loop_wrap")->boolean == false);
  const godot::Value& k0 = *track(0, "keys");
  CHECK(godot_anim_numbers(*godot_anim_dict_get(k0, "times")) == std::vector<double>{0, 1, 2});
  CHECK(godot_anim_numbers(*godot_anim_dict_get(k0, "transitions")) == std::vector<double>{1, 0, 1});  // 0 = hold
  const std::vector<double> v0 = godot_anim_numbers(*godot_anim_dict_get(k0, "values"));
  REQUIRE(v0.size() == 3);
  CHECK(v0[0] == Approx(-0.7));  // radians as the Bone2D rest has them (upper's rest rotation is -0.7)
  CHECK(v0[1] == Approx(0.3));
  // The curved segment: linear keys sampled from the engine's curve, 32 per segment at most.
  const godot::Value& k1 = *track(1, "keys");
  const std::vector<double> t1 = godot_anim_numbers(*godot_anim_dict_get(k1, "times"));
  const std::vector<double> v1 = godot_anim_numbers(*godot_anim_dict_get(k1, "values"));
  REQUIRE(t1.size() == 33);
  REQUIRE(v1.size() == 33);
  CHECK(t1[8] == Approx(0.25));
  CHECK(v1[8] == Approx(6.5625).margin(1e-6));  // 5 + 10 (3/16 - 2/64)
  CHECK(v1[16] == Approx(10).margin(1e-6));
  CHECK(v1[32] == 15);
  CHECK(godot_anim_numbers(*godot_anim_dict_get(*track(2, "keys"), "values")) == std::vector<double>{1, 2});
  // The scene still imports, bones and parts as they were.
  auto back = import_godot(scene->text, "out.tscn", {});
  REQUIRE(back.has_value());
  check_round_trip(rig, back->rig);
}

TEST_CASE("round trip: a v1 rig stays v1 through Spine and Godot", "[interop]") {
  Rig rig = sample_rig();
  rig.layout = Layout::V1;
  rig.version = 1;
  rig.parts.resize(1);
  rig.parts[0].name.reset();
  rig.parts[0].order.reset();
  auto spine = export_spine(rig, {});
  REQUIRE(spine.has_value());
  CHECK(has_code(spine->diagnostics, "convert.export.sprite"));  // no resolver: no atlas
  auto from_spine = import_spine(spine->text, "v1.json", nullptr, {});
  REQUIRE(from_spine.has_value());
  check_round_trip(rig, from_spine->rig);
  auto scene = export_godot(rig, {});
  REQUIRE(scene.has_value());
  auto from_godot = import_godot(scene->text, "v1.tscn", {});
  REQUIRE(from_godot.has_value());
  check_round_trip(rig, from_godot->rig);
  CHECK_FALSE(has_code(from_godot->diagnostics, "convert.godot.uv"));  // the unit rect came along
}

TEST_CASE("round trip: a clip exported to Spine and read back replays the same curve", "[interop]") {
  Rig rig = sample_rig();
  Clip clip;
  clip.name = "swing";
  clip.duration = 1;
  Track rz{"root/upper", "Transform", "rz", TrackType::Number, {}};
  rz.keys = {{0, -0.7, 0, 2, {}, {}}, {0.4, 0.1, -1, kStepped, {}, {}}, {1, -0.2, 0, 0, {}, {}}};
  clip.tracks.push_back(rz);
  ExportOptions options;
  options.clips = {clip};
  auto spine = export_spine(rig, options);
  REQUIRE(spine.has_value());
  auto back = import_spine(spine->text, "clip.json", nullptr, {});
  REQUIRE(back.has_value());
  REQUIRE(back->clips.size() == 1);
  const Track* t = nullptr;
  for (const Track& tr : back->clips[0].tracks) {
    if (tr.path == "root/upper" && tr.field == "rz") t = &tr;
  }
  REQUIRE(t);
  // Exact at keys and over the stepped hold; the Bézier segment is Spine's 10-segment polyline, so
  // it stays within a small bound of the engine's cubic (documented in docs/convert.md).
  CHECK(eval_track(*t, 0) == Approx(-0.7));
  CHECK(eval_track(*t, 0.4) == Approx(0.1));
  CHECK(eval_track(*t, 0.7) == Approx(0.1));
  CHECK(eval_track(*t, 1) == Approx(-0.2));
  double worst = 0;
  for (int i = 0; i <= 40; ++i) worst = std::max(worst, std::abs(eval_track(*t, i * 0.01) - eval_track(rz, i * 0.01)));
  CHECK(worst < 0.01);
}

TEST_CASE("importers never crash: every prefix of each fixture is read or refused with a code", "[interop]") {
  const std::string spine = fixture("spine/hero.json"), atlas_text = fixture("spine/hero.atlas"), scene = fixture("godot/hero.tscn");
  auto atlas = parse_spine_atlas(atlas_text, "hero.atlas");
  REQUIRE(atlas.has_value());
  std::size_t refused = 0;
  for (std::size_t n = 0; n < spine.size(); n += 7) {
    auto r = import_spine(spine.substr(0, n), "cut.json", &*atlas, {});
    if (!r) refused += !r.error().code.empty();
  }
  for (std::size_t n = 0; n < atlas_text.size(); ++n) {
    auto a = parse_spine_atlas(atlas_text.substr(0, n), "cut.atlas");
    if (a) (void)import_spine(spine, "hero.json", &*a, {});
  }
  for (std::size_t n = 0; n < scene.size(); n += 3) {
    auto r = import_godot(scene.substr(0, n), "cut.tscn", {});
    if (!r) refused += !r.error().code.empty();
  }
  CHECK(refused > 0);
}
