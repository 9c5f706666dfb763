// SPDX-License-Identifier: Apache-2.0
// Choosing a template per sprite: globs, template maps and their located errors, the sidecar's
// rig2d.template key, precedence (sidecar > map > --template), and what the choice adds to a stamp.
#include <catch2/catch.hpp>
#include <string>

#include "rig2d/autorig/template_choice.h"
#include "rig2d/build/stamp.h"
#include "support/temp_dir.h"

namespace rig2d {
namespace {

const char* kChoiceTemplate = R"({
  "template": "twolegs",
  "bones": [
    {"name": "hips"},
    {"name": "leg_l", "parent": "hips", "length": 0.4, "direction": [45, 135], "tip": true},
    {"name": "leg_r", "parent": "hips", "length": 0.4, "direction": [45, 135], "tip": true}
  ]
})";

const char* kChoiceSidecar = R"({"version": 2, "id": "0b4a1a40-6a0e-4b8e-9d55-1f1c0e6c1e01"})";

Error choice_map_error(const std::string& text) {
  auto map = read_template_map(text, "art/bad.template-map.json");
  REQUIRE_FALSE(map.has_value());
  CHECK(map.error().where.file == "art/bad.template-map.json");
  CHECK(map.error().where.line > 0);
  return map.error();
}

TEST_CASE("template globs: stars stay in a folder, ** crosses folders, a bare name matches anywhere") {
  CHECK(template_glob_match("heroes/*.png", "heroes/a.png"));
  CHECK_FALSE(template_glob_match("heroes/*.png", "heroes/old/a.png"));
  CHECK(template_glob_match("heroes/**", "heroes/old/a.png"));
  CHECK(template_glob_match("heroes/**", "heroes/a.png"));
  CHECK_FALSE(template_glob_match("heroes/**", "villains/a.png"));
  CHECK(template_glob_match("**/trees/*.png", "trees/oak.png"));  // ** / is zero or more folders
  CHECK(template_glob_match("**/trees/*.png", "world/1/trees/oak.png"));
  CHECK_FALSE(template_glob_match("**/trees/*.png", "world/bigtrees/oak.png"));
  CHECK(template_glob_match("*.tree.png", "a/b/oak.tree.png"));  // no '/': the file name, any folder
  CHECK_FALSE(template_glob_match("*.tree.png", "a/b/oak.png"));
  CHECK(template_glob_match("hero_??.png", "hero_01.png"));
  CHECK_FALSE(template_glob_match("hero_??.png", "hero_1.png"));
  CHECK_FALSE(template_glob_match("a?b/x.png", "a/b/x.png"));        // ? is never a '/'
  CHECK_FALSE(template_glob_match("Heroes/*.png", "heroes/a.png"));  // case-sensitive
  // Many stars against a long path that almost matches: the memo keeps this quick.
  CHECK_FALSE(template_glob_match("*a*a*a*a*a*a*a*a*a*a*b", std::string(200, 'a')));
}

TEST_CASE("a template map resolves every rule's template and picks the first rule that matches") {
  TempDir dir("tmplchoice-map");
  dir.file("twolegs.rig2d-template.json", kChoiceTemplate);
  const std::string path = dir.file("art.template-map.json", R"({
    "rules": [
      {"glob": "heroes/boss/*.png", "template": "auto"},
      {"glob": "heroes/**", "template": "humanoid"},
      {"glob": "*.legs.png", "template": "twolegs.rig2d-template.json"},
      {"glob": "props/**", "template": "none"}
    ]
  })");
  auto map = load_template_map(path);
  REQUIRE(map.has_value());
  REQUIRE(map->rules.size() == 4);
  CHECK(map->rules[0].spec.kind == TemplateSpec::Kind::Auto);
  CHECK(map->rules[1].spec.tmpl->name == "humanoid");
  CHECK(map->rules[1].spec.stamp_key() == "bundled humanoid");
  CHECK(map->rules[2].spec.tmpl->name == "twolegs");
  CHECK(map->rules[2].spec.file == (dir.path / "twolegs.rig2d-template.json").string());
  CHECK(map->rules[2].spec.stamp_key() == "file " + map->rules[2].spec.file_sha256);
  CHECK(map->rules[2].spec.file_sha256.size() == 64);
  CHECK(map->rules[3].spec.kind == TemplateSpec::Kind::None);
  CHECK(map->rules[3].spec.stamp_key().empty());
  const auto at = [&](const std::string& rel) { return match_template_rule(*map, (dir.path / rel).string()); };
  CHECK(at("heroes/boss/king.png") == std::optional<std::size_t>{0});  // first match, not the widest
  CHECK(at("heroes/knight.png") == std::optional<std::size_t>{1});
  CHECK(at("heroes/x.legs.png") == std::optional<std::size_t>{1});
  CHECK(at("critters/x.legs.png") == std::optional<std::size_t>{2});
  CHECK(at("props/crate.png") == std::optional<std::size_t>{3});
  CHECK_FALSE(at("trees/oak.png").has_value());
  CHECK_FALSE(match_template_rule(*map, (dir.path.parent_path() / "heroes/a.png").string()).has_value());
}

