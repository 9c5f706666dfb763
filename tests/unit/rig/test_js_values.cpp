// SPDX-License-Identifier: Apache-2.0
// JS coercions the loader relies on (ENGINE-SPEC §0, §1.2, §6 #20): ToNumber, ToInt32, truthiness.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "rig/js_values.h"

using namespace rig2d::detail;

TEST_CASE("js: StringToNumber accepts exactly the ECMAScript numeric literals", "[rig][js]") {
  constexpr double inf = std::numeric_limits<double>::infinity();
  CHECK(js_string_to_number("5") == 5);
  CHECK(js_string_to_number("  -2.5e3\t") == -2500);
  CHECK(js_string_to_number("") == 0);
  CHECK(js_string_to_number(" \n ") == 0);
  CHECK(js_string_to_number(".5") == 0.5);
  CHECK(js_string_to_number("5.") == 5);
  CHECK(js_string_to_number("+7") == 7);
  CHECK(js_string_to_number("0x1F") == 31);
  CHECK(js_string_to_number("0o17") == 15);
  CHECK(js_string_to_number("0b101") == 5);
  CHECK(js_string_to_number("Infinity") == inf);
  CHECK(js_string_to_number("-Infinity") == -inf);
  CHECK(js_string_to_number("1e999") == inf);
  CHECK(js_string_to_number("-1e999") == -inf);
  CHECK(js_string_to_number("1e-999") == 0);
  CHECK(js_string_to_number("0.1") == 0.1);
  CHECK(js_string_to_number("\xC2\xA0" "3\xE3\x80\x80") == 3);  // NBSP and ideographic space trim
  // 2^64 + 1 in hex rounds to nearest even like V8: 18446744073709551616.
  CHECK(js_string_to_number("0x10000000000000001") == 18446744073709551616.0);
  // 2^64 + 2^11 + 1: above the halfway point only through its 65th bit, so it rounds up to 2^64 + 4096.
  CHECK(js_string_to_number("0x10000000000000801") == 18446744073709555712.0);
  CHECK(js_string_to_number("0x10000000000000800") == 18446744073709551616.0);  // an exact tie: even
  for (const char* nan : {"abc", "1_000", "0x", "-0x10", "infinity", "1e", "e5", ".", "1.2.3", "5px", "--1",
                          "0b102", "true"}) {
    INFO(nan);
    CHECK(std::isnan(js_string_to_number(nan)));
  }
}

TEST_CASE("js: ToNumber over JSON values", "[rig][js]") {
  CHECK(js_to_number(Json(nullptr)) == 0);
  CHECK(js_to_number(Json(true)) == 1);
  CHECK(js_to_number(Json(false)) == 0);
  CHECK(js_to_number(Json("12")) == 12);
  CHECK(js_to_number(Json::array()) == 0);
  CHECK(js_to_number(Json::array({4.5})) == 4.5);
  CHECK(js_to_number(Json::array({"8"})) == 8);
  CHECK(js_to_number(Json::array({nullptr})) == 0);
  CHECK(js_to_number(Json::array({Json::array({3})})) == 3);
  CHECK(std::isnan(js_to_number(Json::array({1, 2}))));
  CHECK(std::isnan(js_to_number(Json::array({true}))));
  CHECK(std::isnan(js_to_number(Json::object())));
  CHECK(js_number_or_zero(nullptr) == 0);
  const Json text = Json("abc");
  CHECK(js_number_or_zero(&text) == 0);
}

TEST_CASE("js: ToInt32, isInteger, isFinite and truthiness", "[rig][js]") {
  CHECK(js_to_int32(-1) == -1);
  CHECK(static_cast<std::uint32_t>(js_to_int32(-1)) == 4294967295u);
  CHECK(js_to_int32(1.7) == 1);
  CHECK(js_to_int32(-1.7) == -1);
  CHECK(js_to_int32(4294967298.0) == 2);
  CHECK(js_to_int32(2147483648.0) == -2147483647 - 1);
  CHECK(js_to_int32(std::numeric_limits<double>::infinity()) == 0);
  CHECK(js_is_integer(Json(5.0)));
  CHECK(js_is_integer(Json(-3)));
  CHECK_FALSE(js_is_integer(Json(1.5)));
  CHECK_FALSE(js_is_integer(Json("1")));
  CHECK_FALSE(js_is_finite_number(Json("1")));
  CHECK_FALSE(js_is_finite_number(Json(std::numeric_limits<double>::infinity())));
  CHECK(js_truthy(Json("false")));
  CHECK(js_truthy(Json::array()));
  CHECK(js_truthy(Json::object()));
  CHECK(js_truthy(Json(0.5)));
  CHECK_FALSE(js_truthy(Json("")));
  CHECK_FALSE(js_truthy(Json(0)));
  CHECK_FALSE(js_truthy(Json(nullptr)));
  CHECK_FALSE(js_truthy(Json(false)));
}
