// SPDX-License-Identifier: Apache-2.0
// Reading layouts: a layout file, or a folder of full-canvas layer PNGs.
#include "rig2d/autorig/layout.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

#include "json/json_util.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

using detail::Json;
namespace fs = std::filesystem;

bool whole_number(const Json& v, double lo, double hi) {
  if (!v.is_number()) return false;
  const double d = v.get<double>();
  return std::isfinite(d) && std::floor(d) == d && d >= lo && d <= hi;
}

bool is_png(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".png";
}

// The part's default name: the PNG's file stem, else the slice.
std::string default_name(const LayoutPart& p) {
  if (!p.png.empty()) return fs::path(p.png).stem().string();
  return p.slice.value_or("");
}

// A misspelt key ("ordr") would otherwise be ignored without a word.
Result<void> known_keys(const Json& j, std::initializer_list<std::string_view> keys, std::string_view text,
                        const std::string& path, const std::string& at) {
  for (const auto& [key, value] : j.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      return detail::located_error("layout.key", "unknown key \"" + key + "\"", text, path,
                                   at + "/" + detail::pointer_token(key));
  }
  return {};
}

Result<LayoutPart> parse_part(const Json& j, std::size_t index, std::string_view text, const std::string& path) {
  const std::string at = "/parts/" + std::to_string(index);
  if (!j.is_object())
    return detail::located_error("layout.part", "a part must be an object {name, png, x, y, order}", text, path, at);
  if (auto ok = known_keys(j, {"name", "png", "slice", "x", "y", "order"}, text, path, at); !ok) return Unexpected{ok.error()};
  LayoutPart part;
  part.order = double(index);
  for (const auto& [key, field] : {std::pair{"png", &part.png}, std::pair{"name", &part.name}}) {
    if (const auto v = j.find(key); v != j.end()) {
      if (!v->is_string())
        return detail::located_error("layout.part", std::string("\"") + key + "\" must be a string", text, path,
                                     at + "/" + key);
      *field = v->get<std::string>();
    }
  }
  // An empty name is a mistake, not a request for the default: the default is leaving the key out.
  if (const auto v = j.find("name"); v != j.end() && part.name.empty())
    return detail::located_error("layout.name", "\"name\" is empty: name the part, or leave the key out to take the PNG's "
                                                "stem", text, path, at + "/name");
  if (const auto v = j.find("slice"); v != j.end()) {
    if (!v->is_string() || v->get_ref<const std::string&>().empty())
      return detail::located_error("layout.part", "\"slice\" must be a slice name or GUID", text, path, at + "/slice");
    part.slice = v->get<std::string>();
  }
  if (part.png.empty() && !part.slice)
    return detail::located_error("layout.part", "a part needs \"png\" (its image) or \"slice\" (a slice GUID)", text,
                                 path, at);
  for (const auto& [key, field] : {std::pair{"x", &part.x}, std::pair{"y", &part.y}}) {
    if (const auto v = j.find(key); v != j.end()) {
      if (!whole_number(*v, -double(kMaxImageSide), double(kMaxImageSide)))
        return detail::located_error("layout.part", std::string("\"") + key + "\" must be a whole number of px", text,
                                     path, at + "/" + key);
      *field = static_cast<int>(v->get<double>());
    }
  }
  if (const auto v = j.find("order"); v != j.end()) {
    if (!v->is_number() || !std::isfinite(v->get<double>()))
      return detail::located_error("layout.part", "\"order\" must be a finite number", text, path, at + "/order");
    part.order = v->get<double>();
  }
  if (part.name.empty()) part.name = default_name(part);
  if (part.name.empty()) return detail::located_error("layout.name", "the part has no name", text, path, at);
  return part;
}

Result<PartLayout> read_layer_folder(const std::string& folder) {
  std::vector<fs::path> pngs;
  std::error_code ec;
  for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec) && is_png(it->path())) pngs.push_back(it->path());
  if (ec) return make_error("layout.folder", "cannot list the folder: " + ec.message(), {folder});
  if (pngs.empty()) return make_error("layout.folder", "no PNG layers in the folder", {folder});
  if (pngs.size() > kMaxLayoutParts)
    return make_error("layout.parts", std::to_string(pngs.size()) + " layers; the limit is " +
                                          std::to_string(kMaxLayoutParts), {folder});
  std::sort(pngs.begin(), pngs.end());
  PartLayout layout;
  for (std::size_t i = 0; i < pngs.size(); ++i) {
    auto info = read_png_info(pngs[i].string());
    if (!info) return Unexpected{info.error()};
    if (i == 0) {
      layout.width = static_cast<int>(info->width);
      layout.height = static_cast<int>(info->height);
    } else if (static_cast<int>(info->width) != layout.width || static_cast<int>(info->height) != layout.height) {
      return make_error("layout.size", "layer is " + std::to_string(info->width) + " x " + std::to_string(info->height) +
                                           ", the first layer " + std::to_string(layout.width) + " x " +
                                           std::to_string(layout.height) + ": full-canvas layers must all be one size",
                        {pngs[i].string()});
    }
    LayoutPart part;
    part.png = pngs[i].string();
    part.name = pngs[i].stem().string();
    part.order = double(i);
    layout.parts.push_back(std::move(part));
  }
  return layout;
}

}  // namespace

