// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig's messages while a sprite batch runs: each job's outcome in job order (a line per rig
// written and its figures with -v, failures, --check's changes on stdout), the "[i/n] sprite" progress
// line where stderr is a terminal, and the totals at the end.
#pragma once

#include <cstddef>
#include <vector>

#include "rig2d/build/batch.h"
#include "options.h"

namespace rig2d::cli {

class BatchReport {
 public:
  // Shows the progress line's first state (only where stderr takes control sequences).
  BatchReport(const Options& o, const AutorigOptions& options, const std::vector<Job>& jobs);

  // Reports job i's outcome; run_jobs calls it in job order.
  void add(std::size_t i, const Outcome& outcome);

  // Clears the progress line and logs the totals.
  void finish() const;

  // The exit code of the jobs: with a failure, kFindings for a batch, else the first failure's code (a
  // later kInternal wins); with --check, kFindings when any output would change.
  int exit_code(bool batch) const;

 private:
  void add_written(const Job& job, const AutorigFileResult& res);

  const Options& o_;
  const AutorigOptions& options_;
  const std::vector<Job>& jobs_;
  bool progress_;
  std::size_t written_ = 0, skipped_ = 0, unchanged_ = 0, failed_ = 0, vertices_ = 0, triangles_ = 0;
  int failure_exit_ = kOk;
};

}  // namespace rig2d::cli
