// SPDX-License-Identifier: Apache-2.0
// rig2d-validate's command line, as parsed; shared by its modules (inputs, checking, report output).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/cli_common.h"
#include "rig2d/validate/report.h"

namespace rig2d::validate_cli {

struct Options {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string html_assets = "embed";  // --format html textures: embed or link
  std::string output;
  std::string assets;
  double weight_tolerance = 1e-4;
  bool strict = false;
  bool fix = false;
  bool deform = false;
  double deform_angle = 60;  // degrees
  bool deform_errors = false;
  std::string anim;  // --anim: a clip played on every rig by --deform (a file or a bundled clip)
  bool force = false;
  unsigned jobs = 1;
  std::string progress = "auto";
  std::string stdin_kind;  // empty: by --stdin-name's file name, else a rig
  std::string stdin_name;  // what reports call standard input; empty: <stdin>
  std::string config;
  bool no_config = false;
  std::string baseline;
  std::string write_baseline;
  std::optional<std::size_t> max_findings;
  std::string docs_url = kDefaultDocsBaseUri;
  bool junit_times = false;
  cli::Verbosity verbosity;
};

// What reports call standard input ("-"): --stdin-name, else <stdin>.
inline std::string stdin_display_name(const Options& o) { return o.stdin_name.empty() ? "<stdin>" : o.stdin_name; }

}  // namespace rig2d::validate_cli
