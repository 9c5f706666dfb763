// SPDX-License-Identifier: Apache-2.0
#include "json/json_util.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

#include "json/shortest_double.h"
#include "rig2d/core/limits.h"

namespace rig2d::detail {
namespace {

std::pair<int, int> line_col_at(std::string_view text, std::size_t offset) {
  int line = 1;
  int col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

// Nesting depth is checked on the raw text so a hostile file never reaches the parser's stack.
std::optional<std::size_t> first_too_deep(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\') ++i;
      else if (ch == '"') in_string = false;
      continue;
    }
    if (ch == '"') in_string = true;
    else if (ch == '[' || ch == '{') {
      if (++depth > max_depth) return i;
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

void append_string(std::string& out, const std::string& s) {
  out += '"';
  for (const char raw : s) {
    const auto ch = static_cast<unsigned char>(raw);
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(ch));
          out += buf;
        } else {
          out += raw;
        }
    }
  }
  out += '"';
}

void append_value(std::string& out, const Json& v, int indent, bool exact_integers) {
  const auto pad = [&](int n) { out.append(static_cast<std::size_t>(n), ' '); };
  switch (v.type()) {
    case Json::value_t::object: {
      if (v.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += ",\n";
        first = false;
        pad(indent + 2);
        append_string(out, it.key());
        out += ": ";
        append_value(out, it.value(), indent + 2, exact_integers);
      }
      out += '\n';
      pad(indent);
      out += '}';
      return;
    }
    case Json::value_t::array: {
      if (v.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      bool first = true;
      for (const Json& e : v) {
        if (!first) out += ",\n";
        first = false;
        pad(indent + 2);
        append_value(out, e, indent + 2, exact_integers);
      }
      out += '\n';
      pad(indent);
      out += ']';
      return;
    }
    case Json::value_t::string: append_string(out, v.get_ref<const std::string&>()); return;
    case Json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; return;
    case Json::value_t::number_integer:
      if (exact_integers) out += std::to_string(v.get<std::int64_t>());
      else append_js_number(out, static_cast<double>(v.get<std::int64_t>()));
      return;
    case Json::value_t::number_unsigned:
      if (exact_integers) out += std::to_string(v.get<std::uint64_t>());
      else append_js_number(out, static_cast<double>(v.get<std::uint64_t>()));
      return;
    case Json::value_t::number_float: {
      const double d = v.get<double>();
      if (std::isfinite(d)) append_js_number(out, d);
      else out += "null";
      return;
    }
    default: out += "null"; return;  // null, discarded, binary
  }
}

// --- pointer location: one pass over the text for any number of pointers ---------------------------

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// The wanted pointers as a trie, one node per reference token, plus what the scan saw of each node.
struct PointerNode {
  std::size_t parent = kNone;
  std::map<std::string, std::size_t, std::less<>> keys;  // child per member name
  std::map<std::size_t, std::size_t> indices;            // child per array index (same child as its key)
  std::size_t offset = kNone;                            // where the value starts, at its latest visit
  std::size_t visit = 0;                                 // latest visit (0: never reached)
  std::size_t parent_visit = 0;                          // the parent's visit that latest visit was in
};

// RFC 6901 reference tokens; the leading '/' is optional and a '~' not followed by 0 or 1 stays as is.
std::vector<std::string> split_pointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  std::size_t pos = pointer.front() == '/' ? 1 : 0;
  while (true) {
    const std::size_t next = pointer.find('/', pos);
    const std::string_view raw =
        pointer.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos);
    std::string token;
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '~' && k + 1 < raw.size() && (raw[k + 1] == '0' || raw[k + 1] == '1')) {
        token += raw[k + 1] == '1' ? '/' : '~';
        ++k;
      } else {
        token += raw[k];
      }
    }
    tokens.push_back(std::move(token));
    if (next == std::string_view::npos) break;
    pos = next + 1;
  }
  return tokens;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Walks the text once, descending only into values on some wanted pointer's path and skipping the rest.
// Meant for text parse_json accepted; on anything else it still ends (every loop step consumes input).
class PointerScan {
 public:
  PointerScan(std::string_view text, std::vector<PointerNode>& nodes) : t_(text), nodes_(nodes) {}

