// SPDX-License-Identifier: Apache-2.0
// Config rules, globs, caps, baselines, rule texts and the CI report formats (GitHub, Code Quality,
// SARIF locations and columns).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "rig2d/quality/deform_check.h"
#include "rig2d/validate/policy.h"
#include "rig2d/validate/report.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

FileReport report_of(const std::string& path, std::vector<Diagnostic> diagnostics) {
  FileReport r;
  r.path = path;
  r.kind = FileKind::Rig;
  for (Diagnostic& d : diagnostics) d.where.file = path;
  r.diagnostics = std::move(diagnostics);
  return r;
}

Diagnostic diag(Severity s, const char* code, const char* pointer, int line = 2, int col = 3) {
  return Diagnostic{s, code, std::string("message of ") + code, Location{"", pointer, line, col}};
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("policy: globs match by segment", "[validate][policy]") {
  CHECK(glob_match("legacy/**", "legacy/a/b.rig2d.json"));
  CHECK(glob_match("legacy/**", "legacy/b.json"));
  CHECK_FALSE(glob_match("legacy/**", "other/legacy/b.json"));
  CHECK(glob_match("**/*.prefab.json", "a/b/c.prefab.json"));
  CHECK(glob_match("**/*.prefab.json", "c.prefab.json"));
  CHECK_FALSE(glob_match("*.json", "a/b.json"));  // "*" stays within a segment
  CHECK(glob_match("rigs/?.rig2d.json", "rigs/a.rig2d.json"));
  CHECK_FALSE(glob_match("rigs/?.rig2d.json", "rigs/ab.rig2d.json"));
  CHECK(glob_match("a/**/z.json", "a/z.json"));
  CHECK(glob_match("a/**/z.json", "a/b/c/z.json"));
  CHECK_FALSE(glob_match("a/**/z.json", "a/b/c/y.json"));
}

TEST_CASE("policy: config parses and rejects with pointers", "[validate][policy]") {
  const std::string text = R"({
  "$schema": "x",
  "ignore": ["deform.*"],
  "severity": {"rig.sprite.empty": "error", "scene.bone.missing": "off"},
  "paths": [{"files": "legacy/**", "severity": {"rig.weights.sum": "warning"}}, {"files": "vendor/**", "exclude": true}],
  "maxFindings": 7
})";
  auto c = parse_validate_config(text, "cfg/.rig2d-validate");
  REQUIRE(c);
  CHECK(c->base_dir == "cfg");
  REQUIRE(c->rules.size() == 3);
  CHECK(c->rules[0].pattern == "deform.*");
  CHECK_FALSE(c->rules[0].severity);
  CHECK(c->rules[1].severity == Severity::Error);
  REQUIRE(c->paths.size() == 2);
  CHECK(c->paths[1].exclude);
  CHECK(c->max_findings == 7u);

  auto bad = parse_validate_config("{\n  \"severity\": {\"a.b\": \"fatal\"}\n}", "c");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "config.severity");
  CHECK(bad.error().where.json_pointer == "/severity/a.b");
  CHECK(bad.error().where.line == 2);
  CHECK(parse_validate_config("{\"ignores\": []}", "c").error().code == "config.key");
  CHECK(parse_validate_config("{\"ignore\": [\"a*b\"]}", "c").error().code == "config.code");
  CHECK(parse_validate_config("{\"maxFindings\": -1}", "c").error().code == "config.type");
  CHECK(parse_validate_config("{\"paths\": [{\"exclude\": true}]}", "c").error().code == "config.type");
  CHECK(parse_validate_config("[", "c").error().code == "config.syntax");
}

TEST_CASE("policy: apply_config re-grades, drops and excludes by path", "[validate][policy]") {
  auto c = parse_validate_config(R"({"ignore": ["deform.*"], "severity": {"rig.sprite.empty": "error"},
    "paths": [{"files": "legacy/**", "severity": {"rig.weights.sum": "warning", "rig.sprite.empty": "note"}},
              {"files": "vendor/**", "exclude": true}]})",
                                 "/proj/.rig2d-validate");
  REQUIRE(c);
  std::vector<FileReport> reports{
      report_of("/proj/legacy/a.rig2d.json", {diag(Severity::Error, "rig.weights.sum", "/skinWeights/0"),
                                               diag(Severity::Warning, "rig.sprite.empty", "/sprite"),
                                               diag(Severity::Warning, "deform.leak", "/skinWeights")}),
      report_of("/proj/new/b.rig2d.json", {diag(Severity::Error, "rig.weights.sum", "/skinWeights/0"),
                                            diag(Severity::Warning, "rig.sprite.empty", "/sprite")}),
      report_of("/proj/vendor/c.rig2d.json", {diag(Severity::Error, "rig.id.missing", "")}),
  };
  apply_config(reports, *c);
  REQUIRE(reports[0].diagnostics.size() == 2);
  CHECK(reports[0].diagnostics[0].severity == Severity::Warning);  // path rule re-grades
  CHECK(reports[0].diagnostics[1].severity == Severity::Note);     // path rule wins over the top-level error
  REQUIRE(reports[1].diagnostics.size() == 2);
  CHECK(reports[1].diagnostics[0].severity == Severity::Error);
  CHECK(reports[1].diagnostics[1].severity == Severity::Error);  // top-level override
  CHECK(reports[2].diagnostics.empty());
}

