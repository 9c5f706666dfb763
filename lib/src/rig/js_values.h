// SPDX-License-Identifier: Apache-2.0
// ECMAScript value semantics over parsed JSON, as the engine's loader applies them (ENGINE-SPEC §0, §1.2).
// Private to the library; exported only for the unit tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "json/json_util.h"

namespace rig2d::detail {

// JS ToNumber(value): null -> 0, booleans -> 1/0, strings by StringToNumber (trimmed; "", "  " -> 0;
// "0x1f", "Infinity", ".5", "1e3"; anything else NaN), arrays through their join(",") text, objects NaN.
double js_to_number(const Json& value);
// StringToNumber for UTF-8 text; NaN when the text is not a numeric literal.
double js_string_to_number(std::string_view text);
// `+(value ?? 0) || 0`: ToNumber with NaN (and -0) mapped to 0; a missing value is `nullptr`.
double js_number_or_zero(const Json* value);
// Number.isFinite / Number.isInteger: only JSON numbers qualify (strings never coerce).
bool js_is_finite_number(const Json& value);
bool js_is_integer(const Json& value);
// The double a JSON number holds (integers converted as JS would read them).
double js_number_value(const Json& value);
// ToInt32 (truncate, wrap modulo 2^32); NaN and infinities give 0.
std::int32_t js_to_int32(double x);
// JS truthiness of a JSON value (false, 0, "", null are falsy; every object and array is truthy).
bool js_truthy(const Json& value);

// The same semantics for any value type with nlohmann's reading interface (the rig readers also run on
// RigDoc's values, rig/rig_doc.h); the functions above are these for Json.
template <class J>
double js_number_value_of(const J& value) {
  switch (value.type()) {
    case Json::value_t::number_integer:
      return static_cast<double>(value.template get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return static_cast<double>(value.template get<std::uint64_t>());
    case Json::value_t::number_float:
      return value.template get<double>();
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

template <class J>
double js_to_number_of(const J& value) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  switch (value.type()) {
    case Json::value_t::null:
      return 0;
    case Json::value_t::boolean:
      return value.template get<bool>() ? 1 : 0;
    case Json::value_t::string:
      return js_string_to_number(value.template get_ref<const std::string&>());
    case Json::value_t::array: {
      // ToPrimitive(array) is array.join(","): two or more elements always leave a comma (NaN).
      if (value.empty()) return 0;
      if (value.size() > 1) return kNaN;
      const J& only = value[0];
      if (only.is_null()) return 0;        // join writes null as ""
      if (only.is_boolean()) return kNaN;  // "true" / "false"
      if (only.is_object()) return kNaN;   // "[object Object]"
      return js_to_number_of(only);
    }
    case Json::value_t::object:
      return kNaN;
    default:
      if (value.is_number()) return js_number_value_of(value);
      return kNaN;
  }
}

template <class J>
double js_number_or_zero_of(const J* value) {
  if (value == nullptr) return 0;
  const double x = js_to_number_of(*value);
  return (std::isnan(x) || x == 0) ? 0.0 : x;
}

template <class J>
bool js_is_finite_number_of(const J& value) {
  return value.is_number() && std::isfinite(js_number_value_of(value));
}

template <class J>
bool js_is_integer_of(const J& value) {
  if (!value.is_number()) return false;
  const double x = js_number_value_of(value);
  return std::isfinite(x) && std::trunc(x) == x;
}

template <class J>
bool js_truthy_of(const J& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return false;
    case Json::value_t::boolean:
      return value.template get<bool>();
    case Json::value_t::string:
      return !value.template get_ref<const std::string&>().empty();
    case Json::value_t::array:
    case Json::value_t::object:
      return true;
    default: {
      if (!value.is_number()) return false;
      const double x = js_number_value_of(value);
      return !(std::isnan(x) || x == 0);
    }
  }
}

}  // namespace rig2d::detail
