// SPDX-License-Identifier: Apache-2.0
// Sidecars (ENGINE-SPEC §1.4, §1.5), hand-placed bones files and re-run ids for rig2d-autorig.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "json/json_util.h"
#include "rig2d/asset/guid.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/autorig_inputs.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("rig2d_test_autorig_inputs_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("sidecar: id, explicit and implied type", "[autorig][meta]") {
  auto m = parse_sprite_meta(R"({"version": 2, "id": "AAAAAAAA-0000-4000-8000-000000000001", "type": "2d"})", "a");
  REQUIRE(m);
  CHECK(m->texture_guid == "AAAAAAAA-0000-4000-8000-000000000001");
  CHECK(m->type == TextureType::TwoD);
  CHECK(m->type_explicit);

  auto png = parse_sprite_meta(R"({"id": "aaaaaaaa-0000-4000-8000-000000000001", "texture": {"format": "webp"}})", "a");
  REQUIRE(png);
  CHECK(png->type == TextureType::TwoD);
  CHECK_FALSE(png->type_explicit);
  auto ktx = parse_sprite_meta(R"({"id": "aaaaaaaa-0000-4000-8000-000000000001", "texture": {"format": "ktx2-uastc"}})", "a");
  CHECK(ktx->type == TextureType::ThreeD);
  auto bare = parse_sprite_meta(R"({"version": 2, "id": "aaaaaaaa-0000-4000-8000-000000000001"})", "a");
  CHECK(bare->type == TextureType::ThreeD);  // no texture block means 3d (§1.4)
  CHECK(parse_sprite_meta(R"({"id": "aaaaaaaa-0000-4000-8000-000000000001", "type": "ui"})", "a")->type ==
        TextureType::Ui);
}

TEST_CASE("sidecar: errors carry code, pointer and line", "[autorig][meta]") {
  const auto e1 = parse_sprite_meta("{\n  \"version\": 2,\n  \"id\": \"not-a-guid\"\n}", "x.png.meta.json").error();
  CHECK(e1.code == "meta.id");
  CHECK(e1.where.file == "x.png.meta.json");
  CHECK(e1.where.json_pointer == "/id");
  CHECK(e1.where.line == 3);
  CHECK(parse_sprite_meta("{\"version\": 2}", "x").error().code == "meta.id");
  CHECK(parse_sprite_meta("[1]", "x").error().code == "meta.root");
  CHECK(parse_sprite_meta("{\"id\": ", "x").error().code == "json.syntax");
  const auto e2 = parse_sprite_meta(R"({"id": "aaaaaaaa-0000-4000-8000-000000000001", "type": "sprite"})", "x").error();
  CHECK(e2.code == "meta.type");
  CHECK(e2.where.json_pointer == "/type");
  CHECK(read_sprite_meta((temp_dir("missing") / "nope.png.meta.json").string()).error().code == "meta.missing");
}

TEST_CASE("sidecar: derived sprite GUID matches the engine vectors (spec 1.5)", "[autorig][meta]") {
  CHECK(whole_image_sprite_guid("aaaaaaaa-0000-4000-8000-000000000001") == "3ab58b97-ab98-26c0-162f-c87db96331fe");
  // The integrity rule lowercases the texture GUID first.
  CHECK(whole_image_sprite_guid("AAAAAAAA-0000-4000-8000-000000000001") == "3ab58b97-ab98-26c0-162f-c87db96331fe");
  CHECK(whole_image_sprite_guid("720bff86-1b0e-4293-acfc-a4b7661f835c") == "fc9dd3be-30ee-f801-04ad-db58d0b2a243");
}

TEST_CASE("sidecar: minted GUIDs and written sidecars", "[autorig][meta]") {
  const std::string g = mint_texture_guid("chars/hero.png", "PNGBYTES");
  CHECK(is_guid(g));
  CHECK(g == mint_texture_guid("chars/hero.png", "PNGBYTES"));
  CHECK(g != mint_texture_guid("chars/hero2.png", "PNGBYTES"));
  CHECK(g != mint_texture_guid("chars/hero.png", "PNGBYTEZ"));
  CHECK(g[14] == '5');  // UUID version 5

  const std::string text = new_sprite_meta_text(g);
  CHECK(text == "{\n  \"version\": 2,\n  \"id\": \"" + g + "\",\n  \"type\": \"2d\"\n}");
  auto back = parse_sprite_meta(text, "t");
  REQUIRE(back);
  CHECK(back->texture_guid == g);
  CHECK(back->type == TextureType::TwoD);

  auto retyped = sprite_meta_with_2d_type(
      R"({"version":2,"id":"aaaaaaaa-0000-4000-8000-000000000001","type":"3d","texture":{"format":"png"}})", "t");
  REQUIRE(retyped);
  CHECK(*retyped ==
        "{\n  \"version\": 2,\n  \"id\": \"aaaaaaaa-0000-4000-8000-000000000001\",\n  \"type\": \"2d\",\n"
        "  \"texture\": {\n    \"format\": \"png\"\n  }\n}");
  auto appended = sprite_meta_with_2d_type(R"({"version":2,"id":"aaaaaaaa-0000-4000-8000-000000000001"})", "t");
  REQUIRE(appended);
  CHECK(appended->find("\"type\": \"2d\"\n}") != std::string::npos);
  CHECK(sprite_meta_with_2d_type("{}", "t").error().code == "meta.id");
}

