// SPDX-License-Identifier: Apache-2.0
#include "rig2d/io/output_safety.h"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>
#include <unordered_map>

namespace rig2d {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxSymlinkHops = 40;  // as the kernel's MAXSYMLINKS

// What "the same file" means: device and inode when the file exists (so symlinks and hard links
// match), else the canonical form of the path the write would create.
struct FileIdentity {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string canonical;  // only for a file that does not exist
};

FileIdentity identify(const std::string& path) {
  FileIdentity id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.device = st.st_dev;
    id.inode = st.st_ino;
    return id;
  }
  auto target = resolve_write_target(path);
  const std::string& resolved = target ? *target : path;
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(fs::absolute(resolved, ec), ec);
  id.canonical = ec ? fs::absolute(resolved, ec).lexically_normal().string() : canonical.string();
  return id;
}

// One string per file, so a run's outputs go in a hash map and each input costs one lookup.
std::string identity_key(const FileIdentity& id) {
  if (!id.exists) return "path:" + id.canonical;
  return "inode:" + std::to_string(id.device) + ":" + std::to_string(id.inode);
}

}  // namespace

Result<std::string> resolve_write_target(const std::string& path) {
  fs::path current(path);
  for (int hop = 0; hop <= kMaxSymlinkHops; ++hop) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(current, ec)) || ec) return current.string();
    const fs::path next = fs::read_symlink(current, ec);
    if (ec) return make_error("io.write", "cannot read the symlink: " + ec.message(), {path});
    current = next.is_absolute() ? next : current.parent_path() / next;
  }
  return make_error("io.write", "too many levels of symbolic links", {path});
}

Result<void> check_output_paths(std::span<const std::string> inputs, std::span<const std::string> outputs) {
  std::unordered_map<std::string, std::size_t> written;  // identity key -> output index
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto [it, fresh] = written.emplace(identity_key(identify(outputs[i])), i);
    if (!fresh) {
      return make_error("io.output.collision",
                        "this output is also written as " + outputs[it->second] +
                            " in the same run (the same file); give each output its own path",
                        {outputs[i]});
    }
  }
  if (written.empty()) return {};
  for (const std::string& input : inputs) {
    if (const auto it = written.find(identity_key(identify(input))); it != written.end()) {
      return make_error("io.output.is_input",
                        "this output is the input " + input +
                            " (the same file); writing it would destroy the input, choose another output path",
                        {outputs[it->second]});
    }
  }
  return {};
}

}  // namespace rig2d
