// SPDX-License-Identifier: Apache-2.0
#include "rig2d/asset/asset_index.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <system_error>

#include "json/json_util.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace fs = std::filesystem;
using detail::Json;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && lower(s.substr(s.size() - suffix.size())) == suffix;
}

bool is_texture_file(std::string_view path) {
  return ends_with(path, ".png") || ends_with(path, ".jpg") || ends_with(path, ".jpeg") || ends_with(path, ".webp");
}

// JSON asset kinds by suffix, in the engine's classifier order (ENGINE-SPEC §1.5).
AssetKind json_kind(std::string_view path) {
  static constexpr std::string_view kOtherSuffixes[] = {
      ".atlas.json", ".mesh.json", ".mat.json",   ".prefab.json", ".shader.json",  ".particle.json",
      ".animset.json", ".spriteanim.json"};
  for (const auto suffix : kOtherSuffixes) {
    if (ends_with(path, suffix)) return AssetKind::OtherJson;
  }
  if (ends_with(path, ".rig2d.json")) return AssetKind::Rig;
  if (ends_with(path, ".anim.json")) return AssetKind::Animation;
  if (ends_with(path, ".level.json") || ends_with(path, ".wave.json") || ends_with(path, ".timeline.json")) {
    return AssetKind::OtherJson;
  }
  return AssetKind::Scene;
}

bool is_ignored_json(std::string_view path) {
  const std::string name = fs::path(std::string(path)).filename().string();
  return name == "manifest.json" || ends_with(name, ".layout.json") || ends_with(name, ".meta.local.json") ||
         ends_with(name, ".meta.json");
}

// The texture usage type of a sidecar (§1.4): explicit `type`, else png/webp formats mean 2d.
std::string texture_type(const Json& meta) {
  if (const auto it = meta.find("type"); it != meta.end() && it->is_string()) return it->get<std::string>();
  if (const auto tex = meta.find("texture"); tex != meta.end() && tex->is_object()) {
    if (const auto fmt = tex->find("format"); fmt != tex->end() && fmt->is_string()) {
      const std::string f = fmt->get<std::string>();
      if (f == "webp" || f == "png") return "2d";
    }
  }
  return "3d";
}

int int_field(const Json& obj, const char* key) {
  if (!obj.is_object()) return 0;
  const auto it = obj.find(key);
  if (it == obj.end() || !it->is_number()) return 0;
  const double v = it->get<double>();
  if (!(v > -1e9 && v < 1e9)) return 0;
  return static_cast<int>(v);
}

Diagnostic make_diag(Severity severity, std::string code, std::string message, std::string file,
                     std::string pointer = {}) {
  return Diagnostic{severity, std::move(code), std::move(message), Location{std::move(file), std::move(pointer)}};
}

