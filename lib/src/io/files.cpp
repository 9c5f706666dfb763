// SPDX-License-Identifier: Apache-2.0
#include "rig2d/io/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include "rig2d/io/output_safety.h"

namespace rig2d {
namespace fs = std::filesystem;

Result<std::string> read_file(const std::string& path, std::uint64_t max_bytes) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return make_error("io.not_found", "no such file", {path});
  if (!fs::is_regular_file(status)) return make_error("io.not_a_file", "not a regular file", {path});
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) return make_error("io.read", "cannot read file size: " + ec.message(), {path});
  if (size > max_bytes) {
    return make_error("io.too_large",
                      "file is " + std::to_string(size) + " bytes; the limit is " + std::to_string(max_bytes),
                      {path});
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("io.read", std::string("cannot open: ") + std::strerror(errno), {path});
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (in.gcount() != static_cast<std::streamsize>(size)) {
    return make_error("io.read", "file changed or could not be read completely", {path});
  }
  return bytes;
}

namespace {

// Temp files of writes in progress, so an interrupted run can remove them from a signal handler:
// fixed slots (no allocation), claimed with a compare-exchange, read with plain loads by the handler.
constexpr std::size_t kInflightSlots = 64;
constexpr std::size_t kInflightPath = 4096;
struct InflightSlot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 live
  char path[kInflightPath];
};
InflightSlot g_inflight[kInflightSlots];
// Set by remove_inflight_temp_files before it scans the slots. A writer checks it after creating its
// temp: either the scan saw the writer's slot (and unlinks the file it created) or the writer sees the
// flag and removes the file itself. Without it, a temp created just after the scan outlived the run.
std::atomic<bool> g_interrupted{false};

int claim_inflight(const std::string& temp) {
  if (temp.size() >= kInflightPath) return -1;
  for (std::size_t i = 0; i < kInflightSlots; ++i) {
    int expected = 0;
    if (g_inflight[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_inflight[i].path, temp.c_str(), temp.size() + 1);
      g_inflight[i].state.store(2);
      return static_cast<int>(i);
    }
  }
  return -1;  // more concurrent writes than slots: still written, just not tracked
}

void release_inflight(int slot) {
  if (slot >= 0) g_inflight[static_cast<std::size_t>(slot)].state.store(0);
}

}  // namespace

void remove_inflight_temp_files() noexcept {
  g_interrupted.store(true);
  for (InflightSlot& slot : g_inflight) {
    if (slot.state.load() == 2) ::unlink(slot.path);
  }
}