Result<PartLayout> parse_part_layout(std::string_view text, const std::string& path) {
  auto json = detail::parse_json(text, path);
  if (!json) return Unexpected{json.error()};
  const Json& j = *json;
  if (!j.is_object())
    return detail::located_error("layout.root", "a layout is a JSON object {canvas, parts}", text, path, "");
  if (auto ok = known_keys(j, {"$schema", "canvas", "pivot", "parts"}, text, path, ""); !ok) return Unexpected{ok.error()};
  for (const char* key : {"canvas", "pivot"}) {
    if (const auto obj = j.find(key); obj != j.end() && obj->is_object()) {
      if (auto ok = known_keys(*obj, key == std::string_view("canvas") ? std::initializer_list<std::string_view>{"width", "height"}
                                                                        : std::initializer_list<std::string_view>{"x", "y"},
                               text, path, std::string("/") + key);
          !ok)
        return Unexpected{ok.error()};
    }
  }
  PartLayout layout;
  const auto canvas = j.find("canvas");
  if (canvas == j.end() || !canvas->is_object() || !canvas->contains("width") || !canvas->contains("height") ||
      !whole_number((*canvas)["width"], 1, double(kMaxImageSide)) ||
      !whole_number((*canvas)["height"], 1, double(kMaxImageSide)))
    return detail::located_error("layout.canvas",
                                 "\"canvas\" must be {width, height}: whole px, 1.." + std::to_string(kMaxImageSide),
                                 text, path, canvas == j.end() ? "" : "/canvas");
  layout.width = static_cast<int>((*canvas)["width"].get<double>());
  layout.height = static_cast<int>((*canvas)["height"].get<double>());
  if (const auto pivot = j.find("pivot"); pivot != j.end()) {
    const bool ok = pivot->is_object() && pivot->contains("x") && pivot->contains("y") && (*pivot)["x"].is_number() &&
                    (*pivot)["y"].is_number();
    if (ok) {
      layout.pivot_x = (*pivot)["x"].get<double>();
      layout.pivot_y = (*pivot)["y"].get<double>();
      layout.pivot_given = true;
    }
    if (!ok || !(layout.pivot_x >= 0 && layout.pivot_x <= 1 && layout.pivot_y >= 0 && layout.pivot_y <= 1))
      return detail::located_error("layout.pivot", "\"pivot\" must be {x, y}, each 0..1 of the canvas", text, path,
                                   "/pivot");
  }
  const auto parts = j.find("parts");
  if (parts == j.end() || !parts->is_array() || parts->empty() || parts->size() > kMaxLayoutParts)
    return detail::located_error("layout.parts",
                                 "\"parts\" must be an array of 1.." + std::to_string(kMaxLayoutParts) + " parts", text,
                                 path, parts == j.end() ? "" : "/parts");
  std::set<std::string> names;
  for (std::size_t i = 0; i < parts->size(); ++i) {
    auto part = parse_part((*parts)[i], i, text, path);
    if (!part) return Unexpected{part.error()};
    if (!names.insert(part->name).second)
      return detail::located_error("layout.name", "duplicate part name \"" + part->name + "\"", text, path,
                                   "/parts/" + std::to_string(i));
    layout.parts.push_back(std::move(*part));
  }
  return layout;
}

Result<PartLayout> read_part_layout(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return read_layer_folder(path);
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return Unexpected{text.error()};
  auto layout = parse_part_layout(*text, path);
  if (!layout) return layout;
  const fs::path folder = fs::path(path).parent_path();
  for (LayoutPart& part : layout->parts) {
    if (!part.png.empty() && fs::path(part.png).is_relative()) part.png = (folder / part.png).lexically_normal().string();
  }
  return layout;
}

}  // namespace rig2d
