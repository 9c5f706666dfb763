// SPDX-License-Identifier: Apache-2.0
// rig2d-pose's outputs: --list-inputs, and every file of a finished job written together (frames,
// sheet, APNG, vertex dump), then the depfile.
#pragma once

#include "options.h"

namespace rig2d::pose_cli {

// --list-inputs: every file the job read, one per line on stdout (standard input left out).
int list_inputs(const PoseResult& result, bool null);

// Checks every output against the inputs and each other, writes all or none (folders created),
// then the depfile. Returns the exit code; errors are printed.
int write_outputs(const Options& o, PoseResult& result);

}  // namespace rig2d::pose_cli
