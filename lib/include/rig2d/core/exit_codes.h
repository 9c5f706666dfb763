// SPDX-License-Identifier: Apache-2.0
// The exit codes every rig2d tool returns (README, "Exit codes"), here so that library code which
// classifies a failure (a batch job's outcome) and every front end speak the same numbers.
#pragma once

namespace rig2d {

enum Exit : int {
  kOk = 0,
  kFindings = 1,     // validation findings, or some inputs of a batch failed
  kUsage = 2,        // bad command line
  kBadInput = 3,     // an input is unreadable or malformed
  kWriteFailed = 4,  // an output could not be written
  kInternal = 70,    // an internal error (a bug): please report it
};

}  // namespace rig2d
