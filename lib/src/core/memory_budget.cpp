// SPDX-License-Identifier: Apache-2.0
#include "rig2d/core/memory_budget.h"

#include <utility>

namespace rig2d {

MemoryBudget::Lease& MemoryBudget::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    if (budget_) budget_->release(bytes_);
    budget_ = std::exchange(other.budget_, nullptr);
    bytes_ = other.bytes_;
  }
  return *this;
}

MemoryBudget::Lease::~Lease() {
  if (budget_) budget_->release(bytes_);
}

Result<MemoryBudget::Lease> MemoryBudget::acquire(std::uint64_t bytes, const std::string& what) {
  if (bytes > total_) {
    constexpr std::uint64_t kMiB = 1 << 20;
    return make_error("memory.budget",
                      "decoding needs about " + std::to_string((bytes + kMiB - 1) / kMiB) +
                          " MiB at once, more than the whole memory budget of " + std::to_string(total_ / kMiB) +
                          " MiB (raise --memory-budget)",
                      {what});
  }
  std::unique_lock lock(mutex_);
  // One lease larger than what is left waits for others to finish; since it fits the total, it runs
  // at the latest when it is alone.
  freed_.wait(lock, [&] { return used_ + bytes <= total_; });
  used_ += bytes;
  return Lease(this, bytes);
}

std::uint64_t MemoryBudget::in_use() const {
  std::lock_guard lock(mutex_);
  return used_;
}

void MemoryBudget::release(std::uint64_t bytes) {
  {
    std::lock_guard lock(mutex_);
    used_ -= bytes;
  }
  freed_.notify_all();
}

}  // namespace rig2d
