// SPDX-License-Identifier: Apache-2.0
// Validation reports for people and CI: GNU-style text (one finding per line, which GitHub
// annotations and editors pick up), a JSON document, JUnit XML, SARIF 2.1.0, GitHub workflow
// commands and GitLab Code Quality JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/export.h"
#include "rig2d/validate/validate.h"

namespace rig2d {

enum class ReportFormat { Text, Json, Junit, Sarif, Github, CodeClimate };

// "text", "json", "junit", "sarif", "github", "codeclimate" -> format; nullopt otherwise.
RIG2D_EXPORT std::optional<ReportFormat> parse_report_format(std::string_view name);

struct ReportTotals {
  std::size_t files = 0, clean = 0, errors = 0, warnings = 0, notes = 0, unreadable = 0;
};
RIG2D_EXPORT ReportTotals report_totals(const std::vector<FileReport>& reports);

// Where SARIF rules link to (helpUri): docs pages are appended to it ("validate.md#--fix").
inline constexpr const char* kDefaultDocsBaseUri = "https://github.com/rig2d/rig2d/blob/main/docs/";

struct ReportOptions {
  std::string tool_version;                         // written into JSON and SARIF
  std::string docs_base_uri = kDefaultDocsBaseUri;  // absolute, ending in '/'
  // Absolute folder that relative paths are relative to (the working folder). SARIF writes it as the
  // SRCROOT base (originalUriBaseIds) of relative artifact URIs; empty: relative URIs without a base.
  std::string base_dir;
  std::size_t baselined = 0;  // findings a baseline matched (and removed); reported in the summary
  bool junit_times = false;   // JUnit: FileReport::seconds as testcase times (else 0: byte-identical runs)
};

// Formats every report. Text: `file:line:col: severity: pointer: message [code]` per finding (no
// summary line; the CLI logs that). JSON: {"tool", "version", "summary", "files": [{path, kind,
// status, diagnostics: [{severity, code, message, pointer, line, column}]}]}. JUnit: one testcase
// per file, a <failure> per error, warnings in <system-out>. SARIF: one run, a rule per code used.
// GitHub: workflow commands (`::error file=F,line=L,col=C,title=CODE::message`). CodeClimate: the
// GitLab Code Quality JSON array, a fingerprint per finding from code, file, pointer and occurrence.
// Deterministic: the input order is kept.
RIG2D_EXPORT std::string format_report(const std::vector<FileReport>& reports, ReportFormat format,
                                       const ReportOptions& options);
RIG2D_EXPORT std::string format_report(const std::vector<FileReport>& reports, ReportFormat format,
                                       std::string_view tool_version);

// The description of a stable finding code, for report formats that describe their rules (SARIF).
struct CodeText {
  const char* code;
  const char* short_text;  // one sentence
  const char* full_text;   // what it means and how to fix it
  const char* page;        // docs page, relative to the docs base URI, with an anchor ("validate.md#codes")
};
// Every documented code: validation_codes(), deform_codes(), the rig reader's, json.*, io.* and fix.*.
RIG2D_EXPORT const std::vector<CodeText>& code_texts();
RIG2D_EXPORT const CodeText* find_code_text(std::string_view code);  // nullptr for an unknown code

// Rewrites the 1-based byte columns of `report`'s findings as 1-based Unicode code point columns of
// `text` (the file's content), which is what SARIF's columnKind "unicodeCodePoints" declares.
RIG2D_EXPORT void columns_to_code_points(FileReport& report, std::string_view text);

}  // namespace rig2d
