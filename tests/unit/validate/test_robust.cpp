// SPDX-License-Identifier: Apache-2.0
// Hostile input never crashes: every prefix of a valid rig, scene and sidecar is reported as an error,
// and byte garbage is a finding. Report writers escape what they must.
#include <catch2/catch.hpp>

#include "rig2d/io/files.h"
#include "rig2d/validate/report.h"
#include "rig2d/validate/validate.h"

using namespace rig2d;

namespace {

const std::string kValidFolder = std::string(RIG2D_SOURCE_DIR) + "/tests/data/valid/validate";

std::string slurp(const std::string& path) {
  auto text = read_file(path, 1u << 24);
  REQUIRE(text);
  return *text;
}

void sweep(const std::string& file, FileKind kind) {
  auto index = AssetIndex::scan(kValidFolder);
  REQUIRE(index);
  const Validator validator;
  const std::string text = slurp(file);
  const FileReport full = validator.validate_text(text, file, kind, &*index);
  REQUIRE(full.diagnostics.empty());
  // Every prefix (a truncated write) must be an error, never a crash or a silent pass.
  for (std::size_t n = 0; n < text.size(); ++n) {
    const FileReport r = validator.validate_text(std::string_view(text).substr(0, n), file, kind, &*index);
    if (r.count(Severity::Error) == 0) FAIL("prefix of " << n << " bytes of " << file << " passed");
  }
}

}  // namespace

TEST_CASE("validate robustness: every truncation of a valid file is an error", "[validate][robust]") {
  SECTION("rig") { sweep(kValidFolder + "/rigs/bar.rig2d.json", FileKind::Rig); }
  SECTION("scene") { sweep(kValidFolder + "/scenes/bar.json", FileKind::Scene); }
  SECTION("prefab") { sweep(kValidFolder + "/prefabs/bar.prefab.json", FileKind::Prefab); }
  SECTION("sidecar") { sweep(kValidFolder + "/textures/sheet.png.meta.json", FileKind::Sidecar); }
}

TEST_CASE("validate robustness: byte garbage and odd roots are findings", "[validate][robust]") {
  const Validator validator;
  std::string garbage;
  std::uint32_t state = 12345;
  for (int i = 0; i < 4096; ++i) {
    state = state * 1664525u + 1013904223u;  // fixed LCG: the same bytes every run
    garbage += static_cast<char>(state >> 24);
  }
  for (const FileKind kind : {FileKind::Rig, FileKind::Scene, FileKind::Prefab, FileKind::Sidecar}) {
    for (const std::string& text : {garbage, std::string(""), std::string("null"), std::string("\"x\""),
                                    std::string("[[[[]]]]"), std::string(100, '{'), std::string("{\"a\":1}x")}) {
      const FileReport r = validator.validate_text(text, "g.json", kind, nullptr);
      CHECK(r.count(Severity::Error) > 0);
    }
  }
}

TEST_CASE("reports: escaping in JUnit and SARIF", "[validate][report]") {
  FileReport r;
  r.path = "dir with space/<a&b>.rig2d.json";
  r.kind = FileKind::Rig;
  r.diagnostics.push_back(
      Diagnostic{Severity::Error, "rig.sprite.path", "bad \"ref\" <x> & \x01 \xff", Location{r.path, "/a~1b", 3, 4}});
  r.diagnostics.push_back(Diagnostic{Severity::Warning, "rig.sprite.empty", "w", Location{r.path, "", 0, 0}});
  const std::vector<FileReport> reports{r};

  const std::string junit = format_report(reports, ReportFormat::Junit, "0.1.0");
  CHECK(junit.find("name=\"dir with space/&lt;a&amp;b&gt;.rig2d.json\"") != std::string::npos);
  CHECK(junit.find("&quot;ref&quot; &lt;x&gt; &amp; ?") != std::string::npos);  // control char replaced
  CHECK(junit.find("failures=\"1\"") != std::string::npos);
  CHECK(junit.find("<system-out>") != std::string::npos);
  // A file name that is not UTF-8 (any bytes are a valid Linux name) is written with U+FFFD, as in
  // JSON and SARIF, so the XML stays well-formed.
  FileReport latin1;
  latin1.path = "caf\xe9.rig2d.json";
  latin1.kind = FileKind::Rig;
  const std::string named = format_report({latin1}, ReportFormat::Junit, "0.1.0");
  CHECK(named.find("caf\xEF\xBF\xBD.rig2d.json") != std::string::npos);
  CHECK(named.find('\xe9') == std::string::npos);

  const std::string sarif = format_report(reports, ReportFormat::Sarif, "0.1.0");
  CHECK(sarif.find("\"uri\": \"dir%20with%20space/%3Ca%26b%3E.rig2d.json\"") != std::string::npos);
  CHECK(sarif.find("\"startLine\": 3") != std::string::npos);
  CHECK(sarif.find("\"fullyQualifiedName\": \"/a~1b\"") != std::string::npos);
  CHECK(sarif.find("\xEF\xBF\xBD") != std::string::npos);  // invalid UTF-8 became U+FFFD

  const std::string text = format_report(reports, ReportFormat::Text, "0.1.0");
  CHECK(text.find("dir with space/<a&b>.rig2d.json:3:4: error: /a~1b: bad") == 0);
  CHECK(text.find("\ndir with space/<a&b>.rig2d.json: warning: w [rig.sprite.empty]\n") != std::string::npos);

  const ReportTotals t = report_totals(reports);
  CHECK(t.files == 1);
  CHECK(t.errors == 1);
  CHECK(t.warnings == 1);
  CHECK(t.clean == 0);
  CHECK_FALSE(parse_report_format("xml"));
  CHECK(*parse_report_format("sarif") == ReportFormat::Sarif);
}
