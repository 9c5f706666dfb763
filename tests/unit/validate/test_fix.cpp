// SPDX-License-Identifier: Apache-2.0
// fix_rig: every fix writes what the engine's loader reads (so read_rig_normalized of the original and
// of the fixed text agree), key order and untouched lines are kept, and a clean rig is left alone.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "json/json_util.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/validate/fix.h"

using namespace rig2d;
using detail::Json;

namespace {

const char* kClean = R"({
  "id": "eeeeeeee-0000-4000-8000-000000000001",
  "sprite": "3ab58b97-ab98-26c0-162f-c87db96331fe",
  "bones": [
    {
      "name": "root",
      "parent": -1,
      "x": 0,
      "y": 0,
      "rot": 0
    }
  ],
  "mesh": {
    "verts": [
      [
        0,
        0
      ],
      [
        8,
        0
      ]
    ],
    "uvs": [
      [
        0,
        0
      ],
      [
        1,
        0
      ]
    ],
    "tris": []
  },
  "skinIndices": [
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0
  ],
  "skinWeights": [
    1,
    0,
    0,
    0,
    1,
    0,
    0,
    0
  ]
})";

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Order-insensitive comparison of a JSON value with expected JSON text.
bool same(const Json& v, const char* expected) {
  return nlohmann::json::parse(v.dump()) == nlohmann::json::parse(expected);
}

std::vector<std::string> codes(const FixResult& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.changes) out.push_back(d.code);
  return out;
}

// The engine reads the original and the fixed rig identically (the point of every fix).
void require_same_engine_reading(const std::string& before, const std::string& after) {
  auto a = read_rig_normalized(before, "a");
  auto b = read_rig_normalized(after, "b");
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(a->bones.size() == b->bones.size());
  for (std::size_t i = 0; i < a->bones.size(); ++i) {
    CHECK(a->bones[i].name == b->bones[i].name);
    CHECK(a->bones[i].parent == b->bones[i].parent);
    CHECK(a->bones[i].x == b->bones[i].x);
    CHECK(a->bones[i].no_scale == b->bones[i].no_scale);
  }
  REQUIRE(a->parts.size() == b->parts.size());
  for (std::size_t p = 0; p < a->parts.size(); ++p) {
    CHECK(a->parts[p].name == b->parts[p].name);
    CHECK(a->parts[p].sprite == b->parts[p].sprite);
    CHECK(a->parts[p].mesh.verts == b->parts[p].mesh.verts);
    CHECK(a->parts[p].mesh.uvs == b->parts[p].mesh.uvs);
    CHECK(a->parts[p].skin_indices == b->parts[p].skin_indices);
    REQUIRE(a->parts[p].skin_weights.size() == b->parts[p].skin_weights.size());
    for (std::size_t k = 0; k < a->parts[p].skin_weights.size(); ++k) {
      // float32 storage of w/sum vs of (w/sum)/sum': the same float or its neighbour.
      CHECK(a->parts[p].skin_weights[k] == Approx(b->parts[p].skin_weights[k]).epsilon(2e-7));
    }
  }
}

}  // namespace

TEST_CASE("fix: a clean rig is not changed", "[validate][fix]") {
  auto r = fix_rig(kClean, "clean.rig2d.json");
  REQUIRE(r);
  CHECK_FALSE(r->changed);
  CHECK(r->changes.empty());
  CHECK(r->text == kClean);
}

TEST_CASE("fix: weights are renormalized per vertex, only where off", "[validate][fix]") {
  std::string text = kClean;
  // vertex 1: 0.25 + 0.25 -> 0.5 each; vertex 0 untouched.
  const std::string from = "    1,\n    0,\n    0,\n    0\n  ]\n}";
  REQUIRE(text.rfind(from) != std::string::npos);
  text.replace(text.rfind(from), from.size(), "    0.25,\n    0.25,\n    0,\n    0\n  ]\n}");
  auto r = fix_rig(text, "w.rig2d.json");
  REQUIRE(r);
  CHECK(r->changed);
  REQUIRE(codes(*r) == std::vector<std::string>{"fix.weights"});
  CHECK(r->changes[0].where.json_pointer == "/skinWeights");
  CHECK(r->changes[0].severity == Severity::Note);
  CHECK(r->changes[0].where.line > 0);
  const Json fixed = Json::parse(r->text);
  CHECK(fixed["skinWeights"] == Json::parse("[1,0,0,0,0.5,0.5,0,0]"));
  // Exactly the two changed lines differ.
  const auto a = lines(text), b = lines(r->text);
  REQUIRE(a.size() == b.size());
  int diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff += a[i] != b[i];
  CHECK(diff == 2);
  require_same_engine_reading(text, r->text);
  auto again = fix_rig(r->text, "w.rig2d.json");
  REQUIRE(again);
  CHECK_FALSE(again->changed);  // idempotent
}

