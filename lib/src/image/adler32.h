// SPDX-License-Identifier: Apache-2.0
// Adler-32 (RFC 1950), the zlib stream checksum (private to the library, exported for tests).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rig2d::detail {

// The checksum `adler` continued over n bytes (start from 1): zlib's adler32(), 16 bytes at a time
// (about a quarter of zlib's instructions).
std::uint32_t adler32(std::uint32_t adler, const unsigned char* data, std::size_t n);

}  // namespace rig2d::detail
