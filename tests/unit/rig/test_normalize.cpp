// SPDX-License-Identifier: Apache-2.0
// normalizeRig2D conformance: ENGINE-SPEC §1.2, §5.1 #11, §5.4 #1-2 and the computed vectors of §5.12.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rig/rig_json_internal.h"
#include "rig2d/core/limits.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/skin/skeleton.h"

using namespace rig2d;

namespace {

Rig read(const std::string& text) {
  auto r = read_rig_normalized(text, "t.rig2d.json");
  if (!r) FAIL("unexpected error " << r.error().code << ": " << r.error().message);
  return std::move(r).value();
}

std::vector<double> flat(const std::vector<Vec2>& points) {
  std::vector<double> out;
  for (const Vec2& p : points) {
    out.push_back(p.x);
    out.push_back(p.y);
  }
  return out;
}

std::vector<std::string> part_names(const Rig& rig) {
  std::vector<std::string> names;
  for (const Part& p : rig.parts) names.push_back(p.name.value_or("?"));
  return names;
}

}  // namespace

TEST_CASE("normalize: weights renormalize through float32 storage (spec 1.2)", "[rig]") {
  const Rig rig = read(R"({"bones":[{"name":"a","parent":-1,"x":0,"y":0,"rot":0}],
    "mesh":{"verts":[[0,0]],"uvs":[[0,0]],"tris":[]},"skinIndices":[0,0,0,0],"skinWeights":[0.1,0.2,0.3,0.3]})");
  REQUIRE(rig.parts.size() == 1);
  const std::vector<double> expected{0.1111111119389534, 0.2222222238779068, 0.3333333432674408,
                                     0.3333333432674408};
  CHECK(rig.parts[0].skin_weights == expected);
}

TEST_CASE("normalize: index clamping and renormalization (spec 5.1 #11)", "[rig]") {
  const Rig rig = read(R"({"bones":[{"name":"root","parent":-1,"x":0,"y":0,"rot":0}],
    "mesh":{"verts":[[0,0]],"uvs":[[0,0]],"tris":[]},"skinIndices":[0,9,0,0],"skinWeights":[2,2,0,0]})");
  const Part& p = rig.parts.at(0);
  CHECK(p.skin_weights == std::vector<double>{0.5, 0.5, 0, 0});
  CHECK(p.skin_indices == std::vector<std::uint32_t>{0, 0, 0, 0});  // 9 is out of range: clamped to 0
}

TEST_CASE("normalize: a v1 rig becomes one part named main (spec 5.4 #1)", "[rig]") {
  const Rig rig = read(R"({"sprite":"tex","bones":[{"name":"root","parent":-1}],
    "mesh":{"verts":[[0,0],[4,0]],"uvs":[[0,0],[1,0]],"tris":[0,1,1]},
    "skinIndices":[0,0,0,0,0,0,0,0],"skinWeights":[1,0,0,0,1,0,0,0]})");
  CHECK(rig.layout == Layout::V1);
  REQUIRE(rig.parts.size() == 1);
  const Part& p = rig.parts[0];
  CHECK(p.sprite == "tex");
  CHECK(p.mesh.verts.size() == 2);
  CHECK(p.name == std::optional<std::string>("main"));
  CHECK(p.order == std::optional<double>(0));
  CHECK(p.visible == std::optional<bool>(true));
  CHECK(p.mesh.tris == std::vector<std::uint32_t>{0, 1, 1});
  REQUIRE(rig.bones.size() == 1);
  CHECK(rig.bones[0] == Bone{"root", -1, 0, 0, 0, false});
}

TEST_CASE("normalize: v2 parts sort by order (spec 5.4 #2)", "[rig]") {
  const Rig rig = read(R"({"bones":[],"parts":[{"name":"front","order":5},{"name":"back","order":1}]})");
  CHECK(rig.layout == Layout::V2);
  CHECK(part_names(rig) == std::vector<std::string>{"back", "front"});
}

TEST_CASE("normalize: stable part ordering with defaulted names and orders (spec 1.2)", "[rig]") {
  // Orders [x:2, (unnamed):1, z:(none -> its index 2), w:0] -> [w, part1, x, z].
  const Rig rig = read(R"({"parts":[{"name":"x","order":2},{"order":1},{"name":"z"},{"name":"w","order":0}]})");
  CHECK(part_names(rig) == std::vector<std::string>{"w", "part1", "x", "z"});
  std::vector<double> orders;
  for (const Part& p : rig.parts) orders.push_back(*p.order);
  CHECK(orders == std::vector<double>{0, 1, 2, 2});
}

