// SPDX-License-Identifier: Apache-2.0
// Template files: the bundled ones read back, and every kind of bad file fails with its code, the file
// and the JSON pointer of the value at fault.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "rig2d/skeleton/template.h"

namespace rig2d {
namespace {

const char* kSmall = R"({
  "template": "small",
  "measure": "height",
  "root": {"x": 0.5, "y": [0.4, 0.8]},
  "bones": [
    {"name": "leg_l", "parent": "hips", "length": [0.1, 0.3], "direction": [45, 135], "tip": true, "extent": 0.05},
    {"name": "hips"},
    {"name": "leg_r", "parent": "hips", "length": [0.1, 0.3], "direction": [45, 135], "rest": 100}
  ],
  "symmetry": [["leg_l", "leg_r"]]
})";

Error read_error(const std::string& text) {
  auto t = read_skeleton_template(text, "bad.rig2d-template.json");
  REQUIRE_FALSE(t.has_value());
  CHECK(t.error().where.file == "bad.rig2d-template.json");
  return t.error();
}

// kSmall with `from` replaced by `to` (which must occur once).
std::string edited(const std::string& from, const std::string& to) {
  std::string s = kSmall;
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(s.find(from, at + 1) == std::string::npos);
  return s.replace(at, from.size(), to);
}

TEST_CASE("a template file reads back parents first, with its ranges and pairs") {
  auto t = read_skeleton_template(kSmall, "small.rig2d-template.json");
  REQUIRE(t.has_value());
  CHECK(t->name == "small");
  REQUIRE(t->bones.size() == 3);
  CHECK(t->bones[0].name == "hips");  // the root first, then its children in file order
  CHECK(t->bones[0].parent == -1);
  CHECK(t->bones[1].name == "leg_l");
  CHECK(t->bones[1].parent == 0);
  CHECK(t->bones[1].length == TemplateRange{0.1, 0.3});
  CHECK(t->bones[1].rest == 90);  // the middle of its direction range
  CHECK(t->bones[1].tip);
  CHECK(t->bones[1].extent == TemplateRange{0.05, 0.05});
  CHECK(t->bones[2].rest == 100);
  CHECK(t->root_x == TemplateRange{0.5, 0.5});
  CHECK(t->root_y == TemplateRange{0.4, 0.8});
  REQUIRE(t->symmetry.size() == 1);
  CHECK(t->symmetry[0] == std::pair<std::size_t, std::size_t>{1, 2});
}

