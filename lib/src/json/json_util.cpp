// SPDX-License-Identifier: Apache-2.0
#include "json/json_util.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

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

void append_value(std::string& out, const Json& v, int indent) {
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
        append_value(out, it.value(), indent + 2);
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
        append_value(out, e, indent + 2);
      }
      out += '\n';
      pad(indent);
      out += ']';
      return;
    }
    case Json::value_t::string: append_string(out, v.get_ref<const std::string&>()); return;
    case Json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; return;
    case Json::value_t::number_integer: out += js_number(static_cast<double>(v.get<std::int64_t>())); return;
    case Json::value_t::number_unsigned: out += js_number(static_cast<double>(v.get<std::uint64_t>())); return;
    case Json::value_t::number_float: {
      const double d = v.get<double>();
      out += std::isfinite(d) ? js_number(d) : std::string("null");
      return;
    }
    default: out += "null"; return;  // null, discarded, binary
  }
}

// --- pointer location: a minimal scanner over already-valid JSON text -------------------------------

struct Scanner {
  std::string_view t;
  std::size_t i = 0;

  void ws() {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) ++i;
  }
  // Reads a string starting at '"'; returns its decoded text (escapes beyond \uXXXX kept simple).
  std::string string() {
    std::string s;
    ++i;
    while (i < t.size() && t[i] != '"') {
      if (t[i] == '\\' && i + 1 < t.size()) {
        const char e = t[i + 1];
        i += 2;
        switch (e) {
          case 'n': s += '\n'; break;
          case 't': s += '\t'; break;
          case 'r': s += '\r'; break;
          case 'b': s += '\b'; break;
          case 'f': s += '\f'; break;
          case 'u': {
            unsigned cp = 0;
            if (i + 4 <= t.size()) cp = static_cast<unsigned>(std::strtoul(std::string(t.substr(i, 4)).c_str(), nullptr, 16));
            i += 4;
            if (cp < 0x80) s += static_cast<char>(cp);
            else if (cp < 0x800) {
              s += static_cast<char>(0xC0 | (cp >> 6));
              s += static_cast<char>(0x80 | (cp & 0x3F));
            } else {
              s += static_cast<char>(0xE0 | (cp >> 12));
              s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
              s += static_cast<char>(0x80 | (cp & 0x3F));
            }
            break;
          }
          default: s += e;
        }
      } else {
        s += t[i++];
      }
    }
    ++i;  // closing quote
    return s;
  }
  void skip_value() {
    ws();
    if (i >= t.size()) return;
    if (t[i] == '"') {
      string();
      return;
    }
    if (t[i] == '{' || t[i] == '[') {
      int depth = 0;
      while (i < t.size()) {
        const char ch = t[i];
        if (ch == '"') {
          string();
          continue;
        }
        if (ch == '{' || ch == '[') ++depth;
        if (ch == '}' || ch == ']') {
          if (--depth == 0) {
            ++i;
            return;
          }
        }
        ++i;
      }
      return;
    }
    while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && t[i] != ' ' && t[i] != '\n' &&
           t[i] != '\r' && t[i] != '\t')
      ++i;
  }
};

std::vector<std::string> split_pointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  std::size_t pos = 1;
  while (true) {
    const std::size_t next = pointer.find('/', pos);
    std::string raw(pointer.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos));
    std::string tok;
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '~' && k + 1 < raw.size()) {
        tok += raw[k + 1] == '1' ? '/' : '~';
        ++k;
      } else {
        tok += raw[k];
      }
    }
    tokens.push_back(std::move(tok));
    if (next == std::string_view::npos) break;
    pos = next + 1;
  }
  return tokens;
}

}  // namespace

Result<Json> parse_json(std::string_view text, const std::string& path) {
  if (const auto deep = first_too_deep(text, kMaxJsonDepth)) {
    const auto [line, col] = line_col_at(text, *deep);
    return make_error("json.too_deep",
                      "JSON nesting is deeper than " + std::to_string(kMaxJsonDepth) + " levels", {path, "", line, col});
  }
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
    const auto [line, col] = line_col_at(text, at);
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: " prefix.
    if (const auto colon = what.find(": "); colon != std::string::npos && what.find("column") < colon) {
      what = what.substr(colon + 2);
    }
    return make_error("json.syntax", "invalid JSON: " + what, {path, "", line, col});
  } catch (const Json::exception& e) {
    return make_error("json.syntax", std::string("invalid JSON: ") + e.what(), {path});
  }
}

std::string to_js_json(const Json& value) {
  std::string out;
  append_value(out, value, 0);
  return out;
}

std::string js_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x == 0) return "0";  // also -0
  std::string sign;
  if (x < 0) {
    sign = "-";
    x = -x;
  }
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));  // d[.ddd]e±XX
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

std::pair<int, int> locate_pointer(std::string_view text, std::string_view pointer) {
  Scanner s{text};
  for (const std::string& tok : split_pointer(pointer)) {
    s.ws();
    if (s.i >= text.size()) return {0, 0};
    if (text[s.i] == '{') {
      ++s.i;
      std::optional<std::size_t> found;  // last duplicate wins, as JSON.parse
      while (true) {
        s.ws();
        if (s.i >= text.size() || text[s.i] == '}') break;
        if (text[s.i] == ',') {
          ++s.i;
          continue;
        }
        if (text[s.i] != '"') return {0, 0};
        const std::string key = s.string();
        s.ws();
        if (s.i < text.size() && text[s.i] == ':') ++s.i;
        s.ws();
        if (key == tok) found = s.i;
        s.skip_value();
      }
      if (!found) return {0, 0};
      s.i = *found;
    } else if (text[s.i] == '[') {
      char* end = nullptr;
      const unsigned long want = std::strtoul(tok.c_str(), &end, 10);
      if (tok.empty() || *end != '\0') return {0, 0};
      ++s.i;
      for (unsigned long k = 0;; ++k) {
        s.ws();
        if (s.i >= text.size() || text[s.i] == ']') return {0, 0};
        if (k == want) break;
        s.skip_value();
        s.ws();
        if (s.i < text.size() && text[s.i] == ',') ++s.i;
      }
    } else {
      return {0, 0};
    }
  }
  s.ws();
  if (s.i > text.size()) return {0, 0};
  return line_col_at(text, s.i);
}

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
