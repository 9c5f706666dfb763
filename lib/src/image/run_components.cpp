// SPDX-License-Identifier: Apache-2.0
#include "image/run_components.h"

#include <algorithm>

namespace rig2d::detail {

void RunComponents::add(Run run) {
  if (runs_.empty() || run.y != runs_.back().y) {  // a new row: the current one becomes the row above
    const bool adjacent = !runs_.empty() && run.y == runs_.back().y + 1;
    above_begin_ = adjacent ? row_begin_ : runs_.size();
    above_end_ = runs_.size();
    row_begin_ = runs_.size();
    next_above_ = above_begin_;
  }
  const auto r = static_cast<std::uint32_t>(runs_.size());
  runs_.push_back(run);
  parent_.push_back(r);
  while (next_above_ < above_end_ && runs_[next_above_].x1 + touch_ <= run.x0) ++next_above_;
  for (std::size_t k = next_above_; k < above_end_ && runs_[k].x0 < run.x1 + touch_; ++k) {
    const std::uint32_t a = find(r), b = find(static_cast<std::uint32_t>(k));
    parent_[std::max(a, b)] = std::min(a, b);  // the earlier run stays the root
  }
}

std::uint32_t RunComponents::find(std::uint32_t r) {
  while (parent_[r] != r) r = parent_[r] = parent_[parent_[r]];
  return r;
}

std::vector<std::uint32_t> RunComponents::roots() {
  std::vector<std::uint32_t> out(parent_.size());
  for (std::uint32_t r = 0; r < parent_.size(); ++r) out[r] = find(r);
  return out;
}

}  // namespace rig2d::detail