TEST_CASE("fix: negative, non-numeric and all-zero weights read as the loader reads them", "[validate][fix]") {
  Json rig = Json::parse(kClean);
  rig["skinWeights"] = Json::parse(R"([-1, 0, 0, 0, "0.5", 0.5, 0, 0])");
  auto r = fix_rig(detail::to_js_json(rig), "w.rig2d.json");
  REQUIRE(r);
  // vertex 0: all (clamped) zero -> slot 0 = 1; vertex 1: the string counts as 0 -> [0, 1, 0, 0].
  CHECK(Json::parse(r->text)["skinWeights"] == Json::parse("[1,0,0,0,0,1,0,0]"));
  require_same_engine_reading(detail::to_js_json(rig), r->text);
}

TEST_CASE("fix: a weight past float32's range is left for a hand fix, as the loader reads Infinity",
          "[validate][fix]") {
  Json rig = Json::parse(kClean);
  // vertex 0: 1e39 is finite as a double, Infinity once the loader stores it as float32; vertex 1
  // sums to 0.5 and is renormalized as usual.
  rig["skinWeights"] = Json::parse(R"([1, 1e39, 0, 0, 0.25, 0.25, 0, 0])");
  const std::string text = detail::to_js_json(rig);
  auto r = fix_rig(text, "w.rig2d.json");
  REQUIRE(r);
  REQUIRE(codes(*r) == std::vector<std::string>{"fix.weights"});
  const Json fixed = Json::parse(r->text)["skinWeights"];
  CHECK(fixed == Json::parse("[1, 1e39, 0, 0, 0.5, 0.5, 0, 0]"));
  auto before = read_rig_normalized(text, "a"), after = read_rig_normalized(r->text, "b");
  REQUIRE(before);
  REQUIRE(after);
  const std::vector<double>&a = before->parts[0].skin_weights, &b = after->parts[0].skin_weights;
  REQUIRE(a.size() == b.size());
  CHECK(std::isinf(a[1]));
  for (std::size_t k = 0; k < a.size(); ++k) CHECK((a[k] == b[k] || a[k] == Approx(b[k]).epsilon(2e-7)));
  auto again = fix_rig(r->text, "w.rig2d.json");
  REQUIRE(again);
  CHECK_FALSE(again->changed);
}

TEST_CASE("fix: a string the loader reads as Infinity is left as written", "[validate][fix]") {
  Json rig = Json::parse(kClean);
  rig["bones"][0]["x"] = "1e999";                             // +"1e999" is Infinity; JSON has no number for it
  rig["bones"][0]["y"] = "7";                                 // coerced as usual
  rig["mesh"]["verts"][1] = Json::parse(R"(["-1e999", 0])");  // likewise in a mesh entry
  const std::string text = detail::to_js_json(rig);
  auto r = fix_rig(text, "inf.rig2d.json");
  REQUIRE(r);
  const Json fixed = Json::parse(r->text);
  CHECK(fixed["bones"][0]["x"] == "1e999");
  CHECK(fixed["bones"][0]["y"] == 7);
  CHECK(fixed["mesh"]["verts"][1] == Json::parse(R"(["-1e999", 0])"));
  auto before = read_rig_normalized(text, "a"), after = read_rig_normalized(r->text, "b");
  REQUIRE(before);
  REQUIRE(after);
  CHECK(std::isinf(before->bones[0].x));
  CHECK(write_rig(*before) == write_rig(*after));
  auto again = fix_rig(r->text, "inf.rig2d.json");
  REQUIRE(again);
  CHECK_FALSE(again->changed);
}

TEST_CASE("fix: missing skin arrays and bad indices get the loader's values", "[validate][fix]") {
  Json rig = Json::parse(kClean);
  rig.erase("skinWeights");
  rig["skinIndices"] = Json::parse(R"([0, 7, 1.5, "0", 0, 0, 0])");  // 7 and 1.5 and "0" read as 0; one short
  const std::string before = detail::to_js_json(rig);
  auto r = fix_rig(before, "i.rig2d.json");
  REQUIRE(r);
  const Json fixed = Json::parse(r->text);
  CHECK(fixed["skinIndices"] == Json::parse("[0,0,0,0,0,0,0,0]"));
  CHECK(fixed["skinWeights"] == Json::parse("[1,0,0,0,1,0,0,0]"));
  // skinWeights is inserted after skinIndices, where the engine's writer puts it.
  std::vector<std::string> keys;
  for (auto it = fixed.begin(); it != fixed.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"id", "sprite", "bones", "mesh", "skinIndices", "skinWeights"});
  CHECK(codes(*r) == std::vector<std::string>{"fix.indices", "fix.weights"});
  require_same_engine_reading(before, r->text);
}

