// SPDX-License-Identifier: Apache-2.0
// Pointer location: every value of a document is found where its text starts, in one pass for many
// pointers, with JSON.parse's duplicate-key rule; what names nothing is {0, 0}.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "json/json_util.h"

using namespace rig2d::detail;

namespace {

void collect(const Json& v, const std::string& at, std::vector<std::string>& out) {
  out.push_back(at);
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) collect(it.value(), at + "/" + pointer_token(it.key()), out);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) collect(v[i], at + "/" + std::to_string(i), out);
  }
}

// The value that starts at 1-based line:col, parsed from there (trailing text ignored).
Json value_at(const std::string& text, std::pair<int, int> at) {
  std::size_t offset = 0;
  for (int line = 1; line < at.first; ++line) offset = text.find('\n', offset) + 1;
  offset += static_cast<std::size_t>(at.second - 1);
  Json out;
  nlohmann::detail::json_sax_dom_parser<Json> sax(out);
  Json::sax_parse(text.begin() + static_cast<std::ptrdiff_t>(offset), text.end(), &sax,
                  nlohmann::detail::input_format_t::json, false);
  return out;
}

// Each pointer of the parsed document is located at the text of the very value it names, and the
// one-pointer form agrees with the batch.
void check_every_value(const std::string& text) {
  const Json doc = Json::parse(text);
  std::vector<std::string> pointers;
  collect(doc, "", pointers);
  const auto got = locate_pointers(text, pointers);
  REQUIRE(got.size() == pointers.size());
  for (std::size_t k = 0; k < pointers.size(); ++k) {
    INFO(pointers[k]);
    REQUIRE(got[k].first > 0);
    CHECK(value_at(text, got[k]) == doc.at(Json::json_pointer(pointers[k])));
    CHECK(locate_pointer(text, pointers[k]) == got[k]);
  }
}

}  // namespace

TEST_CASE("locate: every value of a document, escapes and duplicates included", "[json]") {
  const std::string text = "{\n  \"a\": [1, {\"b/c\": \"x\\\"]\", \"~k\": [[], {}]}],\n  \"d\":\t{\"e\": null},\n"
                           "  \"\\u00e9\\ud83d\\ude00\": 7, \"10\": {\"0\": [true, false]}, \"a\": [5]\n}";
  check_every_value(text);
  const std::vector<std::string> pointers{"/a/0", "/\xC3\xA9\xF0\x9F\x98\x80", "/missing", "/a/9", "/d/e/f"};
  const auto got = locate_pointers(text, pointers);
  CHECK(got[0] == std::pair<int, int>{4, 62});  // duplicate "a": the last one wins, as in JSON.parse
  CHECK(got[1] == std::pair<int, int>{4, 25});  // UTF-8 in the pointer, \u escapes (a surrogate pair) in the text
  CHECK(got[2] == std::pair<int, int>{0, 0});
  CHECK(got[3] == std::pair<int, int>{0, 0});
  CHECK(got[4] == std::pair<int, int>{0, 0});

  const std::string other =
      "{\n  \"id\": \"x\",\n  \"a/b\": {\"~k\": [1, {\"q\": \"s\\\"t\"}, [ ]]},\n  \"dup\": 1,\n  \"arr\": [\n"
      "    [0, 1], [2, 3]\n  ],\n  \"dup\": {\"z\": true}\n}";
  check_every_value(other);
  CHECK(locate_pointers(other, std::vector<std::string>{"/dup/z"})[0] == std::pair<int, int>{8, 16});
  CHECK(locate_pointers(other, std::vector<std::string>{"/arr/9"})[0] == std::pair<int, int>{0, 0});

  check_every_value("{\"k\\r\": 1, \"\\b\\f\\/\": [2], \"\\\\\": {\"\": 3}}");  // escaped keys
}

TEST_CASE("locate: a UTF-8 byte order mark is skipped like the parser does", "[json]") {
  const std::string body = "{\"a\": [1, {\"b\": 2}],\n \"c\": null}";
  const std::string bom = "\xEF\xBB\xBF" + body;
  REQUIRE(parse_json(bom, "bom.json"));
  const std::vector<std::string> pointers{"", "/a/1/b", "/c"};
  CHECK(locate_pointers(bom, pointers) == locate_pointers(body, pointers));
  CHECK(locate_pointer(bom, "/a/1/b") == std::pair<int, int>{1, 17});
  CHECK(locate_pointer(bom, "/c") == std::pair<int, int>{2, 7});
}

TEST_CASE("locate: what lies only in an overridden duplicate names nothing", "[json]") {
  const std::string text = R"({"a": {"x": 1, "b": {"c": 1}}, "k": [1, 2, 3], "a": {"y": 2, "b": 5}, "k": [4]})";
  const auto got = locate_pointers(text, std::vector<std::string>{"/a/x", "/a/b/c", "/k/2", "/a/y", "/k/0"});
  CHECK(got[0] == std::pair<int, int>{0, 0});
  CHECK(got[1] == std::pair<int, int>{0, 0});
  CHECK(got[2] == std::pair<int, int>{0, 0});
  CHECK(got[3] == std::pair<int, int>{1, 59});
  CHECK(got[4] == std::pair<int, int>{1, 77});
}

TEST_CASE("locate: pointer syntax, end of text, text that is not JSON", "[json]") {
  const std::string text = R"({"~x": 1, "a~b": 2, "list": [7, 8]})";
  CHECK(locate_pointer(text, "/~x") == std::pair<int, int>{1, 8});  // a '~' that is no escape is kept
  CHECK(locate_pointer(text, "/a~b") == std::pair<int, int>{1, 18});
  CHECK(locate_pointer(text, "/list/1") == std::pair<int, int>{1, 33});
  CHECK(locate_pointer(text, "/list/01") == std::pair<int, int>{0, 0});  // RFC 6901: no leading zeros
  CHECK(locate_pointer(text, "/list/-") == std::pair<int, int>{0, 0});
  CHECK(locate_pointer(text, "/list/0/x") == std::pair<int, int>{0, 0});
  CHECK(locate_pointers(text, std::vector<std::string>{}).empty());
  CHECK(locate_pointer("", "") == std::pair<int, int>{0, 0});  // no value at the end of the text
  CHECK(locate_pointer("{\"a\": ", "/a") == std::pair<int, int>{0, 0});
  // Not JSON: still ends, wherever the scan gets.
  CHECK(locate_pointer("[}", "/1") == std::pair<int, int>{0, 0});
  CHECK(locate_pointer("[[}]", "/0/1") == std::pair<int, int>{0, 0});
  CHECK(locate_pointer("{\"a\":1 ]", "/b") == std::pair<int, int>{0, 0});
}

TEST_CASE("json_type_name: a value's type as messages name it", "[json]") {
  CHECK(std::string(json_type_name(Json())) == "null");
  CHECK(std::string(json_type_name(Json(true))) == "a boolean");
  CHECK(std::string(json_type_name(Json(1))) == "a number");
  CHECK(std::string(json_type_name(Json(1u))) == "a number");
  CHECK(std::string(json_type_name(Json(1.5))) == "a number");
  CHECK(std::string(json_type_name(Json("s"))) == "a string");
  CHECK(std::string(json_type_name(Json::array())) == "an array");
  CHECK(std::string(json_type_name(Json::object())) == "an object");
  CHECK(std::string(json_type_name(Json::binary({1}))) == "an unsupported value");
}
