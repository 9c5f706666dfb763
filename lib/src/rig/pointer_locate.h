// SPDX-License-Identifier: Apache-2.0
// Line:col of many JSON pointers in one pass over the text (locate_pointer rescans the text for each
// pointer, which is quadratic when a large rig has thousands of findings). Private, exported for tests.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rig2d/export.h"

namespace rig2d::detail {

// For each pointer (RFC 6901) the 1-based line and column (in bytes) of the value it names in `text`,
// which must be valid JSON; {0, 0} when the pointer names nothing. Duplicate keys: the last one wins.
RIG2D_EXPORT std::vector<std::pair<int, int>> locate_pointers(std::string_view text,
                                                              std::span<const std::string> pointers);

}  // namespace rig2d::detail
