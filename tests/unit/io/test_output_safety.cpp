// SPDX-License-Identifier: Apache-2.0
// The output-safety rule (an output is never an input or another output), all-or-nothing multi-file
// writes, and rewrites that keep a file's mode, its symlink and refuse read-only files.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "support/temp_dir.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

std::string contents(const std::string& p) {
  auto bytes = read_file(p, 1u << 24);
  REQUIRE(bytes);
  return *bytes;
}

std::vector<std::string> names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

unsigned mode_of(const std::string& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

std::string error_code(const Result<void>& r) { return r ? std::string() : r.error().code; }

}  // namespace

TEST_CASE("output safety: an output that is an input is refused, by any spelling", "[io]") {
  TempDir dir("safety");
  const std::string png = dir.file("a.png", "png bytes");
  const std::string other = dir.file("b.json", "{}");
  const std::vector<std::string> inputs{other, png};

  CHECK(check_output_paths(inputs, std::vector<std::string>{(dir.path / "out.json").string()}));
  auto same = check_output_paths(inputs, std::vector<std::string>{png});
  REQUIRE_FALSE(same);
  CHECK(same.error().code == "io.output.is_input");
  CHECK(same.error().where.file == png);
  CHECK(same.error().message.find(png) != std::string::npos);
  // Another spelling, a symlink and a hard link all name the same file.
  const std::string dotted = (dir.path / "." / "sub" / ".." / "a.png").string();
  fs::create_directories(dir.path / "sub");
  CHECK(error_code(check_output_paths(inputs, std::vector<std::string>{dotted})) == "io.output.is_input");
  fs::create_symlink(png, dir.path / "link.png");
  CHECK(error_code(check_output_paths(inputs, std::vector<std::string>{(dir.path / "link.png").string()})) ==
        "io.output.is_input");
  fs::create_hard_link(png, dir.path / "hard.png");
  CHECK(error_code(check_output_paths(inputs, std::vector<std::string>{(dir.path / "hard.png").string()})) ==
        "io.output.is_input");
}

TEST_CASE("output safety: two outputs naming one file collide, existing or not", "[io]") {
  TempDir dir("safety");
  const std::string fresh = (dir.path / "new.png").string();
  const std::string fresh_again = (dir.path / "sub" / ".." / "new.png").string();
  fs::create_directories(dir.path / "sub");
  auto twice = check_output_paths({}, std::vector<std::string>{fresh, fresh_again});
  REQUIRE_FALSE(twice);
  CHECK(twice.error().code == "io.output.collision");
  CHECK(twice.error().where.file == fresh_again);
  // A dangling symlink is written through to its target, so it collides with that target.
  fs::create_symlink(dir.path / "target.png", dir.path / "dangling.png");
  CHECK(error_code(check_output_paths({}, std::vector<std::string>{(dir.path / "target.png").string(),
                                                                    (dir.path / "dangling.png").string()})) ==
        "io.output.collision");
  CHECK(check_output_paths({}, std::vector<std::string>{fresh, (dir.path / "other.png").string()}));
}

TEST_CASE("output safety: a rewrite keeps the mode and writes through a symlink", "[io]") {
  TempDir dir("safety");
  const std::string secret = dir.file("secret.json", "old");
  REQUIRE(::chmod(secret.c_str(), 0600) == 0);
  REQUIRE(write_file_atomic(secret, "new"));
  CHECK(contents(secret) == "new");
  CHECK(mode_of(secret) == 0600);
  REQUIRE(::chmod(secret.c_str(), 0640) == 0);
  REQUIRE(write_file_atomic(secret, "newer"));
  CHECK(mode_of(secret) == 0640);

  const fs::path link = dir.path / "link.json";
  fs::create_symlink("secret.json", link);  // relative, resolved from the link's folder
  REQUIRE(write_file_atomic(link.string(), "through the link"));
  CHECK(fs::is_symlink(fs::symlink_status(link)));
  CHECK(contents(secret) == "through the link");
  CHECK(mode_of(secret) == 0640);
  CHECK(names(dir.path) == std::vector<std::string>{"link.json", "secret.json"});
}

TEST_CASE("output safety: a rewrite keeps the owner and group where the process may set them", "[io]") {
  TempDir dir("safety");
  const std::string file = dir.file("owned.json", "old");
  // Only root may give a file to another user; others can only check their own files stay theirs.
  const bool root = ::geteuid() == 0;
  const unsigned owner = root ? 65534u : ::geteuid(), group = root ? 65534u : ::getegid();
  if (root) REQUIRE(::chown(file.c_str(), owner, group) == 0);
  REQUIRE(write_file_atomic(file, "new"));
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK(st.st_uid == owner);
  CHECK(st.st_gid == group);
  CHECK(contents(file) == "new");
}

TEST_CASE("output safety: a read-only file is refused unless replacing it is asked for", "[io]") {
  TempDir dir("safety");
  const std::string locked = dir.file("locked.json", "keep me");
  REQUIRE(::chmod(locked.c_str(), 0444) == 0);
  auto refused = write_file_atomic(locked, "clobbered");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == "io.output.read_only");
  CHECK(refused.error().message.find("0444") != std::string::npos);
  CHECK(contents(locked) == "keep me");
  CHECK(names(dir.path) == std::vector<std::string>{"locked.json"});
  REQUIRE(write_file_atomic(locked, "replaced", WriteOptions{true}));
  CHECK(contents(locked) == "replaced");
  CHECK(mode_of(locked) == 0444);
}

TEST_CASE("output safety: a multi-file write is all or nothing", "[io]") {
  TempDir dir("safety");
  const std::string a = dir.file("a.png", "old a");
  const std::string b = dir.file("b.png", "old b");
  const std::vector<OutputFile> ok{{a, "new a"}, {b, "new b"}, {(dir.path / "c.png").string(), "new c"}};
  REQUIRE(write_files_atomic(ok));
  CHECK(contents(a) == "new a");
  CHECK(contents(b) == "new b");
  CHECK(contents((dir.path / "c.png").string()) == "new c");
  CHECK(names(dir.path) == std::vector<std::string>{"a.png", "b.png", "c.png"});

  // The last output cannot be created: nothing that existed changes, nothing new appears.
  const std::vector<OutputFile> doomed{{a, "newer a"}, {(dir.path / "d.png").string(), "d"},
                                       {(dir.path / "nodir" / "s.png").string(), "sheet"}};
  auto failed = write_files_atomic(doomed);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().code == "io.write");
  CHECK(failed.error().where.file == (dir.path / "nodir" / "s.png").string());
  CHECK(contents(a) == "new a");
  CHECK(names(dir.path) == std::vector<std::string>{"a.png", "b.png", "c.png"});

  // A rename that fails after others succeeded (the target is a folder) is rolled back.
  fs::create_directories(dir.path / "dir.png");
  fs::create_directories(dir.path / "dir.png" / "inside");
  const std::vector<OutputFile> late{{a, "late a"}, {(dir.path / "e.png").string(), "e"},
                                     {(dir.path / "dir.png").string(), "x"}};
  REQUIRE_FALSE(write_files_atomic(late));
  CHECK(contents(a) == "new a");
  CHECK(names(dir.path) == std::vector<std::string>{"a.png", "b.png", "c.png", "dir.png"});
}
