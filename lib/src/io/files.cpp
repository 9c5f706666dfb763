// SPDX-License-Identifier: Apache-2.0
#include "rig2d/io/files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>
#include <unordered_set>
#include <vector>

#include "io/write_internal.h"
#include "rig2d/core/sha256.h"
#include "rig2d/io/output_safety.h"

namespace rig2d {
namespace fs = std::filesystem;

namespace io_internal {

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

long hidden_sibling_pid(const std::string& file, std::string_view kind) {
  if (file.size() < 2 || file[0] != '.') return 0;
  const std::size_t at = file.rfind(kind);
  if (at == std::string::npos || at < 2) return 0;
  const std::string rest = file.substr(at + kind.size());
  const std::size_t dot = rest.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size()) return 0;
  const auto digits = [](std::string_view d) { return !d.empty() && d.size() <= 10 && std::all_of(d.begin(), d.end(), ::isdigit); };
  if (!digits(std::string_view(rest).substr(0, dot)) || !digits(std::string_view(rest).substr(dot + 1))) return 0;
  return std::stol(rest.substr(0, dot));
}

// kill(pid, 0) fails with ESRCH only when no process has that id (EPERM: one runs, as another user).
bool process_gone(long pid) { return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

}  // namespace io_internal

Result<std::string> read_file(const std::string& path, std::uint64_t max_bytes) {
  // One open, then the type and size of the opened file itself: no race between a check and the read,
  // and a small file (a sidecar) costs four system calls. O_NONBLOCK: opening a FIFO must not wait for
  // a writer (it is then refused as not a regular file).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return make_error("io.not_found", "no such file", {path});
    if (errno == ENXIO) return make_error("io.not_a_file", "not a regular file", {path});
    return make_error("io.read", std::string("cannot open: ") + std::strerror(errno), {path});
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return make_error("io.read", std::string("cannot read file size: ") + std::strerror(errno), {path});
  if (!S_ISREG(st.st_mode)) return make_error("io.not_a_file", "not a regular file", {path});
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    return make_error("io.too_large",
                      "file is " + std::to_string(size) + " bytes; the limit is " + std::to_string(max_bytes),
                      {path});
  }
  std::string bytes(static_cast<std::size_t>(size), '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error("io.read", std::string("cannot read: ") + std::strerror(errno), {path});
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got != bytes.size()) return make_error("io.read", "file changed or could not be read completely", {path});
  return bytes;
}

namespace {

// Temp files that exist on disk right now. A temp is created, renamed away and unlinked only under the
// lock, so when remove_inflight_temp_files holds it, the set is exactly what is on disk, and after it
// no write can create another: nothing a run was writing outlives it.
struct Inflight {
  std::mutex mutex;
  std::unordered_set<std::string> paths;
  bool stopped = false;
};
Inflight& inflight() {
  static Inflight* registry = new Inflight;  // never destroyed: a signal may arrive during exit
  return *registry;
}

}  // namespace

void remove_inflight_temp_files() noexcept {
  Inflight& reg = inflight();
  const std::lock_guard lock(reg.mutex);
  reg.stopped = true;
  for (const std::string& path : reg.paths) ::unlink(path.c_str());
  reg.paths.clear();
}

