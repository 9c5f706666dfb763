// SPDX-License-Identifier: Apache-2.0
// ECMAScript value semantics over parsed JSON, as the engine's loader applies them (ENGINE-SPEC §0, §1.2).
// Private to the library; exported only for the unit tests.
#pragma once

#include <cstdint>
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

}  // namespace rig2d::detail
