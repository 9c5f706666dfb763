// SPDX-License-Identifier: Apache-2.0
#include "rig2d/io/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

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
  for (InflightSlot& slot : g_inflight) {
    if (slot.state.load() == 2) ::unlink(slot.path);
  }
}

Result<void> write_file_atomic(const std::string& path, std::string_view bytes) {
  static std::atomic<unsigned> counter{0};
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // Hidden temp beside the target so the rename stays on one file system.
  std::string temp_name = ".";
  temp_name += target.filename().string();
  temp_name += ".tmp.";
  temp_name += std::to_string(::getpid());
  temp_name += '.';
  temp_name += std::to_string(counter.fetch_add(1));
  const fs::path temp = dir / temp_name;
  const int slot = claim_inflight(temp.string());
  auto fail = [&](const std::string& what, int err) -> Result<void> {
    std::error_code ignored;
    fs::remove(temp, ignored);
    release_inflight(slot);
    return make_error("io.write", what + ": " + std::strerror(err), {path});
  };

  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    release_inflight(slot);
    return make_error("io.write", std::string("cannot create a file in the output folder: ") + std::strerror(err),
                      {path});
  }
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
  if (::rename(temp.c_str(), target.c_str()) != 0) return fail("cannot replace the target", errno);
  release_inflight(slot);
  return {};
}

}  // namespace rig2d
