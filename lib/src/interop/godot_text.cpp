// SPDX-License-Identifier: Apache-2.0
#include "interop/godot_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "rig2d/core/limits.h"

namespace rig2d::godot {
namespace {

struct Stop {
  Error error;
};

// Offset of the first byte that is not well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or
// code points past U+10FFFF), or npos. Names read from the scene end up in the rig's JSON text.
std::size_t first_bad_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 1;
    unsigned lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c < 0x80)
      len = 1;
    else if (c >= 0xC2 && c <= 0xDF)
      len = 2;
    else if (c == 0xE0)
      len = 3, lo = 0xA0;
    else if (c == 0xED)
      len = 3, hi = 0x9F;
    else if (c >= 0xE1 && c <= 0xEF)
      len = 3;
    else if (c == 0xF0)
      len = 4, lo = 0x90;
    else if (c == 0xF4)
      len = 4, hi = 0x8F;
    else if (c >= 0xF1 && c <= 0xF3)
      len = 4;
    else
      return i;
    for (std::size_t k = 1; k < len; ++k) {
      if (i + k >= s.size()) return i;
      const auto d = static_cast<unsigned char>(s[i + k]);
      if (d < (k == 1 ? lo : 0x80) || d > (k == 1 ? hi : 0xBF)) return i;
    }
    i += len;
  }
  return std::string_view::npos;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& path) : s_(text), path_(path) {}

  std::vector<Section> sections() {
    std::vector<Section> out;
    skip_space(true);
    while (pos_ < s_.size()) {
      if (s_[pos_] == '[') {
        out.push_back(section_header());
      } else {
        if (out.empty()) fail("a property before the first [section]");
        Property p;
        p.line = line_;
        p.key = key();
        skip_space(false);
        expect('=');
        p.value = value(0);
        out.back().properties.push_back(std::move(p));
      }
      skip_space(true);
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& message, std::string code = "godot.syntax") const {
    throw Stop{Error{std::move(code), message, Location{path_, "", line_, column()}}};
  }
  int column() const { return static_cast<int>(pos_ - line_start_) + 1; }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void advance() {
    if (s_[pos_] == '\n') ++line_, line_start_ = pos_ + 1;
    ++pos_;
  }
  // Whitespace and ";" comments; newlines too when `lines`, else only within a value.
  void skip_space(bool lines) {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == ';' && lines) {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r' || (c == '\n' && lines)) {
        advance();
      } else {
        break;
      }
    }
  }
  void expect(char c) {
    skip_space(true);
    if (peek() != c) fail(std::string("expected '") + c + "'");
    advance();
  }
  std::string key() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[pos_])) && s_[pos_] != '=' && s_[pos_] != ']') ++pos_;
    if (pos_ == start) fail("expected a property name");
    return std::string(s_.substr(start, pos_ - start));
  }

  Section section_header() {
    Section sec;
    sec.line = line_;
    advance();  // '['
    sec.tag = identifier();
    for (;;) {
      skip_space(false);
      if (peek() == ']') {
        advance();
        return sec;
      }
      if (peek() == '\n' || peek() == '\0') fail("unterminated [section]");
      Property attr;
      attr.line = line_;
      attr.key = key();
      skip_space(false);
      expect('=');
      attr.value = value(0);
      sec.attributes.push_back(std::move(attr));
    }
  }

  std::string identifier() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    if (pos_ == start) fail("expected a name");
    return std::string(s_.substr(start, pos_ - start));
  }

  std::string quoted() {
    advance();  // opening quote
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_];
      if (c == '"') {
        advance();
        return out;
      }
      if (c == '\\' && pos_ + 1 < s_.size()) {
        advance();
        const char e = s_[pos_];
        out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
        advance();
        continue;
      }
      out += c;
      advance();
    }
  }

  Value value(int depth) {
    if (depth > kMaxJsonDepth) fail("values nested too deep", "godot.too_deep");
    skip_space(true);
    Value v;
    v.line = line_, v.column = column();
    const char c = peek();
    if (c == '"' || ((c == '&' || c == '^') && pos_ + 1 < s_.size() && s_[pos_ + 1] == '"')) {
      if (c != '"') advance();
      v.kind = c == '^' ? Value::Kind::Call : Value::Kind::String;
      if (c == '^') {  // ^"path" is NodePath("path")
        v.text = "NodePath";
        Value arg;
        arg.kind = Value::Kind::String;
        arg.text = quoted();
        v.items.push_back(std::move(arg));
      } else {
        v.text = quoted();
      }
      return v;
    }
    if (c == '[') return list(v, ']', depth);
    if (c == '{') return list(v, '}', depth);
    if (c == '-' || c == '+' || c == '.' || std::isdigit(static_cast<unsigned char>(c))) return number(v);
    const std::string name = identifier();
    if (name == "true" || name == "false") {
      v.kind = Value::Kind::Bool;
      v.boolean = name == "true";
      return v;
    }
    if (name == "null") return v;
    if (name == "inf" || name == "inf_neg" || name == "nan") {
      v.kind = Value::Kind::Number;
      v.number = name == "nan" ? std::numeric_limits<double>::quiet_NaN()
                               : (name == "inf" ? 1 : -1) * std::numeric_limits<double>::infinity();
      return v;
    }
    skip_space(false);
    if (peek() == '[') {  // typed array: Array[Type]([...]), Dictionary[K, V]({...})
      while (pos_ < s_.size() && s_[pos_] != ']') advance();
      expect(']');
      skip_space(false);
    }
    if (peek() != '(') fail("expected '(' after " + name);
    v.kind = Value::Kind::Call;
    v.text = name;
    advance();
    for (;;) {
      skip_space(true);
      if (peek() == ')') {
        advance();
        return v;
      }
      v.items.push_back(value(depth + 1));
      skip_space(true);
      if (peek() == ',') advance();
      else if (peek() != ')') fail("expected ',' or ')' in " + name + "(...)");
    }
  }

  Value& list(Value& v, char close, int depth) {
    v.kind = close == ']' ? Value::Kind::Array : Value::Kind::Dict;
    advance();
    for (;;) {
      skip_space(true);
      if (peek() == close) {
        advance();
        return v;
      }
      v.items.push_back(value(depth + 1));
      skip_space(true);
      if (close == '}') {
        expect(':');
        v.items.push_back(value(depth + 1));
        skip_space(true);
      }
      if (peek() == ',') advance();
      else if (peek() != close) fail(std::string("expected ',' or '") + close + "'");
    }
  }

  Value& number(Value& v) {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' || s_[pos_] == '-' || s_[pos_] == '+')) ++pos_;
    std::string_view token = s_.substr(start, pos_ - start);
    if (!token.empty() && token.front() == '+') token.remove_prefix(1);
    double x = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), x);
    if (ec != std::errc() || end != token.data() + token.size()) {
      pos_ = start;
      fail("not a number: \"" + std::string(token) + "\"");
    }
    v.kind = Value::Kind::Number;
    v.number = x;
    return v;
  }
  std::string_view s_;
  const std::string& path_;
  std::size_t pos_ = 0, line_start_ = 0;
  int line_ = 1;
};

}  // namespace

