// SPDX-License-Identifier: Apache-2.0
// The folder walk of a validation run (rig2d/validate/validate.h: find_checkable_files).
#include <algorithm>
#include <filesystem>

#include "rig2d/validate/validate.h"

namespace rig2d {
namespace fs = std::filesystem;

namespace {

bool hidden_or_vendor(const fs::path& p) {
  const std::string name = p.filename().string();
  return (name.size() > 1 && name[0] == '.') || name == "node_modules";
}

}  // namespace

FolderScan find_checkable_files(const std::string& folder) {
  FolderScan out;
  std::error_code ec;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (hidden_or_vendor(it->path())) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink(ec)) continue;
    if (it->is_regular_file(ec) && classify_path(it->path().string()) != FileKind::Unsupported) {
      out.files.push_back(it->path().generic_string());
    }
  }
  if (ec) out.error = ec.message();
  std::sort(out.files.begin(), out.files.end());
  return out;
}

}  // namespace rig2d
