// SPDX-License-Identifier: Apache-2.0
// A multi-file write killed between two renames (a forked child that exits from the commit hook, as
// kill -9 would stop it): its journal lets the next run complete the set, roll it back, or say it can
// do neither.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <iterator>

#include "io/write_internal.h"
#include "rig2d/io/files.h"
#include "rig2d/io/write_journal.h"
#include "support/temp_dir.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

std::string journal_test_slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> journal_test_entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// a.json and c.json exist ("old a", "old c"); b.json does not. A child writes all three ("new ...")
// and is stopped right after its second rename: a and b are new, c is old, its temp waits.
void journal_test_killed_write(const fs::path& dir) {
  std::ofstream(dir / "a.json") << "old a";
  std::ofstream(dir / "c.json") << "old c";
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    io_internal::g_commit_hook = [](std::size_t renamed) {
      if (renamed == 2) ::_exit(9);
    };
    const std::vector<OutputFile> files = {{(dir / "a.json").string(), "new a"},
                                           {(dir / "b.json").string(), "new b"},
                                           {(dir / "c.json").string(), "new c"}};
    (void)write_files_atomic(files);
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 9);
  CHECK(journal_test_slurp(dir / "a.json") == "new a");
  CHECK(journal_test_slurp(dir / "b.json") == "new b");
  CHECK(journal_test_slurp(dir / "c.json") == "old c");
}

fs::path journal_test_find(const fs::path& dir, const char* kind, const char* of) {
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(std::string(".") + of, 0) == 0 && name.find(kind) != std::string::npos) return e.path();
  }
  return {};
}

}  // namespace

TEST_CASE("write journal: a set killed between renames is completed by the next run", "[io]") {
  TempDir tmp("journal");
  const fs::path dir = tmp.path;
  journal_test_killed_write(dir);
  CHECK_FALSE(journal_test_find(dir, ".journal.", "a.json").empty());
  // The leftover cleanup leaves what the journal still needs.
  CHECK(find_write_leftovers(dir.string()).empty());
  const auto found = recover_interrupted_writes({(dir / "c.json").string()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].outcome == WriteRecovery::Outcome::Completed);
  CHECK(found[0].files.size() == 3);
  CHECK(journal_test_slurp(dir / "c.json") == "new c");
  CHECK(journal_test_entries(dir) == std::vector<std::string>{"a.json", "b.json", "c.json"});
  CHECK(recover_interrupted_writes({(dir / "c.json").string()}).empty());
}

TEST_CASE("write journal: without the waiting temp the set is rolled back", "[io]") {
  TempDir tmp("journal");
  const fs::path dir = tmp.path;
  journal_test_killed_write(dir);
  fs::remove(journal_test_find(dir, ".tmp.", "c.json"));
  const auto found = recover_interrupted_writes({(dir / "a.json").string()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].outcome == WriteRecovery::Outcome::RolledBack);
  CHECK(journal_test_slurp(dir / "a.json") == "old a");  // its undo link renamed back
  CHECK(journal_test_slurp(dir / "c.json") == "old c");
  CHECK(journal_test_entries(dir) == std::vector<std::string>{"a.json", "c.json"});  // b was new: removed
}

TEST_CASE("write journal: neither temp nor undo link: stuck, files left and named", "[io]") {
  TempDir tmp("journal");
  const fs::path dir = tmp.path;
  journal_test_killed_write(dir);
  fs::remove(journal_test_find(dir, ".tmp.", "c.json"));
  fs::remove(journal_test_find(dir, ".old.", "a.json"));
  const auto found = recover_interrupted_writes({(dir / "a.json").string()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].outcome == WriteRecovery::Outcome::Stuck);
  CHECK(found[0].detail.find("c.json") != std::string::npos);
  CHECK(journal_test_slurp(dir / "a.json") == "new a");
  CHECK(journal_test_slurp(dir / "c.json") == "old c");
  CHECK(journal_test_find(dir, ".journal.", "a.json").empty());
}

TEST_CASE("write journal: a finished multi-file write leaves no journal", "[io]") {
  TempDir tmp("journal");
  const fs::path dir = tmp.path;
  const std::vector<OutputFile> files = {{(dir / "x.json").string(), "x"}, {(dir / "y.json").string(), "y"}};
  REQUIRE(write_files_atomic(files).has_value());
  CHECK(journal_test_entries(dir) == std::vector<std::string>{"x.json", "y.json"});
}
