// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig's sprite batch around the run: the command line's inputs checked and planned into
// jobs (batch.h), --list-inputs, and the --depfile written once the jobs are done.
#pragma once

#include <vector>

#include "rig2d/autorig/template_choice.h"
#include "rig2d/build/batch.h"
#include "options.h"

namespace rig2d::cli {

// The jobs of this run: its inputs planned, their outputs checked, then only --shard's share. Returns
// kOk, or prints why and returns kUsage or kBadInput. Outputs may not be any file the run reads,
// the template map and template files included.
int plan_batch(const Options& o, const TemplateSources& templates, std::vector<Job>& jobs);

// A batch (several inputs, a folder, or several rigs) fails with kFindings when any job fails; a
// single rig fails with its own exit code.
bool is_batch(const Options& o, const std::vector<Job>& jobs);

// --list-inputs: prints every file the jobs read (the template map and template files included), each
// once, in job order, one a line (NUL-ended with `null`); returns kOk, or kBadInput for a path holding
// a newline without `null`.
int list_inputs(const std::vector<Job>& jobs, const TemplateSources& templates, bool null);

// --depfile (not with --check or --dry-run): one rule per rig. Returns kOk, or kWriteFailed (printed).
int write_depfile(const Options& o, const std::vector<Job>& jobs, const TemplateSources& templates);

}  // namespace rig2d::cli
