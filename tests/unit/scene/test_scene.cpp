// SPDX-License-Identifier: Apache-2.0
// Scene reader: entities, traits and fields as written; the three parent-link encodings (§1.8, §6 #27);
// structural findings with pointers and line:col; the typed views' loader defaults.
#include <catch2/catch.hpp>

#include "rig2d/scene/scene.h"

using namespace rig2d;

namespace {

const Diagnostic* find_code(const SceneRead& r, const std::string& code) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("scene: current files link parents by EntityAttributes.guid", "[scene]") {
  const char* text = R"({
  "id": "cccccccc-0000-4000-8000-000000000003",
  "version": 9,
  "resources": [{"type": "rig2d", "path": "bbbbbbbb-0000-4000-8000-000000000002"}],
  "entities": [
    {"id": 7, "name": "child", "traits": {"EntityAttributes": {"name": "c", "guid": "g-child", "parentId": "g-root"}}},
    {"id": 3, "name": "root", "traits": {"Transform": {"x": 5, "sx": 2}, "EntityAttributes": {"name": "r", "guid": "g-root", "parentId": ""}, "Tag": true}}
  ]
})";
  const SceneRead r = read_scene(text, "s.json");
  REQUIRE(r.scene);
  CHECK(r.diagnostics.empty());
  const Scene& s = *r.scene;
  CHECK(*s.id == "cccccccc-0000-4000-8000-000000000003");
  CHECK(*s.version == 9);
  REQUIRE(s.resources.size() == 1);
  CHECK(s.resources[0].type == "rig2d");
  REQUIRE(s.entities.size() == 2);
  CHECK(s.entities[0].parent_link == ParentLink::Guid);
  CHECK(s.entities[0].parent == 1);
  CHECK(s.entities[1].parent_link == ParentLink::None);
  CHECK(s.entities[1].parent == -1);
  CHECK(s.children(-1) == std::vector<std::size_t>{1});
  CHECK(s.children(1) == std::vector<std::size_t>{0});
  CHECK(s.entities[1].trait("Tag")->tag);
  CHECK(s.entities[1].traits[0].pointer == "/entities/1/traits/Transform");
  const TransformFields t = transform_of(s.entities[1]);
  CHECK(t.x == 5);
  CHECK(t.sx == 2);
  CHECK(t.sy == 1);  // loader default
  CHECK(attribute_name_of(s.entities[0]) == "c");
}

TEST_CASE("scene: legacy files link by numeric id, prefabs by localId", "[scene]") {
  const char* legacy = R"({"entities": [
    {"id": 10, "traits": {"EntityAttributes": {"parentId": 0}}},
    {"id": 11, "traits": {"EntityAttributes": {"parentId": 10}}}
  ]})";
  const SceneRead a = read_scene(legacy, "legacy.json");
  REQUIRE(a.scene);
  CHECK(a.scene->entities[0].parent_link == ParentLink::None);
  CHECK(a.scene->entities[1].parent_link == ParentLink::FileId);
  CHECK(a.scene->entities[1].parent == 0);

  const char* prefab = R"({"id": "p", "rootLocalId": 1, "entities": [
    {"localId": 1, "traits": {"EntityAttributes": {"parentId": 0, "guid": ""}}},
    {"localId": 2, "traits": {"EntityAttributes": {"parentId": 1, "guid": ""}}}
  ]})";
  const SceneRead b = read_scene(prefab, "x.prefab.json", SceneFlavor::Prefab);
  REQUIRE(b.scene);
  CHECK(b.diagnostics.empty());  // empty guids are not duplicates
  CHECK(b.scene->entities[1].parent_link == ParentLink::LocalId);
  CHECK(b.scene->entities[1].parent == 0);
  CHECK(*b.scene->entities[1].id == 2);
}

