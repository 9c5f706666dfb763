// SPDX-License-Identifier: Apache-2.0
// The strict reader: one bad file per code (tests/data/invalid/rig/<code>.rig2d.json) asserting the exact
// code, pointer and line; every defect reported; lossless round trips through write_rig.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

const fs::path kInvalid = fs::path(RIG2D_SOURCE_DIR) / "tests/data/invalid/rig";
const fs::path kValid = fs::path(RIG2D_SOURCE_DIR) / "tests/data/valid/rig";

std::string slurp(const fs::path& p) {
  auto r = read_file(p.string(), kMaxJsonFileBytes);
  if (!r) FAIL("cannot read " << p << ": " << r.error().message);
  return *r;
}

struct Expected {
  std::string pointer;
  int line;
  int column;  // 0 = not asserted
  Severity severity = Severity::Error;
};

// Lines and columns were read off the files by hand (the value a pointer names, or the object that lacks
// a missing member).
const std::map<std::string, Expected> kExpected = {
    {"json.syntax", {"", 7, 5}},
    {"json.too_deep", {"", 12, 0}},
    {"rig.root.type", {"", 1, 1}},
    {"rig.key.unknown", {"/colour", 4, 13, Severity::Warning}},
    {"rig.field.missing", {"/bones/1/rot", 7, 5}},
    {"rig.field.type", {"/bones/1/x", 7, 39}},
    {"rig.number.finite", {"/bones/1/x", 7, 39}},
    {"rig.version.unknown", {"/version", 3, 14}},
    {"rig.version.layout", {"/version", 3, 14, Severity::Warning}},
    {"rig.layout.mixed", {"/sprite", 4, 13}},
    {"rig.parts.empty", {"/parts", 16, 12, Severity::Warning}},
    {"rig.limit.bones", {"/bones", 5, 12}},
    {"rig.limit.parts", {"/parts", 3, 12}},
    {"rig.bones.empty", {"/bones", 3, 12, Severity::Warning}},
    {"rig.bone.name.empty", {"/bones/1/name", 7, 14}},
    {"rig.bone.name.duplicate", {"/bones/1/name", 7, 14}},
    {"rig.bone.parent.range", {"/bones/1/parent", 7, 31}},
    {"rig.bone.parent.cycle", {"/bones/0/parent", 6, 32}},
    {"rig.part.name.empty", {"/parts/1/name", 18, 15}},
    {"rig.part.name.duplicate", {"/parts/1/name", 18, 15}},
    {"rig.mesh.pair", {"/mesh/verts/2", 10, 32}},
    {"rig.mesh.uvs.count", {"/mesh/uvs", 11, 12}},
    {"rig.mesh.uvs.range", {"/mesh/uvs/3", 11, 39}},
    {"rig.mesh.tris.count", {"/mesh/tris", 12, 13}},
    {"rig.mesh.tris.range", {"/mesh/tris/5", 12, 29}},
    {"rig.indices.count", {"/skinIndices", 14, 18}},
    {"rig.indices.range", {"/skinIndices/8", 14, 43}},
    {"rig.weights.count", {"/skinWeights", 15, 18}},
    {"rig.weights.negative", {"/skinWeights/13", 15, 60}},
    {"rig.weights.sum", {"/skinWeights/4", 15, 31}},
};

std::string describe(const std::vector<Diagnostic>& ds) {
  std::string out;
  for (const Diagnostic& d : ds) out += format_diagnostic(d) + "\n";
  return out;
}

std::size_t count_code(const std::vector<Diagnostic>& ds, const std::string& code) {
  std::size_t n = 0;
  for (const Diagnostic& d : ds) n += d.code == code ? 1 : 0;
  return n;
}

const Diagnostic* find_code(const std::vector<Diagnostic>& ds, const std::string& code) {
  for (const Diagnostic& d : ds) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("strict: every invalid file yields exactly its code at its pointer and line", "[rig][strict]") {
  std::set<std::string> seen;
  for (const auto& entry : fs::directory_iterator(kInvalid)) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = ".rig2d.json";
    REQUIRE(name.size() > suffix.size());
    const std::string code = name.substr(0, name.size() - suffix.size());
    INFO(name);
    const auto want = kExpected.find(code);
    REQUIRE(want != kExpected.end());
    seen.insert(code);
    const StrictRig result = read_rig_strict(slurp(entry.path()), name);
    INFO(describe(result.diagnostics));
    REQUIRE(result.diagnostics.size() == 1);
    const Diagnostic& d = result.diagnostics[0];
    CHECK(d.code == code);
    CHECK(d.where.file == name);
    CHECK(d.where.json_pointer == want->second.pointer);
    CHECK(d.where.line == want->second.line);
    if (want->second.column != 0) CHECK(d.where.column == want->second.column);
    CHECK(d.severity == want->second.severity);
    CHECK_FALSE(d.message.empty());
    // A rig is returned exactly when nothing is an error.
    CHECK(result.rig.has_value() == (want->second.severity != Severity::Error));
  }
  CHECK(seen.size() == kExpected.size());
}

