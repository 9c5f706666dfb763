// SPDX-License-Identifier: Apache-2.0
#include "rig2d/asset/sprite_meta.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <filesystem>
#include <unordered_map>

#include "asset/sidecar_json.h"
#include "core/ascii.h"
#include "json/json_util.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

using detail::Json;
using detail::parse_meta_object;

bool whole(const Json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) && std::floor(v.get<double>()) == v.get<double>() &&
         std::fabs(v.get<double>()) < 1e9;
}

Result<SpriteSlice> parse_slice(const Json& s, std::string_view text, const std::string& path, const std::string& at) {
  if (!s.is_object())
    return detail::located_error("meta.slice", "a slice must be an object {guid, name, rect, pivot}", text, path, at);
  SpriteSlice out;
  const auto guid = s.find("guid");
  if (guid == s.end() || !guid->is_string() || !is_guid(guid->get_ref<const std::string&>()))
    return detail::located_error("meta.slice.guid", "slice needs a GUID \"guid\" (8-4-4-4-12 hex digits)", text, path,
                                 guid == s.end() ? at : at + "/guid");
  out.guid = detail::ascii_lower(guid->get<std::string>());
  if (const auto name = s.find("name"); name != s.end() && name->is_string()) out.name = name->get<std::string>();
  const auto rect = s.find("rect");
  if (rect == s.end() || !rect->is_object())
    return detail::located_error("meta.slice.rect", "slice needs \"rect\": {x, y, w, h} in source px", text, path,
                                 rect == s.end() ? at : at + "/rect");
  for (const auto& [key, field] : {std::pair{"x", &out.x}, std::pair{"y", &out.y}, std::pair{"w", &out.w},
                                   std::pair{"h", &out.h}}) {
    const auto v = rect->find(key);
    if (v == rect->end() || !whole(*v))
      return detail::located_error("meta.slice.rect",
                                   std::string("slice rect \"") + key + "\" must be a whole number of px", text, path,
                                   at + "/rect" + (v == rect->end() ? "" : std::string("/") + key));
    *field = static_cast<int>(v->get<double>());
  }
  if (out.x < 0 || out.y < 0 || out.w <= 0 || out.h <= 0)
    return detail::located_error("meta.slice.rect", "slice rect needs x, y >= 0 and w, h > 0", text, path,
                                 at + "/rect");
  if (const auto pivot = s.find("pivot"); pivot != s.end()) {
    const bool ok = pivot->is_object() && pivot->contains("x") && pivot->contains("y") && (*pivot)["x"].is_number() &&
                    (*pivot)["y"].is_number();
    if (ok) {
      out.pivot_x = (*pivot)["x"].get<double>();
      out.pivot_y = (*pivot)["y"].get<double>();
    }
    if (!ok || !(out.pivot_x >= 0 && out.pivot_x <= 1 && out.pivot_y >= 0 && out.pivot_y <= 1))
      return detail::located_error("meta.slice.pivot", "slice pivot must be {x, y}, each 0..1 within the rect", text,
                                   path, at + "/pivot");
  }
  return out;
}

// Reads the sidecar every texture starts with, a flat object of plain members such as
// {"version": 2, "id": "...", "type": "2d"}, in one pass without building a JSON value: it runs for
// every sprite rigged, and the JSON parser and its object cost more than the rest of the sidecar's
// handling. Only text the parser surely reads as the same object is taken: members whose values are
// strings of printable ASCII without escapes, integers of at most 16 characters, true, false or null,
// with distinct keys, JSON whitespace and nothing after the object. Anything else (a BOM, nesting,
// escapes, other bytes, a "sprites" or "texture" member, an id that is no GUID, a type that is not
// "3d", "2d" or "ui") is nullopt: parse_sprite_meta's full parse then reads it or says what is wrong.
class PlainSidecar {
 public:
  explicit PlainSidecar(std::string_view text) : text_(text) {}

