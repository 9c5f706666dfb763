// SPDX-License-Identifier: Apache-2.0
// parse_sprite_meta reads the common flat sidecar in one pass, and anything else through the JSON
// parser: both must give the same meta (or the same error) for every text.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "rig2d/asset/sprite_meta.h"

using namespace rig2d;

namespace {

// The same object with one more member whose value is an array, which only the JSON parser reads: the
// reference for `text`, whose first character is the object's '{' and which holds a member.
std::string sprite_meta_through_parser(const std::string& text) {
  const std::size_t brace = text.find('{');
  return text.substr(0, brace + 1) + "\"zz_array\": [0], " + text.substr(brace + 1);
}

}  // namespace

TEST_CASE("sprite_meta: the common sidecar's fields", "[asset]") {
  const std::string path = "a.png.meta.json";
  auto meta = parse_sprite_meta("{\n  \"version\": 2,\n  \"id\": \"8ed3cfec-2412-5ad7-9745-f2821eea322d\",\n  \"type\": \"2d\"\n}",
                                path);
  REQUIRE(meta);
  CHECK(meta->texture_guid == "8ed3cfec-2412-5ad7-9745-f2821eea322d");
  CHECK(meta->type == TextureType::TwoD);
  CHECK(meta->type_explicit);
  CHECK_FALSE(meta->has_slices);
  meta = parse_sprite_meta("{\"id\": \"8ED3CFEC-2412-5AD7-9745-F2821EEA322D\"}", path);
  REQUIRE(meta);
  CHECK(meta->texture_guid == "8ED3CFEC-2412-5AD7-9745-F2821EEA322D");  // as written
  CHECK(meta->type == TextureType::ThreeD);
  CHECK_FALSE(meta->type_explicit);
  CHECK(parse_sprite_meta("{\"id\": \"8ed3cfec-2412-5ad7-9745-f2821eea322d\", \"type\": \"ui\"}", path)->type ==
        TextureType::Ui);
  CHECK(parse_sprite_meta("{}", path).error().code == "meta.id");
  CHECK(parse_sprite_meta(" ", path).error().code == "json.syntax");
}

TEST_CASE("sprite_meta: every sidecar reads as the JSON parser reads it", "[asset]") {
  const std::string id = "\"id\": \"8ed3cfec-2412-5ad7-9745-f2821eea322d\"";
  const std::vector<std::string> texts = {
      "{" + id + "}",
      "{\"version\": 2, " + id + ", \"type\": \"2d\"}",
      " \t\r\n{ \"type\" : \"3d\" ,\n" + id + " } \n",
      "{" + id + ", \"type\": \"ui\", \"name\": \"a b-c_d.png\", \"n\": -12, \"z\": 0, \"t\": true, \"f\": false, \"u\": null}",
      "{" + id + ", \"type\": \"2D\"}",                       // meta.type
      "{" + id + ", \"type\": \"\"}",                         // meta.type
      "{" + id + ", \"type\": 2}",                            // meta.type
      "{" + id + ", \"type\": null}",                         // meta.type
      "{\"id\": \"8ed3cfec-2412-5ad7-9745-f2821eea322\"}",    // meta.id: one digit short
      "{\"id\": \"8ed3cfec_2412-5ad7-9745-f2821eea322d\"}",   // meta.id
      "{\"id\": 5}",                                          // meta.id
      "{\"version\": 2}",                                     // meta.id: none
      "{" + id + ", \"id\": \"00000000-0000-4000-8000-000000000001\"}",  // duplicate: the last wins
      "{" + id + ", \"type\": \"2d\", \"type\": \"ui\"}",
      "{" + id + ", \"v\": 1.5}",
      "{" + id + ", \"v\": 1e3}",
      "{" + id + ", \"v\": 01}",                              // json.syntax
      "{" + id + ", \"v\": -}",                               // json.syntax
      "{" + id + ", \"v\": 12345678901234567890123}",
      "{" + id + ", \"v\": 1e400}",                           // json.range
      "{" + id + ", \"v\": \"tab\\there\"}",
      "{" + id + ", \"v\": \"\\u00e9\"}",
      "{" + id + ", \"v\": \"\xc3\xa9\"}",
      "{" + id + ", \"v\": \"\xff\"}",                        // not UTF-8
      std::string("{") + id + ", \"v\": \"a\tb\"}",           // a raw tab inside a string
      "{" + id + ", \"v\": \"a\x7f" "b\"}",
      "{" + id + ", \"v\": tru}",                             // json.syntax
      "{" + id + ", \"v\": {\"w\": 1}}",
      "{" + id + ", \"v\": []}",
      "{" + id + ", \"sprites\": []}",
      "{" + id + ", \"sprites\": [{\"guid\": \"00000000-0000-4000-8000-000000000001\"}]}",
      "{" + id + ", \"sprites\": \"x\"}",
      "{" + id + ", \"texture\": {\"format\": \"png\"}}",
      "{" + id + ", \"texture\": {\"format\": \"jpg\"}}",
      "{" + id + ", \"texture\": \"png\"}",
      "{" + id + ",}",                                        // json.syntax: a trailing comma
      "{" + id + " \"type\": \"2d\"}",                        // json.syntax: no comma
      "{" + id + "} x",                                       // json.syntax: text after the object
      "{" + id + "}}",
      "{" + id,                                               // json.syntax: unclosed
      "{" + id + ", \"v\": \"unclosed}",
      "{\"i\\u0064\": \"8ed3cfec-2412-5ad7-9745-f2821eea322d\"}",  // the key "id", escaped
      "{" + id + ", \"v\": " + std::string("\"a\0b\"}", 6),   // a NUL byte
      "\xEF\xBB\xBF{" + id + "}",                             // a byte order mark
      "{" + id + ", \"k1\": 1, \"k2\": 2, \"k3\": 3, \"k4\": 4, \"k5\": 5, \"k6\": 6, \"k7\": 7, \"k8\": 8, \"k9\": 9, "
                 "\"k10\": 10, \"k11\": 11, \"k12\": 12, \"k13\": 13, \"k14\": 14, \"k15\": 15, \"k16\": 16}",
  };
  for (const std::string& text : texts) {
    INFO(text);
    const auto got = parse_sprite_meta(text, "a.meta.json");
    const auto want = parse_sprite_meta(sprite_meta_through_parser(text), "a.meta.json");
    REQUIRE(bool(got) == bool(want));
    if (!got) {
      CHECK(got.error().code == want.error().code);
      continue;
    }
    CHECK(got->texture_guid == want->texture_guid);
    CHECK(got->type == want->type);
    CHECK(got->type_explicit == want->type_explicit);
    CHECK(got->has_slices == want->has_slices);
  }
}
