// SPDX-License-Identifier: Apache-2.0
#include "rig2d/autorig/autorig_inputs.h"

#include <bit>
#include <cmath>
#include <optional>
#include <set>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/ascii.h"
#include "json/json_util.h"
#include "asset/sidecar_json.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

using detail::Json;

using detail::parse_meta_object;

// The last top-level "id" member of a JSON text, gathered while nlohmann checks the whole text
// but without building its DOM (a rig's arrays are nearly all of its bytes): the same answer as
// parse_json followed by find("id"), nesting limit included.
struct TopLevelId {
  bool root_is_object = false;
  std::optional<std::string> id;  // a string id; nullopt when the last "id" was anything else
  int depth = 0;
  bool id_value_next = false;

  bool value(std::optional<std::string> v = std::nullopt) {
    if (depth == 1 && id_value_next) id = std::move(v);
    id_value_next = false;
    return true;
  }
  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(Json::number_integer_t) { return value(); }
  bool number_unsigned(Json::number_unsigned_t) { return value(); }
  bool number_float(Json::number_float_t, const std::string&) { return value(); }
  bool string(std::string& s) { return value(s); }
  bool binary(Json::binary_t&) { return value(); }
  bool start_object(std::size_t) {
    if (depth == 0) root_is_object = true;
    value();
    return ++depth <= kMaxJsonDepth;
  }
  bool start_array(std::size_t) {
    value();
    return ++depth <= kMaxJsonDepth;
  }
  bool end_object() { return --depth >= 0; }
  bool end_array() { return --depth >= 0; }
  bool key(std::string& k) {
    id_value_next = depth == 1 && k == "id";
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }
};

// A strict scan of a plain subset of JSON: ASCII strings without escapes, numbers whose size keeps
// them far inside a double (at most 200 integer digits, a 2-digit exponent), nesting within the
// limit. Every text it accepts is JSON that parse_json accepts, with the same top-level "id", so its
// answer stands; it gives up (false) on anything else (escapes, UTF-8, a byte order mark, big
// numbers, errors), which then goes to the full parser. Written rigs are in the subset, and this
// reads them several times faster than nlohmann's lexer, which copies every number it meets.
class PlainJsonScan {
 public:
  explicit PlainJsonScan(std::string_view text) : t_(text) {}

  bool run(TopLevelId& found) {
    found_ = &found;
    if (!value(0, nullptr)) return false;
    space();
    return i_ == t_.size();
  }

 private:
  // Whitespace and digits, 16 bytes a step where 16 are left (a written rig is indented with runs of
  // spaces and holds 17-digit numbers), then byte by byte.
  void space() {
#if defined(__SSE2__)
    for (; i_ + 16 <= t_.size(); i_ += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t_.data() + i_));
      const __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
      if (const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(ws)) & 0xFFFFu; other != 0) {
        i_ += static_cast<std::size_t>(std::countr_zero(other));
        return;
      }
    }
#endif
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) ++i_;
  }
  bool at(char c) const { return i_ < t_.size() && t_[i_] == c; }
  std::size_t digits() {
    const std::size_t start = i_;
#if defined(__SSE2__)
    for (; i_ + 16 <= t_.size(); i_ += 16) {
      const __m128i d = _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t_.data() + i_)), _mm_set1_epi8('0'));
      const __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);  // 0..9 after the shift
      if (const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(digit)) & 0xFFFFu; other != 0) {
        i_ += static_cast<std::size_t>(std::countr_zero(other));
        return i_ - start;
      }
    }
#endif
    while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
    return i_ - start;
  }
  bool string(std::string_view& out) {  // at the opening quote
    const std::size_t start = ++i_;
    for (; i_ < t_.size(); ++i_) {
      const auto c = static_cast<unsigned char>(t_[i_]);
      if (c == '"') {
        out = t_.substr(start, i_ - start);
        ++i_;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80) return false;
    }
    return false;
  }
  bool number() {
    if (at('-')) ++i_;
    if (at('0')) {
      ++i_;
    } else {
      const std::size_t n = digits();
      if (n == 0 || n > 200) return false;
    }
    if (at('.')) {
      ++i_;
      if (digits() == 0) return false;
    }
    if (at('e') || at('E')) {
      ++i_;
      if (at('+') || at('-')) ++i_;
      const std::size_t n = digits();
      if (n == 0 || n > 2) return false;
    }
    return true;
  }
  bool literal(std::string_view word) {
    if (t_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  // One value; `id` is set when it is the root object's "id" member.
  bool value(int depth, std::optional<std::string>* id) {
    space();
    if (i_ >= t_.size()) return false;
    const char c = t_[i_];
    if (c == '{' || c == '[') {
      if (depth + 1 > kMaxJsonDepth) return false;
      if (id) *id = std::nullopt;
      if (depth == 0) found_->root_is_object = c == '{';
      ++i_;
      space();
      const char close = c == '{' ? '}' : ']';
      if (at(close)) {
        ++i_;
        return true;
      }
      while (true) {
        std::optional<std::string>* member_id = nullptr;
        if (c == '{') {
          space();
          std::string_view key;
          if (!at('"') || !string(key)) return false;
          space();
          if (!at(':')) return false;
          ++i_;
          if (depth == 0 && key == "id") member_id = &found_->id;
        }
        if (!value(depth + 1, member_id)) return false;
        space();
        if (at(',')) {
          ++i_;
          continue;
        }
        if (!at(close)) return false;
        ++i_;
        return true;
      }
    }
    if (c == '"') {
      std::string_view s;
      if (!string(s)) return false;
      if (id) *id = std::string(s);
      return true;
    }
    const bool ok = c == '-' || (c >= '0' && c <= '9') ? number()
                    : c == 't'                         ? literal("true")
                    : c == 'f'                         ? literal("false")
                                                       : literal("null");
    if (ok && id) *id = std::nullopt;
    return ok;
  }

  std::string_view t_;
  std::size_t i_ = 0;
  TopLevelId* found_ = nullptr;
};

}  // namespace

