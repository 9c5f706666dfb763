// SPDX-License-Identifier: Apache-2.0
#include "convert_files.h"

#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "rig2d/asset/asset_index.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/asset/sprite_meta.h"

namespace rig2d::convert {
namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The slice name of `guid` in a texture's sidecar ("" when not a slice of it).
std::string slice_name(const std::string& sidecar, const std::string& guid) {
  auto text = read_file(sidecar, kMaxJsonFileBytes);
  if (!text) return "";
  const auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("sprites") || !doc["sprites"].is_array()) return "";
  for (const auto& s : doc["sprites"]) {
    if (s.is_object() && s.value("guid", "") == guid && s.contains("name") && s["name"].is_string()) return s["name"];
  }
  return "";
}

}  // namespace

std::optional<std::pair<int, int>> png_size(const std::string& path) {
  auto info = read_png_info(path);
  if (!info) return std::nullopt;
  return std::pair{info->width, info->height};
}

const char* format_name(Format f) {
  switch (f) {
    case Format::Rig: return "rig2d";
    case Format::Spine: return "spine";
    case Format::Godot: return "godot";
  }
  return "?";
}

std::optional<Format> format_of_path(const std::string& path) {
  const std::string p = lower(path);
  if (ends_with(p, ".rig2d.json")) return Format::Rig;
  if (ends_with(p, ".tscn")) return Format::Godot;
  if (ends_with(p, ".json")) return Format::Spine;
  return std::nullopt;
}

std::optional<Format> format_of_name(const std::string& name) {
  if (name == "rig2d" || name == "rig") return Format::Rig;
  if (name == "spine") return Format::Spine;
  if (name == "godot") return Format::Godot;
  return std::nullopt;
}

std::string output_stem(const std::string& path) {
  for (const char* suffix : {".rig2d.json", ".json", ".tscn"}) {
    if (ends_with(lower(path), suffix)) return path.substr(0, path.size() - std::string(suffix).size());
  }
  return path;
}

std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

std::string relative_to(const std::string& target, const std::string& folder) {
  std::error_code ec;
  const fs::path rel = fs::relative(fs::absolute(target, ec), fs::absolute(folder, ec), ec);
  return (ec || rel.empty() ? fs::path(target) : rel).generic_string();
}

std::function<std::optional<ExportSprite>(const std::string&)> sprites_from_assets(const std::string& assets_root,
                                                                                   const std::string& out_folder,
                                                                                   std::vector<std::string>* read_files) {
  auto scanned = AssetIndex::scan(assets_root);
  if (!scanned) return [](const std::string&) { return std::optional<ExportSprite>(); };
  auto index = std::make_shared<AssetIndex>(std::move(*scanned));
  return [index, out_folder, read_files](const std::string& guid) -> std::optional<ExportSprite> {
    const auto src = index->resolve_sprite(guid);
    if (!src) return std::nullopt;
    ExportSprite s;
    s.image = relative_to(src->texture_path, out_folder);
    s.file = src->texture_path;
    s.name = fs::path(src->texture_path).stem().string();
    if (read_files) {  // the export reads the texture (its size) and its sidecar: -o may be neither
      read_files->push_back(src->texture_path);
      read_files->push_back(src->texture_path + ".meta.json");
    }
    int w = src->sheet_w, h = src->sheet_h;
    if (w <= 0 || h <= 0 || src->whole_image) {
      const auto size = png_size(src->texture_path);
      if (!size) return std::nullopt;
      if (w <= 0 || h <= 0) w = size->first, h = size->second;
    }
    s.sheet_w = w, s.sheet_h = h;
    if (src->whole_image) {
      s.x = 0, s.y = 0, s.w = w, s.h = h;
    } else {
      s.x = src->x, s.y = src->y, s.w = src->w, s.h = src->h;
      if (std::string name = slice_name(src->texture_path + ".meta.json", guid); !name.empty()) s.name = name;
    }
    return s;
  };
}

std::function<std::optional<ExportSprite>(const std::string&)> sprites_from_sheets(
    const std::vector<TextureSheet>& sheets, const std::function<std::string(const std::string&)>& file_of,
    const std::string& out_folder) {
  return [sheets, file_of, out_folder](const std::string& guid) -> std::optional<ExportSprite> {
    for (const TextureSheet& sheet : sheets) {
      const std::string file = file_of(sheet.image);
      const std::string path = relative_to(file, out_folder);
      if (sheet.whole_image && guid == whole_image_sprite_guid(sheet.texture_guid)) {
        return ExportSprite{path, sheet.width, sheet.height, 0, 0, sheet.width, sheet.height,
                            fs::path(file).stem().string(), file};
      }
      for (const SliceOut& slice : sheet.slices) {
        if (slice.guid != guid || slice.x < 0) continue;
        return ExportSprite{path, sheet.width, sheet.height, slice.x, slice.y, slice.w, slice.h, slice.name, file};
      }
    }
    return std::nullopt;
  };
}

}  // namespace rig2d::convert