namespace {

// A file written to its temp name, waiting to be renamed over its target.
struct StagedFile {
  std::string requested;  // the path as given, for messages
  std::string target;     // symlinks resolved: the file the rename replaces
  std::string temp;
  bool existed = false;
  std::string backup;     // a hard link to the old target while a multi-file commit runs
  std::string sha256;     // of the new content (a link: of its text), for the journal
  // A character device or FIFO: no temp, the bytes are written into it at commit.
  bool direct = false;
  std::string_view bytes;
};

using io_internal::hidden_sibling;

// Creates `path` (O_EXCL) and tracks it; refused once the run was interrupted.
int create_tracked(const std::string& path, mode_t mode) {
  Inflight& reg = inflight();
  const std::scoped_lock lock(reg.mutex);
  if (reg.stopped) {
    errno = EINTR;
    return -1;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd >= 0) reg.paths.insert(path);
  return fd;
}

// A symbolic link holding `text`, created (never replacing) at `path` and tracked like a temp.
bool symlink_tracked(const std::string& text, const std::string& path) {
  Inflight& reg = inflight();
  const std::scoped_lock lock(reg.mutex);
  if (reg.stopped) {
    errno = EINTR;
    return false;
  }
  if (::symlink(text.c_str(), path.c_str()) != 0) return false;
  reg.paths.insert(path);
  return true;
}

// A hard link to `target` named `link`, tracked like a temp.
bool link_tracked(const std::string& target, const std::string& link) {
  Inflight& reg = inflight();
  const std::scoped_lock lock(reg.mutex);
  if (reg.stopped || ::link(target.c_str(), link.c_str()) != 0) return false;
  reg.paths.insert(link);
  return true;
}

// Renames a tracked file; 0 or the errno of the failed rename (EINTR once the run was interrupted,
// whose cleanup removed the temp).
int rename_tracked(const std::string& from, const std::string& to) {
  Inflight& reg = inflight();
  const std::scoped_lock lock(reg.mutex);
  if (reg.stopped) return EINTR;
  if (::rename(from.c_str(), to.c_str()) != 0) return errno;
  reg.paths.erase(from);
  return 0;
}

void unlink_tracked(std::string& path) {
  if (path.empty()) return;
  Inflight& reg = inflight();
  const std::scoped_lock lock(reg.mutex);
  ::unlink(path.c_str());
  reg.paths.erase(path);
  path.clear();
}

void discard(StagedFile& f) { unlink_tracked(f.temp); }

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

const char* file_type_name(mode_t mode) {
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// What is at the target now: nothing or a regular file is replaced by rename; a character device or a
// FIFO is written into (renaming over it would turn a device into a file); anything else is refused.
Result<void> classify_target(StagedFile& f, const struct stat& st, bool found, std::string_view bytes) {
  if (!found || S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) return {};
  if (S_ISDIR(st.st_mode)) return make_error("io.write", "the output is a folder; name a file", {f.requested});
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
    f.direct = true;
    f.bytes = bytes;
    return {};
  }
  return make_error("io.output.not_a_file",
                    std::string("refusing to write: the output is ") + file_type_name(st.st_mode) +
                        "; name a file (a character device such as /dev/null or a FIFO is written into)",
                    {f.requested});
}

Result<StagedFile> stage(const std::string& path, std::string_view bytes, const WriteOptions& options) {
  auto target = options.follow_symlinks ? resolve_write_target(path) : Result<std::string>(path);
  if (!target) return Unexpected{target.error()};
  StagedFile f;
  f.requested = path;
  f.target = *target;
  struct stat old {};
  // Without following, a link at the path is itself the file replaced (and backed up by a hard link).
  const bool found = (options.follow_symlinks ? ::stat(f.target.c_str(), &old) : ::lstat(f.target.c_str(), &old)) == 0;
  if (auto kind = classify_target(f, old, found, bytes); !kind) return Unexpected{kind.error()};
  if (f.direct) return f;
  f.existed = found && (S_ISREG(old.st_mode) || S_ISLNK(old.st_mode));
  const bool keep_mode = f.existed && S_ISREG(old.st_mode);  // a replaced link gives the new file no mode
  if (keep_mode && (old.st_mode & 0222) == 0 && !options.replace_read_only) {
    return make_error("io.output.read_only",
                      "refusing to replace a read-only file (mode " + octal_mode(old.st_mode) +
                          "); make it writable first",
                      {path});
  }
  f.temp = hidden_sibling(fs::path(f.target), ".tmp.");
  auto fail = [&](const std::string& what, int err) -> Result<StagedFile> {
    discard(f);
    return make_error("io.write", what + ": " + std::strerror(err), {path});
  };
  const int fd = create_tracked(f.temp, keep_mode ? 0600 : 0666);
  if (fd < 0) {
    const int err = errno;
    f.temp.clear();  // nothing was created
    return make_error("io.write", std::string("cannot create a file in the output folder: ") + std::strerror(err),
                      {path});
  }
  if (keep_mode) copy_owner_and_mode(fd, old);
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

// A symbolic link output: made under its temp name, renamed over whatever file or link is at the
// path (never followed). A folder, device or other non-file there is refused.
Result<StagedFile> stage_link(const std::string& path, const std::string& text) {
  StagedFile f;
  f.requested = path;
  f.target = path;
  struct stat old {};
  const bool found = ::lstat(path.c_str(), &old) == 0;
  if (found && S_ISDIR(old.st_mode)) return make_error("io.write", "the output is a folder; name a file", {path});
  if (found && !S_ISREG(old.st_mode) && !S_ISLNK(old.st_mode)) {
    return make_error("io.output.not_a_file",
                      std::string("refusing to replace ") + file_type_name(old.st_mode) + " by a link", {path});
  }
  f.existed = found;
  f.temp = hidden_sibling(fs::path(path), ".tmp.");
  if (!symlink_tracked(text, f.temp)) {
    const int err = errno;
    f.temp.clear();
    return make_error("io.write", std::string("cannot create a link in the output folder: ") + std::strerror(err),
                      {path});
  }
  return f;
}

// Writes a direct (device or FIFO) output. A FIFO without a reader is an error, not a wait.
Result<void> write_direct(const StagedFile& f) {
  const int fd = ::open(f.target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int err = errno;
    if (err == ENXIO) return make_error("io.write", "the FIFO has no reader", {f.requested});
    return make_error("io.write", std::string("cannot open: ") + std::strerror(err), {f.requested});
  }
  // Blocking from here on: a pipe reader that is slower than us is waited for, not failed.
  (void)::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::size_t done = 0;
  while (done < f.bytes.size()) {
    const ssize_t n = ::write(fd, f.bytes.data() + done, f.bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      return make_error("io.write", std::string("write failed: ") + std::strerror(err), {f.requested});
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return make_error("io.write", std::string("close failed: ") + std::strerror(errno), {f.requested});
  return {};
}

Result<void> commit(StagedFile& f) {
  if (f.direct) return write_direct(f);
  if (const int err = rename_tracked(f.temp, f.target); err != 0) {
    discard(f);
    return make_error("io.write", std::string("cannot replace the target: ") + std::strerror(err), {f.requested});
  }
  f.temp.clear();
  return {};
}

void drop_backup(StagedFile& f) { unlink_tracked(f.backup); }

// Puts back what the first `count` (already committed) files replaced.
void roll_back(std::span<StagedFile> files, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    StagedFile& f = files[i];
    if (!f.backup.empty()) {
      if (rename_tracked(f.backup, f.target) == 0) f.backup.clear();
    } else if (!f.existed && !f.direct) {
      ::unlink(f.target.c_str());
    }
  }
}

bool write_interrupted() {
  Inflight& reg = inflight();
  const std::scoped_lock lock(reg.mutex);
  return reg.stopped;
}

// Two or more renames cannot happen at once: before the first, a journal beside the first target names
// every file of the set (write_journal.h), and the journal owns the undo links from then on (an
// interrupted run leaves them for the next one). "" when there is at most one rename.
Result<std::string> write_journal(std::vector<StagedFile>& staged) {
  std::vector<io_internal::JournalEntry> entries;
  std::error_code ec;
  const auto absolute = [&](const std::string& p) { return p.empty() ? p : fs::absolute(p, ec).lexically_normal().string(); };
  for (const StagedFile& f : staged)
    if (!f.direct) entries.push_back({absolute(f.target), absolute(f.temp), absolute(f.backup), f.sha256, f.existed});
  if (entries.size() < 2) return std::string();
  const std::string path = hidden_sibling(fs::path(entries.front().target), ".journal.");
  auto written = stage(path, io_internal::journal_text(entries), WriteOptions{});
  if (!written) return Unexpected{written.error()};
  if (auto ok = commit(*written); !ok) return Unexpected{ok.error()};
  Inflight& reg = inflight();
  const std::scoped_lock lock(reg.mutex);
  for (const StagedFile& f : staged) reg.paths.erase(f.backup);
  return path;
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
    WriteOptions own = options;
    if (file.replace_link) own.follow_symlinks = false;
    auto s = file.symlink.empty() ? stage(file.path, file.bytes, own) : stage_link(file.path, file.symlink);
    if (!s) {
      for (StagedFile& f : staged) discard(f);
      return Unexpected{s.error()};
    }
    s->sha256 = sha256_hex(file.symlink.empty() ? std::string_view(file.bytes) : std::string_view(file.symlink));
    staged.push_back(std::move(*s));
  }
  // Devices and FIFOs first: they cannot be undone, so they go while nothing is renamed yet.
  std::stable_partition(staged.begin(), staged.end(), [](const StagedFile& f) { return f.direct; });
  // Every temp is complete. Keep a hard link to each old target, so a failed rename can be undone.
  for (StagedFile& f : staged) {
    if (!f.existed || f.direct) continue;
    f.backup = hidden_sibling(fs::path(f.target), ".old.");
    if (!link_tracked(f.target, f.backup)) f.backup.clear();
  }
  const auto give_up = [&](bool keep_backups) {
    for (StagedFile& f : staged) {
      discard(f);
      if (!keep_backups) drop_backup(f);
    }
  };
  auto journal = write_journal(staged);
  if (!journal) {
    give_up(false);
    return Unexpected{journal.error()};
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    if (auto ok = commit(staged[i]); !ok) {
      roll_back(staged, i);
      // Interrupted (the temps are gone, renames refused): the journal and the undo links stay for
      // the next run to roll the set back.
      const bool interrupted = write_interrupted();
      give_up(interrupted && !journal->empty());
      if (!interrupted && !journal->empty()) ::unlink(journal->c_str());
      return ok;
    }
    if (!journal->empty() && io_internal::g_commit_hook) io_internal::g_commit_hook(i + 1);
  }
  for (StagedFile& f : staged) drop_backup(f);
  if (!journal->empty()) ::unlink(journal->c_str());
  return {};
}

Result<void> create_parent_dirs(const std::vector<std::string>& outputs) {
  for (const std::string& out : outputs) {
    const std::filesystem::path parent = std::filesystem::path(out).parent_path();
    std::error_code ec;
    if (parent.empty() || std::filesystem::is_directory(parent, ec)) continue;
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      return make_error("io.write",
                        "cannot create the output folder " + printable(parent.string()) + ": " + ec.message(),
                        Location{out});
    }
  }
  return {};
}

namespace {

// The temps and undo links that dead writers' journals in `folder` still need (write_journal.h): the
// next multi-file write settles them, so a leftover cleanup must not take them first.
std::set<std::string> journaled_files(const std::string& folder) {
  std::set<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(folder.empty() ? "." : folder, ec), end; !ec && it != end; it.increment(ec)) {
    const long pid = io_internal::hidden_sibling_pid(it->path().filename().string(), ".journal.");
    if (pid == 0 || !io_internal::process_gone(pid)) continue;
    auto text = read_file(it->path().string(), 16u << 20);
    auto entries = text ? io_internal::parse_journal(*text) : std::nullopt;
    for (const io_internal::JournalEntry& e : entries.value_or(std::vector<io_internal::JournalEntry>{}))
      for (const std::string& p : {e.temp, e.backup})
        if (!p.empty()) out.insert(fs::absolute(p, ec).lexically_normal().string());
  }
  return out;
}

}  // namespace

std::vector<std::string> find_write_leftovers(const std::string& folder) {
  std::vector<std::string> out;
  const std::set<std::string> journaled = journaled_files(folder);
  std::error_code ec;
  for (fs::directory_iterator it(folder.empty() ? "." : folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    long pid = io_internal::hidden_sibling_pid(name, ".tmp.");
    if (pid == 0) pid = io_internal::hidden_sibling_pid(name, ".old.");
    // A link too: a link output's temp is one (dangling or not).
    if (pid == 0 || pid == static_cast<long>(::getpid()) || !(it->is_symlink(ec) || it->is_regular_file(ec))) continue;
    if (journaled.count(fs::absolute(it->path(), ec).lexically_normal().string())) continue;
    if (io_internal::process_gone(pid)) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace rig2d
