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
#include "rig2d/skeleton/template_map.h"

namespace rig2d::cli {

// The library's preset of rig2d-autorig's defaults (AutorigOptions::tool_defaults()): every default
// below that shapes a rig is read from it, so the tool and a library user of the preset cannot differ.
const AutorigOptions& tool_defaults();
std::string axis_name(BoneAxis axis);
std::string pivot_text(double x, double y);

struct Options {
  std::vector<std::string> inputs;
  std::optional<std::string> output;
  std::optional<std::string> bones;
  bool keep_bones = false;
  std::string skeleton{skeleton_mode_name(tool_defaults().skeleton)};
  std::string template_spec;  // --template: a bundled name, a file, "auto" or "none"; empty = none
  bool template_arms = false;  // --template-arms: arms over the body refined from the colour edges
  std::optional<std::string> template_map;  // --template-map FILE
  ShapeSkeletonOptions shape = tool_defaults().shape;
  std::optional<int> bone_count = tool_defaults().bone_count;
  std::string axis = axis_name(tool_defaults().axis);
  std::string mesh{mesh_mode_name(tool_defaults().mesh)};
  std::string detail{mesh_detail_name(tool_defaults().detail)};
  OutlineMeshOptions outline = tool_defaults().outline;
  std::string weights{weights_mode_name(tool_defaults().weights)};
  std::optional<double> cols = tool_defaults().cols, rows = tool_defaults().rows;
  double cell_size = tool_defaults().cell_size;
  int alpha_threshold = tool_defaults().alpha_threshold;
  bool no_cull = !tool_defaults().cull;
  double falloff = tool_defaults().joint.falloff;
  double radius = tool_defaults().joint.radius;
  int max_influences = tool_defaults().heat.max_influences;  // --max-influences sets both schemes' limit
  double min_weight = tool_defaults().heat.min_weight;
  int smooth = tool_defaults().heat.smooth_passes;
  std::string pivot = pivot_text(tool_defaults().pivot_x, tool_defaults().pivot_y);
  bool write_meta = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::uint64_t memory_budget_mib = 2048;
  bool dry_run = false;
  bool force = false;
  bool check = false;
  std::optional<std::string> depfile;
  bool list_inputs = false;
  bool list_null = false;  // --null: --list-inputs ends each path with NUL
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

// --template as a spec and --template-map read (every template it names resolved). Returns kOk, or
// prints why and returns kUsage (an unknown bundled name given to --template) or kBadInput.
int prepare_templates(const Options& o, TemplateSpec& fallback, std::optional<TemplateMap>& map);

}  // namespace rig2d::cli
