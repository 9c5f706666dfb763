// SPDX-License-Identifier: Apache-2.0
// The folder walk and the config lookup of a validation run, on a tree built in a temp folder.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "rig2d/validate/policy.h"
#include "rig2d/validate/validate.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("rig2d_test_find_files_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "{}";
}

}  // namespace

TEST_CASE("find_checkable_files: sorted, classified, hidden and vendor folders skipped", "[validate][walk]") {
  const fs::path root = fresh_dir("walk");
  touch(root / "b/z.rig2d.json");
  touch(root / "a.png.meta.json");
  touch(root / "b/level.json");  // a scene
  touch(root / "b/walk.anim.json");  // another engine type: skipped
  touch(root / "notes.txt");
  touch(root / ".git/x.rig2d.json");
  touch(root / "node_modules/pkg/y.rig2d.json");
  touch(root / "b/.hidden.rig2d.json");
  fs::create_directory_symlink(root / "b", root / "link");  // not followed

  const FolderScan scan = find_checkable_files(root.string());
  const std::string r = root.generic_string();
  CHECK(scan.error.empty());
  CHECK(scan.files == std::vector<std::string>{r + "/a.png.meta.json", r + "/b/level.json", r + "/b/z.rig2d.json"});
  fs::remove_all(root);
}

TEST_CASE("find_checkable_files: a missing folder is an error, not a crash", "[validate][walk]") {
  const FolderScan scan = find_checkable_files((fs::temp_directory_path() / "rig2d_no_such_folder_x").string());
  CHECK(scan.files.empty());
  CHECK_FALSE(scan.error.empty());
}

TEST_CASE("find_validate_config: the nearest config at or above the folder", "[validate][policy]") {
  const fs::path root = fresh_dir("config");
  touch(root / "a/b/c/keep.txt");
  // None inside the tree yet (a folder above the temp folder is not ours to control).
  const auto none = find_validate_config((root / "a/b/c").string());
  CHECK((!none || !none->starts_with(root.string())));
  touch(root / "a" / kValidateConfigName);
  CHECK(find_validate_config((root / "a/b/c").string()) == (root / "a" / kValidateConfigName).string());
  touch(root / "a/b" / kValidateConfigName);
  CHECK(find_validate_config((root / "a/b/c").string()) == (root / "a/b" / kValidateConfigName).string());
  CHECK(find_validate_config((root / "a/./b/c/..").string()) == (root / "a/b" / kValidateConfigName).string());
  fs::create_directories(root / "a/b/c" / kValidateConfigName);  // a folder of that name is no config
  CHECK(find_validate_config((root / "a/b/c").string()) == (root / "a/b" / kValidateConfigName).string());
  fs::remove_all(root);
}