  void value(std::size_t node_id, std::size_t parent_visit) {
    ws();
    const std::size_t visit = ++visits_;
    PointerNode& node = nodes_[node_id];  // nodes_ is not resized during the scan
    node.offset = i_;
    node.visit = visit;
    node.parent_visit = parent_visit;
    if (i_ >= t_.size()) return;
    if (node.keys.empty()) {
      skip();
      return;
    }
    if (t_[i_] == '{') {
      ++i_;
      while (true) {
        ws();
        if (i_ < t_.size() && t_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ >= t_.size() || t_[i_] != '"') break;  // '}' (or not JSON)
        const std::string key = string();
        ws();
        if (i_ < t_.size() && t_[i_] == ':') ++i_;
        const auto it = node.keys.find(key);
        if (it != node.keys.end()) value(it->second, visit);
        else skip();
      }
      if (i_ < t_.size()) ++i_;
    } else if (t_[i_] == '[') {
      ++i_;
      for (std::size_t index = 0;; ++index) {
        ws();
        if (i_ >= t_.size() || t_[i_] == ']') break;
        const std::size_t start = i_;
        const auto it = node.indices.find(index);
        if (it != node.indices.end()) value(it->second, visit);
        else skip();
        ws();
        if (i_ < t_.size() && t_[i_] == ',') ++i_;
        else if (i_ == start) break;
      }
      if (i_ < t_.size()) ++i_;
    } else {
      skip();
    }
  }

 private:
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) ++i_;
  }

  std::uint32_t hex4() {
    std::uint32_t cp = 0;
    if (i_ + 4 <= t_.size()) std::from_chars(t_.data() + i_, t_.data() + i_ + 4, cp, 16);
    i_ += 4;
    return cp;
  }

  // Decodes the string at '"' (escapes and surrogate pairs included, as the parser does, so a key
  // compares equal to the pointer token built from the parsed key) and moves past it.
  std::string string() {
    std::string s;
    ++i_;
    while (i_ < t_.size() && t_[i_] != '"') {
      if (t_[i_] != '\\' || i_ + 1 >= t_.size()) {
        s += t_[i_++];
        continue;
      }
      const char e = t_[i_ + 1];
      i_ += 2;
      switch (e) {
        case 'n': s += '\n'; break;
        case 't': s += '\t'; break;
        case 'r': s += '\r'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < t_.size() && t_[i_] == '\\' && t_[i_ + 1] == 'u') {
            i_ += 2;
            const std::uint32_t low = hex4();
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(s, cp);
          break;
        }
        default: s += e;  // \" \\ \/
      }
    }
    ++i_;
    return s;
  }

  // Skips one value without recursion (depth is only counted), so deep nesting costs no stack.
  void skip() {
    ws();
    if (i_ >= t_.size()) return;
    const char first = t_[i_];
    if (first == '"') {
      skip_string();
      return;
    }
    if (first == '{' || first == '[') {
      std::size_t depth = 0;
      while (i_ < t_.size()) {
        const char ch = t_[i_];
        if (ch == '"') {
          skip_string();
          continue;
        }
        ++i_;
        if (ch == '{' || ch == '[') ++depth;
        else if ((ch == '}' || ch == ']') && --depth == 0) return;
      }
      return;
    }
    while (i_ < t_.size() && t_[i_] != ',' && t_[i_] != '}' && t_[i_] != ']' && t_[i_] != ' ' && t_[i_] != '\n' &&
           t_[i_] != '\r' && t_[i_] != '\t')
      ++i_;
  }

  void skip_string() {
    ++i_;
    while (i_ < t_.size() && t_[i_] != '"') i_ += t_[i_] == '\\' ? 2 : 1;
    ++i_;
  }

  std::string_view t_;
  std::vector<PointerNode>& nodes_;
  std::size_t i_ = 0;
  std::size_t visits_ = 0;
};

}  // namespace

// Objects up to this many members find a duplicate key by a linear scan (no allocation); larger ones
// get a hash index, so any object costs time linear in its member count.
constexpr std::size_t kLinearKeyScan = 16;