TEST_CASE("bones file: array or object with bones, defaults", "[autorig][bones]") {
  auto a = parse_bones_json(R"([{"name":"base","y":96},{"name":"mid","parent":0,"y":-96},{"name":"tip","parent":1,"y":-96,"rot":0.5}])", "b");
  REQUIRE(a);
  REQUIRE(a->size() == 3);
  CHECK((*a)[0].parent == -1);
  CHECK((*a)[0].x == 0);
  CHECK((*a)[0].y == 96);
  CHECK((*a)[2].parent == 1);
  CHECK((*a)[2].rot == 0.5);
  auto o = parse_bones_json(R"({"id":"x","bones":[{"name":"root","parent":-1,"x":1,"y":2,"rot":0,"noScale":true}]})", "b");
  REQUIRE(o);
  CHECK(o->size() == 1);
  CHECK((*o)[0].x == 1);
  // Any order of parents works as long as there is no cycle.
  auto rev = parse_bones_json(R"([{"name":"tip","parent":1},{"name":"root"}])", "b");
  REQUIRE(rev);
  CHECK((*rev)[0].parent == 1);
}

TEST_CASE("bones file: every defect has its code and location", "[autorig][bones]") {
  auto err = [](const std::string& text) { return parse_bones_json(text, "bones.json").error(); };
  CHECK(err("{\"bones\": 3}").code == "bones.root");
  CHECK(err("[]").code == "bones.empty");
  CHECK(err("[").code == "json.syntax");
  const auto dup = err("[\n {\"name\": \"a\"},\n {\"name\": \"a\", \"parent\": 0}\n]");
  CHECK(dup.code == "bones.name");
  CHECK(dup.where.json_pointer == "/1/name");
  CHECK(dup.where.line == 3);
  CHECK(dup.where.file == "bones.json");
  CHECK(err(R"([{"name":""}])").code == "bones.name");
  CHECK(err(R"([{"x":1}])").code == "bones.type");
  CHECK(err(R"([{"name":"a","x":"5"}])").where.json_pointer == "/0/x");
  CHECK(err(R"([{"name":"a","parent":0.5}])").code == "bones.type");
  const auto range = err(R"({"bones":[{"name":"a","parent":3}]})");
  CHECK(range.code == "bones.parent");
  CHECK(range.where.json_pointer == "/bones/0/parent");
  CHECK(err(R"([{"name":"a","parent":0}])").code == "bones.parent");  // its own parent
  const auto cycle = err(R"([{"name":"a","parent":1},{"name":"b","parent":0}])");
  CHECK(cycle.code == "bones.parent");
  CHECK(cycle.message.find("cycle") != std::string::npos);
  std::string many = "[";
  for (int i = 0; i < 1025; ++i) many += std::string(i ? "," : "") + "{\"name\":\"b" + std::to_string(i) + "\"}";
  CHECK(err(many + "]").code == "bones.too_many");
}

TEST_CASE("existing rig id: kept only when it is a GUID", "[autorig][meta]") {
  const fs::path dir = temp_dir("rigid");
  CHECK_FALSE(existing_rig_id((dir / "none.rig2d.json").string()));
  write(dir / "a.rig2d.json", R"({"id": "12345678-1234-5678-9abc-def012345678", "bones": []})");
  CHECK(existing_rig_id((dir / "a.rig2d.json").string()) == "12345678-1234-5678-9abc-def012345678");
  write(dir / "b.rig2d.json", R"({"id": "hero"})");
  CHECK_FALSE(existing_rig_id((dir / "b.rig2d.json").string()));
  write(dir / "c.rig2d.json", "{not json");
  CHECK_FALSE(existing_rig_id((dir / "c.rig2d.json").string()));
  fs::remove_all(dir);
}