TEST_CASE("normalize: computed edge vector (spec 5.12)", "[rig]") {
  const Rig rig = read(R"({
    "bones":[{"name":"","parent":1.5,"x":"5","y":null,"rot":"abc","noScale":1},{"parent":7}],
    "parts":[],
    "sprite":7,
    "mesh":{"verts":[[1,2],"x",[null,"3"],[true,[]]],"uvs":[[0.1,0.2]],"tris":[0,1.7,-1,"2",1e999,3]},
    "skinIndices":[1,5,-1,0.5],
    "skinWeights":[-1,0,0,0,0.2,0.2,0.1]})");
  // (NaN is not JSON; 1e999, which JSON.parse reads as Infinity, is the non-finite tris element here.)
  REQUIRE(rig.bones.size() == 2);
  CHECK(rig.bones[0] == Bone{"bone0", -1, 5, 0, 0, true});
  CHECK(rig.bones[1] == Bone{"bone1", 7, 0, 0, 0, false});
  CHECK(rig.layout == Layout::V1);
  REQUIRE(rig.parts.size() == 1);
  const Part& p = rig.parts[0];
  CHECK(p.name == std::optional<std::string>("main"));
  CHECK(p.sprite.empty());
  CHECK(p.order == std::optional<double>(0));
  CHECK(p.visible == std::optional<bool>(true));
  CHECK(flat(p.mesh.verts) == std::vector<double>{1, 2, 0, 0, 0, 3, 1, 0});
  CHECK(flat(p.mesh.uvs) == std::vector<double>{0.10000000149011612, 0.20000000298023224, 0, 0, 0, 0, 0, 0});
  CHECK(p.mesh.tris == std::vector<std::uint32_t>{0, 1, 4294967295u, 3});
  std::vector<std::uint32_t> indices(16, 0);
  indices[0] = 1;
  CHECK(p.skin_indices == indices);
  CHECK(p.skin_weights == std::vector<double>{1, 0, 0, 0, 0.4000000059604645, 0.4000000059604645,
                                              0.20000000298023224, 0, 1, 0, 0, 0, 1, 0, 0, 0});
  // invBind = [T(-5,0), I]: bone1's parent 7 is out of range, so it is a root at the origin.
  const BindMatrices m = derive_bind_matrices(rig.bones);
  CHECK(m.inv_bind[0] == Affine2{1, 0, 0, 1, -5, 0});
  CHECK(m.inv_bind[1] == Affine2{});
}

TEST_CASE("normalize: no skin arrays bind every vertex to slot 0 (spec 5.12)", "[rig]") {
  const Rig rig = read(R"({"bones":[{"name":"a"},{"name":"b"}],"mesh":{"verts":[[0,0],[1,1]]}})");
  const Part& p = rig.parts.at(0);
  CHECK(p.skin_indices == std::vector<std::uint32_t>(8, 0));
  CHECK(p.skin_weights == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0});
  CHECK(flat(p.mesh.uvs) == std::vector<double>(4, 0));
  CHECK(p.mesh.tris.empty());
}

TEST_CASE("normalize: a degenerate vertex keeps its slot-0 index (spec 5.12, 6 #16)", "[rig]") {
  const Rig rig = read(R"({"bones":[{"name":"a"},{"name":"b"}],"mesh":{"verts":[[0,0]]},
    "skinIndices":[1,0,0,0],"skinWeights":[0,0,0,0]})");
  const Part& p = rig.parts.at(0);
  CHECK(p.skin_indices == std::vector<std::uint32_t>{1, 0, 0, 0});
  CHECK(p.skin_weights == std::vector<double>{1, 0, 0, 0});
}

TEST_CASE("normalize: undefined or non-object input gives 0 bones and one empty main part (spec 5.12)", "[rig]") {
  for (const char* text : {"null", "[]", "\"rig\"", "42", "{}", "true"}) {
    INFO(text);
    const Rig rig = read(text);
    CHECK(rig.bones.empty());
    REQUIRE(rig.parts.size() == 1);
    CHECK(rig.parts[0].name == std::optional<std::string>("main"));
    CHECK(rig.parts[0].mesh.verts.empty());
    CHECK(rig.parts[0].skin_weights.empty());
    CHECK_FALSE(rig.id.has_value());
  }
  const Rig undefined = detail::normalize_json(detail::Json());  // a discarded/absent value
  CHECK(undefined.bones.empty());
  CHECK(undefined.parts.size() == 1);
}