bool JsonDomBuilder::start_object(std::size_t) {
  stack_.push_back(Frame{Json::object(), {}, nullptr});
  return true;
}

bool JsonDomBuilder::key(std::string& k) {
  stack_.back().key = std::move(k);
  return true;
}

bool JsonDomBuilder::end_object() {
  Json done = std::move(stack_.back().value);
  stack_.pop_back();
  return put(std::move(done));
}

bool JsonDomBuilder::start_array(std::size_t) {
  stack_.push_back(Frame{Json::array(), {}, nullptr});
  return true;
}

bool JsonDomBuilder::end_array() { return end_object(); }

bool JsonDomBuilder::parse_error(std::size_t position, const std::string& token,
                                 const nlohmann::detail::exception& e) {
  error_position = position;
  error_token = token;
  error_what = e.what();
  error_id = e.id;
  return false;
}

bool JsonDomBuilder::put(Json value) {
  if (stack_.empty()) {
    root_ = std::move(value);
    return true;
  }
  Frame& top = stack_.back();
  if (top.value.is_array()) {
    top.value.get_ref<Json::array_t&>().push_back(std::move(value));
    return true;
  }
  // Appending to the vector under ordered_map skips its linear search for the key.
  Json::object_t::Container& members = top.value.get_ref<Json::object_t&>();
  if (top.index) {
    if (const auto it = top.index->find(top.key); it != top.index->end()) {
      members[it->second].second = std::move(value);
      return true;
    }
    top.index->emplace(top.key, members.size());
  } else {
    for (auto& member : members) {
      if (member.first == top.key) {
        member.second = std::move(value);
        return true;
      }
    }
    if (members.size() + 1 > kLinearKeyScan) {
      top.index = std::make_unique<std::unordered_map<std::string, std::size_t>>();
      for (std::size_t i = 0; i < members.size(); ++i) top.index->emplace(members[i].first, i);
      top.index->emplace(top.key, members.size());
    }
  }
  members.emplace_back(std::move(top.key), std::move(value));
  return true;
}

Result<Json> parse_json(std::string_view text, const std::string& path) {
  if (const auto deep = first_too_deep(text, kMaxJsonDepth)) {
    const auto [line, col] = line_col_at(text, *deep);
    return make_error("json.too_deep",
                      "JSON nesting is deeper than " + std::to_string(kMaxJsonDepth) + " levels", {path, "", line, col});
  }
  // nlohmann stops at a NUL byte as if the text ended there, which would drop everything after it.
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const auto [line, col] = line_col_at(text, nul);
    return make_error("json.syntax", "invalid JSON: a NUL byte (0x00) is not allowed in JSON text", {path, "", line, col});
  }
  Json root;
  JsonDomBuilder builder(root);
  try {
    if (Json::sax_parse(text.begin(), text.end(), &builder)) return root;
  } catch (const Json::exception& e) {
    return make_error("json.syntax", std::string("invalid JSON: ") + e.what(), {path});
  }
  if (builder.error_id == 406) {  // out_of_range: a number too large for a double
    const std::size_t end = std::min(builder.error_position, text.size());
    const std::size_t start = end >= builder.error_token.size() ? end - builder.error_token.size() : 0;
    const auto [line, col] = line_col_at(text, start);
    return make_error("json.range", "number " + builder.error_token + " is out of range (beyond a double)",
                      {path, "", line, col});
  }
  const std::size_t at = builder.error_position > 0 ? builder.error_position - 1 : 0;
  const auto [line, col] = line_col_at(text, at);
  std::string what = builder.error_what;
  // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: " prefix.
  if (const auto colon = what.find(": "); colon != std::string::npos && what.find("column") < colon) {
    what = what.substr(colon + 2);
  }
  return make_error("json.syntax", "invalid JSON: " + what, {path, "", line, col});
}

std::string to_js_json(const Json& value, bool exact_integers) {
  std::string out;
  append_value(out, value, 0, exact_integers);
  return out;
}