TEST_CASE("existing rig id: the top-level id of a whole valid JSON text, as a DOM would give it", "[autorig][meta]") {
  const fs::path dir = temp_dir("rig_id_sax");
  const std::string a = "12345678-1234-5678-9abc-def012345678", b = "87654321-4321-8765-cba9-876543210fed";
  auto id_of = [&](const std::string& text) {
    write(dir / "r.rig2d.json", text);
    return existing_rig_id((dir / "r.rig2d.json").string());
  };
  CHECK(id_of(R"({"bones": [{"id": ")" + b + R"("}], "id": ")" + a + R"("})") == a);  // nested ids do not count
  CHECK(id_of(R"({"id": ")" + a + R"(", "id": ")" + b + R"("})") == b);            // the last one wins
  CHECK_FALSE(id_of(R"({"id": ")" + a + R"(", "id": 5})"));
  CHECK_FALSE(id_of(R"({"id": ")" + a + R"(", "id": {"x": ")" + b + R"("}})"));
  CHECK_FALSE(id_of(R"({"bones": {"id": ")" + a + R"("}})"));
  CHECK_FALSE(id_of(R"({"id": ")" + a + R"(", "mesh": [1, 2,]})"));  // broken after the id
  CHECK_FALSE(id_of(R"({"id": ")" + a + R"("} trailing)"));
  CHECK_FALSE(id_of(R"([{"id": ")" + a + R"("}])"));
  CHECK_FALSE(id_of(R"({"id": ")" + a + R"(", "n": 1e999})"));  // out of range for a double
  CHECK_FALSE(id_of(R"({"id": ")" + a + R"(", "s": )" + std::string("\"\0\"", 3) + "}"));  // a NUL byte
  const std::string deep = std::string(64, '[') + std::string(64, ']');  // 65 levels under the root
  CHECK(id_of(R"({"id": ")" + a + R"(", "d": )" + std::string(63, '[') + std::string(63, ']') + "}") == a);
  CHECK_FALSE(id_of(R"({"id": ")" + a + R"(", "d": )" + deep + "}"));
  fs::remove_all(dir);
}

namespace {

// What existing_rig_id answered before it learnt to skip the DOM: parse, then the root's "id".
std::optional<std::string> dom_rig_id(const std::string& text) {
  auto json = detail::parse_json(text, "r");
  if (!json || !json->is_object()) return std::nullopt;
  const auto id = json->find("id");
  if (id == json->end() || !id->is_string() || !is_guid(id->get_ref<const std::string&>())) return std::nullopt;
  return id->get<std::string>();
}

}  // namespace

TEST_CASE("existing rig id: the plain scan and the full parser agree with a DOM on odd and broken texts",
          "[autorig][meta]") {
  const fs::path dir = temp_dir("rig_id_fuzz");
  const std::string a = "12345678-1234-5678-9abc-def012345678";
  const std::string rig = "{\n  \"id\": \"" + a +
                          "\",\n  \"sprite\": \"\",\n  \"bones\": [\n    {\n      \"name\": \"root\",\n      "
                          "\"parent\": -1,\n      \"x\": 0.5,\n      \"y\": -12.25e-3,\n      \"rot\": 1E+2\n    }\n  ],\n"
                          "  \"mesh\": {\"verts\": [[0, 1.5], [2, 3]], \"flags\": [true, false, null]}\n}";
  std::vector<std::string> texts = {
      rig,
      "\xEF\xBB\xBF" + rig,                                                          // byte order mark
      "{\"id\": \"\\u0031" + a.substr(1) + "\"}",                                   // escaped id
      "{\"name\": \"caf\xC3\xA9\", \"id\": \"" + a + "\"}",                       // UTF-8 elsewhere
      "{\"id\": \"" + a + "\", \"n\": " + std::string(250, '7') + "}",              // a long integer
      "{\"id\": \"" + a + "\", \"n\": 1e308}",                                      // 3-digit exponent
      "{\"id\": \"" + a + "\", \"n\": 01}",
      "{\"id\": \"" + a + "\", \"n\": -}",
      "{\"id\": \"" + a + "\", \"n\": 1.}",
      "{\"id\": \"" + a + "\", \"n\": .5}",
      "{\"id\": \"" + a + "\", \"n\": tru}",
      "{\"id\": \"" + a + "\",}",
      "{\"id\": \"" + a + "\"}   \n",
      "  {\"id\": \"" + a + "\"}",
      "{}",
      "[]",
      "\"" + a + "\"",
      "",
  };
  std::uint64_t state = 0x243F6A8885A308D3ull;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::string bytes = "{}[]\",:-+.eE0123456789 \n\\tfnux\x80";
  for (int k = 0; k < 3000; ++k) {  // one to three random byte edits of the rig text
    std::string t = rig;
    for (int e = 0, edits = 1 + static_cast<int>(next() % 3); e < edits; ++e) {
      const std::size_t at = next() % t.size();
      const char b = bytes[next() % bytes.size()];
      switch (next() % 3) {
        case 0: t[at] = b; break;
        case 1: t.insert(t.begin() + static_cast<std::ptrdiff_t>(at), b); break;
        default: t.erase(at, 1); break;
      }
    }
    texts.push_back(std::move(t));
  }
  std::size_t disagreements = 0, found = 0;
  for (const std::string& text : texts) {
    write(dir / "r.rig2d.json", text);
    const auto got = existing_rig_id((dir / "r.rig2d.json").string());
    if (got != dom_rig_id(text)) {
      ++disagreements;
      UNSCOPED_INFO("text: " << text);
    }
    found += got.has_value();
  }
  CHECK(disagreements == 0);
  CHECK(found > 100);  // the edits leave many texts valid, so both answers are exercised
  CHECK(found < texts.size() - 100);
  fs::remove_all(dir);
}
