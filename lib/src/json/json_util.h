// SPDX-License-Identifier: Apache-2.0
// Private JSON helpers shared by every reader and writer in the library (never in a public header).
// Hidden in the installed library; unit tests reach them through the static rig2d_internals.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <memory>
#include <unordered_map>

#include "rig2d/core/result.h"

namespace rig2d::detail {

using Json = nlohmann::ordered_json;  // keys keep file order, as JSON.parse does

// Parses JSON text in time linear in its size, large objects included. Duplicate keys: last value
// wins at the first key's position (JSON.parse). Errors, all with line and column: json.too_deep
// (nesting over kMaxJsonDepth, checked before parsing), json.syntax (also for a NUL byte, which
// nlohmann would take for the end of the text), json.range (a number beyond a double, e.g. 1e999).
Result<Json> parse_json(std::string_view text, const std::string& path);

// nlohmann SAX handler building a Json DOM in linear time. nlohmann's own DOM builder inserts each
// member of an ordered_json object with a linear search for its key, so an object of n keys costs
// O(n^2); this one appends, and finds duplicates with a hash index once an object grows.
class JsonDomBuilder {
 public:
  explicit JsonDomBuilder(Json& root) : root_(root) {}
  bool null() { return put(Json(nullptr)); }
  bool boolean(bool v) { return put(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return put(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)); }
  bool number_float(Json::number_float_t v, const std::string&) { return put(Json(v)); }
  bool string(std::string& s) { return put(Json(std::move(s))); }
  bool binary(Json::binary_t& b) { return put(Json::binary(std::move(b))); }
  bool start_object(std::size_t);
  bool key(std::string& k);
  bool end_object();
  bool start_array(std::size_t);
  bool end_array();
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e);

  // After a failed parse: the byte offset nlohmann reported, the token, the exception id and text.
  std::size_t error_position = 0;
  std::string error_token, error_what;
  int error_id = 0;

 private:
  struct Frame {
    Json value;       // the open object or array
    std::string key;  // an object's pending member name
    std::unique_ptr<std::unordered_map<std::string, std::size_t>> index;  // key -> member, once large
  };
  bool put(Json value);
  Json& root_;
  std::vector<Frame> stack_;
};

// JSON.stringify(value, null, 2) byte for byte: 2-space indent, one array element per line, "{}"/"[]"
// for empty containers, ECMAScript number text, no trailing newline. NaN and infinities become null.
// exact_integers: integers (as parsed into int64/uint64) print all their digits instead of the
// double JS would round them to, so a rewrite keeps 12345678901234567890 as written.
std::string to_js_json(const Json& value, bool exact_integers = false);

// ECMAScript Number::toString(x): shortest round-trip digits in JS layout (1e+21, 1.5e-7, 0.000001).
std::string js_number(double x);
// js_number(x) appended to `out`, without a temporary string.
void append_js_number(std::string& out, double x);
// js_number(x) written at `at`, which has room for kMaxJsNumberChars; returns the end.
inline constexpr std::size_t kMaxJsNumberChars = 32;
char* write_js_number(char* at, double x);

// For each JSON pointer (RFC 6901), the 1-based line and column (in bytes) of the value it names in
// `text`, or {0, 0} when it names nothing. One pass over the text for all of them, so a file with
// thousands of findings is not rescanned per finding. `text` should be JSON that parse_json accepted;
// duplicate keys resolve as there (the last one wins, also for what lies below it). A leading UTF-8 byte
// order mark is skipped, as the parser does, and not counted as a column.
std::vector<std::pair<int, int>> locate_pointers(std::string_view text,
                                                              std::span<const std::string> pointers);

// locate_pointers for one pointer.
std::pair<int, int> locate_pointer(std::string_view text, std::string_view pointer);

// An error at `pointer` of the JSON `text` read from `path`, with the line and column it names.
Unexpected located_error(std::string code, std::string message, std::string_view text, const std::string& path,
                         std::string pointer);

// "null", "a boolean", "a number", "a string", "an array", "an object": a value's type for messages
// ("must be an array, not a string").
const char* json_type_name(const Json& v);
// The same for any value type with nlohmann's reading interface (rig/rig_doc.h).
template <class J>
const char* json_type_name_of(const J& v) {
  switch (v.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    default:
      return v.is_number() ? "a number" : "an unsupported value";  // binary/discarded: never parsed
  }
}

// RFC 6901 escaping of one reference token ("~" -> "~0", "/" -> "~1").
std::string pointer_token(std::string_view key);

}  // namespace rig2d::detail
