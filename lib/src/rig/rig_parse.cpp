// SPDX-License-Identifier: Apache-2.0
// Bounded JSON parse for rigs. nlohmann rejects a number that overflows a double (1e999), where the
// engine's JSON.parse gives +-Infinity; such tokens are blanked to same-length strings (so every error
// position stays true) and turned back into infinities while the DOM is built.
#include <charconv>
#include <set>
#include <string>

#include "rig/rig_json_internal.h"
#include "rig2d/core/limits.h"

namespace rig2d::detail {
namespace {

struct Overflow {
  std::size_t value_string_ordinal;  // which value string (not key) of the blanked text it became
  bool negative;
};

bool is_ws(char ch) { return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t'; }

// True when the number token (without sign) is beyond the double range (not an underflow to 0).
bool overflows(std::string_view token) {
  double v = 0;
  const auto res = std::from_chars(token.data(), token.data() + token.size(), v);
  if (res.ec != std::errc::result_out_of_range) return false;
  const std::size_t epos = token.find_first_of("eE");
  if (epos == std::string_view::npos) return true;  // a plain digit string is never too small
  // Out of range with an exponent: large if the exponent is positive and the mantissa non-zero.
  const std::string_view mant = token.substr(0, epos);
  if (mant.find_first_of("123456789") == std::string_view::npos) return false;
  const std::size_t sign_at = epos + 1;
  return !(sign_at < token.size() && token[sign_at] == '-');
}

// Blanks every overflowing number of `text` (in place) and records where it was.
std::vector<Overflow> blank_overflows(std::string& text) {
  std::vector<Overflow> found;
  std::size_t value_strings = 0;
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    if (ch == '"') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      std::size_t k = j + 1;
      while (k < text.size() && is_ws(text[k])) ++k;
      if (k >= text.size() || text[k] != ':') ++value_strings;
      i = j + 1;
      continue;
    }
    if (ch == '-' || (ch >= '0' && ch <= '9')) {
      std::size_t j = i;
      while (j < text.size() && (text[j] == '-' || text[j] == '+' || text[j] == '.' || text[j] == 'e' ||
                                 text[j] == 'E' || (text[j] >= '0' && text[j] <= '9')))
        ++j;
      const bool negative = ch == '-';
      const std::string_view token(text.data() + i + (negative ? 1 : 0), j - i - (negative ? 1 : 0));
      if (j - i >= 2 && overflows(token)) {
        found.push_back({value_strings++, negative});
        text[i] = '"';
        for (std::size_t k = i + 1; k + 1 < j; ++k) text[k] = ' ';
        text[j - 1] = '"';
      }
      i = j;
      continue;
    }
    ++i;
  }
  return found;
}

// Builds the DOM like nlohmann's own parser, except that the recorded value strings become infinities.
class InfinitySax {
 public:
  InfinitySax(Json& root, const std::vector<Overflow>& overflows) : dom_(root), overflows_(overflows) {}
  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const std::string& s) { return dom_.number_float(v, s); }
  bool string(std::string& s) {
    const std::size_t ordinal = strings_++;
    if (next_ < overflows_.size() && overflows_[next_].value_string_ordinal == ordinal) {
      const double inf = std::numeric_limits<double>::infinity();
      return dom_.number_float(overflows_[next_++].negative ? -inf : inf, s);
    }
    return dom_.string(s);
  }
  bool binary(Json::binary_t& b) { return dom_.binary(b); }
  bool start_object(std::size_t n) { return dom_.start_object(n); }
  bool key(std::string& k) { return dom_.key(k); }
  bool end_object() { return dom_.end_object(); }
  bool start_array(std::size_t n) { return dom_.start_array(n); }
  bool end_array() { return dom_.end_array(); }
  bool parse_error(std::size_t at, const std::string& token, const nlohmann::detail::exception& e) {
    return dom_.parse_error(at, token, e);
  }

 private:
  JsonDomBuilder dom_;
  const std::vector<Overflow>& overflows_;
  std::size_t next_ = 0;
  std::size_t strings_ = 0;
};

}  // namespace

Result<Json> parse_rig_json(std::string_view text, const std::string& path) {
  if (text.size() > kMaxJsonFileBytes) {
    return make_error("json.too_large",
                      "JSON text is " + std::to_string(text.size()) + " bytes; the limit is " +
                          std::to_string(kMaxJsonFileBytes),
                      {path});
  }
  auto parsed = parse_json(text, path);
  if (parsed || parsed.error().code != "json.range") return parsed;

  std::string blanked(text);
  const std::vector<Overflow> found = blank_overflows(blanked);
  auto checked = parse_json(blanked, path);  // any other defect, at its true position
  if (!checked) return checked;
  Json root;
  InfinitySax sax(root, found);
  try {
    if (!Json::sax_parse(blanked.begin(), blanked.end(), &sax)) {
      return make_error("json.syntax", "invalid JSON", {path});
    }
  } catch (const Json::exception& e) {
    return make_error("json.syntax", std::string("invalid JSON: ") + e.what(), {path});
  }
  return root;
}

}  // namespace rig2d::detail