TEST_CASE("normalize: part fields default like the engine", "[rig]") {
  const Rig rig = read(R"({"bones":[{"name":"a"}],"parts":[
    {"name":"","sprite":"s1","visible":0,"order":"3"},
    {"name":"b","sprite":{},"visible":false,"order":-2},
    7]})");
  REQUIRE(rig.parts.size() == 3);
  // Sorted: b (-2), part0 (order "3" is not a number -> 0), part2 (-> 2).
  CHECK(part_names(rig) == std::vector<std::string>{"b", "part0", "part2"});
  CHECK(rig.parts[0].visible == std::optional<bool>(false));  // only a literal false hides
  CHECK(rig.parts[0].sprite.empty());
  CHECK(rig.parts[1].visible == std::optional<bool>(true));   // 0 is not false
  CHECK(rig.parts[1].sprite == "s1");
  CHECK(rig.parts[1].order == std::optional<double>(0));
  CHECK(rig.parts[2].order == std::optional<double>(2));
}

TEST_CASE("normalize: bone coercion follows JS ToNumber and truthiness", "[rig]") {
  const Rig rig = read(R"({"bones":[
    {"name":"a","parent":"0","x":true,"y":" 0x10 ","rot":[2.5],"noScale":"no"},
    {"name":"b","parent":0,"x":[],"y":[1,2],"rot":"-Infinity","noScale":0},
    {"name":"a","parent":-5,"x":"1e3","y":".5","rot":{},"noScale":[]},
    {"name":7,"parent":2.0,"x":1e999,"y":"\u00a0 12 \n","rot":"1_0"}]})");
  REQUIRE(rig.bones.size() == 4);
  CHECK(rig.bones[0] == Bone{"a", -1, 1, 16, 2.5, true});
  CHECK(rig.bones[1].x == 0);
  CHECK(rig.bones[1].y == 0);
  CHECK(rig.bones[1].rot == -std::numeric_limits<double>::infinity());
  CHECK_FALSE(rig.bones[1].no_scale);
  CHECK(rig.bones[2] == Bone{"a", -5, 1000, 0.5, 0, true});  // duplicate names and -5 are kept
  CHECK(rig.bones[3].name == "bone3");
  CHECK(rig.bones[3].parent == 2);
  CHECK(rig.bones[3].x == std::numeric_limits<double>::infinity());  // a JSON 1e999 stays Infinity
  CHECK(rig.bones[3].y == 12);
  CHECK(rig.bones[3].rot == 0);
}

TEST_CASE("normalize: skin index and weight coercion rejects strings", "[rig]") {
  const Rig rig = read(R"({"bones":[{"name":"a"},{"name":"b"},{"name":"c"}],"mesh":{"verts":[[0,0],[1,0]]},
    "skinIndices":["1",2,4294967298,-0.0, 2],
    "skinWeights":["0.5",0.25,0.25,0, 3]})");
  const Part& p = rig.parts.at(0);
  // "1" is not an integer -> 0; 4294967298 | 0 = 2; vertex 1 has only slot 0 (index 2) present.
  CHECK(p.skin_indices == std::vector<std::uint32_t>{0, 2, 2, 0, 2, 0, 0, 0});
  CHECK(p.skin_weights == std::vector<double>{0, 0.5, 0.5, 0, 1, 0, 0, 0});
}

TEST_CASE("normalize: indices around 2^31 wrap through ToInt32", "[rig]") {
  const Rig rig = read(R"({"bones":[{"name":"a"},{"name":"b"}],"mesh":{"verts":[[0,0]],
    "tris":[2147483647, 2147483648, 2147483649, 4294967296, 4294967297, -2147483648, 1.0]},
    "skinIndices":[2147483647, 2147483648, 4294967297, 1.0]})");
  const Part& p = rig.parts.at(0);
  // 2^31 - 1 stays, 2^31 wraps to -2^31 (stored as 2^31 in the Uint32Array), 2^32 to 0, 2^32 + 1 to 1.
  CHECK(p.mesh.tris == std::vector<std::uint32_t>{2147483647u, 2147483648u, 2147483649u, 0, 1, 2147483648u, 1});
  // As bone indices: out of range (2^31 - 1) or negative (-2^31) clamp to 0; 2^32 + 1 is bone 1.
  CHECK(p.skin_indices == std::vector<std::uint32_t>{0, 0, 1, 1});
}

