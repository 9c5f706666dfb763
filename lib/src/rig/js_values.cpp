// SPDX-License-Identifier: Apache-2.0
#include "rig/js_values.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace rig2d::detail {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Decodes the UTF-8 code point at text[i] (advancing i); malformed bytes decode as themselves.
char32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  const auto cont = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]) & 0x3Fu; };
  if (b0 >= 0xE0 && b0 < 0xF0 && i + 2 < text.size()) {
    const char32_t cp = (char32_t(b0 & 0x0Fu) << 12) | (char32_t(cont(1)) << 6) | char32_t(cont(2));
    i += 3;
    return cp;
  }
  if (b0 >= 0xC0 && b0 < 0xE0 && i + 1 < text.size()) {
    const char32_t cp = (char32_t(b0 & 0x1Fu) << 6) | char32_t(cont(1));
    i += 2;
    return cp;
  }
  if (b0 >= 0xF0 && i + 3 < text.size()) {
    const char32_t cp = (char32_t(b0 & 0x07u) << 18) | (char32_t(cont(1)) << 12) | (char32_t(cont(2)) << 6) |
                        char32_t(cont(3));
    i += 4;
    return cp;
  }
  ++i;
  return b0;
}

// StrWhiteSpaceChar: WhiteSpace and LineTerminator of ECMA-262 (Zs plus TAB, VT, FF, BOM, LF, CR, LS, PS).
bool is_js_space(char32_t cp) {
  switch (cp) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20: case 0xA0: case 0x1680:
    case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000: case 0xFEFF:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

std::string_view trim_js_space(std::string_view text) {
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t next = begin;
    if (!is_js_space(next_code_point(text, next))) break;
    begin = next;
  }
  // Trailing: walk code points from `begin` and remember where the last non-space one ended.
  std::size_t end = begin;
  for (std::size_t i = begin; i < text.size();) {
    const char32_t cp = next_code_point(text, i);
    if (!is_js_space(cp)) end = i;
  }
  return text.substr(begin, end - begin);
}

int digit_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return 99;
}

// 0x / 0o / 0b literals: exact value rounded to nearest-even, like the engine's V8.
double parse_power_of_two_base(std::string_view digits, int bits_per_digit) {
  if (digits.empty()) return kNaN;
  const int base = 1 << bits_per_digit;
  std::uint64_t acc = 0;
  int extra_bits = 0;
  bool sticky = false;
  for (const char ch : digits) {
    const int d = digit_value(ch);
    if (d >= base) return kNaN;
    for (int bit = bits_per_digit - 1; bit >= 0; --bit) {
      const bool one = ((d >> bit) & 1) != 0;
      if ((acc >> 63) != 0) {  // 64 significant bits kept; the rest only decides rounding
        ++extra_bits;
        sticky = sticky || one;
      } else {
        acc = (acc << 1) | (one ? 1u : 0u);
      }
    }
  }
  if (sticky) acc |= 1;  // below double's rounding bit, so it only breaks ties correctly
  return std::ldexp(static_cast<double>(acc), extra_bits);
}

// StrUnsignedDecimalLiteral without the sign: digits [. digits] [e[+-]digits] | . digits [e...].
double parse_unsigned_decimal(std::string_view s) {
  if (s == "Infinity") return kInf;
  std::size_t i = 0;
  std::size_t int_digits = 0, frac_digits = 0;
  long long magnitude = 0;  // decimal exponent of the leading non-zero digit (only its sign matters)
  bool seen_nonzero = false;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    if (s[i] != '0' && !seen_nonzero) seen_nonzero = true;
    if (seen_nonzero && magnitude < (1LL << 40)) ++magnitude;
    ++i;
    ++int_digits;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (!seen_nonzero) {
        if (s[i] != '0') seen_nonzero = true;
        else if (magnitude > -(1LL << 40)) --magnitude;
      }
      ++i;
      ++frac_digits;
    }
  }
  if (int_digits + frac_digits == 0) return kNaN;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool negative_exp = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative_exp = s[i++] == '-';
    const std::size_t exp_begin = i;
    long long exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (exp < (1LL << 40)) exp = exp * 10 + (s[i] - '0');
      ++i;
    }
    if (i == exp_begin) return kNaN;
    magnitude += negative_exp ? -exp : exp;
  }
  if (i != s.size()) return kNaN;
  double value = 0;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::general);
  if (res.ec == std::errc::result_out_of_range) return seen_nonzero && magnitude > 0 ? kInf : 0.0;
  if (res.ec != std::errc() || res.ptr != s.data() + s.size()) return kNaN;
  return value;
}

}  // namespace

double js_string_to_number(std::string_view text) {
  const std::string_view s = trim_js_space(text);
  if (s.empty()) return 0;
  if (s.size() >= 2 && s[0] == '0') {
    switch (s[1]) {
      case 'x': case 'X': return parse_power_of_two_base(s.substr(2), 4);
      case 'o': case 'O': return parse_power_of_two_base(s.substr(2), 3);
      case 'b': case 'B': return parse_power_of_two_base(s.substr(2), 1);
      default: break;
    }
  }
  if (s[0] == '+') return parse_unsigned_decimal(s.substr(1));
  if (s[0] == '-') return -parse_unsigned_decimal(s.substr(1));
  return parse_unsigned_decimal(s);
}

double js_number_value(const Json& value) { return js_number_value_of(value); }
double js_to_number(const Json& value) { return js_to_number_of(value); }
double js_number_or_zero(const Json* value) { return js_number_or_zero_of(value); }
bool js_is_finite_number(const Json& value) { return js_is_finite_number_of(value); }
bool js_is_integer(const Json& value) { return js_is_integer_of(value); }

std::int32_t js_to_int32(double x) {
  if (!std::isfinite(x)) return 0;
  double m = std::fmod(std::trunc(x), 4294967296.0);
  if (m < 0) m += 4294967296.0;
  const auto bits = static_cast<std::uint32_t>(m);
  return static_cast<std::int32_t>(bits);
}

bool js_truthy(const Json& value) { return js_truthy_of(value); }

}  // namespace rig2d::detail
