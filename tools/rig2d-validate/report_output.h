// SPDX-License-Identifier: Apache-2.0
// rig2d-validate's output side: the baseline step, the report options, SARIF columns, and writing
// the report to -o or stdout. Errors are printed here; callers map them to exits.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "options.h"
#include "rig2d/validate/policy.h"
#include "rig2d/validate/report.h"

namespace rig2d::validate_cli {

// --write-baseline (writes every finding, then they all count as known) or --baseline. Returns the
// number of findings left out of the report, or nullopt when the baseline could not be written.
std::optional<std::size_t> baseline_step(const Options& o, std::vector<FileReport>& reports,
                                         const std::optional<Baseline>& baseline);

// The report's options from the command line (baselined is left for the baseline step).
ReportOptions report_options(const Options& o);

// SARIF declares columns in code points: rewrite the byte columns from each file's text (the report
// named stdin_name from stdin_text).
void sarif_columns(std::vector<FileReport>& reports, const std::string& stdin_name, const std::string& stdin_text);

// --format html: the review page (rig2d-pose --html) of the checked files, their findings as given
// (after config, baseline and cap), the rigs in its viewer. nullopt when it cannot be built (printed).
std::optional<std::string> html_report(const Options& o, const std::vector<FileReport>& reports);

// The report to -o (folders created, written atomically) or stdout; false when it could not be written.
bool emit(const Options& o, const std::string& report);

}  // namespace rig2d::validate_cli
