// SPDX-License-Identifier: Apache-2.0
#include "rig2d/validate/validate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>

#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/rig/rig_json.h"
#include "validate/checks.h"

namespace rig2d {
namespace fs = std::filesystem;

namespace detail {

const Json* member(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

bool is_url(std::string_view s) {
  return s.starts_with("http:") || s.starts_with("https:") || s.starts_with("data:") || s.starts_with("blob:");
}

bool looks_like_path(std::string_view s) {
  if (s.find('/') != std::string_view::npos || s.find('\\') != std::string_view::npos) return true;
  const std::size_t dot = s.rfind('.');
  if (dot == std::string_view::npos || dot + 1 >= s.size() || s.size() - dot > 6) return false;
  return std::all_of(s.begin() + static_cast<std::ptrdiff_t>(dot) + 1, s.end(),
                     [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; });
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  std::size_t n = 0;
  for (const char raw : s) {
    if (++n > 80) {
      out += "...";
      break;
    }
    const auto ch = static_cast<unsigned char>(raw);
    if (ch < 0x20) {
      static const char* kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    } else {
      out += raw;
    }
  }
  return out + "\"";
}

void Checker::add(Severity severity, std::string code, std::string message, std::string pointer) {
  if (report.diagnostics.size() >= kMaxFindingsPerFile) {
    ++suppressed;
    return;
  }
  report.diagnostics.push_back(Diagnostic{severity, std::move(code), std::move(message), Location{path, std::move(pointer)}});
}

void Checker::own(const std::string& guid, std::string pointer) {
  report.guids.push_back(OwnedGuid{ascii_lower(guid), Location{path, std::move(pointer)}});
}

void Checker::finish() {
  // line:col from the pointer; findings that already carry a line (the readers') keep theirs.
  std::vector<std::string> pointers;
  for (const Diagnostic& d : report.diagnostics) {
    if (d.where.line == 0) pointers.push_back(d.where.json_pointer);
  }
  for (const OwnedGuid& g : report.guids) pointers.push_back(g.where.json_pointer);
  if (!pointers.empty()) {
    const auto located = locate_pointers(text, pointers);
    std::size_t k = 0;
    for (Diagnostic& d : report.diagnostics) {
      if (d.where.line != 0) continue;
      d.where.line = located[k].first;
      d.where.column = located[k].second;
      ++k;
    }
    for (OwnedGuid& g : report.guids) {
      g.where.line = located[k].first;
      g.where.column = located[k].second;
      ++k;
    }
  }
  if (suppressed > 0) {
    report.diagnostics.push_back(Diagnostic{Severity::Note, "validate.findings.truncated",
                                            std::to_string(suppressed) + " more findings in this file are not listed (limit " +
                                                std::to_string(kMaxFindingsPerFile) + ")",
                                            Location{path, "", 1, 1}});
  }
}

}  // namespace detail

namespace {

bool ends_with_ci(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && detail::ascii_lower(s.substr(s.size() - suffix.size())) == suffix;
}

void add_reader_diagnostics(FileReport& report, std::vector<Diagnostic> diagnostics) {
  for (Diagnostic& d : diagnostics) {
    if (report.diagnostics.size() >= detail::kMaxFindingsPerFile) break;
    report.diagnostics.push_back(std::move(d));
  }
}

// The bones of a rig file as the engine's loader reads them (read_rig_normalized: "bone"+i for a
// missing name, parents kept as written).
std::optional<detail::RigBones> read_rig_bones(const std::string& file, std::string& why) {
  auto text = read_file(file, kMaxJsonFileBytes);
  if (!text) {
    why = text.error().message + " [" + text.error().code + "]";
    return std::nullopt;
  }
  auto rig = read_rig_normalized(*text, file);
  if (!rig) {
    why = rig.error().message + " [" + rig.error().code + "]";
    return std::nullopt;
  }
  detail::RigBones bones;
  bones.file = file;
  for (const Bone& b : rig->bones) {
    bones.names.push_back(b.name);
    bones.parents.push_back(b.parent);
  }
  return bones;
}

// True when `file` lies inside `root` (lexically, after resolving symlinks where they exist).
bool inside_root(const std::string& file, const std::string& root) {
  std::error_code ec;
  const fs::path f = fs::weakly_canonical(fs::path(file), ec);
  const fs::path r = fs::weakly_canonical(fs::path(root), ec);
  const auto rel = f.lexically_relative(r);
  return !ec && !rel.empty() && *rel.begin() != "..";
}

// The deformation check's findings, as findings of this file (line:col from their pointers).
void check_deform(const Rig& rig, const AssetIndex* assets, const ValidateOptions& vo, detail::Checker& c) {
  const DeformOptions& options = vo.deform_options;
  std::vector<Diagnostic> notes;
  std::vector<std::optional<AlphaMap>> alpha;
  if (assets) alpha = load_part_alpha(rig, *assets, notes);
  DeformReport deform = check_deformation(rig, alpha, options);
  for (Diagnostic& d : notes) c.add(d.severity, std::move(d.code), std::move(d.message), std::move(d.where.json_pointer));
  for (Diagnostic& d : deform.findings) {
    c.add(d.severity, std::move(d.code), std::move(d.message), std::move(d.where.json_pointer));
  }
  if (!vo.deform_clip) return;
  ClipDeformReport played = check_clip_deformation(rig, *vo.deform_clip, vo.deform_clip_name, options);
  for (Diagnostic& d : played.findings) c.add(d.severity, std::move(d.code), std::move(d.message), "");
}

}  // namespace

FileKind classify_path(std::string_view path) {
  const std::string name = fs::path(std::string(path)).filename().string();
  if (ends_with_ci(name, ".rig2d.json")) return FileKind::Rig;
  if (ends_with_ci(name, ".meta.local.json")) return FileKind::Unsupported;
  if (ends_with_ci(name, ".meta.json")) return FileKind::Sidecar;
  if (ends_with_ci(name, ".prefab.json")) return FileKind::Prefab;
  if (!ends_with_ci(name, ".json")) return FileKind::Unsupported;
  static constexpr std::string_view kOtherTypes[] = {
      ".atlas.json",      ".mesh.json", ".mat.json",   ".shader.json", ".particle.json", ".animset.json",
      ".spriteanim.json", ".anim.json", ".level.json", ".wave.json",   ".timeline.json", ".layout.json",
      // rig2d's own inputs: rig2d-autorig --bones and rig2d-pose --pose-file
      ".bones.json",      ".pose.json"};
  for (const auto suffix : kOtherTypes) {
    if (ends_with_ci(name, suffix)) return FileKind::Unsupported;
  }
  const std::string lower = detail::ascii_lower(name);
  if (lower == "manifest.json" || lower == "package.json" || lower == "package-lock.json" ||
      lower.starts_with("tsconfig")) {
    return FileKind::Unsupported;
  }
  return FileKind::Scene;
}

const char* file_kind_name(FileKind kind) {
  switch (kind) {
    case FileKind::Rig: return "rig";
    case FileKind::Sidecar: return "sidecar";
    case FileKind::Scene: return "scene";
    case FileKind::Prefab: return "prefab";
    default: return "other";
  }
}

std::size_t FileReport::count(Severity severity) const {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                [&](const Diagnostic& d) { return d.severity == severity; }));
}