Result<std::vector<Bone>> parse_bones_json(std::string_view text, const std::string& path) {
  auto json = detail::parse_json(text, path);
  if (!json) return Unexpected{json.error()};
  const Json* list = nullptr;
  std::string base;
  if (json->is_array()) {
    list = &*json;
  } else if (json->is_object() && json->contains("bones") && (*json)["bones"].is_array()) {
    list = &(*json)["bones"];
    base = "/bones";
  } else {
    return detail::located_error("bones.root", "expected an array of bones or an object with a \"bones\" array", text,
                                 path, "");
  }
  if (list->empty()) return detail::located_error("bones.empty", "no bones given", text, path, base);
  if (list->size() > kMaxBones) {
    return detail::located_error("bones.too_many",
                                 std::to_string(list->size()) + " bones; the limit is " + std::to_string(kMaxBones),
                                 text, path, base);
  }
  std::vector<Bone> bones;
  std::set<std::string> names;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const Json& b = (*list)[i];
    const std::string at = base + "/" + std::to_string(i);
    if (!b.is_object()) return detail::located_error("bones.type", "a bone must be an object", text, path, at);
    Bone bone;
    const auto name = b.find("name");
    if (name == b.end() || !name->is_string()) {
      return detail::located_error("bones.type", "bone needs a string \"name\"", text, path,
                                   name == b.end() ? at : at + "/name");
    }
    bone.name = name->get<std::string>();
    if (bone.name.empty()) return detail::located_error("bones.name", "bone name is empty", text, path, at + "/name");
    if (!names.insert(bone.name).second) {
      return detail::located_error("bones.name", "duplicate bone name \"" + bone.name + "\"", text, path, at + "/name");
    }
    if (const auto parent = b.find("parent"); parent != b.end()) {
      if (!parent->is_number_integer() &&
          !(parent->is_number_float() && std::floor(parent->get<double>()) == parent->get<double>())) {
        return detail::located_error("bones.type", "\"parent\" must be an integer (-1 for a root)", text, path,
                                     at + "/parent");
      }
      const double p = parent->get<double>();
      if (p < -1 || p >= static_cast<double>(list->size()) || p == static_cast<double>(i)) {
        return detail::located_error("bones.parent",
                                     "parent " + detail::js_number(p) + " is not -1 or another bone's index (0.." +
                                         std::to_string(list->size() - 1) + ")",
                                     text, path, at + "/parent");
      }
      bone.parent = static_cast<std::int64_t>(p);
    }
    for (const auto& [key, field] : {std::pair{"x", &bone.x}, std::pair{"y", &bone.y}, std::pair{"rot", &bone.rot}}) {
      const auto v = b.find(key);
      if (v == b.end()) continue;
      if (!v->is_number() || !std::isfinite(v->get<double>())) {
        return detail::located_error("bones.type", std::string("\"") + key + "\" must be a finite number", text, path,
                                     at + "/" + key);
      }
      *field = v->get<double>();
    }
    bones.push_back(std::move(bone));
  }
  const auto n = static_cast<std::int64_t>(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) {
    std::int64_t cur = static_cast<std::int64_t>(i);
    for (std::int64_t steps = 0; cur >= 0; ++steps) {
      if (steps > n) {
        return detail::located_error("bones.parent", "bone \"" + bones[i].name + "\" is part of a parent cycle", text,
                                     path, base + "/" + std::to_string(i) + "/parent");
      }
      cur = bones[static_cast<std::size_t>(cur)].parent;
    }
  }
  return bones;
}

Result<std::vector<Bone>> read_bones_file(const std::string& path) {
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return Unexpected{text.error()};
  return parse_bones_json(*text, path);
}

std::optional<std::string> existing_rig_id(const std::string& rig_path) {
  auto text = read_file(rig_path, kMaxJsonFileBytes);  // refuses what is absent or not a regular file
  if (!text || text->find('\0') != std::string::npos) return std::nullopt;  // as parse_json rejects it
  TopLevelId found;
  if (!PlainJsonScan(*text).run(found)) {
    found = {};
    try {
      if (!Json::sax_parse(text->begin(), text->end(), &found)) return std::nullopt;
    } catch (const Json::exception&) {
      return std::nullopt;
    }
  }
  if (!found.root_is_object) return std::nullopt;
  if (!found.id || !is_guid(*found.id)) return std::nullopt;
  return found.id;
}

}  // namespace rig2d