TEST_CASE("strict: the valid corpus reads clean and round-trips losslessly", "[rig][strict]") {
  for (const char* file : {"v1.rig2d.json", "v2.rig2d.json"}) {
    INFO(file);
    const std::string text = slurp(kValid / file);
    const StrictRig first = read_rig_strict(text, file);
    INFO(describe(first.diagnostics));
    REQUIRE(first.diagnostics.empty());
    REQUIRE(first.rig);
    const std::string written = write_rig(*first.rig);
    const StrictRig second = read_rig_strict(written, file);
    REQUIRE(second.diagnostics.empty());
    REQUIRE(second.rig);
    CHECK(*second.rig == *first.rig);           // read -> write -> read is lossless
    CHECK(write_rig(*second.rig) == written);   // write -> read -> write is byte-identical
    // The engine reads the same file the same way whichever text it gets.
    auto engine_original = read_rig_normalized(text, file);
    auto engine_written = read_rig_normalized(written, file);
    REQUIRE(engine_original);
    REQUIRE(engine_written);
    CHECK(*engine_original == *engine_written);
  }
}

TEST_CASE("strict: the v2 sample keeps every optional field as written", "[rig][strict]") {
  const StrictRig r = read_rig_strict(slurp(kValid / "v2.rig2d.json"), "v2.rig2d.json");
  REQUIRE(r.rig);
  const Rig& rig = *r.rig;
  CHECK(rig.layout == Layout::V2);
  CHECK(rig.version == std::optional<double>(2));
  CHECK(rig.id == std::optional<std::string>("5b1a7d2c-1111-4c3e-9f00-2a6b8c9d0e1f"));
  REQUIRE(rig.parts.size() == 2);
  CHECK(rig.parts[0].order == std::optional<double>(0));
  CHECK_FALSE(rig.parts[0].visible.has_value());
  CHECK(rig.parts[1].visible == std::optional<bool>(true));
  CHECK(rig.parts[0].skin_weights[8] == 0.75);  // not float32-rounded
  CHECK(rig.parts[1].mesh.uvs[0] == Vec2{0.5, 0.5});
}

TEST_CASE("strict: every defect is reported, not just the first", "[rig][strict]") {
  const std::string text = R"({
  "sprite": 5,
  "bones": [
    {"name": "a", "parent": -1, "x": 0, "y": 0, "rot": 0},
    {"name": "a", "parent": 3, "x": 0, "rot": "r"},
    7
  ],
  "mesh": {"verts": [[0, 0], [1]], "uvs": [[0, 0], [0, 2]], "tris": [0, 1, 9, 1.5]},
  "skinIndices": [0, 0, 0, 0, 5, 0, 0, 0],
  "skinWeights": [0.5, 0, 0, 0, 1, 0, 0, -1]
})";
  const StrictRig r = read_rig_strict(text, "many.rig2d.json");
  INFO(describe(r.diagnostics));
  CHECK_FALSE(r.rig.has_value());
  CHECK(count_code(r.diagnostics, "rig.field.type") == 4);  // sprite, bones/1/rot, bones/2, tris/3
  CHECK(count_code(r.diagnostics, "rig.field.missing") == 1);  // bones/1/y
  CHECK(count_code(r.diagnostics, "rig.bone.name.duplicate") == 1);
  CHECK(count_code(r.diagnostics, "rig.bone.parent.range") == 1);
  CHECK(count_code(r.diagnostics, "rig.mesh.pair") == 1);
  CHECK(count_code(r.diagnostics, "rig.mesh.uvs.range") == 1);
  CHECK(count_code(r.diagnostics, "rig.mesh.tris.count") == 1);
  CHECK(count_code(r.diagnostics, "rig.mesh.tris.range") == 1);
  CHECK(count_code(r.diagnostics, "rig.indices.range") == 1);
  CHECK(count_code(r.diagnostics, "rig.weights.negative") == 1);
  CHECK(count_code(r.diagnostics, "rig.weights.sum") == 1);  // vertex 0 sums to 0.5
  CHECK(r.diagnostics.size() == 14);
  const Diagnostic* missing = find_code(r.diagnostics, "rig.field.missing");
  REQUIRE(missing);
  CHECK(missing->where.json_pointer == "/bones/1/y");
  CHECK(missing->where.line == 5);  // the bone object that lacks it
  CHECK(missing->where.column == 5);
  const Diagnostic* tris = find_code(r.diagnostics, "rig.mesh.tris.range");
  REQUIRE(tris);
  CHECK(tris->where.json_pointer == "/mesh/tris/2");
  CHECK(tris->where.line == 8);
}