TEST_CASE("policy: cap_findings keeps input order and says what it left out", "[validate][policy]") {
  std::vector<FileReport> reports{
      report_of("a.json", {diag(Severity::Warning, "x.a", "/1"), diag(Severity::Warning, "x.b", "/2")}),
      report_of("b.json", {diag(Severity::Warning, "x.c", "/1"), diag(Severity::Error, "x.d", "/2")}),
  };
  CHECK(cap_findings(reports, 3));  // the error was dropped
  REQUIRE(reports[0].diagnostics.size() == 2);
  REQUIRE(reports[1].diagnostics.size() == 2);
  CHECK(reports[1].diagnostics[0].code == "x.c");
  CHECK(reports[1].diagnostics[1].code == "validate.findings.truncated");
  CHECK(reports[1].diagnostics[1].message.find("1 more") == 0);
}

TEST_CASE("policy: baselines match code, file and pointer, with multiplicity", "[validate][policy]") {
  const std::vector<FileReport> before{
      report_of("/p/assets/a.rig2d.json", {diag(Severity::Error, "rig.weights.sum", "/skinWeights/0", 5),
                                           diag(Severity::Error, "rig.weights.sum", "/skinWeights/0", 5),
                                           diag(Severity::Warning, "rig.sprite.empty", "/sprite", 9)}),
  };
  const std::string text = write_baseline(before, "/p");
  CHECK(text.find("\"file\": \"assets/a.rig2d.json\"") != std::string::npos);
  auto baseline = parse_baseline(text, "/p/baseline.json");
  REQUIRE(baseline);
  REQUIRE(baseline->entries.size() == 3);

  // The same findings on other lines still match; a third copy and a new pointer do not.
  std::vector<FileReport> after{
      report_of("/p/assets/a.rig2d.json", {diag(Severity::Error, "rig.weights.sum", "/skinWeights/0", 50),
                                           diag(Severity::Error, "rig.weights.sum", "/skinWeights/0", 50),
                                           diag(Severity::Error, "rig.weights.sum", "/skinWeights/0", 50),
                                           diag(Severity::Error, "rig.weights.sum", "/skinWeights/4", 51)}),
  };
  const BaselineMatch m = apply_baseline(after, *baseline, "/p");
  CHECK(m.matched == 2);
  CHECK(m.stale == 1);  // the sprite warning was fixed
  REQUIRE(after[0].diagnostics.size() == 2);
  CHECK(after[0].diagnostics[1].where.json_pointer == "/skinWeights/4");

  CHECK(parse_baseline("{\"version\": 2, \"findings\": []}", "b").error().code == "baseline.format");
  CHECK(parse_baseline("{\"version\": 1, \"findings\": [{\"code\": 1}]}", "b").error().code == "baseline.format");
}

TEST_CASE("reports: every documented code has a short and a full description", "[validate][report]") {
  std::set<std::string> codes;
  for (const CodeInfo& c : validation_codes()) codes.insert(c.code);
  for (const DeformCodeInfo& c : deform_codes()) codes.insert(c.code);
  // Every code named in the first column of the code tables of both docs pages ("| `rig.x.y` | ...").
  const std::vector<std::string> prefixes{"json.", "io.",   "rig.",      "meta.",   "scene.",
                                          "prefab.", "guid.", "validate.", "deform.", "fix."};
  for (const char* page : {"docs/validate.md", "docs/rig-format.md"}) {
    std::istringstream in(slurp(fs::path(RIG2D_SOURCE_DIR) / page));
    std::string line;
    while (std::getline(in, line)) {
      if (!line.starts_with("| `")) continue;
      const std::string code = line.substr(3, line.find('`', 3) - 3);
      for (const std::string& prefix : prefixes) {
        if (code.starts_with(prefix) && code.find_first_of(" *") == std::string::npos) codes.insert(code);
      }
    }
  }
  CHECK(codes.size() > 110);  // the tables were found and read
  for (const std::string& code : codes) {
    INFO(code);
    const CodeText* t = find_code_text(code);
    REQUIRE(t != nullptr);
    const std::string short_text = t->short_text, full_text = t->full_text;
    CHECK(short_text.size() > 10);
    CHECK(short_text != code);
    CHECK(full_text.size() > short_text.size() / 2);
    CHECK(full_text != short_text);
    CHECK((short_text.back() == '.'));
    CHECK(std::string(t->page).find(".md") != std::string::npos);
  }
}

