// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig's command line: the options as parsed, their declarations (the text and order of
// --help) and their check, which turns them into the library's AutorigOptions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/cli_common.h"
#include "rig2d/autorig/autorig.h"

namespace rig2d::cli {

struct Options {
  std::vector<std::string> inputs;
  std::optional<std::string> output;
  std::optional<std::string> bones;
  bool keep_bones = false;
  std::string skeleton = "shape";
  std::string template_spec;  // --template: a bundled name, a file, or "auto"; empty = none
  ShapeSkeletonOptions shape;
  std::optional<int> bone_count;
  std::string axis = "auto";
  std::string mesh = "outline";
  OutlineMeshOptions outline;
  std::string weights = "heat";
  std::optional<double> cols, rows;
  double cell_size = kDefaultCellSize;
  int alpha_threshold = 8;
  bool no_cull = false;
  double falloff = 2;
  double radius = 0;
  int max_influences = 4;
  double min_weight = 0.01;
  int smooth = 0;
  std::string pivot = "0.5,0.5";
  bool write_meta = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::uint64_t memory_budget_mib = 2048;
  bool dry_run = false;
  bool force = false;
  bool check = false;
  std::optional<std::string> depfile;
  bool list_inputs = false;
  std::optional<std::string> shard;
  std::optional<std::string> base;
  std::optional<std::string> slice;
  bool slice_sheets = false;
  std::optional<std::string> layout;
  std::string groups = "parts";            // layered documents: parts | flatten
  std::optional<std::string> layers_out;   // layered documents: a PNG per part here instead of an atlas
  int atlas_padding = 2;
  bool atlas_pot = false;
  Verbosity verbosity;
};

// Declares every option, --version, and which options stay out of the digest (not configurable).
void setup(CLI::App& app, Options& o);

// The library's options from the command line, checked, and the bones file (when given) read once up
// front, so a bad shared bones file fails every sprite the same way. Returns kOk, or prints why and
// returns kUsage (a bad option) or kBadInput (an unreadable bones file).
int prepare_autorig_options(const Options& o, AutorigOptions& options);

}  // namespace rig2d::cli
