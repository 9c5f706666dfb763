// SPDX-License-Identifier: Apache-2.0
// rig2d-validate's inputs: the files to check (paths and folder walks), the config and baseline, and
// the asset index each file is checked against. Errors are printed here; callers map them to exits.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "options.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/validate/policy.h"

namespace rig2d::validate_cli {

struct Input {
  std::string file;
  std::string origin;  // the folder argument it was found under, else the file's own folder
  bool named = false;  // named on the command line (not found by a folder walk)
};

// Expands PATHs into a sorted, de-duplicated file list; missing paths are kept so they are
// reported as unreadable.
std::vector<Input> collect(const std::vector<std::string>& paths);

// The files the run itself reads (config, baseline) and the report or baseline of an earlier run at
// -o / --write-baseline are never checked as scenes when a folder walk finds them. Anything else found
// at an output path (a rig, a sidecar, a scene) stays an input, so the output safety check refuses it.
// Named on the command line they are checked.
std::vector<Input> without_own_files(std::vector<Input> inputs, const Options& o);

// The config: --config, else the nearest kValidateConfigName in the first input's folder or above.
std::optional<std::string> find_config(const Options& o, const std::vector<std::string>& paths);

// Read and parsed; nullopt (the error printed) when the file is unusable.
std::optional<ValidateConfig> load_config(const std::string& path);
std::optional<Baseline> load_baseline(const std::string& path);

// One asset index per root, scanned before any file is checked. Standard input uses --assets only.
struct Indexes {
  std::map<std::string, std::unique_ptr<AssetIndex>> roots;
  std::vector<const AssetIndex*> per_file;
};
Indexes index_roots(const Options& o, const std::vector<Input>& inputs);

// The report and baseline must not land on any file this run reads (a checked file, one its index
// read, the config or the baseline).
bool outputs_safe(const Options& o, const std::vector<std::string>& files, const Indexes& indexes);

}  // namespace rig2d::validate_cli
