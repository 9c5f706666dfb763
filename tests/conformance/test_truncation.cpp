// SPDX-License-Identifier: Apache-2.0
// Truncation sweep: every proper prefix of a valid rig is rejected cleanly by both readers (a JSON
// syntax error with a position), never accepted as a smaller rig and never a crash.
#include <catch2/catch.hpp>
#include <filesystem>

#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;
namespace fs = std::filesystem;

TEST_CASE("truncation: every prefix of a valid rig is rejected by both readers", "[rig][conformance]") {
  const fs::path corpus = fs::path(RIG2D_SOURCE_DIR) / "tests" / "conformance" / "data";
  for (const char* name : {"r1.rig2d.json", "v2.rig2d.json"}) {
    INFO(name);
    auto text = read_file((corpus / name).string(), kMaxJsonFileBytes);
    REQUIRE(text);
    // Trailing whitespace is not part of the document: a prefix must stop before the final '}'.
    const std::size_t last = text->find_last_of('}');
    REQUIRE(last != std::string::npos);
    REQUIRE(read_rig_strict(*text, name).rig.has_value());
    for (std::size_t n = 0; n <= last; ++n) {
      const std::string prefix = text->substr(0, n);  // its own allocation, so ASan sees overreads
      INFO("prefix length " << n);
      auto normalized = read_rig_normalized(prefix, name);
      REQUIRE_FALSE(normalized);
      CHECK(normalized.error().code == "json.syntax");
      const StrictRig strict = read_rig_strict(prefix, name);
      CHECK_FALSE(strict.rig.has_value());
      REQUIRE_FALSE(strict.diagnostics.empty());
      CHECK(strict.diagnostics.front().code == "json.syntax");
      CHECK(strict.diagnostics.front().where.line >= 1);
    }
  }
}
