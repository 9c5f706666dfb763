// SPDX-License-Identifier: Apache-2.0
// ASCII case folding for GUIDs and file names: locale-free, bytes outside A-Z kept. Internal.
#pragma once

#include <string>
#include <string_view>

namespace rig2d::detail {

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace rig2d::detail
