// SPDX-License-Identifier: Apache-2.0
// JSON.stringify(v, null, 2) layout and ECMAScript number text (ENGINE-SPEC §0), parse errors, pointers.
#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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

namespace {

// The allocation-heavy formatter js_number replaced, kept verbatim as the reference it must match.
std::string reference_js_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x == 0) return "0";
  std::string sign;
  if (x < 0) {
    sign = "-";
    x = -x;
  }
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
  const std::size_t epos = sci.find('e');
  std::string digits;
  for (const char ch : sci.substr(0, epos)) {
    if (ch != '.') digits += ch;
  }
  const int exp10 = std::atoi(std::string(sci.substr(epos + 1)).c_str());
  const int k = static_cast<int>(digits.size());
  const int n = exp10 + 1;
  std::string out;
  if (k <= n && n <= 21) {
    out = digits + std::string(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out = digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out = "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  } else {
    const int e = n - 1;
    out = digits.substr(0, 1);
    if (k > 1) out += "." + digits.substr(1);
    out += e >= 0 ? "e+" : "e-";
    out += std::to_string(e >= 0 ? e : -e);
  }
  return sign + out;
}

}  // namespace

TEST_CASE("json: js_number matches the reference formatter over many doubles", "[json]") {
  std::vector<double> values = {0.1, 0.5, 1e21, 1e-7, 1e-6, 123456789012345680000.0, 1e300, 5e-324,
                                 2.2250738585072014e-308, 1.7976931308625157e308, 96, 0.3333333333333333};
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t r = next();
    double bits_value;  // any bit pattern: all exponents, subnormals, NaN, infinities
    std::memcpy(&bits_value, &r, sizeof r);
    values.push_back(bits_value);
    values.push_back(static_cast<double>(static_cast<std::int64_t>(r >> 40) - (1 << 23)) / 1024.0);  // pixel-like
    values.push_back(static_cast<double>(static_cast<float>(static_cast<double>(r >> 11) / 9007199254740992.0)));  // weights
    values.push_back(std::ldexp(static_cast<double>(r >> 11), static_cast<int>(r % 160) - 120));  // around the 1e-7 / 1e21 switches
  }
  std::size_t mismatches = 0;
  for (const double v : values) {
    std::string appended = "x";
    append_js_number(appended, v);
    const std::string want = reference_js_number(v);
    if (js_number(v) != want || appended != "x" + want) ++mismatches;
  }
  CHECK(values.size() == 800012);
  CHECK(mismatches == 0);
}

TEST_CASE("json: js_number's exact-decimal path matches the reference near its limits", "[json]") {
  // Integers and m / 2^j whose exact decimals have 14-17 significant digits (the fast path takes up to
  // 15), either sign, every j up to 30, and the powers of ten around them.
  std::vector<double> values;
  std::uint64_t state = 0x2545F4914F6CDD1Dull;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int j = 0; j <= 30; ++j) {
    for (int i = 0; i < 4000; ++i) {
      const std::uint64_t r = next();
      const int bits = 1 + static_cast<int>(r % 53);
      const std::uint64_t m = (r >> 11) & ((std::uint64_t{1} << bits) - 1);
      const double v = std::ldexp(static_cast<double>(m | 1), -j);
      values.push_back(v);
      values.push_back(-v);
    }
  }
  for (double p = 1; p < 1e22; p *= 10) {
    for (const double d : {-2.0, -1.0, 0.0, 1.0, 2.0}) values.push_back(p + d);
    values.push_back(std::nextafter(p, 0.0));
    values.push_back(std::nextafter(p, 1e300));
  }
  for (const double v : {9007199254740991.0, 9007199254740992.0, 999999999999999.0, 999999999999999.5,
                         99999999999999.99, 0.000001, 0.0000005, 1.0 / 1024 / 1024, 123456789012345.6})
    values.push_back(v);
  std::size_t mismatches = 0;
  for (const double v : values) mismatches += js_number(v) != reference_js_number(v);
  CHECK(values.size() > 248000);
  CHECK(mismatches == 0);
}
