// SPDX-License-Identifier: Apache-2.0
// read_file limits and errors; write_file_atomic replaces content and never leaves a temp or a clobbered
// target behind when it fails.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "rig2d/io/files.h"
#include "support/temp_dir.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string contents(const fs::path& p) {
  auto bytes = read_file(p.string(), 1u << 24);
  REQUIRE(bytes);
  return *bytes;
}

}  // namespace

TEST_CASE("io: atomic write creates, then replaces, leaving no temp file", "[io]") {
  TempDir dir("io");
  const fs::path target = dir.path / "out.rig2d.json";
  REQUIRE(write_file_atomic(target.string(), "first"));
  CHECK(contents(target) == "first");
  const std::string big(1 << 20, 'x');
  REQUIRE(write_file_atomic(target.string(), big));
  CHECK(contents(target) == big);
  REQUIRE(write_file_atomic(target.string(), ""));
  CHECK(contents(target).empty());
  CHECK(entries(dir.path) == std::vector<std::string>{"out.rig2d.json"});
}

TEST_CASE("io: a failed write leaves the old target untouched and no temp", "[io]") {
  TempDir dir("io");
  // The rename step fails: the target is a non-empty folder. The temp must be cleaned up.
  const fs::path folder = dir.path / "taken";
  fs::create_directories(folder / "inner");
  auto onto_folder = write_file_atomic(folder.string(), "data");
  REQUIRE_FALSE(onto_folder);
  CHECK(onto_folder.error().code == "io.write");
  CHECK(onto_folder.error().where.file == folder.string());
  CHECK(entries(dir.path) == std::vector<std::string>{"taken"});
  CHECK(entries(folder) == std::vector<std::string>{"inner"});

  // A folder that does not exist.
  auto nowhere = write_file_atomic((dir.path / "missing" / "x.json").string(), "data");
  REQUIRE_FALSE(nowhere);
  CHECK(nowhere.error().code == "io.write");
  CHECK(entries(dir.path) == std::vector<std::string>{"taken"});

  // An unwritable folder holding an old file (permissions do not bind root, so only as a normal user).
  if (::geteuid() != 0) {
    const fs::path locked = dir.path / "locked";
    fs::create_directories(locked);
    const fs::path old_file = locked / "old.json";
    REQUIRE(write_file_atomic(old_file.string(), "old"));
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    auto denied = write_file_atomic(old_file.string(), "new");
    fs::permissions(locked, fs::perms::owner_all);
    REQUIRE_FALSE(denied);
    CHECK(denied.error().code == "io.write");
    CHECK(contents(old_file) == "old");
    CHECK(entries(locked) == std::vector<std::string>{"old.json"});
  } else {
    // sysfs refuses new files even to root.
    auto denied = write_file_atomic("/sys/kernel/rig2d-probe.json", "new");
    REQUIRE_FALSE(denied);
    CHECK(denied.error().code == "io.write");
    CHECK_FALSE(fs::exists("/sys/kernel/rig2d-probe.json"));
  }
}

TEST_CASE("io: read_file reads whole files and enforces its limit before reading", "[io]") {
  TempDir dir("io");
  const fs::path file = dir.path / "f.bin";
  std::string bytes(1000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
  REQUIRE(write_file_atomic(file.string(), bytes));

  auto whole = read_file(file.string(), 1000);  // exactly at the limit
  REQUIRE(whole);
  CHECK(*whole == bytes);

  auto over = read_file(file.string(), 999);
  REQUIRE_FALSE(over);
  CHECK(over.error().code == "io.too_large");
  CHECK(over.error().where.file == file.string());

  auto missing = read_file((dir.path / "nope").string(), 1000);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == "io.not_found");

  auto folder = read_file(dir.path.string(), 1000);
  REQUIRE_FALSE(folder);
  CHECK(folder.error().code == "io.not_a_file");

  auto under_a_file = read_file((file / "x").string(), 1000);  // a path through a regular file
  REQUIRE_FALSE(under_a_file);
  CHECK(under_a_file.error().code == "io.not_found");

  // A FIFO without a writer: refused at once, not waited on.
  const fs::path fifo = dir.path / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto pipe = read_file(fifo.string(), 1000);
  REQUIRE_FALSE(pipe);
  CHECK(pipe.error().code == "io.not_a_file");

  REQUIRE(write_file_atomic((dir.path / "empty").string(), ""));
  auto empty = read_file((dir.path / "empty").string(), 0);
  REQUIRE(empty);
  CHECK(empty->empty());
}
