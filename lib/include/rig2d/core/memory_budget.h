// SPDX-License-Identifier: Apache-2.0
// A memory budget shared by parallel workers: each takes a lease for what its job may hold at once
// (e.g. png_decode_peak_bytes) before starting, and waits while the others' leases leave too little.
// So `-j N` bounds the sum over workers, not N times the largest job.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

class RIG2D_EXPORT MemoryBudget {
 public:
  explicit MemoryBudget(std::uint64_t bytes) : total_(bytes) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // Returns its bytes to the budget when destroyed.
  class RIG2D_EXPORT Lease {
   public:
    Lease() = default;
    Lease(Lease&& other) noexcept : budget_(other.budget_), bytes_(other.bytes_) { other.budget_ = nullptr; }
    Lease& operator=(Lease&& other) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    std::uint64_t bytes() const { return bytes_; }

   private:
    friend class MemoryBudget;
    Lease(MemoryBudget* budget, std::uint64_t bytes) : budget_(budget), bytes_(bytes) {}
    MemoryBudget* budget_ = nullptr;
    std::uint64_t bytes_ = 0;
  };

  // Waits until `bytes` fit next to the leases held, then takes them. Errors: memory.budget when
  // `bytes` alone exceed the whole budget (waiting could never help); the message names both sizes
  // and `what` (a file) is the error's file.
  Result<Lease> acquire(std::uint64_t bytes, const std::string& what);

  std::uint64_t total() const { return total_; }
  std::uint64_t in_use() const;

 private:
  void release(std::uint64_t bytes);
  const std::uint64_t total_;
  std::uint64_t used_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
};

}  // namespace rig2d