struct Validator::Impl {
  ValidateOptions options;
  mutable std::mutex mutex;
  // Rig bones by file, for scene checks; nullopt + reason when the rig could not be read.
  mutable std::map<std::string, std::pair<std::optional<detail::RigBones>, std::string>> rigs;

  const detail::RigBones* rig_bones(const AssetEntry& entry, const AssetIndex& assets, std::string& why) const {
    if (!inside_root(entry.path, assets.root())) {
      why = "it lies outside the asset root " + detail::quote(assets.root());
      return nullptr;
    }
    std::lock_guard<std::mutex> lock(mutex);
    auto it = rigs.find(entry.path);
    if (it == rigs.end()) {
      std::string reason;
      auto bones = read_rig_bones(entry.path, reason);
      it = rigs.emplace(entry.path, std::make_pair(std::move(bones), std::move(reason))).first;
    }
    why = it->second.second;
    return it->second.first ? &*it->second.first : nullptr;
  }
};

Validator::Validator(ValidateOptions options) : impl_(std::make_unique<Impl>()) { impl_->options = options; }
Validator::~Validator() = default;
const ValidateOptions& Validator::options() const { return impl_->options; }

FileReport Validator::validate_text(std::string_view text, const std::string& path, FileKind kind,
                                    const AssetIndex* assets) const {
  FileReport report;
  report.path = path;
  report.kind = kind;
  detail::Checker c{text, path, assets, impl_->options, report};
  switch (kind) {
    case FileKind::Rig: {
      // Per-file defects come from the rig reader; the cross-file and mesh-quality checks follow.
      StrictRig strict = read_rig_strict(text, path, StrictOptions{impl_->options.weight_tolerance});
      add_reader_diagnostics(report, std::move(strict.diagnostics));
      if (strict.rig) {
        detail::check_rig(*strict.rig, c);
        if (impl_->options.deform) check_deform(*strict.rig, assets, impl_->options, c);
      } else if (auto json = detail::parse_json(text, path)) {
        detail::check_rig(*json, c);
        if (impl_->options.deform) {
          c.add(Severity::Note, "deform.skipped", "the deformation check needs a rig the reader accepts; fix the errors first", "");
        }
      }
      break;
    }
    case FileKind::Sidecar: {
      auto json = detail::parse_json(text, path);
      if (!json) {
        report.diagnostics.push_back(Diagnostic{Severity::Error, json.error().code, json.error().message, json.error().where});
        break;
      }
      detail::check_sidecar(*json, c);
      break;
    }
    case FileKind::Scene:
    case FileKind::Prefab: {
      SceneRead read = read_scene(text, path, kind == FileKind::Prefab ? SceneFlavor::Prefab : SceneFlavor::Scene);
      add_reader_diagnostics(report, std::move(read.diagnostics));
      if (!read.scene) break;
      const detail::RigLookup lookup = [&](const AssetEntry& entry, std::string& why) -> const detail::RigBones* {
        return assets ? impl_->rig_bones(entry, *assets, why) : nullptr;
      };
      detail::check_scene(*read.scene, c, lookup);
      break;
    }
    case FileKind::Unsupported: break;
  }
  c.finish();
  if (impl_->options.strict) apply_strict(report);
  return report;
}