namespace {

// The decimal digits of v (0 < v < 10^19) at `out`, which has room for 20; returns how many. Two
// digits a step, eight-digit groups in 32-bit arithmetic.
int put_decimal_digits(std::uint64_t v, char* out) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char buf[24];
  char* const end = buf + sizeof buf;
  char* p = end;
  auto pair = [&p](std::uint32_t r) {
    p -= 2;
    std::memcpy(p, kPairs + 2 * r, 2);
  };
  while (v >= 100000000) {
    auto group = static_cast<std::uint32_t>(v % 100000000);
    v /= 100000000;
    for (int i = 0; i < 4; ++i, group /= 100) pair(group % 100);
  }
  auto r = static_cast<std::uint32_t>(v);
  for (; r >= 100; r /= 100) pair(r % 100);
  if (r >= 10) {
    pair(r);
  } else {
    *--p = static_cast<char>('0' + r);
  }
  const auto k = static_cast<int>(end - p);
  std::memcpy(out, p, static_cast<std::size_t>(k));
  return k;
}

// The shortest round-trip digits of a finite x != 0 when its exact value is a decimal of at most 15
// significant digits (an integer below 2^53, or m / 2^j as mesh coordinates on half and quarter pixels
// are): no other decimal of as few digits lies within half an ulp of it (those differ from it by at
// least a unit of its last digit, 1e15 half-ulps), so the exact digits are what std::to_chars' shortest
// form gives, at a fraction of its cost. Returns the digit count k and sets `n` (the decimal point
// after n digits), or 0 when x is not such a decimal.
int exact_short_digits(double x, char* digits, int& n) {
  const auto bits = std::bit_cast<std::uint64_t>(std::fabs(x));
  const auto biased = static_cast<int>(bits >> 52);
  if (biased == 0 || biased == 0x7ff) return 0;  // subnormal, or not finite
  std::uint64_t m = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  int e2 = biased - 1075;  // |x| = m * 2^e2
  const int zeros = std::countr_zero(m);
  m >>= zeros;
  e2 += zeros;
  constexpr std::uint64_t kLimit = 1000000000000000;  // 10^15: at most 15 digits
  int point = 0;                                       // decimal places of m
  if (e2 >= 0) {
    if (e2 > 52 || m >= (kLimit >> e2)) return 0;
    m <<= e2;
  } else {
    if (e2 < -30) return 0;
    for (int j = 0; j < -e2; ++j) {  // m / 2^j = m * 5^j / 10^j
      if (m > kLimit / 5) return 0;
      m *= 5;
    }
    if (m >= kLimit) return 0;
    point = -e2;
  }
  while (m % 10 == 0) m /= 10, --point;
  const int k = put_decimal_digits(m, digits);
  n = k - point;
  return k;
}

}  // namespace

char* write_js_number(char* at, double x) {
  const auto copy = [at](std::string_view s) { return std::copy(s.begin(), s.end(), at); };
  if (std::isnan(x)) return copy("NaN");
  if (std::isinf(x)) return copy(x > 0 ? "Infinity" : "-Infinity");
  if (x == 0) return copy("0");  // also -0
  // This runs for every number of every rig written: one stack buffer, spans copied, no parsing.
  // The shortest round-trip digits, the decimal point after n of them; ECMAScript lays them out by n.
  char exact[24];
  int n = 0;
  int k = exact_short_digits(x, exact, n);
  if (k == 0) {
    const ShortestDecimal d = shortest_decimal(std::fabs(x));
    k = put_decimal_digits(d.digits, exact);
    n = k + d.exponent;
  }
  const char* const digits = exact;

  char* t = at;
  if (x < 0) *t++ = '-';
  auto put = [&t](const char* from, int count) {
    std::memcpy(t, from, static_cast<std::size_t>(count));
    t += count;
  };
  auto zeros = [&t](int count) {
    std::memset(t, '0', static_cast<std::size_t>(count));
    t += count;
  };
  if (k <= n && n <= 21) {
    put(digits, k);
    zeros(n - k);
  } else if (0 < n && n <= 21) {
    put(digits, n);
    *t++ = '.';
    put(digits + n, k - n);
  } else if (-6 < n && n <= 0) {
    put("0.", 2);
    zeros(-n);
    put(digits, k);
  } else {
    const int e = n - 1;
    *t++ = digits[0];
    if (k > 1) {
      *t++ = '.';
      put(digits + 1, k - 1);
    }
    *t++ = 'e';
    *t++ = e >= 0 ? '+' : '-';
    t = std::to_chars(t, at + kMaxJsNumberChars, e >= 0 ? e : -e).ptr;
  }
  return t;
}