TEST_CASE("a bad template map names the file, the pointer and a stable code") {
  Error e = choice_map_error(R"({"rules": [{"glob": "a/*.png", "template": "humanoid"}], "rulez": 1})");
  CHECK(e.code == "template_map.key");
  CHECK(e.where.json_pointer == "/rulez");
  e = choice_map_error(R"({"rules": [{"glob": "a/*.png", "templat": "humanoid"}]})");
  CHECK(e.code == "template_map.key");
  CHECK(e.where.json_pointer == "/rules/0/templat");
  e = choice_map_error(R"({"rules": []})");
  CHECK(e.code == "template_map.type");
  CHECK(e.where.json_pointer == "/rules");
  e = choice_map_error(R"([1])");
  CHECK(e.code == "template_map.root");
  e = choice_map_error(R"({"rules": [{"glob": "a/*.png", "template": 3}]})");
  CHECK(e.code == "template_map.type");
  CHECK(e.where.json_pointer == "/rules/0/template");
  for (const char* glob : {"", "/abs/*.png", "a//b.png", "../x/*.png", "a\\\\b.png", "heroes/"}) {
    e = choice_map_error(std::string(R"({"rules": [{"glob": "a", "template": "prop"}, {"glob": ")") + glob +
                         R"(", "template": "prop"}]})");
    CHECK(e.code == "template_map.glob");
    CHECK(e.where.json_pointer == "/rules/1/glob");
  }
  e = choice_map_error(R"({"rules": [{"glob": "a/*.png", "template": "humanoidd"}]})");
  CHECK(e.code == "template.unknown");
  CHECK(e.where.json_pointer == "/rules/0/template");
  CHECK(e.where.line == 1);
}

TEST_CASE("a template file a map names is read relative to the map, and its own errors name it") {
  TempDir dir("tmplchoice-mapfile");
  dir.file("broken.rig2d-template.json",
           R"({"template": "b", "bones": [{"name": "a"}, {"name": "b", "parent": "zz"}]})");
  const std::string path =
      dir.file("m.template-map.json", R"({"rules": [{"glob": "*.png", "template": "broken.rig2d-template.json"}]})");
  auto map = load_template_map(path);
  REQUIRE_FALSE(map.has_value());
  CHECK(map.error().code == "template.bone.parent");
  CHECK(map.error().where.file == (dir.path / "broken.rig2d-template.json").string());
  CHECK(map.error().where.json_pointer == "/bones/1/parent");
  auto missing = read_template_map(R"({"rules": [{"glob": "*.png", "template": "gone.rig2d-template.json"}]})",
                                   (dir.path / "m2.json").string());
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().code.rfind("io.", 0) == 0);
}

TEST_CASE("the sidecar's rig2d.template beats the map, the map beats --template") {
  TempDir dir("tmplchoice-pick");
  dir.file("twolegs.rig2d-template.json", kChoiceTemplate);
  const std::string map_path =
      dir.file("m.template-map.json", R"({"rules": [{"glob": "heroes/**", "template": "humanoid"}]})");
  auto map = load_template_map(map_path);
  REQUIRE(map.has_value());
  TemplateSources sources;
  sources.map = &*map;
  sources.fallback = *read_template_spec("prop");
  std::filesystem::create_directories(dir.path / "heroes");
  const std::string hero = (dir.path / "heroes/a.png").string();
  const std::string crate = (dir.path / "crate.png").string();

  auto by_option = choose_template(crate, std::string_view(kChoiceSidecar), sources);
  REQUIRE(by_option.has_value());
  CHECK(by_option->from == TemplateChoice::From::Option);
  CHECK(by_option->spec.tmpl->name == "prop");
  CHECK(by_option->reason() == "--template");

  auto by_map = choose_template(hero, std::string_view(kChoiceSidecar), sources);
  REQUIRE(by_map.has_value());
  CHECK(by_map->from == TemplateChoice::From::Map);
  CHECK(by_map->spec.tmpl->name == "humanoid");
  CHECK(by_map->reason() == "the map " + map_path + " at /rules/0 (heroes/**)");

  // The sidecar names a file relative to its own folder (the PNG's), here one folder up.
  const std::string sidecar = R"({"version": 2, "id": "0b4a1a40-6a0e-4b8e-9d55-1f1c0e6c1e01",
    "rig2d": {"template": "../twolegs.rig2d-template.json"}})";
  auto by_sidecar = choose_template(hero, std::string_view(sidecar), sources);
  REQUIRE(by_sidecar.has_value());
  CHECK(by_sidecar->from == TemplateChoice::From::Sidecar);
  CHECK(by_sidecar->spec.tmpl->name == "twolegs");
  CHECK(by_sidecar->where.json_pointer == "/rig2d/template");
  CHECK(template_choice_inputs(*by_sidecar, sources) ==
        std::vector<std::string>{map_path, (dir.path / "heroes" / "../twolegs.rig2d-template.json").string()});

  // "none" in a sidecar turns a template off for that sprite alone.
  auto none = choose_template(hero, std::string_view(R"({"id": "x", "rig2d": {"template": "none"}})"), sources);
  REQUIRE(none.has_value());
  CHECK(none->spec.kind == TemplateSpec::Kind::None);
  AutorigOptions o;
  o.template_auto = true;
  apply_template_spec(none->spec, o);
  CHECK_FALSE(o.template_auto);
  CHECK_FALSE(o.skeleton_template.has_value());
  apply_template_spec(by_map->spec, o);
  REQUIRE(o.skeleton_template.has_value());
  CHECK(o.skeleton_template->name == "humanoid");

  // Read from the file when the caller has no text; no sidecar at all is no key.
  dir.file("heroes/a.png.meta.json", R"({"id": "x", "rig2d": {"template": "auto"}})");
  auto from_file = choose_template(hero, std::nullopt, sources);
  REQUIRE(from_file.has_value());
  CHECK(from_file->spec.kind == TemplateSpec::Kind::Auto);
  auto no_sidecar = choose_template((dir.path / "heroes/b.png").string(), std::nullopt, sources);
  REQUIRE(no_sidecar.has_value());
  CHECK(no_sidecar->from == TemplateChoice::From::Map);
}

TEST_CASE("a bad sidecar template key is located in the sidecar") {
  TemplateSources sources;
  const auto error_of = [&](const std::string& text) {
    auto c = choose_template("art/a.png", std::string_view(text), sources);
    REQUIRE_FALSE(c.has_value());
    CHECK(c.error().where.file == "art/a.png.meta.json");
    CHECK(c.error().where.line > 0);
    return c.error();
  };
  Error e = error_of(R"({"id": "x", "rig2d": "humanoid"})");
  CHECK(e.code == "meta.rig2d");
  CHECK(e.where.json_pointer == "/rig2d");
  e = error_of(R"({"id": "x", "rig2d": {"templat": "humanoid"}})");
  CHECK(e.code == "meta.rig2d");
  CHECK(e.where.json_pointer == "/rig2d/templat");
  e = error_of(R"({"id": "x", "rig2d": {"template": 7}})");
  CHECK(e.code == "meta.rig2d");
  CHECK(e.where.json_pointer == "/rig2d/template");
  e = error_of(R"({"id": "x",
  "rig2d": {"template": "humanoidd"}})");
  CHECK(e.code == "template.unknown");
  CHECK(e.where.json_pointer == "/rig2d/template");
  CHECK(e.where.line == 2);
}

TEST_CASE("the template choice is part of a rig's input digest") {
  InputBytes in;
  in.png = "png bytes";
  in.sidecar = kChoiceSidecar;
  const std::string none = input_digest(in, "opts", "1.0");
  in.template_key = "bundled humanoid";
  const std::string humanoid = input_digest(in, "opts", "1.0");
  in.template_key = "bundled prop";
  const std::string prop = input_digest(in, "opts", "1.0");
  in.template_key = "file " + std::string(64, 'a');
  const std::string file_a = input_digest(in, "opts", "1.0");
  in.template_key = "file " + std::string(64, 'b');
  const std::string file_b = input_digest(in, "opts", "1.0");
  CHECK(none != humanoid);
  CHECK(humanoid != prop);
  CHECK(file_a != file_b);
  CHECK(file_a != humanoid);
  in.template_key.clear();
  CHECK(input_digest(in, "opts", "1.0") == none);  // no template: the digest of before
}

}  // namespace
}  // namespace rig2d
