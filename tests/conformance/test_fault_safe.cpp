// SPDX-License-Identifier: Apache-2.0
// Fault-safe writes: a full disk (RLIMIT_FSIZE in a child process), a folder that does not exist, a
// target that is a folder. Every failure leaves the old file untouched and no temp file behind.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "rig2d/io/files.h"
#include "support/temp_dir.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Runs `body` in a forked child (for process-wide limits and one-way states) and returns the child's
// exit code: 0 when body() held, 1 when not, -1 when it could not run or did not exit normally.
template <class Body>
int run_in_child(Body body) {
  const pid_t child = ::fork();
  if (child < 0) return -1;
  if (child == 0) ::_exit(body() ? 0 : 1);
  int status = 0;
  if (::waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("fault safety: a full disk leaves the old file and no temp", "[io][fault]") {
  TempDir dir("fault-full");
  const fs::path target = dir.path / "rig.rig2d.json";
  std::ofstream(target) << "old contents";

  CHECK(run_in_child([&] {
          // The file-size limit makes write() fail with EFBIG once 4 KiB are written, as a full disk would.
          ::signal(SIGXFSZ, SIG_IGN);
          const rlimit limit{4096, 4096};
          ::setrlimit(RLIMIT_FSIZE, &limit);
          auto written = write_file_atomic(target.string(), std::string(1 << 20, 'x'));
          return !written && written.error().code == "io.write";
        }) == 0);
  CHECK(slurp(target) == "old contents");
  CHECK(dir.entries() == 1);  // no temp file left beside it
}

TEST_CASE("fault safety: missing folder and folder targets fail cleanly", "[io][fault]") {
  TempDir dir("fault-paths");
  auto missing = write_file_atomic((dir.path / "no" / "such" / "x.json").string(), "{}");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == "io.write");
  CHECK(missing.error().where.file == (dir.path / "no" / "such" / "x.json").string());

  fs::create_directories(dir.path / "taken");
  auto onto_folder = write_file_atomic((dir.path / "taken").string(), "{}");
  REQUIRE_FALSE(onto_folder);
  CHECK(fs::is_directory(dir.path / "taken"));
  CHECK(dir.entries() == 1);
}

TEST_CASE("fault safety: replacing a file is all-or-nothing", "[io][fault]") {
  TempDir dir("fault-replace");
  const fs::path target = dir.path / "out.png";
  std::ofstream(target) << "old";
  REQUIRE(write_file_atomic(target.string(), std::string(100000, 'n')));
  CHECK(slurp(target) == std::string(100000, 'n'));
  CHECK(dir.entries() == 1);
}

// The interrupt cleanup ends the run's writing: a write that starts after it (a worker thread racing
// the cleanup) must not leave its temp behind. In a child, since the cleanup is once per process.
TEST_CASE("fault safety: writes after the interrupt cleanup leave nothing", "[io][fault]") {
  TempDir dir("fault-interrupted");
  const fs::path target = dir.path / "out.json";
  std::ofstream(target) << "old";
  CHECK(run_in_child([&] {
          remove_inflight_temp_files();
          auto late = write_file_atomic(target.string(), "new");
          return !late && late.error().code == "io.write";
        }) == 0);
  CHECK(slurp(target) == "old");
  CHECK(dir.entries() == 1);
}