TEST_CASE("strict: weight tolerance is an option", "[rig][strict]") {
  const std::string text = R"({"sprite":"","bones":[{"name":"r","parent":-1,"x":0,"y":0,"rot":0}],
    "mesh":{"verts":[[0,0]],"uvs":[[0,0]],"tris":[]},"skinIndices":[0,0,0,0],"skinWeights":[0.999,0,0,0]})";
  CHECK(count_code(read_rig_strict(text, "t").diagnostics, "rig.weights.sum") == 1);
  CHECK(read_rig_strict(text, "t", StrictOptions{1e-2}).diagnostics.empty());
  const std::string exact = R"({"sprite":"","bones":[{"name":"r","parent":-1,"x":0,"y":0,"rot":0}],
    "mesh":{"verts":[[0,0]],"uvs":[[0,0]],"tris":[]},"skinIndices":[0,0,0,0],"skinWeights":[0.99995,0,0,0]})";
  CHECK(read_rig_strict(exact, "t").diagnostics.empty());
}

TEST_CASE("strict: limits that need big inputs are checked before allocating", "[rig][strict]") {
  std::string verts = "{\"sprite\":\"\",\"bones\":[],\"mesh\":{\"verts\":[";
  for (std::size_t i = 0; i <= kMaxVertices; ++i) verts += i ? ",0" : "0";
  verts += "],\"uvs\":[],\"tris\":[]},\"skinIndices\":[],\"skinWeights\":[]}";
  const StrictRig rv = read_rig_strict(verts, "verts.json");
  const Diagnostic* v = find_code(rv.diagnostics, "rig.limit.verts");
  REQUIRE(v);
  CHECK(v->where.json_pointer == "/mesh/verts");
  CHECK_FALSE(rv.rig);

  std::string tris = "{\"sprite\":\"\",\"bones\":[],\"mesh\":{\"verts\":[],\"uvs\":[],\"tris\":[";
  for (std::size_t i = 0; i <= kMaxTriangleIndices; ++i) tris += i ? ",0" : "0";
  tris += "]},\"skinIndices\":[],\"skinWeights\":[]}";
  const StrictRig rt = read_rig_strict(tris, "tris.json");
  const Diagnostic* t = find_code(rt.diagnostics, "rig.limit.tris");
  REQUIRE(t);
  CHECK(t->where.json_pointer == "/mesh/tris");

  const std::string huge(kMaxJsonFileBytes + 1, ' ');
  const StrictRig rh = read_rig_strict(huge, "huge.json");
  REQUIRE(rh.diagnostics.size() == 1);
  CHECK(rh.diagnostics[0].code == "json.too_large");
  auto normalized = read_rig_normalized(huge, "huge.json");
  REQUIRE_FALSE(normalized);
  CHECK(normalized.error().code == "json.too_large");
}

TEST_CASE("strict: unknown keys are escaped in pointers and still located", "[rig][strict]") {
  const std::string text = "{\"sprite\":\"\",\"bones\":[{\"name\":\"r\",\"parent\":-1,\"x\":0,\"y\":0,\"rot\":0,\n"
                           "\"a/b~c\":1}],\"mesh\":{\"verts\":[],\"uvs\":[],\"tris\":[]},\"skinIndices\":[],\"skinWeights\":[]}";
  const StrictRig r = read_rig_strict(text, "k.json");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].code == "rig.key.unknown");
  CHECK(r.diagnostics[0].severity == Severity::Warning);
  CHECK(r.diagnostics[0].where.json_pointer == "/bones/0/a~1b~0c");
  CHECK(r.diagnostics[0].where.line == 2);
  CHECK(r.diagnostics[0].where.column == 9);
  CHECK(r.rig.has_value());  // warnings do not withhold the rig
}