TEST_CASE("normalize: uvs follow the vert count", "[rig]") {
  const Rig rig = read(R"({"mesh":{"verts":[[0,0],[1,1]],"uvs":[[0.5,0.5],[1,1],[0.25,0.25]]}})");
  CHECK(flat(rig.parts[0].mesh.uvs) == std::vector<double>{0.5, 0.5, 1, 1});
  const Rig missing = read(R"({"mesh":{"verts":[[0,0],[1,1]],"uvs":"nope"}})");
  CHECK(flat(missing.parts[0].mesh.uvs) == std::vector<double>{0, 0, 0, 0});
}

TEST_CASE("normalize: id and version are carried when they have the right type", "[rig]") {
  CHECK(read(R"({"id":"abc","version":2})").id == std::optional<std::string>("abc"));
  CHECK(read(R"({"id":"abc","version":2})").version == std::optional<double>(2));
  CHECK_FALSE(read(R"({"id":5,"version":"1"})").id.has_value());
  CHECK_FALSE(read(R"({"id":5,"version":"1"})").version.has_value());
}

TEST_CASE("normalize: only JSON errors and limits fail", "[rig]") {
  auto bad = read_rig_normalized("{\"bones\": [1,", "bad.rig2d.json");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "json.syntax");
  CHECK(bad.error().where.file == "bad.rig2d.json");
  CHECK(bad.error().where.line == 1);

  auto deep = read_rig_normalized(std::string(100, '[') + std::string(100, ']'), "deep.json");
  REQUIRE_FALSE(deep);
  CHECK(deep.error().code == "json.too_deep");

  // A syntax error after an overflowing number is still found at its own position.
  auto late = read_rig_normalized("{\"x\": 1e999,\n \"y\": ]}", "late.json");
  REQUIRE_FALSE(late);
  CHECK(late.error().code == "json.syntax");
  CHECK(late.error().where.line == 2);

  std::string many = "{\"bones\":[";
  for (std::size_t i = 0; i <= kMaxBones; ++i) many += i ? ",{}" : "{}";
  many += "]}";
  auto limited = read_rig_normalized(many, "many.json");
  REQUIRE_FALSE(limited);
  CHECK(limited.error().code == "rig.limit.bones");
  CHECK(limited.error().where.json_pointer == "/bones");
}

TEST_CASE("normalize: overflowing numbers keep their sign and position among strings", "[rig]") {
  const Rig rig = read(R"({"id":"x","bones":[{"name":"k","x":-1e400,"y":"s","rot":1e400}],
    "mesh":{"verts":[[2e308,"7"]]}})");
  CHECK(rig.id == std::optional<std::string>("x"));
  CHECK(rig.bones[0].name == "k");
  CHECK(rig.bones[0].x == -std::numeric_limits<double>::infinity());
  CHECK(rig.bones[0].rot == std::numeric_limits<double>::infinity());
  CHECK(std::isinf(rig.parts[0].mesh.verts[0].x));
  CHECK(rig.parts[0].mesh.verts[0].y == 7);
}

TEST_CASE("normalize_rig: what the loader makes of write_rig(rig)", "[rig]") {
  Rig rig;
  rig.bones = {{"root", -1, std::nan(""), 1, 0, false}, {"", 0, 1, std::numeric_limits<double>::infinity(), 0, true}};
  Part part;
  part.sprite = "s";
  part.mesh.verts = {{0.1, 0.2}};
  part.mesh.uvs = {{0.3, 0.4}};
  part.skin_indices = {1, 5, 0, 0};
  part.skin_weights = {0.1, 0.2, 0.3, 0.3};
  rig.parts = {part};
  const Rig direct = normalize_rig(rig);
  const Rig via_text = read(write_rig(rig));
  CHECK(direct == via_text);
  CHECK(direct.bones[0].x == 0);  // NaN is written as null, which coerces to 0
  CHECK(direct.bones[1].name == "bone1");
  CHECK(direct.parts[0].skin_indices == std::vector<std::uint32_t>{1, 0, 0, 0});
  CHECK(direct.parts[0].skin_weights[0] == 0.1111111119389534);
  CHECK(direct.parts[0].mesh.verts[0].x == static_cast<double>(0.1f));
}
