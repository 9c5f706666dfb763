// SPDX-License-Identifier: Apache-2.0
// --slice-sheets: sprite sheets without slices get their islands as slices before the batch runs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rig2d/build/batch.h"
#include "options.h"

namespace rig2d::cli {

// --slice-sheets: writes the islands of every whole-image job's PNG that looks like a sheet into its
// sidecar as slices (rig2d/autorig/sheet_slicing.h); with --dry-run only says which it would. A PNG
// whose rig is current and whose stamp says it was no sheet is not decoded again (unless --force;
// `options_key` and `version` make the digest, as for the jobs). A PNG or sidecar that cannot be read
// is left to its job to report. Sets `sliced` when a sidecar changed (the jobs must then be planned
// again). Returns kOk, or kWriteFailed (printed) when a sidecar cannot be written.
int slice_sheets(const Options& o, int alpha_threshold, const std::string& options_key, const std::string& version,
                 const std::vector<Job>& jobs, bool& sliced);

}  // namespace rig2d::cli
