// SPDX-License-Identifier: Apache-2.0
// The parser on hostile input: objects of many keys in linear time (duplicates still resolved as
// JSON.parse does), NUL bytes refused instead of silently ending the text, numbers beyond a double
// reported with their line and column, and big integers written back exactly when asked.
#include <catch2/catch.hpp>

#include <algorithm>
#include <ctime>
#include <string>

#include "json/json_util.h"

using namespace rig2d;
using namespace rig2d::detail;

namespace {

// CPU seconds of this thread for one parse: unlike wall time, not inflated by other processes.
double parse_cpu_seconds(const std::string& text) {
  timespec a{}, b{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
  auto parsed = parse_json(text, "big.json");
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
  REQUIRE(parsed);
  return double(b.tv_sec - a.tv_sec) + 1e-9 * double(b.tv_nsec - a.tv_nsec);
}

}  // namespace

TEST_CASE("json: a 200k-key object parses within a small factor of a 200k-element array", "[json][slow]") {
  // Same bytes per item: "k0000123":1 versus "k0000123",1 ... so only the container kind differs.
  constexpr int kItems = 200000;
  std::string object = "{", array = "[";
  char key[16];
  for (int i = 0; i < kItems; ++i) {
    std::snprintf(key, sizeof key, "\"k%07d\"", i);
    object += std::string(i ? "," : "") + key + ":1";
    array += std::string(i ? "," : "") + key + ",1";
  }
  object += "}";
  array += "]";
  REQUIRE(object.size() == array.size());
  const auto parsed = parse_json(object, "big.json");
  REQUIRE(parsed);
  REQUIRE(parsed->size() == kItems);
  CHECK(parsed->begin().key() == "k0000000");
  CHECK((--parsed->end()).key() == "k0199999");
  // A ratio of two runs on one machine, not a time: an O(n^2) object insert makes it thousands.
  // The fastest of five interleaved runs each, the least noisy estimate.
  double object_s = 1e30, array_s = 1e30;
  for (int run = 0; run < 5; ++run) {
    object_s = std::min(object_s, parse_cpu_seconds(object));
    array_s = std::min(array_s, parse_cpu_seconds(array));
  }
  const double ratio = object_s / array_s;
  INFO("object/array parse time ratio " << ratio);
  CHECK(ratio < 10);  // about 3 here; 61 at 20k keys and 167 at 40k with a quadratic insert
}

TEST_CASE("json: duplicate keys keep the first position and the last value, in small and large objects",
          "[json]") {
  for (const int keys : {3, 40}) {
    INFO(keys << " keys");
    std::string text = "{";
    for (int i = 0; i < keys; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    text += "\"k1\":\"again\",\"k1\":\"last\",\"k0\":{\"a\":1,\"a\":2}}";
    auto parsed = parse_json(text, "dup.json");
    REQUIRE(parsed);
    REQUIRE(parsed->size() == static_cast<std::size_t>(keys));
    auto it = parsed->begin();
    CHECK(it.key() == "k0");
    CHECK(it.value() == Json{{"a", 2}});
    ++it;
    CHECK(it.key() == "k1");
    CHECK(it.value() == "last");
    CHECK((*parsed)["k2"] == 2);
  }
}

TEST_CASE("json: a NUL byte is an error at its place, not the end of the text", "[json]") {
  const std::string text("{\"a\": 1}\n\0{\"junk\": 2}", 22);
  auto parsed = parse_json(text, "nul.json");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().code == "json.syntax");
  CHECK(parsed.error().message.find("NUL byte") != std::string::npos);
  CHECK(parsed.error().where.line == 2);
  CHECK(parsed.error().where.column == 1);
}

TEST_CASE("json: a number beyond a double is json.range with its line and column", "[json]") {
  auto parsed = parse_json("{\n  \"x\": 1e999\n}", "big.json");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().code == "json.range");
  CHECK(parsed.error().message.find("1e999") != std::string::npos);
  CHECK(parsed.error().message.find("json.exception") == std::string::npos);
  CHECK(parsed.error().where.line == 2);
  CHECK(parsed.error().where.column == 8);
}

TEST_CASE("json: big integers print exactly when asked, and as JS would otherwise", "[json]") {
  auto parsed = parse_json(R"({"u": 12345678901234567890, "i": -9223372036854775807, "f": 1e20})", "n.json");
  REQUIRE(parsed);
  const std::string exact = to_js_json(*parsed, true);
  CHECK(exact.find("\"u\": 12345678901234567890,") != std::string::npos);
  CHECK(exact.find("\"i\": -9223372036854775807,") != std::string::npos);
  CHECK(exact.find("\"f\": 100000000000000000000") != std::string::npos);
  const std::string js = to_js_json(*parsed);
  CHECK(js.find("\"u\": 12345678901234567000,") != std::string::npos);
}
