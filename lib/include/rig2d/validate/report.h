// SPDX-License-Identifier: Apache-2.0
// Validation reports for people and CI: GNU-style text (one finding per line, which GitHub
// annotations and editors pick up), a JSON document, JUnit XML and SARIF 2.1.0.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/export.h"
#include "rig2d/validate/validate.h"

namespace rig2d {

enum class ReportFormat { Text, Json, Junit, Sarif };

// "text", "json", "junit", "sarif" -> format; nullopt otherwise.
RIG2D_EXPORT std::optional<ReportFormat> parse_report_format(std::string_view name);

struct ReportTotals {
  std::size_t files = 0, clean = 0, errors = 0, warnings = 0, notes = 0, unreadable = 0;
};
RIG2D_EXPORT ReportTotals report_totals(const std::vector<FileReport>& reports);

// Formats every report. Text: `file:line:col: severity: pointer: message [code]` per finding (no
// summary line; the CLI logs that). JSON: {"tool", "version", "summary", "files": [{path, kind,
// status, diagnostics: [{severity, code, message, pointer, line, column}]}]}. JUnit: one testcase
// per file, a <failure> per error, warnings in <system-out>. SARIF: one run, a rule per code used.
// `tool_version` is written into JSON and SARIF. Deterministic: the input order is kept.
RIG2D_EXPORT std::string format_report(const std::vector<FileReport>& reports, ReportFormat format,
                                       std::string_view tool_version);

}  // namespace rig2d
