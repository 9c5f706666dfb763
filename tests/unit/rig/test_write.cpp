// SPDX-License-Identifier: Apache-2.0
// The writer's layout (JSON.stringify(v, null, 2), engine key order) and read/write round trips.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "json/json_util.h"
#include "rig/rig_json_internal.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;

namespace {

Rig small_v1() {
  Rig rig;
  rig.id = "0f8fad5b-d9cb-469f-a165-70867728950e";
  rig.bones = {{"root", -1, 0, 96, 0, false}, {"tip", 0, 0, -96.5, 1.5707963267948966, true}};
  Part part;
  part.sprite = "3ab58b97-ab98-26c0-162f-c87db96331fe";
  part.mesh.verts = {{-8, 0.1}};
  part.mesh.uvs = {{0, 1}};
  part.mesh.tris = {};
  part.skin_indices = {1, 0, 0, 0};
  part.skin_weights = {0.9999999843750004, 1.5624999511718764e-8, 0, 0};
  rig.parts = {part};
  return rig;
}

Rig small_v2() {
  Rig rig;
  rig.version = 2;
  rig.layout = Layout::V2;
  rig.bones = {{"root", -1, 0, 0, 0, false}, {"arm", 0, 10, 0, 0, false}};
  Part a;
  a.name = "partRoot";
  a.sprite = "a";
  a.mesh.verts = {{0, 0}, {10, 0}, {0, 10}};
  a.mesh.uvs = {{0, 0}, {1, 0}, {0, 1}};
  a.mesh.tris = {0, 1, 2};
  a.skin_indices = {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
  a.skin_weights = {1, 0, 0, 0, 1, 0, 0, 0, 0.75, 0.25, 0, 0};
  a.order = 0;
  Part b;  // no name, order or visibility: the engine defaults them
  b.sprite = "b";
  Part c;
  c.name = "hidden";
  c.sprite = "";
  c.order = 2.5;
  c.visible = false;
  rig.parts = {a, b, c};
  return rig;
}

}  // namespace

TEST_CASE("write: v1 layout byte for byte", "[rig]") {
  const std::string expected = R"({
  "id": "0f8fad5b-d9cb-469f-a165-70867728950e",
  "sprite": "3ab58b97-ab98-26c0-162f-c87db96331fe",
  "bones": [
    {
      "name": "root",
      "parent": -1,
      "x": 0,
      "y": 96,
      "rot": 0
    },
    {
      "name": "tip",
      "parent": 0,
      "x": 0,
      "y": -96.5,
      "rot": 1.5707963267948966,
      "noScale": true
    }
  ],
  "mesh": {
    "verts": [
      [
        -8,
        0.1
      ]
    ],
    "uvs": [
      [
        0,
        1
      ]
    ],
    "tris": []
  },
  "skinIndices": [
    1,
    0,
    0,
    0
  ],
  "skinWeights": [
    0.9999999843750004,
    1.5624999511718764e-8,
    0,
    0
  ]
})";
  CHECK(write_rig(small_v1()) == expected);
}

TEST_CASE("write: v2 layout omits unset optional fields", "[rig]") {
  Rig rig;
  rig.layout = Layout::V2;
  rig.version = 2;
  Part p;
  p.sprite = "s";
  rig.parts = {p};
  const std::string expected = R"({
  "version": 2,
  "bones": [],
  "parts": [
    {
      "sprite": "s",
      "mesh": {
        "verts": [],
        "uvs": [],
        "tris": []
      },
      "skinIndices": [],
      "skinWeights": []
    }
  ]
})";
  CHECK(write_rig(rig) == expected);
  rig.parts[0].name = "body";
  rig.parts[0].order = 3;
  rig.parts[0].visible = true;
  const std::string text = write_rig(rig);
  CHECK(text.find("\"name\": \"body\",\n      \"sprite\": \"s\"") != std::string::npos);
  CHECK(text.find("\"skinWeights\": [],\n      \"order\": 3,\n      \"visible\": true\n    }") != std::string::npos);
  CHECK(text.back() == '}');  // no trailing newline
}

TEST_CASE("write: non-finite numbers become null and -0 becomes 0", "[rig]") {
  Rig rig;
  rig.bones = {{"b", -1, std::nan(""), -0.0, std::numeric_limits<double>::infinity(), false}};
  const std::string text = write_rig(rig);
  CHECK(text.find("\"x\": null,\n      \"y\": 0,\n      \"rot\": null") != std::string::npos);
}

TEST_CASE("write: the normalizing reader reads the writer's output back unchanged", "[rig]") {
  for (const Rig& rig : {small_v1(), small_v2()}) {
    const std::string text = write_rig(rig);
    auto back = read_rig_normalized(text, "rt.rig2d.json");
    REQUIRE(back);
    // Engine normalization of what we wrote equals normalize_rig on the model.
    CHECK(*back == normalize_rig(rig));
    // write -> read -> write is byte-identical once normalized.
    const std::string again = write_rig(*back);
    auto back2 = read_rig_normalized(again, "rt.rig2d.json");
    REQUIRE(back2);
    CHECK(write_rig(*back2) == again);
  }
}

TEST_CASE("write: v2 normalization sorts and fills the parts", "[rig]") {
  auto back = read_rig_normalized(write_rig(small_v2()), "v2.rig2d.json");
  REQUIRE(back);
  REQUIRE(back->parts.size() == 3);
  CHECK(back->parts[0].name == std::optional<std::string>("partRoot"));
  CHECK(back->parts[1].name == std::optional<std::string>("part1"));  // order defaults to index 1
  CHECK(back->parts[2].name == std::optional<std::string>("hidden"));
  CHECK(back->parts[2].visible == std::optional<bool>(false));
  CHECK(back->parts[1].visible == std::optional<bool>(true));
  CHECK(back->version == std::optional<double>(2));
  CHECK(back->layout == Layout::V2);
}

TEST_CASE("write: the streaming writer prints exactly JSON.stringify of the rig's JSON value", "[rig]") {
  Rig odd = small_v2();
  odd.id = "quote\" back\\slash \x01 tab\t é";
  odd.bones.push_back({"n\u2028", std::numeric_limits<std::int64_t>::max(), -0.0, 1e21, 1.5e-7, true});
  odd.parts[1].order = std::numeric_limits<double>::infinity();
  odd.parts[1].mesh.verts = {{std::nan(""), -1e-300}};
  odd.parts[1].skin_weights = {-0.0, 123456789012345680000.0, 0.000001, 0.1};
  Rig empty_v1;
  Rig empty_v2;
  empty_v2.layout = Layout::V2;
  for (const Rig& rig : {small_v1(), small_v2(), odd, empty_v1, empty_v2}) {
    CHECK(write_rig(rig) == detail::to_js_json(detail::rig_to_json(rig)));
  }
  CHECK(write_rig(empty_v2) == "{\n  \"bones\": [],\n  \"parts\": []\n}");
}
