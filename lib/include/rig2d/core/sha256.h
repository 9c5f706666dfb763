// SPDX-License-Identifier: Apache-2.0
// SHA-256 (FIPS 180-4), for content digests: the tools decide whether an output is up to date from
// the bytes of everything it was made from, never from file times.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "rig2d/export.h"

namespace rig2d {

// Incremental hashing: feed bytes with update() in any number of pieces, then hex_digest().
class RIG2D_EXPORT Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  // The digest of everything fed so far, as 64 lowercase hex digits. Ends the hash: call update()
  // again only after reset().
  std::string hex_digest();
  void reset();

 private:
  void compress(const std::uint8_t* block);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> pending_;  // bytes of the block being filled
  std::size_t pending_size_ = 0;
  std::uint64_t total_bytes_ = 0;
};

// One-shot SHA-256 of `bytes`, 64 lowercase hex digits.
RIG2D_EXPORT std::string sha256_hex(std::string_view bytes);

}  // namespace rig2d
