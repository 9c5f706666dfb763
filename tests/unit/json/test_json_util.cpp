// SPDX-License-Identifier: Apache-2.0
// JSON.stringify(v, null, 2) layout and ECMAScript number text (ENGINE-SPEC §0), parse errors, pointers.
#include <catch2/catch.hpp>
#include <cmath>

#include "json/json_util.h"

using namespace rig2d;
using namespace rig2d::detail;

TEST_CASE("json: ECMAScript Number::toString layout", "[json]") {
  CHECK(js_number(0) == "0");
  CHECK(js_number(-0.0) == "0");
  CHECK(js_number(1) == "1");
  CHECK(js_number(-96) == "-96");
  CHECK(js_number(15.999999999999996) == "15.999999999999996");
  CHECK(js_number(0.9999999843750004) == "0.9999999843750004");
  CHECK(js_number(1.5624999511718764e-8) == "1.5624999511718764e-8");
  CHECK(js_number(1.5e-7) == "1.5e-7");
  CHECK(js_number(0.000001) == "0.000001");
  CHECK(js_number(1e21) == "1e+21");
  CHECK(js_number(1e20) == "100000000000000000000");
  CHECK(js_number(123456789012345680000.0) == "123456789012345680000");
  CHECK(js_number(0.1) == "0.1");
  CHECK(js_number(0.4000000059604645) == "0.4000000059604645");
  CHECK(js_number(2.5e-5) == "0.000025");
  CHECK(js_number(-1.7763568394002505e-15) == "-1.7763568394002505e-15");
  CHECK(js_number(NAN) == "NaN");
}

TEST_CASE("json: stringify with a 2-space indent, arrays one element per line", "[json]") {
  Json v = Json::parse(R"({"id":"g","bones":[{"name":"root","parent":-1,"x":0}],"mesh":{"verts":[[1,2.5]],"tris":[]},"o":{}})");
  CHECK(to_js_json(v) ==
        "{\n"
        "  \"id\": \"g\",\n"
        "  \"bones\": [\n"
        "    {\n"
        "      \"name\": \"root\",\n"
        "      \"parent\": -1,\n"
        "      \"x\": 0\n"
        "    }\n"
        "  ],\n"
        "  \"mesh\": {\n"
        "    \"verts\": [\n"
        "      [\n"
        "        1,\n"
        "        2.5\n"
        "      ]\n"
        "    ],\n"
        "    \"tris\": []\n"
        "  },\n"
        "  \"o\": {}\n"
        "}");
  CHECK(to_js_json(Json("a\"b\\c\n\x01/é")) == "\"a\\\"b\\\\c\\n\\u0001/é\"");
  CHECK(to_js_json(Json(std::nan(""))) == "null");
}

TEST_CASE("json: parse errors carry line and column", "[json]") {
  auto r = parse_json("{\n  \"a\": 1,\n  \"b\": ]\n}", "x.json");
  REQUIRE_FALSE(r);
  CHECK(r.error().code == "json.syntax");
  CHECK(r.error().where.file == "x.json");
  CHECK(r.error().where.line == 3);
  CHECK(r.error().where.column == 8);

  auto truncated = parse_json("{\"a\": [1, 2", "t.json");
  REQUIRE_FALSE(truncated);
  CHECK(truncated.error().code == "json.syntax");

  std::string deep(100, '[');
  auto too_deep = parse_json(deep, "d.json");
  REQUIRE_FALSE(too_deep);
  CHECK(too_deep.error().code == "json.too_deep");
  CHECK(too_deep.error().where.column == 65);
}

TEST_CASE("json: duplicate keys resolve last-wins at the first position", "[json]") {
  auto r = parse_json(R"({"a":1,"b":2,"a":3})", "");
  REQUIRE(r);
  CHECK(to_js_json(*r) == "{\n  \"a\": 3,\n  \"b\": 2\n}");
}

TEST_CASE("json: locate_pointer finds the value's line and column", "[json]") {
  const std::string text = "{\n  \"bones\": [\n    {\"name\": \"a\"},\n    {\"name\": \"b\", \"parent\": 7}\n  ],\n  \"a/b\": 1\n}";
  CHECK(locate_pointer(text, "") == std::pair<int, int>{1, 1});
  CHECK(locate_pointer(text, "/bones") == std::pair<int, int>{2, 12});
  CHECK(locate_pointer(text, "/bones/1/parent") == std::pair<int, int>{4, 29});
  CHECK(locate_pointer(text, "/bones/0/name") == std::pair<int, int>{3, 14});
  CHECK(locate_pointer(text, "/a~1b") == std::pair<int, int>{6, 10});
  CHECK(locate_pointer(text, "/bones/5") == std::pair<int, int>{0, 0});
  CHECK(locate_pointer(text, "/nope") == std::pair<int, int>{0, 0});
  CHECK(pointer_token("a/b~c") == "a~1b~0c");
}
