// SPDX-License-Identifier: Apache-2.0
// A fresh folder under the system temp dir for one test, removed (with whatever a test locked) at scope exit.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

struct TempDir {
  std::filesystem::path path;

  explicit TempDir(const std::string& tag = "test")
      : path(std::filesystem::temp_directory_path() /
             ("rig2d-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `text` to `name` in the folder and returns the file's path.
  std::string file(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = path / name;
    std::ofstream out(p, std::ios::binary);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write test fixture " + p.string());
    return p.string();
  }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(path), {}));
  }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
};