TEST_CASE("scene: bad links become roots with findings, cycles are broken", "[scene]") {
  const char* text = R"({"entities": [
    {"id": 1, "traits": {"EntityAttributes": {"guid": "a", "parentId": "nobody"}}},
    {"id": 2, "traits": {"EntityAttributes": {"guid": "b", "parentId": "b"}}},
    {"id": 3, "traits": {"EntityAttributes": {"guid": "c", "parentId": "d"}}},
    {"id": 4, "traits": {"EntityAttributes": {"guid": "d", "parentId": "c"}}},
    {"id": 5, "traits": {"EntityAttributes": {"guid": "e", "parentId": -3}}}
  ]})";
  const SceneRead r = read_scene(text, "bad.json");
  REQUIRE(r.scene);
  const Scene& s = *r.scene;
  CHECK(s.entities[0].parent == -1);
  CHECK(s.entities[0].parent_dangling);
  CHECK(s.entities[1].parent == -1);
  CHECK(s.entities[4].parent_link == ParentLink::Invalid);
  // 2 <-> 3 is a cycle: the lower index is made a root, the other keeps its link.
  CHECK(s.entities[2].parent == -1);
  CHECK(s.entities[3].parent == 2);
  const Diagnostic* dangling = find_code(r, "scene.parent.dangling");
  REQUIRE(dangling);
  CHECK(dangling->where.json_pointer == "/entities/0/traits/EntityAttributes/parentId");
  CHECK(dangling->where.line == 2);
  CHECK(dangling->severity == Severity::Warning);
  REQUIRE(find_code(r, "scene.parent.self"));
  CHECK(find_code(r, "scene.parent.self")->where.json_pointer == "/entities/1/traits/EntityAttributes/parentId");
  REQUIRE(find_code(r, "scene.parent.cycle"));
  CHECK(find_code(r, "scene.parent.cycle")->where.json_pointer == "/entities/2/traits/EntityAttributes/parentId");
  REQUIRE(find_code(r, "scene.parent.invalid"));
  CHECK(find_code(r, "scene.parent.invalid")->where.json_pointer == "/entities/4/traits/EntityAttributes/parentId");
}

TEST_CASE("scene: structural problems are findings, never failures", "[scene]") {
  SECTION("not JSON") {
    const SceneRead r = read_scene("{\"entities\": [", "t.json");
    CHECK_FALSE(r.scene);
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].code == "json.syntax");
    CHECK(r.diagnostics[0].where.line == 1);
  }
  SECTION("root is not an object") {
    const SceneRead r = read_scene("[1, 2]", "t.json");
    CHECK_FALSE(r.scene);
    REQUIRE(find_code(r, "scene.root"));
  }
  SECTION("entities missing or of the wrong type") {
    CHECK(find_code(read_scene("{}", "t.json"), "scene.entities"));
    const SceneRead r = read_scene("{\"entities\": {}}", "t.json");
    REQUIRE(find_code(r, "scene.entities"));
    CHECK(find_code(r, "scene.entities")->where.json_pointer == "/entities");
  }
  SECTION("bad entity, traits and trait values") {
    const SceneRead r = read_scene(R"({"entities": [3, {"traits": []}, {"traits": {"A": 5, "B": false, "C": {"f": [1]}}}]})", "t.json");
    REQUIRE(r.scene);
    CHECK(r.scene->entities.size() == 3);  // indices stay aligned with the file
    CHECK(find_code(r, "scene.entity")->where.json_pointer == "/entities/0");
    CHECK(find_code(r, "scene.traits")->where.json_pointer == "/entities/1/traits");
    int trait_type = 0;
    for (const Diagnostic& d : r.diagnostics) trait_type += d.code == "scene.trait.type";
    CHECK(trait_type == 2);  // 5 and false; only `true` is a tag
    const SceneTrait* c = r.scene->entities[2].trait("C");
    REQUIRE(c);
    CHECK(c->field("f")->kind == FieldKind::Array);  // kept as a kind for the scalar guard
  }
  SECTION("duplicate entity guids and ids") {
    const SceneRead r = read_scene(R"({"entities": [
      {"id": 1, "traits": {"EntityAttributes": {"guid": "x"}}},
      {"id": 1, "traits": {"EntityAttributes": {"guid": "x"}}}]})", "t.json");
    CHECK(find_code(r, "scene.entity.guid.duplicate")->where.json_pointer == "/entities/1/traits/EntityAttributes/guid");
    CHECK(find_code(r, "scene.entity.id.duplicate")->where.json_pointer == "/entities/1/id");
  }
}

TEST_CASE("scene: SkinnedSprite2D view fills the loader's defaults", "[scene]") {
  const SceneRead r = read_scene(R"({"entities": [
    {"traits": {"SkinnedSprite2D": {"rig": "g", "color": 255, "flipX": true, "opacity": "x"}}},
    {"traits": {"Bone2D": {}}}]})", "t.json");
  REQUIRE(r.scene);
  const auto s = skinned_sprite_of(r.scene->entities[0]);
  REQUIRE(s);
  CHECK(s->rig == "g");
  CHECK(s->color == 255u);
  CHECK(s->flip_x);
  CHECK_FALSE(s->flip_y);
  CHECK(s->is_visible);
  CHECK(s->opacity == 1);  // a wrong-typed value counts as missing
  CHECK_FALSE(skinned_sprite_of(r.scene->entities[1]));
  CHECK(*bone2d_name_of(r.scene->entities[1]) == "");
  CHECK_FALSE(bone2d_name_of(r.scene->entities[0]));
}