TEST_CASE("strict: bone parents and bind values at the edges of the clean path", "[rig][strict]") {
  // 0.0 is an integer-valued float (a parent, as the engine reads it); 4 is one past the last bone.
  const std::string text = R"({"sprite":"","bones":[
    {"name":"r","parent":-1,"x":0,"y":0,"rot":0},
    {"name":"a","parent":0.0,"x":1.5,"y":-2,"rot":0.25},
    {"name":"b","parent":4,"x":0,"y":0,"rot":0},
    {"name":"c","parent":-2,"x":1e999,"y":"0","rot":0}],
    "mesh":{"verts":[],"uvs":[],"tris":[]},"skinIndices":[],"skinWeights":[]})";
  const StrictRig r = read_rig_strict(text, "edges.json");
  INFO(describe(r.diagnostics));
  REQUIRE(r.diagnostics.size() == 4);
  CHECK(r.diagnostics[0].code == "rig.bone.parent.range");
  CHECK(r.diagnostics[0].where.json_pointer == "/bones/2/parent");
  CHECK(r.diagnostics[0].message == "parent 4 is not a bone index (0..3) or -1 for a root");
  CHECK(r.diagnostics[1].code == "rig.bone.parent.range");
  CHECK(r.diagnostics[1].where.json_pointer == "/bones/3/parent");
  CHECK(r.diagnostics[2].code == "rig.number.finite");
  CHECK(r.diagnostics[2].where.json_pointer == "/bones/3/x");
  CHECK(r.diagnostics[2].message ==
        "must be a finite number (the bind x, px local to the parent); the value overflows a double");
  CHECK(r.diagnostics[3].code == "rig.field.type");
  CHECK(r.diagnostics[3].where.json_pointer == "/bones/3/y");
  CHECK(r.diagnostics[3].message == "must be a number (the bind y, px local to the parent), not a string");

  const std::string clean = R"({"sprite":"","bones":[{"name":"r","parent":-1,"x":0,"y":0,"rot":0},
    {"name":"a","parent":0.0,"x":1.5,"y":-2,"rot":0.25}],
    "mesh":{"verts":[],"uvs":[],"tris":[]},"skinIndices":[],"skinWeights":[]})";
  const StrictRig ok = read_rig_strict(clean, "clean.json");
  REQUIRE(ok.rig.has_value());
  CHECK(ok.rig->bones[1].parent == 0);
  CHECK(ok.rig->bones[1].x == 1.5);
  CHECK(ok.rig->bones[1].y == -2);
  CHECK(ok.rig->bones[1].rot == 0.25);
}

TEST_CASE("strict: a three-bone cycle is reported once, at its lowest bone", "[rig][strict]") {
  const std::string text = R"({"sprite":"","bones":[
    {"name":"root","parent":-1,"x":0,"y":0,"rot":0},
    {"name":"a","parent":3,"x":0,"y":0,"rot":0},
    {"name":"b","parent":1,"x":0,"y":0,"rot":0},
    {"name":"c","parent":2,"x":0,"y":0,"rot":0},
    {"name":"self","parent":4,"x":0,"y":0,"rot":0}],
    "mesh":{"verts":[],"uvs":[],"tris":[]},"skinIndices":[],"skinWeights":[]})";
  const StrictRig r = read_rig_strict(text, "c.json");
  INFO(describe(r.diagnostics));
  REQUIRE(count_code(r.diagnostics, "rig.bone.parent.cycle") == 2);
  CHECK(r.diagnostics[0].where.json_pointer == "/bones/1/parent");
  CHECK(r.diagnostics[1].where.json_pointer == "/bones/4/parent");
}

TEST_CASE("strict: truncated rigs are reported as JSON errors, never crash", "[rig][strict]") {
  const std::string text = slurp(kValid / "v2.rig2d.json");
  for (std::size_t n = 0; n + 1 < text.size(); ++n) {
    const std::string prefix = text.substr(0, n);
    const StrictRig r = read_rig_strict(prefix, "cut.json");
    REQUIRE_FALSE(r.rig.has_value());
    REQUIRE(r.diagnostics.size() == 1);
    REQUIRE(r.diagnostics[0].code == "json.syntax");
    REQUIRE_FALSE(read_rig_normalized(prefix, "cut.json").has_value());
  }
}

TEST_CASE("strict: every documented code has a bad file or an in-memory case", "[rig][strict]") {
  const std::string doc = slurp(fs::path(RIG2D_SOURCE_DIR) / "docs/rig-format.md");
  const std::set<std::string> in_memory = {"json.too_large", "rig.limit.verts", "rig.limit.tris"};
  std::set<std::string> documented;
  const std::string table_start = "\n| `";
  for (std::size_t at = doc.find(table_start); at != std::string::npos; at = doc.find(table_start, at + 1)) {
    const std::size_t begin = at + table_start.size();
    const std::size_t end = doc.find('`', begin);
    const std::string code = doc.substr(begin, end - begin);
    if (code.rfind("json.", 0) == 0 || code.rfind("rig.", 0) == 0) documented.insert(code);
  }
  std::set<std::string> covered = in_memory;
  for (const auto& [code, expected] : kExpected) covered.insert(code);
  CHECK(documented == covered);
}
