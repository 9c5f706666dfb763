// SPDX-License-Identifier: Apache-2.0
// The one per-pixel coverage test (alpha > threshold) as 0/1 bytes, for the passes that need a whole
// row or image of it: the coverage mask, the sheet guess, the shape skeleton. Internal.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace rig2d::detail {

// out[i] = 1 where pixel i of `count` RGBA pixels has alpha > threshold, else 0 (every pixel for a
// threshold below 0, none above 254). A plain loop over plain pointers: the compiler vectorizes it.
inline void threshold_alpha(const std::uint8_t* rgba, std::size_t count, int threshold, std::uint8_t* out) {
  if (threshold < 0 || threshold > 254) {
    std::fill(out, out + count, static_cast<std::uint8_t>(threshold < 0 ? 1 : 0));
    return;
  }
  const auto t = static_cast<std::uint8_t>(threshold);
  for (std::size_t i = 0; i < count; ++i) out[i] = rgba[4 * i + 3] > t ? 1 : 0;
}

}  // namespace rig2d::detail