// Every regular file under root, sorted: directory order differs between machines and the index
// must not. Symlinks are not followed, so nothing outside the root is ever read.
std::vector<std::string> list_files(const std::string& root) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_symlink(ec)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(it->path().generic_string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A sprite slice of a sidecar, in AssetIndex's private Slice layout.
struct SliceRow {
  std::string guid, texture_path, texture_guid;
  int x, y, w, h, sheet_w, sheet_h;
};

// What one file adds to the index.
struct FileFacts {
  std::vector<AssetEntry> entries;
  std::vector<SliceRow> slices;
  std::vector<Diagnostic> diagnostics;
};

// The file's JSON, or nullopt; a sidecar that cannot be read or parsed is reported (other JSON
// assets are reported by whoever validates them).
std::optional<Json> read_json_asset(const std::string& file, bool sidecar, FileFacts& facts) {
  auto text = read_file(file, kMaxJsonFileBytes);
  if (!text) {
    if (sidecar) facts.diagnostics.push_back(make_diag(Severity::Error, text.error().code, text.error().message, file));
    return std::nullopt;
  }
  auto json = detail::parse_json(*text, file);
  if (!json) {
    if (sidecar) {
      Diagnostic d = make_diag(Severity::Error, "asset.meta.parse", json.error().message, file);
      d.where.line = json.error().where.line;
      d.where.column = json.error().where.column;
      facts.diagnostics.push_back(std::move(d));
    }
    return std::nullopt;
  }
  return std::move(*json);
}

// The sprite slices of a texture sidecar (`guid` is the texture's).
void read_slices(const Json& doc, const Json& sprites, const std::string& file, const std::string& asset,
                 const std::string& guid, FileFacts& facts) {
  const auto sheet = doc.find("spriteSheet");
  const int sheet_w = sheet != doc.end() ? int_field(*sheet, "width") : 0;
  const int sheet_h = sheet != doc.end() ? int_field(*sheet, "height") : 0;
  for (std::size_t i = 0; i < sprites.size(); ++i) {
    const Json& s = sprites[i];
    const auto g = s.is_object() ? s.find("guid") : s.end();
    if (!s.is_object() || g == s.end() || !g->is_string() || !is_guid(g->get_ref<const std::string&>())) {
      facts.diagnostics.push_back(make_diag(Severity::Error, "asset.meta.slice", "sprite slice has no GUID \"guid\"",
                                            file, "/sprites/" + std::to_string(i)));
      continue;
    }
    const auto rect = s.find("rect");
    const Json empty = Json::object();
    const Json& r = rect != s.end() ? *rect : empty;
    const std::string slice_guid = lower(g->get<std::string>());
    facts.entries.push_back({slice_guid, asset, AssetKind::Slice, file});
    facts.slices.push_back({slice_guid, asset, guid, int_field(r, "x"), int_field(r, "y"), int_field(r, "w"),
                            int_field(r, "h"), sheet_w, sheet_h});
  }
}

// A sidecar: its asset's GUID; for a texture also its whole-image sprite (2d/ui types) and slices.
void read_sidecar(const Json& doc, bool has_guid, const std::string& file, FileFacts& facts) {
  const std::string asset = file.substr(0, file.size() - std::string_view(".meta.json").size());
  if (!has_guid) {
    facts.diagnostics.push_back(make_diag(Severity::Error, "asset.meta.id",
                                          "sidecar has no GUID \"id\"; add {\"version\": 2, \"id\": \"<guid>\"}",
                                          file, "/id"));
    return;
  }
  const std::string guid = lower(doc.find("id")->get<std::string>());
  const bool texture = is_texture_file(asset);
  facts.entries.push_back({guid, asset, texture ? AssetKind::Texture : AssetKind::OtherBinary, file});
  if (!texture) return;
  const std::string type = texture_type(doc);
  const auto sprites = doc.find("sprites");
  const bool has_slices = sprites != doc.end() && sprites->is_array() && !sprites->empty();
  if (type == "2d" || type == "ui") {
    facts.entries.push_back({derive_guid("sprite:" + guid), asset, AssetKind::Sprite, file});
  }
  if (has_slices) read_slices(doc, *sprites, file, asset, guid, facts);
}

// What one file of the root adds: a JSON asset its GUID, a sidecar its asset's; others nothing.
FileFacts read_file_facts(const std::string& file) {
  FileFacts facts;
  const bool sidecar = ends_with(file, ".meta.json") && !ends_with(file, ".meta.local.json");
  const bool json_asset = ends_with(file, ".json") && !is_ignored_json(file);
  if (!sidecar && !json_asset) return facts;
  const std::optional<Json> json = read_json_asset(file, sidecar, facts);
  if (!json) return facts;
  const Json& doc = *json;
  const auto id_it = doc.is_object() ? doc.find("id") : doc.end();
  const bool has_guid = doc.is_object() && id_it != doc.end() && id_it->is_string() &&
                        is_guid(id_it->get_ref<const std::string&>());
  if (sidecar) {
    read_sidecar(doc, has_guid, file, facts);
  } else if (has_guid) {
    facts.entries.push_back({lower(id_it->get<std::string>()), file, json_kind(file), file});
  }
  return facts;
}

// A GUID owned by two different assets (entries sorted by guid, then owner).
void report_duplicate_guids(const std::vector<AssetEntry>& entries, std::vector<Diagnostic>& diagnostics) {
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const AssetEntry& prev = entries[i - 1];
    const AssetEntry& cur = entries[i];
    if (prev.guid == cur.guid && prev.path != cur.path) {
      diagnostics.push_back(make_diag(
          Severity::Error, "asset.guid.duplicate",
          "GUID " + cur.guid + " is also owned by " + prev.owner_file + "; give one of them a new GUID",
          cur.owner_file, "/id"));
    }
  }
}

}  // namespace