namespace {

// A file written to its temp name, waiting to be renamed over its target.
struct StagedFile {
  std::string requested;  // the path as given, for messages
  std::string target;     // symlinks resolved: the file the rename replaces
  std::string temp;
  int slot = -1;
  bool existed = false;
  std::string backup;     // a hard link to the old target while a multi-file commit runs
  int backup_slot = -1;
};

std::string hidden_sibling(const fs::path& target, const char* kind) {
  static std::atomic<unsigned> counter{0};
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // Hidden, beside the target, so the rename stays on one file system.
  std::string name = ".";
  name += target.filename().string();
  name += kind;
  name += std::to_string(::getpid());
  name += '.';
  name += std::to_string(counter.fetch_add(1));
  return (dir / name).string();
}

void discard(StagedFile& f) {
  if (!f.temp.empty()) ::unlink(f.temp.c_str());
  release_inflight(f.slot);
  f.slot = -1;
  f.temp.clear();
}

std::string octal_mode(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

// The old file's owner and mode go onto the temp before any byte is written, so a private file is
// never readable by others, not even for a moment. Owner changes need privileges: best effort.
void copy_owner_and_mode(int fd, const struct stat& old) {
  if (old.st_uid != ::geteuid() || old.st_gid != ::getegid()) {
    if (::fchown(fd, old.st_uid, old.st_gid) != 0) (void)!::fchown(fd, static_cast<uid_t>(-1), old.st_gid);
  }
  (void)!::fchmod(fd, old.st_mode & 07777);
}

Result<StagedFile> stage(const std::string& path, std::string_view bytes, const WriteOptions& options) {
  auto target = resolve_write_target(path);
  if (!target) return Unexpected{target.error()};
  StagedFile f;
  f.requested = path;
  f.target = *target;
  struct stat old {};
  f.existed = ::stat(f.target.c_str(), &old) == 0 && S_ISREG(old.st_mode);
  if (f.existed && (old.st_mode & 0222) == 0 && !options.replace_read_only) {
    return make_error("io.output.read_only",
                      "refusing to replace a read-only file (mode " + octal_mode(old.st_mode) +
                          "); make it writable first",
                      {path});
  }
  f.temp = hidden_sibling(fs::path(f.target), ".tmp.");
  f.slot = claim_inflight(f.temp);
  auto fail = [&](const std::string& what, int err) -> Result<StagedFile> {
    discard(f);
    return make_error("io.write", what + ": " + std::strerror(err), {path});
  };
  const int fd = ::open(f.temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, f.existed ? 0600 : 0666);
  if (fd < 0) {
    const int err = errno;
    f.temp.clear();  // nothing was created
    discard(f);
    return make_error("io.write", std::string("cannot create a file in the output folder: ") + std::strerror(err),
                      {path});
  }
  if (g_interrupted.load()) {
    ::close(fd);
    return fail("interrupted", EINTR);
  }
  if (f.existed) copy_owner_and_mode(fd, old);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return fail("write failed", err);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const int err = errno;
    ::close(fd);
    return fail("flush failed", err);
  }
  if (::close(fd) != 0) return fail("close failed", errno);
  return f;
}

Result<void> commit(StagedFile& f) {
  if (::rename(f.temp.c_str(), f.target.c_str()) != 0) {
    const int err = errno;
    discard(f);
    return make_error("io.write", std::string("cannot replace the target: ") + std::strerror(err), {f.requested});
  }
  release_inflight(f.slot);
  f.slot = -1;
  f.temp.clear();
  return {};
}

void drop_backup(StagedFile& f) {
  if (!f.backup.empty()) ::unlink(f.backup.c_str());
  release_inflight(f.backup_slot);
  f.backup.clear();
  f.backup_slot = -1;
}

// Puts back what the first `count` (already committed) files replaced.
void roll_back(std::span<StagedFile> files, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    StagedFile& f = files[i];
    if (!f.backup.empty()) {
      if (::rename(f.backup.c_str(), f.target.c_str()) == 0) f.backup.clear();
    } else if (!f.existed) {
      ::unlink(f.target.c_str());
    }
  }
}

}  // namespace

Result<void> write_file_atomic(const std::string& path, std::string_view bytes, const WriteOptions& options) {
  auto staged = stage(path, bytes, options);
  if (!staged) return Unexpected{staged.error()};
  return commit(*staged);
}

Result<void> write_files_atomic(std::span<const OutputFile> files, const WriteOptions& options) {
  std::vector<StagedFile> staged;
  staged.reserve(files.size());
  for (const OutputFile& file : files) {
    auto s = stage(file.path, file.bytes, options);
    if (!s) {
      for (StagedFile& f : staged) discard(f);
      return Unexpected{s.error()};
    }
    staged.push_back(std::move(*s));
  }
  // Every temp is complete. Keep a hard link to each old target, so a failed rename can be undone.
  for (StagedFile& f : staged) {
    if (!f.existed) continue;
    f.backup = hidden_sibling(fs::path(f.target), ".old.");
    f.backup_slot = claim_inflight(f.backup);
    if (::link(f.target.c_str(), f.backup.c_str()) != 0 || g_interrupted.load()) drop_backup(f);
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    if (auto ok = commit(staged[i]); !ok) {
      roll_back(staged, i);
      for (StagedFile& f : staged) {
        discard(f);
        drop_backup(f);
      }
      return ok;
    }
  }
  for (StagedFile& f : staged) drop_backup(f);
  return {};
}

}  // namespace rig2d
