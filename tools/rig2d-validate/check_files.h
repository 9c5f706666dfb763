// SPDX-License-Identifier: Apache-2.0
// rig2d-validate's checking pass: every file on --jobs threads with a progress line, --fix applied
// to rigs first.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "options.h"
#include "rig2d/validate/validate.h"

namespace rig2d::validate_cli {

// Checks every file on o.jobs threads, with the progress line. The reports keep input order.
// "-" is checked from stdin_text; write_failed is set when a --fix could not be written.
std::vector<FileReport> check_all(const Options& o, const std::vector<std::string>& files,
                                  const std::vector<const AssetIndex*>& file_index, const std::string& stdin_text,
                                  std::atomic<bool>& write_failed);

}  // namespace rig2d::validate_cli