Result<AssetIndex> AssetIndex::scan(const std::string& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return make_error("asset.root", "asset root is not a folder", {root});
  }
  AssetIndex index;
  index.root_ = root;
  for (const std::string& file : list_files(root)) {
    FileFacts facts = read_file_facts(file);
    for (AssetEntry& e : facts.entries) index.entries_.push_back(std::move(e));
    for (Diagnostic& d : facts.diagnostics) index.diagnostics_.push_back(std::move(d));
    for (SliceRow& r : facts.slices) {
      index.slices_.push_back({std::move(r.guid), std::move(r.texture_path), std::move(r.texture_guid), r.x, r.y, r.w,
                               r.h, r.sheet_w, r.sheet_h});
    }
  }
  std::stable_sort(index.entries_.begin(), index.entries_.end(), [](const AssetEntry& a, const AssetEntry& b) {
    return a.guid != b.guid ? a.guid < b.guid : a.owner_file < b.owner_file;
  });
  report_duplicate_guids(index.entries_, index.diagnostics_);
  std::sort(index.slices_.begin(), index.slices_.end(), [](const Slice& a, const Slice& b) {
    return a.guid != b.guid ? a.guid < b.guid : a.texture_path < b.texture_path;
  });
  return index;
}

const AssetEntry* AssetIndex::find(std::string_view guid) const {
  const std::string key = lower(guid);
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                   [](const AssetEntry& e, const std::string& k) { return e.guid < k; });
  return it != entries_.end() && it->guid == key ? &*it : nullptr;
}

bool AssetIndex::contains(const std::string& path) const {
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(fs::absolute(root_, ec), ec);
  if (ec) return false;
  const fs::path file = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return false;
  const fs::path rel = file.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

std::optional<SpriteSource> AssetIndex::resolve_sprite(std::string_view guid) const {
  const AssetEntry* entry = find(guid);
  if (!entry) return std::nullopt;
  SpriteSource src;
  src.texture_path = entry->path;
  switch (entry->kind) {
    case AssetKind::Texture:
      src.texture_guid = entry->guid;
      src.raw_texture = true;
      return src;
    case AssetKind::Sprite: {
      // The owning sidecar's id is the texture GUID.
      for (const AssetEntry& e : entries_) {
        if (e.kind == AssetKind::Texture && e.path == entry->path) src.texture_guid = e.guid;
      }
      return src;
    }
    case AssetKind::Slice: {
      const std::string key = lower(guid);
      const auto it = std::lower_bound(slices_.begin(), slices_.end(), key,
                                       [](const Slice& s, const std::string& k) { return s.guid < k; });
      if (it == slices_.end() || it->guid != key) return std::nullopt;
      src.texture_guid = it->texture_guid;
      src.whole_image = false;
      src.x = it->x;
      src.y = it->y;
      src.w = it->w;
      src.h = it->h;
      src.sheet_w = it->sheet_w;
      src.sheet_h = it->sheet_h;
      return src;
    }
    default: return std::nullopt;
  }
}

std::string default_asset_root(const std::string& file) {
  std::error_code ec;
  fs::path start = fs::absolute(fs::path(file), ec).lexically_normal();
  if (ec) start = fs::path(file);
  fs::path dir = fs::is_directory(start, ec) ? start : start.parent_path();
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    if (p.filename() == "assets") return p.string();
    if (p == p.root_path()) break;
  }
  return dir.string();
}

std::optional<std::string> path_under(const std::string& file, const std::string& folder) {
  std::error_code ec;
  const fs::path rel = fs::absolute(fs::path(file), ec)
                           .lexically_normal()
                           .lexically_relative(fs::absolute(fs::path(folder), ec).lexically_normal());
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  return rel.generic_string();
}

std::optional<std::string> path_under_assets(const std::string& file) {
  const std::string root = default_asset_root(file);
  if (fs::path(root).filename() != "assets") return std::nullopt;
  return path_under(file, root);
}

}  // namespace rig2d
