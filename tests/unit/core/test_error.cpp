// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "rig2d/core/result.h"

using namespace rig2d;

TEST_CASE("error: GNU-style formatting with line, column and pointer", "[core]") {
  CHECK(format_error({"json.syntax", "unexpected end of input", {"a.rig2d.json", "", 3, 4}}) ==
        "a.rig2d.json:3:4: error: unexpected end of input [json.syntax]");
  CHECK(format_error({"rig.bone.parent", "parent 7 is out of range", {"a.rig2d.json", "/bones/1/parent", 0, 0}}) ==
        "a.rig2d.json: error: /bones/1/parent: parent 7 is out of range [rig.bone.parent]");
  Diagnostic d{Severity::Warning, "mesh.tri.degenerate", "zero area", {"x.json", "/mesh/tris/3", 0, 0}};
  CHECK(format_diagnostic(d) == "x.json: warning: /mesh/tris/3: zero area [mesh.tri.degenerate]");
}

TEST_CASE("error: control characters in paths and messages print escaped, one line, uncut", "[core]") {
  const std::string name = std::string("evil\nfake.json:1:1: error: forged\x1b[2J", 37);
  const std::string message = std::string("bone \"a\0b\" unknown", 18);
  const std::string line = format_error({"pose.bone", message, {name, "", 2, 3}});
  CHECK(line == "evil\\nfake.json:1:1: error: forged\\x1b[2J:2:3: error: bone \"a\\x00b\" unknown [pose.bone]");
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line.find('\0') == std::string::npos);
  CHECK(printable("tab\there \x7f caf\xc3\xa9") == "tab\\there \\x7f caf\xc3\xa9");
}

TEST_CASE("result: value and error paths", "[core]") {
  Result<int> ok = 5;
  REQUIRE(ok.has_value());
  CHECK(*ok == 5);
  Result<int> bad = make_error("x.y", "broken", {"f"});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "x.y");
  Result<void> fine;
  CHECK(fine.has_value());
  Result<void> failed = make_error("a.b", "c");
  CHECK_FALSE(failed.has_value());
  CHECK(failed.error().message == "c");
}