TEST_CASE("reports: SARIF locations, rules and columns", "[validate][report]") {
  std::vector<FileReport> reports{
      report_of("assets/a b.rig2d.json", {diag(Severity::Error, "rig.sprite.path", "/sprite", 4, 13)}),
      report_of("/abs/x.json", {diag(Severity::Warning, "no.such.code", "/q")}),
      report_of("../up/y.json", {diag(Severity::Note, "deform.summary", "")}),
  };
  ReportOptions o;
  o.tool_version = "9.9";
  o.base_dir = "/work/repo";
  o.docs_base_uri = "https://example.org/docs/";
  const std::string sarif = format_report(reports, ReportFormat::Sarif, o);
  const std::size_t rel = sarif.find("\"uri\": \"assets/a%20b.rig2d.json\"");
  REQUIRE(rel != std::string::npos);
  CHECK(sarif.find("\"uriBaseId\": \"SRCROOT\"", rel) < sarif.find('}', rel));  // in the same artifactLocation
  CHECK(sarif.find("\"uri\": \"file:///abs/x.json\"") != std::string::npos);
  CHECK(sarif.find("\"uri\": \"file:///work/up/y.json\"") != std::string::npos);
  const std::size_t base = sarif.find("\"originalUriBaseIds\"");
  REQUIRE(base != std::string::npos);
  CHECK(sarif.find("\"uri\": \"file:///work/repo/\"", base) < sarif.find('}', base));
  CHECK(sarif.find("\"helpUri\": \"https://example.org/docs/validate.md#rigs-beyond-the-rig-reader\"") !=
        std::string::npos);
  CHECK(sarif.find("\"columnKind\": \"unicodeCodePoints\"") != std::string::npos);
  CHECK(sarif.find("rig2d-validate finding no.such.code") != std::string::npos);  // unknown codes still described

  // Byte columns become code point columns: "é" is 2 bytes, 1 code point.
  FileReport r = report_of("f.json", {diag(Severity::Error, "x.y", "/b", 2, 12)});
  columns_to_code_points(r, "{\n  \"\xC3\xA9\xC3\xA9\": 1, \"b\": 2}");
  CHECK(r.diagnostics[0].where.column == 10);
}

TEST_CASE("reports: GitHub workflow commands and GitLab Code Quality", "[validate][report]") {
  std::vector<FileReport> reports{
      report_of("a,b:c.rig2d.json", {diag(Severity::Error, "rig.id.missing", "", 1, 1),
                                     diag(Severity::Warning, "rig.sprite.empty", "/sprite", 3, 5),
                                     diag(Severity::Warning, "rig.sprite.empty", "/sprite", 8, 5),
                                     Diagnostic{Severity::Note, "fix.bone", "100%\nnext", Location{"", "/bones/0", 0, 0}}}),
  };
  const std::string gh = format_report(reports, ReportFormat::Github, ReportOptions{});
  CHECK(gh.find("::error file=a%2Cb%3Ac.rig2d.json,line=1,col=1,title=rig.id.missing::message of rig.id.missing "
                "[rig.id.missing]\n") == 0);
  CHECK(gh.find("::warning file=a%2Cb%3Ac.rig2d.json,line=3,col=5,title=rig.sprite.empty::/sprite: message") !=
        std::string::npos);
  CHECK(gh.find("::notice file=a%2Cb%3Ac.rig2d.json,title=fix.bone::/bones/0: 100%25\\nnext [fix.bone]") !=
        std::string::npos);

  const std::string cq = format_report(reports, ReportFormat::CodeClimate, ReportOptions{});
  const std::string key = "\"fingerprint\": \"";
  std::vector<std::string> prints;
  for (std::size_t at = cq.find(key); at != std::string::npos; at = cq.find(key, at + 1)) {
    const std::string print = cq.substr(at + key.size(), 32);
    CHECK(print.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(cq.compare(at + key.size() + 32, 1, "\"") == 0);
    prints.push_back(print);
  }
  REQUIRE(prints.size() == 4);
  CHECK(std::set<std::string>(prints.begin(), prints.end()).size() == 4);  // repeats get their own
  CHECK(cq.find("\"severity\": \"major\"") != std::string::npos);
  CHECK(cq.find("\"severity\": \"minor\"") != std::string::npos);
  CHECK(cq.find("\"severity\": \"info\"") != std::string::npos);
  CHECK(cq.find("\"begin\": 1") != std::string::npos);  // a finding without a line still has lines.begin >= 1

  // Stable: moving a finding to another line keeps its fingerprint.
  reports[0].diagnostics[1].where.line = 30;
  const std::string moved = format_report(reports, ReportFormat::CodeClimate, ReportOptions{});
  CHECK(moved.find(prints[1]) != std::string::npos);
}
