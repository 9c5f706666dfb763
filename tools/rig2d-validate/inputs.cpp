// SPDX-License-Identifier: Apache-2.0
#include "inputs.h"

#include <filesystem>
#include <set>

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

std::vector<Input> without_own_files(std::vector<Input> inputs, const Options& o) {
  std::set<std::string> own;
  std::error_code ec;
  for (const std::string* f : {&o.output, &o.baseline, &o.write_baseline, &o.config}) {
    if (!f->empty()) own.insert(fs::weakly_canonical(*f, ec).string());
  }
  std::erase_if(inputs, [&](const Input& in) {
    return !in.named && own.count(fs::weakly_canonical(in.file, ec).string()) > 0;
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
