// SPDX-License-Identifier: Apache-2.0
// What the tools tell build systems: Makefile-syntax depfiles (as `gcc -MD -MF`, read by Make, Ninja
// and CMake's DEPFILE), and writes that leave a file alone when its bytes would not change, so Ninja's
// `restat` sees an unchanged output and skips everything downstream.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/io/files.h"
#include "rig2d/export.h"

namespace rig2d {

struct DepRule {
  std::string target;
  std::vector<std::string> prerequisites;
};

// "target: a b \\\n  c\n" per rule; a space, '#' and ':' get a backslash and '$' is doubled, as GNU
// Make and Ninja's depfile parser both read them. Error: depfile.path (naming the path) for a name
// one of them would misread whatever the escape: a newline, tab or other control byte, '=' ';' '|'
// (Make), * ? " ' & < > ^ ` (Ninja splits there), a backslash before a space, '#' or ':'.
RIG2D_EXPORT Result<std::string> depfile_text(const std::vector<DepRule>& rules);

// Appends each path not seen yet, keeping the first occurrence's order.
RIG2D_EXPORT void append_unique(std::vector<std::string>& list, const std::vector<std::string>& paths);

// True when `path` is a regular file holding exactly `bytes`.
RIG2D_EXPORT bool file_has_bytes(const std::string& path, std::string_view bytes);

// Writes `bytes` to `path` atomically unless it already holds them. Returns whether it wrote.
// Errors: io.write.
RIG2D_EXPORT Result<bool> write_if_changed(const std::string& path, std::string_view bytes, const WriteOptions& options = {});

}  // namespace rig2d
