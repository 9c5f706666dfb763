// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig's batch plumbing: which PNGs go to which rig files, and a deterministic thread pool
// that runs rig2d::autorig_file on each and commits the results atomically.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/memory_budget.h"
#include "rig2d/pipeline/autorig_file.h"

namespace rig2d::cli {

struct Job {
  AutorigFileRequest request;
  std::string display;  // the PNG path as the user will recognise it
};

// Maps inputs (PNG files and folders searched recursively for *.png, in sorted order) to jobs.
// `output`: for one file input, the rig file (or an existing folder / a path ending in '/' to put it
// in); otherwise the output folder, mirroring each input folder's layout. Without it rigs go next to
// their PNG. Every job gets `bones` (a bones file), `keep_bones` and `write_meta`.
// Errors: autorig.input (a path that does not exist), autorig.output.duplicate (two PNGs, one rig).
Result<std::vector<Job>> plan_jobs(const std::vector<std::string>& inputs, const std::optional<std::string>& output,
                                   const std::optional<std::string>& bones, bool keep_bones, bool write_meta);

// The output-safety rule over the whole batch (rig2d/io/output_safety.h): no rig (or, with
// write_meta, sidecar) may be a PNG, sidecar or bones file the batch reads, or another job's output.
// Errors: io.output.is_input, io.output.collision.
Result<void> check_job_outputs(const std::vector<Job>& jobs);

enum class Status { Written, WouldWrite, UpToDate, Failed };

struct Outcome {
  Status status = Status::Failed;
  std::optional<AutorigFileResult> result;
  Error error;
  int exit_code = 0;  // for a failure: kBadInput, kWriteFailed or kInternal
};

struct RunFlags {
  bool dry_run = false;
  bool force = false;
  unsigned threads = 1;
  MemoryBudget* budget = nullptr;  // shared by the workers: a job waits until its PNG's decode fits
};

// Runs every job on `threads` workers. Outputs do not depend on the thread count. `report(i, outcome)`
// is called on the calling thread, in job order, as soon as jobs 0..i are all done.
void run_jobs(const std::vector<Job>& jobs, const AutorigOptions& options, const RunFlags& flags,
              const std::function<void(std::size_t, const Outcome&)>& report);

}  // namespace rig2d::cli
