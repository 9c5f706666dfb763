// SPDX-License-Identifier: Apache-2.0
// Files embedded in the library at build time (bundled templates, clips), looked up by name. Internal.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rig2d::detail {

struct EmbeddedFile {
  std::string_view name;
  const unsigned char* data;
  const std::size_t* size;  // a pointer: the generated size is defined in another translation unit
};

inline std::vector<std::string> embedded_names(std::span<const EmbeddedFile> files) {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : files) names.emplace_back(f.name);
  return names;
}

// "a, b, c": the names, for an error that lists what there is.
inline std::string embedded_name_list(std::span<const EmbeddedFile> files) {
  std::string list;
  for (const EmbeddedFile& f : files) list += (list.empty() ? "" : ", ") + std::string(f.name);
  return list;
}

// The file's text, or empty when no file has that name.
inline std::string_view embedded_text(std::span<const EmbeddedFile> files, std::string_view name) {
  for (const EmbeddedFile& f : files)
    if (f.name == name) return {reinterpret_cast<const char*>(f.data), *f.size};
  return {};
}

}  // namespace rig2d::detail
