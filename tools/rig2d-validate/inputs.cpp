// SPDX-License-Identifier: Apache-2.0
#include "inputs.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include <spdlog/spdlog.h>

#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/validate/validate.h"

namespace rig2d::validate_cli {
namespace fs = std::filesystem;

std::vector<Input> collect(const std::vector<std::string>& paths) {
  std::vector<Input> out;
  std::set<std::string> seen;
  std::string origin;
  const auto add = [&](const std::string& file, bool named) {
    std::error_code ec;
    const std::string key = fs::weakly_canonical(fs::path(file), ec).string();
    if (seen.insert(ec ? file : key).second) out.push_back({file, origin, named});
  };
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path == "-") {
      if (seen.insert("-").second) out.push_back({"-", "", true});
      continue;
    }
    if (!fs::is_directory(path, ec)) {
      if (fs::exists(path, ec) && classify_path(path) == FileKind::Unsupported) {
        spdlog::warn("{}: skipped: not a rig, sidecar or scene file", printable(path));
        continue;
      }
      origin = fs::path(path).has_parent_path() ? fs::path(path).parent_path().string() : std::string(".");
      add(path, true);
      continue;
    }
    origin = path;
    const FolderScan found = find_checkable_files(path);
    if (!found.error.empty()) spdlog::warn("{}: could not list everything: {}", printable(path), found.error);
    for (const std::string& f : found.files) add(f, false);
  }
  return out;
}

namespace {

// A report or baseline this tool wrote (JSON with "tool", SARIF, GitLab Code Quality): a later run
// may replace it. Anything else at an output path is somebody's file.
bool holds_own_report(const std::string& path) {
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return false;
  const auto doc = nlohmann::json::parse(*text, nullptr, false);
  const auto tool_is_ours = [](const nlohmann::json& j) { return j.is_string() && j == "rig2d-validate"; };
  if (doc.is_object() && doc.contains("tool")) return tool_is_ours(doc["tool"]);
  if (doc.is_object() && doc.contains("runs") && doc["runs"].is_array() && doc["runs"].size() == 1) {
    const auto name = doc["runs"][0].value(nlohmann::json::json_pointer("/tool/driver/name"), nlohmann::json());
    return tool_is_ours(name);
  }
  if (doc.is_array()) {
    return std::all_of(doc.begin(), doc.end(), [](const nlohmann::json& issue) {
      return issue.is_object() && issue.contains("check_name") && issue.contains("fingerprint");
    });
  }
  return false;
}

}  // namespace

std::vector<Input> without_own_files(std::vector<Input> inputs, const Options& o) {
  std::set<std::string> own, outputs;
  std::error_code ec;
  for (const std::string* f : {&o.baseline, &o.config}) {
    if (!f->empty()) own.insert(fs::weakly_canonical(*f, ec).string());
  }
  for (const std::string* f : {&o.output, &o.write_baseline}) {
    if (!f->empty()) outputs.insert(fs::weakly_canonical(*f, ec).string());
  }
  // A walk that finds the report or baseline of an earlier run skips it; a rig, sidecar or scene found
  // at an output path stays an input, so the output safety check refuses to replace it.
  std::erase_if(inputs, [&](const Input& in) {
    if (in.named) return false;
    const std::string key = fs::weakly_canonical(in.file, ec).string();
    return own.count(key) > 0 || (outputs.count(key) > 0 && holds_own_report(in.file));
  });
  return inputs;
}

std::optional<std::string> find_config(const Options& o, const std::vector<std::string>& paths) {
  if (!o.config.empty()) return o.config;
  if (o.no_config) return std::nullopt;
  std::error_code ec;
  fs::path dir = fs::current_path(ec);
  for (const std::string& path : paths) {
    const std::string& p = path == "-" ? o.stdin_name : path;  // standard input is where --stdin-name says
    if (p.empty()) continue;
    dir = fs::absolute(fs::is_directory(p, ec) ? fs::path(p) : fs::path(p).parent_path(), ec);
    break;
  }
  return find_validate_config(dir.string());
}

namespace {

template <typename T, typename Parse>
std::optional<T> load(const std::string& path, Parse parse) {
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) {
    cli::print_error(text.error());
    return std::nullopt;
  }
  auto parsed = parse(*text, path);
  if (!parsed) {
    cli::print_error(parsed.error());
    return std::nullopt;
  }
  return std::move(*parsed);
}

// Default root: the nearest "assets" folder above the file, else the folder argument it came from.
// Standard input has no folder: the nearest "assets" folder above --stdin-name's path, else none ("").
std::string asset_root_of(const Options& o, const Input& in) {
  if (!o.assets.empty()) return o.assets;
  if (in.file == "-") {
    const std::string root = o.stdin_name.empty() ? std::string() : default_asset_root(o.stdin_name);
    return fs::path(root).filename() == "assets" ? root : std::string();
  }
  std::string root = default_asset_root(in.file);
  if (fs::path(root).filename() != "assets") root = in.origin;
  return root;
}

std::unique_ptr<AssetIndex> scan_root(const std::string& root) {
  auto scanned = AssetIndex::scan(root);
  if (!scanned) {
    cli::print_error(scanned.error());
    return nullptr;
  }
  auto index = std::make_unique<AssetIndex>(std::move(*scanned));
  spdlog::debug("asset root {}: {} GUIDs", printable(root), index->entries().size());
  return index;
}

}  // namespace

std::optional<ValidateConfig> load_config(const std::string& path) {
  return load<ValidateConfig>(path, parse_validate_config);
}

std::optional<Baseline> load_baseline(const std::string& path) { return load<Baseline>(path, parse_baseline); }

Indexes index_roots(const Options& o, const std::vector<Input>& inputs) {
  Indexes out;
  out.per_file.assign(inputs.size(), nullptr);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string root = asset_root_of(o, inputs[i]);
    if (root.empty()) continue;
    auto it = out.roots.find(root);
    if (it == out.roots.end()) it = out.roots.emplace(root, scan_root(root)).first;
    out.per_file[i] = it->second.get();
  }
  return out;
}

bool outputs_safe(const Options& o, const std::vector<std::string>& files, const Indexes& indexes) {
  std::vector<std::string> outputs;
  for (const std::string* out : {&o.output, &o.write_baseline}) {
    if (!out->empty()) outputs.push_back(*out);
  }
  if (outputs.empty()) return true;
  std::vector<std::string> read = files;
  // The config and the baseline are read too (the baseline may be rewritten by --write-baseline).
  if (const auto config = find_config(o, o.paths)) read.push_back(*config);
  if (!o.baseline.empty() && o.write_baseline.empty()) read.push_back(o.baseline);
  for (const auto& [root, index] : indexes.roots) {
    if (!index) continue;
    for (const AssetEntry& e : index->entries()) {
      read.push_back(e.path);
      read.push_back(e.owner_file);
    }
  }
  auto safe = check_output_paths(read, outputs);
  if (!safe) cli::print_error(safe.error());
  return static_cast<bool>(safe);
}

}  // namespace rig2d::validate_cli
