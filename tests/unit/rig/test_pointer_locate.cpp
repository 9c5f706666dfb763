// SPDX-License-Identifier: Apache-2.0
// The one-pass pointer locator agrees with detail::locate_pointer on every value of a document.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "json/json_util.h"
#include "rig/pointer_locate.h"

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
}  // namespace

TEST_CASE("locate_pointers: same answers as locate_pointer, in one pass", "[rig]") {
  const std::string text = "{\n  \"a\": [1, {\"b/c\": \"x\\\"]\", \"~k\": [[], {}]}],\n  \"d\":\t{\"e\": null},\n"
                           "  \"\\u00e9\\ud83d\\ude00\": 7, \"10\": {\"0\": [true, false]}, \"a\": [5]\n}";
  const Json doc = Json::parse(text);
  std::vector<std::string> pointers;
  collect(doc, "", pointers);
  pointers.push_back("/missing");
  pointers.push_back("/a/9");
  pointers.push_back("/d/e/f");
  const auto got = locate_pointers(text, pointers);
  REQUIRE(got.size() == pointers.size());
  const std::string emoji_key = "/\xC3\xA9\xF0\x9F\x98\x80";
  for (std::size_t k = 0; k < pointers.size(); ++k) {
    INFO(pointers[k]);
    if (pointers[k] == emoji_key) continue;  // locate_pointer does not decode surrogate pairs
    CHECK(got[k] == locate_pointer(text, pointers[k]));
  }
  CHECK(got[pointers.size() - 3] == std::pair<int, int>{0, 0});
  // Duplicate key "a": the last one wins, as in JSON.parse.
  CHECK(locate_pointers(text, std::vector<std::string>{"/a/0"})[0] == std::pair<int, int>{4, 62});
  // A non-ASCII key (UTF-8 in the pointer, escaped in the text) is found.
  CHECK(locate_pointers(text, std::vector<std::string>{emoji_key})[0] == std::pair<int, int>{4, 25});
}
