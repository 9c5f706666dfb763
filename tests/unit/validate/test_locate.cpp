// SPDX-License-Identifier: Apache-2.0
// The one-scan pointer locator agrees with json_util's locate_pointer on every value of a document.
#include <catch2/catch.hpp>

#include <functional>

#include "json/json_util.h"
#include "validate/checks.h"

using namespace rig2d::detail;

TEST_CASE("validate: batch pointer location matches locate_pointer", "[validate]") {
  const std::string text =
      "{\n  \"id\": \"x\",\n  \"a/b\": {\"~k\": [1, {\"q\": \"s\\\"t\"}, [ ]]},\n  \"dup\": 1,\n  \"arr\": [\n"
      "    [0, 1], [2, 3]\n  ],\n  \"dup\": {\"z\": true}\n}";
  const Json doc = Json::parse(text);
  std::vector<std::string> pointers;
  std::function<void(const Json&, const std::string&)> walk = [&](const Json& v, const std::string& ptr) {
    pointers.push_back(ptr);
    if (v.is_object()) {
      for (auto it = v.begin(); it != v.end(); ++it) walk(it.value(), ptr + "/" + pointer_token(it.key()));
    } else if (v.is_array()) {
      for (std::size_t i = 0; i < v.size(); ++i) walk(v[i], ptr + "/" + std::to_string(i));
    }
  };
  walk(doc, "");
  pointers.push_back("/missing");
  pointers.push_back("/arr/9");
  REQUIRE(pointers.size() > 15);
  const auto batch = locate_pointers(text, pointers);
  for (std::size_t i = 0; i < pointers.size(); ++i) {
    INFO(pointers[i]);
    CHECK(batch[i] == locate_pointer(text, pointers[i]));
  }
  CHECK(batch[batch.size() - 1] == std::pair<int, int>{0, 0});
  CHECK(locate_pointers(text, {"/dup/z"})[0] == std::pair<int, int>{8, 16});  // the last duplicate wins
}