FileReport Validator::validate_file(const std::string& path, const AssetIndex* assets) const {
  const FileKind kind = classify_path(path);
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) {
    FileReport report;
    report.path = path;
    report.kind = kind;
    report.unreadable = true;
    report.diagnostics.push_back(
        Diagnostic{Severity::Error, text.error().code, "cannot read the file: " + text.error().message, Location{path}});
    return report;
  }
  return validate_text(*text, path, kind, assets);
}

void check_duplicate_guids(std::vector<FileReport>& reports, const std::vector<const AssetIndex*>& indexes) {
  std::error_code ec;
  const auto canonical = [&](const std::string& p) { return fs::weakly_canonical(fs::path(p), ec).string(); };
  // guid -> claiming files (canonical), in report order; a file's own repeated claim counts too.
  std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> claims;
  std::vector<std::string> canon(reports.size());
  for (std::size_t r = 0; r < reports.size(); ++r) {
    canon[r] = canonical(reports[r].path);
    for (std::size_t g = 0; g < reports[r].guids.size(); ++g) claims[reports[r].guids[g].guid].emplace_back(r, g);
  }
  for (std::size_t r = 0; r < reports.size(); ++r) {
    for (const OwnedGuid& owned : reports[r].guids) {
      std::vector<std::string> others;
      for (const auto& [r2, g2] : claims[owned.guid]) {
        if (r2 == r && reports[r].guids[g2].where.json_pointer == owned.where.json_pointer) continue;
        others.push_back(r2 == r ? owned.where.json_pointer.empty() ? reports[r].path : reports[r2].guids[g2].where.json_pointer
                                 : reports[r2].path);
      }
      const AssetIndex* index = r < indexes.size() ? indexes[r] : nullptr;
      if (index) {
        // entries() is sorted by guid, so a GUID's claims are adjacent from find() on.
        const std::vector<AssetEntry>& entries = index->entries();
        const AssetEntry* first = index->find(owned.guid);
        for (std::size_t k = first ? static_cast<std::size_t>(first - entries.data()) : entries.size();
             k < entries.size() && entries[k].guid == owned.guid; ++k) {
          const AssetEntry& e = entries[k];
          if (e.kind == AssetKind::Sprite) continue;  // a derived sprite GUID is not a claim
          const std::string owner = canonical(e.owner_file);
          if (owner == canon[r]) continue;
          bool listed = false;
          for (const auto& [r2, g2] : claims[owned.guid]) listed = listed || canon[r2] == owner;
          if (!listed) others.push_back(e.owner_file);
        }
      }
      if (others.empty()) continue;
      std::sort(others.begin(), others.end());
      others.erase(std::unique(others.begin(), others.end()), others.end());
      std::string list;
      for (std::size_t k = 0; k < others.size() && k < 5; ++k) list += (k ? ", " : "") + detail::quote(others[k]);
      if (others.size() > 5) list += ", ...";
      reports[r].diagnostics.push_back(
          Diagnostic{Severity::Error, "guid.duplicate",
                     "GUID " + owned.guid + " is also claimed by " + list +
                         ": every asset needs its own GUID (references would resolve to only one of them); give this one a new GUID",
                     owned.where});
    }
  }
}

void apply_strict(FileReport& report) {
  for (Diagnostic& d : report.diagnostics) {
    if (d.severity == Severity::Warning) d.severity = Severity::Error;
  }
}

}  // namespace rig2d
