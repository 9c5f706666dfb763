// SPDX-License-Identifier: Apache-2.0
// Every bundled template, loaded, for the tests that fit or choose among all of them.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "rig2d/skeleton/template.h"

namespace rig2d::test {

inline std::vector<SkeletonTemplate> all_bundled_templates() {
  std::vector<SkeletonTemplate> out;
  for (const std::string& name : bundled_template_names()) {
    auto t = bundled_template(name);
    REQUIRE(t.has_value());
    out.push_back(std::move(*t));
  }
  return out;
}

}  // namespace rig2d::test