TEST_CASE("bad template files fail with a code and the pointer of the value at fault") {
  struct Case {
    std::string from, to, code, pointer;
  };
  const Case cases[] = {
      {R"("parent": "hips", "length": [0.1, 0.3], "direction": [45, 135], "rest")",
       R"("parent": "pelvis", "length": [0.1, 0.3], "direction": [45, 135], "rest")", "template.bone.parent",
       "/bones/2/parent"},
      {R"("length": [0.1, 0.3], "direction": [45, 135], "rest")", R"("length": [-0.1, 0.3], "direction": [45, 135], "rest")",
       "template.bone.length", "/bones/2/length/0"},
      {R"("length": [0.1, 0.3], "direction": [45, 135], "rest")", R"("length": [0.3, 0.1], "direction": [45, 135], "rest")",
       "template.bone.length", "/bones/2/length"},
      {R"({"name": "hips"})", R"({"name": "hips", "lenght": 1})", "template.key", "/bones/1/lenght"},
      {R"("measure": "height")", R"("measure": "height", "colour": 1)", "template.key", "/colour"},
      {R"([["leg_l", "leg_r"]])", R"([["leg_l", "arm_r"]])", "template.symmetry", "/symmetry/0/1"},
      {R"([["leg_l", "leg_r"]])", R"([["leg_l", "leg_l"]])", "template.symmetry", "/symmetry/0/1"},
      {R"([["leg_l", "leg_r"]])", R"([["hips", "leg_r"]])", "template.symmetry", "/symmetry/0/0"},
      {R"({"name": "hips"})", R"({"name": "leg_l"})", "template.bone.name", "/bones/1/name"},
      {R"({"name": "hips"})", R"({"name": "hips", "parent": "leg_r"})", "template.bone.cycle", ""},
      {R"("rest": 100)", R"("rest": 200)", "template.bone.direction", "/bones/2/rest"},
      {R"("direction": [45, 135], "rest")", R"("direction": [0, 400], "rest")", "template.bone.direction",
       "/bones/2/direction"},
      {R"("tip": true)", R"("tip": "yes")", "template.type", "/bones/0/tip"},
      {R"("tip": true)", R"("tip": true, "spot": true)", "template.bone.spot", "/bones/0/spot"},
      {R"("template": "small")", R"("template": "")", "template.name", "/template"},
      {R"("y": [0.4, 0.8])", R"("y": [0.4, 1.8])", "template.root", "/root/y"},
      {R"("measure": "height")", R"("measure": "height", "ground": "hips")", "template.ground", "/ground"},
      {R"("measure": "height")", R"("measure": "height", "ground": "a b")", "template.ground", "/ground"},
      {R"("measure": "height")", R"("measure": "height", "ground": 1)", "template.ground", "/ground"},
  };
  for (const Case& c : cases) {
    INFO(c.to);
    const Error e = read_error(edited(c.from, c.to));
    CHECK(e.code == c.code);
    if (!c.pointer.empty()) CHECK(e.where.json_pointer == c.pointer);
    CHECK(e.where.line > 0);
  }
  CHECK(read_error("[1]").code == "template.root");
  CHECK(read_error("{").code == "json.syntax");
  CHECK(read_error(R"({"template": "x", "bones": [{"name": "a"}, {"name": "b"}]})").code == "template.bone.root");
  CHECK(read_error(R"({"template": "x", "bones": []})").code == "template.type");
}

TEST_CASE("every bundled template reads, with unique anatomical names and symmetric pairs") {
  const auto names = bundled_template_names();
  CHECK(names == std::vector<std::string>{"humanoid", "quadruped", "bird", "fish", "snake", "tree", "prop"});
  for (const std::string& name : names) {
    INFO(name);
    auto t = bundled_template(name);
    REQUIRE(t.has_value());
    CHECK(t->name == name);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < t->bones.size(); ++i) {
      CHECK(seen.insert(t->bones[i].name).second);
      CHECK(t->bones[i].parent < static_cast<std::int64_t>(i));  // parents first
      if (t->bones[i].parent >= 0) {  // an optional bone's children are optional too: rigs never lose a path
        const auto& p = t->bones[static_cast<std::size_t>(t->bones[i].parent)];
        if (p.optional) CHECK(t->bones[i].optional);
      }
    }
    for (const auto& [l, r] : t->symmetry) {  // a pair mirrors: same lengths, directions mirrored
      CHECK(t->bones[l].length == t->bones[r].length);
      CHECK(t->bones[l].rest == Approx(180 - t->bones[r].rest));
    }
  }
  auto humanoid = bundled_template("humanoid");
  REQUIRE(humanoid.has_value());
  std::set<std::string> bones;
  for (const auto& b : humanoid->bones) bones.insert(b.name);
  for (const char* want : {"hips", "spine", "chest", "neck", "head", "upper_arm_l", "lower_arm_l", "hand_l", "upper_arm_r",
                           "lower_arm_r", "hand_r", "thigh_l", "shin_l", "foot_l", "thigh_r", "shin_r", "foot_r"})
    CHECK(bones.count(want) == 1);
  // Figures that stand are placed by their feet: a ground bone above the hips, as Spine rigs have.
  CHECK(humanoid->ground == "root");
  CHECK(bundled_template("quadruped")->ground == "root");
  CHECK(bundled_template("fish")->ground.empty());
  CHECK(bundled_template("dragon").error().code == "template.unknown");
  CHECK(resolve_skeleton_template("no/such.rig2d-template.json").error().code.rfind("io.", 0) == 0);
}

}  // namespace
}  // namespace rig2d