TEST_CASE("fix: bone defaults are filled in the writer's key order", "[validate][fix]") {
  Json rig = Json::parse(kClean);
  rig["bones"] = Json::parse(R"([{"y": 3, "parent": 1.5, "noScale": 1}, {"name": "", "parent": 0, "x": "5", "y": true, "rot": null, "noScale": 0}])");
  rig["skinIndices"] = Json::parse("[0,0,0,0,0,0,0,0]");
  const std::string before = detail::to_js_json(rig);
  auto r = fix_rig(before, "b.rig2d.json");
  REQUIRE(r);
  const Json bones = Json::parse(r->text)["bones"];
  CHECK(same(bones[0], R"({"name": "bone0", "parent": -1, "x": 0, "y": 3, "rot": 0, "noScale": true})"));
  std::vector<std::string> keys;
  for (auto it = bones[0].begin(); it != bones[0].end(); ++it) keys.push_back(it.key());
  // name and x are inserted before/after their neighbours; the file's own order (y before parent) stays.
  CHECK(keys == std::vector<std::string>{"name", "y", "parent", "x", "rot", "noScale"});
  CHECK(same(bones[1], R"({"name": "bone1", "parent": 0, "x": 5, "y": 1, "rot": 0})"));
  for (const Diagnostic& d : r->changes) CHECK(d.code == "fix.bone");
  require_same_engine_reading(before, r->text);
}

TEST_CASE("fix: v2 part defaults, uvs sized to the vertex count", "[validate][fix]") {
  const std::string before = R"({
  "id": "eeeeeeee-0000-4000-8000-000000000002",
  "bones": [{"name": "root", "parent": -1, "x": 0, "y": 0, "rot": 0}],
  "parts": [
    {"mesh": {"verts": [[0, 0], [1, "2"]], "uvs": [[0, 0]], "tris": []}, "skinIndices": [0,0,0,0,0,0,0,0],
     "skinWeights": [1,0,0,0,1,0,0,0], "visible": 0, "order": "x"}
  ]
})";
  auto r = fix_rig(before, "p.rig2d.json");
  REQUIRE(r);
  const Json part = Json::parse(r->text)["parts"][0];
  CHECK(part["name"] == "part0");
  CHECK(part["sprite"] == "");
  CHECK(part["mesh"]["verts"] == Json::parse("[[0,0],[1,2]]"));
  CHECK(part["mesh"]["uvs"] == Json::parse("[[0,0],[0,0]]"));
  CHECK_FALSE(part.contains("visible"));
  CHECK(part["order"] == 0);
  std::vector<std::string> keys;
  for (auto it = part.begin(); it != part.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"name", "sprite", "mesh", "skinIndices", "skinWeights", "order"});
  bool layout = false;
  for (const Diagnostic& d : r->changes) layout = layout || d.code == "fix.layout";
  CHECK(layout);  // the input was not in JSON.stringify layout
  require_same_engine_reading(before, r->text);
}

TEST_CASE("fix: a trailing newline is kept, not-JSON and non-objects fail cleanly", "[validate][fix]") {
  Json rig = Json::parse(kClean);
  rig["bones"][0].erase("rot");
  auto r = fix_rig(detail::to_js_json(rig) + "\n", "n.rig2d.json");
  REQUIRE(r);
  CHECK(r->text.back() == '\n');
  CHECK(r->text[r->text.size() - 2] == '}');
  CHECK(codes(*r) == std::vector<std::string>{"fix.bone"});  // no layout note: the layout was the engine's

  auto bad = fix_rig("{\"bones\": [", "bad.rig2d.json");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "json.syntax");
  auto arr = fix_rig("[1]", "arr.rig2d.json");
  REQUIRE_FALSE(arr);
  CHECK(arr.error().code == "fix.root");
}

TEST_CASE("fix: unknown content is kept as written, big integers included, a NUL byte is an error",
          "[validate][fix]") {
  std::string text = kClean;
  const std::string extra = "  \"customId\": 12345678901234567890,\n  \"neg\": -9007199254740993,\n";
  text.insert(text.find("  \"sprite\""), extra);
  // A weight that needs renormalizing, so the file is rewritten.
  const std::string from = "    1,\n    0,\n    0,\n    0\n  ]\n}";
  REQUIRE(text.rfind(from) != std::string::npos);
  text.replace(text.rfind(from), from.size(), "    0.25,\n    0.25,\n    0,\n    0\n  ]\n}");
  auto fixed = fix_rig(text, "big.rig2d.json");
  REQUIRE(fixed);
  REQUIRE(fixed->changed);
  CHECK(fixed->text.find("\"customId\": 12345678901234567890,") != std::string::npos);
  CHECK(fixed->text.find("\"neg\": -9007199254740993,") != std::string::npos);

  std::string with_nul = kClean;
  with_nul += std::string("\0garbage", 8);
  auto refused = fix_rig(with_nul, "nul.rig2d.json");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == "json.syntax");
  CHECK(refused.error().message.find("NUL") != std::string::npos);
}