void append_js_number(std::string& out, double x) {
  char text[kMaxJsNumberChars];
  out.append(text, static_cast<std::size_t>(write_js_number(text, x) - text));
}

std::string js_number(double x) {
  std::string out;
  append_js_number(out, x);
  return out;
}

std::vector<std::pair<int, int>> locate_pointers(std::string_view text, std::span<const std::string> pointers) {
  // A UTF-8 byte order mark (saved by some Windows editors; the parser skips it) is no column of line 1.
  if (constexpr std::string_view kBom = "\xEF\xBB\xBF"; text.starts_with(kBom)) text.remove_prefix(kBom.size());
  std::vector<PointerNode> nodes(1);
  std::vector<std::size_t> node_of(pointers.size());
  for (std::size_t p = 0; p < pointers.size(); ++p) {
    std::size_t at = 0;
    for (const std::string& token : split_pointer(pointers[p])) {
      if (const auto it = nodes[at].keys.find(token); it != nodes[at].keys.end()) {
        at = it->second;
        continue;
      }
      // A token names a member of an object or an element of an array; which one depends on the text,
      // so a canonical index ("0", "12"; no sign or leading zero, RFC 6901) is registered both ways.
      const std::size_t child = nodes.size();
      nodes[at].keys.emplace(token, child);
      std::size_t index = 0;
      const auto res = std::from_chars(token.data(), token.data() + token.size(), index);
      if (!token.empty() && res.ec == std::errc() && res.ptr == token.data() + token.size() &&
          (token.size() == 1 || token[0] != '0')) {
        nodes[at].indices.emplace(index, child);
      }
      nodes.emplace_back().parent = at;
      at = child;
    }
    node_of[p] = at;
  }

  PointerScan(text, nodes).value(0, 0);

  // Duplicate keys: the last one wins, as in JSON.parse, so a node counts only when it was reached in
  // its parent's latest visit (a member found only in an earlier duplicate names nothing). Parents come
  // before their children in `nodes`.
  std::vector<char> live(nodes.size(), 0);
  live[0] = nodes[0].visit != 0;
  for (std::size_t n = 1; n < nodes.size(); ++n) {
    const PointerNode& node = nodes[n];
    live[n] = live[node.parent] && node.visit != 0 && node.parent_visit == nodes[node.parent].visit;
  }

  // Offsets -> line:col in one sweep over the text, in offset order.
  std::vector<std::size_t> order;
  order.reserve(pointers.size());
  for (std::size_t p = 0; p < pointers.size(); ++p) {
    if (live[node_of[p]] && nodes[node_of[p]].offset < text.size()) order.push_back(p);
  }
  const auto offset_of = [&](std::size_t p) { return nodes[node_of[p]].offset; };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return offset_of(a) < offset_of(b); });
  std::vector<std::pair<int, int>> out(pointers.size(), {0, 0});
  int line = 1;
  int col = 1;
  std::size_t pos = 0;
  for (const std::size_t p : order) {
    for (; pos < offset_of(p); ++pos) {
      if (text[pos] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    out[p] = {line, col};
  }
  return out;
}

std::pair<int, int> locate_pointer(std::string_view text, std::string_view pointer) {
  const std::string one(pointer);
  return locate_pointers(text, std::span<const std::string>(&one, 1)).front();
}

Unexpected located_error(std::string code, std::string message, std::string_view text, const std::string& path,
                         std::string pointer) {
  const auto [line, col] = locate_pointer(text, pointer);
  return make_error(std::move(code), std::move(message), {path, std::move(pointer), line, col});
}

const char* json_type_name(const Json& v) { return json_type_name_of(v); }

std::string pointer_token(std::string_view key) {
  std::string out;
  for (const char ch : key) {
    if (ch == '~') out += "~0";
    else if (ch == '/') out += "~1";
    else out += ch;
  }
  return out;
}

}  // namespace rig2d::detail
