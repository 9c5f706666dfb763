// SPDX-License-Identifier: Apache-2.0
// Private JSON helpers shared by every reader and writer in the library (never in a public header).
// Exported only so the unit tests can reach them; the header is not installed.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d::detail {

using Json = nlohmann::ordered_json;  // keys keep file order, as JSON.parse does

// Parses JSON text. Duplicate keys: last value wins at the first key's position (JSON.parse).
// Errors: json.too_deep (nesting over kMaxJsonDepth, checked before parsing), json.syntax (with line
// and column), json.too_large (over max_bytes).
RIG2D_EXPORT Result<Json> parse_json(std::string_view text, const std::string& path);

// JSON.stringify(value, null, 2) byte for byte: 2-space indent, one array element per line, "{}"/"[]"
// for empty containers, ECMAScript number text, no trailing newline. NaN and infinities become null.
RIG2D_EXPORT std::string to_js_json(const Json& value);

// ECMAScript Number::toString(x): shortest round-trip digits in JS layout (1e+21, 1.5e-7, 0.000001).
RIG2D_EXPORT std::string js_number(double x);

// For each JSON pointer (RFC 6901), the 1-based line and column (in bytes) of the value it names in
// `text`, or {0, 0} when it names nothing. One pass over the text for all of them, so a file with
// thousands of findings is not rescanned per finding. `text` should be JSON that parse_json accepted;
// duplicate keys resolve as there (the last one wins, also for what lies below it). A leading UTF-8 byte
// order mark is skipped, as the parser does, and not counted as a column.
RIG2D_EXPORT std::vector<std::pair<int, int>> locate_pointers(std::string_view text,
                                                              std::span<const std::string> pointers);

// locate_pointers for one pointer.
RIG2D_EXPORT std::pair<int, int> locate_pointer(std::string_view text, std::string_view pointer);

// "null", "a boolean", "a number", "a string", "an array", "an object": a value's type for messages
// ("must be an array, not a string").
RIG2D_EXPORT const char* json_type_name(const Json& v);

// RFC 6901 escaping of one reference token ("~" -> "~0", "/" -> "~1").
RIG2D_EXPORT std::string pointer_token(std::string_view key);

}  // namespace rig2d::detail
