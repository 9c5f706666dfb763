// SPDX-License-Identifier: Apache-2.0
// rig2d-pose's command line turned into a PoseJob: the rig and standard input, clip times, the 2.5D
// view, framing, sprite fields and which outputs to build. Usage errors are printed here.
#pragma once

#include <string>

#include "options.h"

namespace rig2d::pose_cli {

// Prints "rig2d-pose: error: MESSAGE [CODE]" and returns kUsage.
int usage(const std::string& message, const std::string& code);

// Fills o.job from the rest of the options (one rig; "-" read from standard input). Returns kOk,
// or the exit code after printing why the command line cannot run.
int prepare_job(Options& o);

}  // namespace rig2d::pose_cli
