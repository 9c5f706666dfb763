// SPDX-License-Identifier: Apache-2.0
// Connected components of a binary raster from its horizontal runs, built row by row. Internal.
#pragma once

#include <cstdint>
#include <vector>

namespace rig2d::detail {

// Each run added is joined with the runs of the row above that touch it (8-connected: corners count;
// 4-connected: only overlap) by union-find whose root is the run first in raster order, so a
// component's root run holds its first cell and components come out in the raster order of it.
class RunComponents {
 public:
  struct Run {
    int y, x0, x1;  // cells [x0, x1) of row y
  };

  explicit RunComponents(bool eight_connected) : touch_(eight_connected ? 1 : 0) {}

  // Runs come in raster order: rows ascending, left to right within a row.
  void add(Run run);
  // After the last add: per run, the index of its component's root run.
  std::vector<std::uint32_t> roots();
  const std::vector<Run>& runs() const { return runs_; }

 private:
  std::uint32_t find(std::uint32_t r);

  int touch_;  // how far past a run's end a run of the row above may start and still touch it
  std::vector<Run> runs_;
  std::vector<std::uint32_t> parent_;
  std::size_t above_begin_ = 0, above_end_ = 0, row_begin_ = 0, next_above_ = 0;
};

}  // namespace rig2d::detail
