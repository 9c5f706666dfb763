// SPDX-License-Identifier: Apache-2.0
#include "rig2d/build/build_files.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

// GNU Make rules (also what Ninja's depfile parser accepts): a space or '#' gets a backslash, '$' is
// doubled, and backslashes right before a space or '#' are doubled so they stay literal.
std::string escape_make_path(std::string_view path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == ' ' || c == '#') {
      for (std::size_t j = i; j > 0 && path[j - 1] == '\\'; --j) out += '\\';
      out += '\\';
    } else if (c == '$') {
      out += '$';
    }
    out += c;
  }
  return out;
}

}  // namespace

std::string depfile_text(const std::vector<DepRule>& rules) {
  std::string text;
  for (const DepRule& rule : rules) {
    text += escape_make_path(rule.target) + ":";
    for (const std::string& p : rule.prerequisites) text += " \\\n  " + escape_make_path(p);
    text += "\n";
  }
  return text;
}

void append_unique(std::vector<std::string>& list, const std::vector<std::string>& paths) {
  std::set<std::string> seen(list.begin(), list.end());
  for (const std::string& p : paths) {
    if (seen.insert(p).second) list.push_back(p);
  }
}

bool file_has_bytes(const std::string& path, std::string_view bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size != bytes.size()) return false;  // most changed files differ in size: no read needed
  auto current = read_file(path, kMaxJsonFileBytes);
  return current && *current == bytes;
}

Result<bool> write_if_changed(const std::string& path, std::string_view bytes, const WriteOptions& options) {
  if (file_has_bytes(path, bytes)) return false;
  if (auto made = create_parent_dirs({path}); !made) return Unexpected{made.error()};
  if (auto ok = write_file_atomic(path, bytes, options); !ok) return Unexpected{ok.error()};
  return true;
}

}  // namespace rig2d
