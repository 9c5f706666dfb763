// SPDX-License-Identifier: Apache-2.0
// The zip container of an OpenRaster file, read from memory: the central directory, stored and
// deflated entries, CRC-checked; entry names that climb out of the archive are refused, and every
// inflated byte is taken from the decode budget before it is allocated (a zip bomb fails early).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "layered/byte_reader.h"

namespace rig2d::layered {

struct ZipEntry {
  std::string name;
  std::uint64_t local_offset = 0, compressed = 0, size = 0;
  std::uint16_t method = 0, flags = 0;
  std::uint32_t crc = 0;
};

// Errors (thrown as ReadFailure): ora.zip, ora.zip.path, memory.budget.
class ZipArchive {
 public:
  ZipArchive(std::string_view bytes, const std::string& path);
  const ZipEntry* find(std::string_view name) const;
  std::string read(const ZipEntry& entry, DecodeBudget& budget) const;
  const std::vector<ZipEntry>& entries() const { return entries_; }

 private:
  std::string_view bytes_;
  std::string path_;
  std::vector<ZipEntry> entries_;
};

}  // namespace rig2d::layered
