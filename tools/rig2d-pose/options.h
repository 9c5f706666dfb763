// SPDX-License-Identifier: Apache-2.0
// rig2d-pose's command line, as parsed; the PoseJob part is filled in by job_options.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/cli_common.h"
#include "rig2d/preview/pose_job.h"

namespace rig2d::pose_cli {

struct Options {
  PoseJob job;
  std::string output, sheet, apng, dump;
  bool rom = false;  // play the rig's range-of-motion clip
  double rom_angle = 45, rom_seconds = 1;
  std::vector<std::string> rom_bones;
  std::string save_clip;
  std::vector<std::string> times;
  std::string size, tint, background = "transparent";
  std::optional<double> scale, fps, opacity;
  std::string depfile;
  std::string weight_ramp = "viridis";
  std::vector<std::string> rigs;
  std::string contact_sheet;
  std::string html;                   // --html: the review page
  std::string html_assets = "embed";  // embed (data: URIs) or link (paths beside the page)
  int tile = 192;
  std::string contact_clip;           // --contact-clip: a clip's frames on every rig of the sheet
  int contact_frames = 4;
  std::string view = "flat2d", anchor = "bottom", facing = "cylindrical";
  double heading = 0, yaw = 0, pitch = 20;
  bool no_grid = false;
  std::optional<double> distance;
  bool list_inputs = false;
  bool list_null = false;  // --null: --list-inputs ends each path with NUL
  cli::Verbosity verbosity;
};

}  // namespace rig2d::pose_cli