bool Value::numbers(std::vector<double>& out) const {
  out.clear();
  if (kind != Kind::Call) return false;
  for (const Value& item : items) {
    if (item.kind != Kind::Number) return false;
    out.push_back(item.number);
  }
  return true;
}

const Value* Section::attribute(std::string_view key) const {
  for (const Property& p : attributes) {
    if (p.key == key) return &p.value;
  }
  return nullptr;
}

const Value* Section::property(std::string_view key) const {
  const Value* found = nullptr;
  for (const Property& p : properties) {
    if (p.key == key) found = &p.value;  // the last assignment wins
  }
  return found;
}

std::string Section::attribute_text(std::string_view key) const {
  const Value* v = attribute(key);
  return v && v->kind == Value::Kind::String ? v->text : "";
}

Result<std::vector<Section>> parse_tscn(std::string_view text, const std::string& path) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (const std::size_t bad = first_bad_utf8(text); bad != std::string_view::npos) {
    const std::size_t line_start = text.rfind('\n', bad) == std::string_view::npos ? 0 : text.rfind('\n', bad) + 1;
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    return Unexpected{Error{
        "godot.syntax",
        "the scene is not UTF-8 text (byte " + std::to_string(unsigned(static_cast<unsigned char>(text[bad]))) + ")",
        Location{path, "", static_cast<int>(line), static_cast<int>(bad - line_start) + 1}}};
  }
  try {
    return Parser(text, path).sections();
  } catch (const Stop& stop) {
    return Unexpected{stop.error};
  }
}

}  // namespace rig2d::godot