  std::optional<SpriteMeta> read() {
    if (!eat('{')) return std::nullopt;
    if (!eat('}')) {
      do {
        if (!member()) return std::nullopt;
      } while (eat(','));
      if (!eat('}')) return std::nullopt;
    }
    skip_space();
    if (at_ != text_.size() || !id_ || !is_guid(*id_)) return std::nullopt;
    SpriteMeta meta;
    meta.texture_guid = std::string(*id_);
    if (type_) {
      meta.type_explicit = true;
      if (*type_ == "2d") meta.type = TextureType::TwoD;
      else if (*type_ == "ui") meta.type = TextureType::Ui;
      else if (*type_ == "3d") meta.type = TextureType::ThreeD;
      else return std::nullopt;
    }
    return meta;
  }

 private:
  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
      ++at_;
  }
  bool eat(char c) {
    skip_space();
    if (at_ >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  // A string's text after its opening quote, up to the closing one (which is eaten).
  std::optional<std::string_view> string() {
    for (const std::size_t start = at_; at_ < text_.size(); ++at_) {
      const auto c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') return text_.substr(start, at_++ - start);
      if (c < 0x20 || c > 0x7e || c == '\\') return std::nullopt;
    }
    return std::nullopt;
  }
  // -?(0|[1-9][0-9]*), at most 16 characters; a fraction or exponent then fails the member's end.
  bool integer() {
    const std::size_t start = at_;
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    const auto digit = [this] { return at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9'; };
    if (!digit()) return false;
    if (text_[at_++] != '0')
      while (digit()) ++at_;
    return at_ - start <= 16 && !digit();
  }
  bool literal() {
    for (const std::string_view word : {"true", "false", "null"}) {
      if (text_.substr(at_, word.size()) == word) {
        at_ += word.size();
        return true;
      }
    }
    return false;
  }
  bool member() {
    if (!eat('"')) return false;
    const auto key = string();
    if (!key || !eat(':') || std::find(keys_.begin(), keys_.begin() + key_count_, *key) != keys_.begin() + key_count_ ||
        key_count_ == keys_.size() || *key == "sprites" || *key == "texture")
      return false;
    keys_[key_count_++] = *key;
    const bool id = *key == "id", type = *key == "type";
    if (eat('"')) {
      const auto value = string();
      if (!value) return false;
      if (id) id_ = value;
      if (type) type_ = value;
      return true;
    }
    return !id && !type && (integer() || literal());
  }

  std::string_view text_;
  std::size_t at_ = 0;
  std::array<std::string_view, 16> keys_;
  std::size_t key_count_ = 0;
  std::optional<std::string_view> id_, type_;
};

}  // namespace

std::string sidecar_path(const std::string& asset_path) { return asset_path + ".meta.json"; }

Result<SpriteMeta> parse_sprite_meta(std::string_view text, const std::string& path) {
  if (auto plain = PlainSidecar(text).read()) return *std::move(plain);
  auto json = parse_meta_object(text, path);
  if (!json) return Unexpected{json.error()};
  const Json& j = *json;
  SpriteMeta meta;
  const auto id = j.find("id");
  if (id == j.end()) return detail::located_error("meta.id", "sidecar has no \"id\"", text, path, "");
  if (!id->is_string() || !is_guid(id->get_ref<const std::string&>())) {
    return detail::located_error("meta.id", "sidecar \"id\" is not a GUID (8-4-4-4-12 hex digits)", text, path, "/id");
  }
  meta.texture_guid = id->get<std::string>();
  const auto sprites = j.find("sprites");
  meta.has_slices = sprites != j.end() && !(sprites->is_array() && sprites->empty());
  if (const auto type = j.find("type"); type != j.end()) {
    meta.type_explicit = true;
    const std::string t = type->is_string() ? type->get<std::string>() : std::string();
    if (t == "2d") meta.type = TextureType::TwoD;
    else if (t == "ui") meta.type = TextureType::Ui;
    else if (t == "3d") meta.type = TextureType::ThreeD;
    else
      return detail::located_error("meta.type", "sidecar \"type\" must be \"3d\", \"2d\" or \"ui\"", text, path,
                                   "/type");
  } else if (const auto tex = j.find("texture"); tex != j.end() && tex->is_object()) {
    // §1.4: no type -> a png/webp texture format means 2d, anything else 3d.
    const auto format = tex->find("format");
    if (format != tex->end() && format->is_string() && (*format == "png" || *format == "webp")) {
      meta.type = TextureType::TwoD;
    }
  }
  return meta;
}

Result<SpriteMeta> read_sprite_meta(const std::string& path) {
  auto text = read_file(path, kMaxSidecarBytes);  // absent is found by the open itself, not a stat before it
  if (!text && text.error().code == "io.not_found") {
    return make_error("meta.missing", "no sidecar: the texture GUID lives in this .meta.json; create it with "
                                      "--write-meta (rig2d-autorig) or let the engine's asset scanner mint it",
                      {path});
  }
  if (!text) return Unexpected{text.error()};
  return parse_sprite_meta(*text, path);
}

std::string whole_image_sprite_guid(std::string_view texture_guid) {
  return derive_guid("sprite:" + detail::ascii_lower(texture_guid));
}

std::string mint_texture_guid(std::string_view relative_path, std::string_view content) {
  std::string name(relative_path);
  name += '\n';
  name.append(content);
  return uuid_v5(kTextureIdNamespace, name);
}

std::string new_sprite_meta_text(std::string_view texture_guid) {
  Json j = Json::object();
  j["version"] = 2;
  j["id"] = std::string(texture_guid);
  j["type"] = "2d";
  return detail::to_js_json(j);
}

Result<std::string> sprite_meta_with_2d_type(std::string_view text, const std::string& path) {
  if (auto meta = parse_sprite_meta(text, path); !meta) return Unexpected{meta.error()};
  auto json = parse_meta_object(text, path);
  if (!json) return Unexpected{json.error()};
  (*json)["type"] = "2d";  // ordered_json: an existing key keeps its position
  return detail::to_js_json(*json);
}

Result<std::vector<SpriteSlice>> parse_sprite_slices(std::string_view text, const std::string& path) {
  auto json = detail::parse_meta_object(text, path);
  if (!json) return Unexpected{json.error()};
  std::vector<SpriteSlice> slices;
  const auto sprites = json->find("sprites");
  if (sprites == json->end()) return slices;
  if (!sprites->is_array())
    return detail::located_error("meta.sprites", "\"sprites\" must be an array of slices", text, path, "/sprites");
  std::unordered_map<std::string, std::size_t> first_with_guid;  // a pairwise scan was quadratic in slices
  for (std::size_t i = 0; i < sprites->size(); ++i) {
    const std::string at = "/sprites/" + std::to_string(i);
    auto slice = parse_slice((*sprites)[i], text, path, at);
    if (!slice) return Unexpected{slice.error()};
    // The engine's sprite set keys on the GUID, and each slice rig's id derives from it: two slices
    // sharing one would give two rigs one id and one of them no sprite.
    if (const auto [it, fresh] = first_with_guid.emplace(slice->guid, i); !fresh)
      return detail::located_error("meta.slice.guid",
                                   "slice GUID " + slice->guid + " is also /sprites/" + std::to_string(it->second) +
                                       "'s: every slice needs its own GUID",
                                   text, path, at + "/guid");
    slices.push_back(std::move(*slice));
  }
  return slices;
}

Result<std::vector<SpriteSlice>> read_sprite_slices(const std::string& sidecar_path) {
  std::error_code ec;
  if (!std::filesystem::exists(sidecar_path, ec)) return std::vector<SpriteSlice>{};
  auto text = read_file(sidecar_path, kMaxSidecarBytes);
  if (!text) return Unexpected{text.error()};
  return parse_sprite_slices(*text, sidecar_path);
}

}  // namespace rig2d
