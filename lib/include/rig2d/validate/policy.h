// SPDX-License-Identifier: Apache-2.0
// What a project does with findings, beyond the checks themselves: a config file (per-code ignore and
// severity override, per-path rules by glob, a cap on listed findings) and a baseline of known findings
// that no longer fail the run. Both are JSON documents; docs/validate.md describes them and
// schemas/rig2d-validate.schema.json is the config's schema.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/validate/validate.h"

namespace rig2d {

// The default config file name, searched in the first input's folder and its parents. It is not a
// `.json` name, so it is never read as a scene when it lies inside an asset root.
inline constexpr const char* kValidateConfigName = ".rig2d-validate";

// The nearest kValidateConfigName file in `dir` or a folder above it (`dir` is normalized lexically,
// not resolved); nullopt when there is none.
RIG2D_EXPORT std::optional<std::string> find_validate_config(const std::string& dir);

// A severity override: a code pattern ("scene.bone.missing", or a prefix pattern "deform.*") and what
// its findings become (nullopt: dropped).
struct SeverityRule {
  std::string pattern;
  std::optional<Severity> severity;
};

// Rules for the files whose path (relative to the config file's folder, '/' separators) matches a
// glob: `*` any run of characters within a segment, `**` any number of segments, `?` one character.
struct PathRule {
  std::string glob;
  bool exclude = false;             // findings in matching files are all dropped
  std::vector<SeverityRule> rules;  // applied after the top-level rules; later rules win
};

struct ValidateConfig {
  std::string path;                 // the file it was read from ("" when built in code)
  std::string base_dir;             // the folder path globs are relative to
  std::vector<SeverityRule> rules;  // "ignore" entries, then "severity" entries, in file order
  std::vector<PathRule> paths;
  std::optional<std::size_t> max_findings;  // findings listed in a report at most (then a note)
};

// Parses a config document. Errors (code config.*, with the file, pointer and line:col): config.syntax
// (not JSON), config.root, config.key (unknown key), config.type, config.severity (unknown severity),
// config.code (an empty pattern, or a "*" anywhere but the end).
RIG2D_EXPORT Result<ValidateConfig> parse_validate_config(std::string_view text, const std::string& path);

// True when `path` ('/'-separated, relative) matches `glob` as PathRule describes.
RIG2D_EXPORT bool glob_match(std::string_view glob, std::string_view path);

// Applies the severity and path rules to every finding of `reports` (in place). Paths are made
// relative to config.base_dir before matching.
RIG2D_EXPORT void apply_config(std::vector<FileReport>& reports, const ValidateConfig& config);

// Keeps at most `max` findings across all reports (input order); a report that lost findings gets a
// validate.findings.truncated note saying how many. Errors dropped this way still count: the return
// value is true when an error was dropped, so the caller can still fail the run.
RIG2D_EXPORT bool cap_findings(std::vector<FileReport>& reports, std::size_t max);

// A known finding: matched by code, file and JSON pointer, never by line, so edits elsewhere in the
// file keep it matched. `file` is relative to the baseline file's folder.
struct BaselineEntry {
  std::string code;
  std::string file;
  std::string pointer;
};

struct Baseline {
  std::vector<BaselineEntry> entries;
};

// The baseline document: {"version": 1, "tool": "rig2d-validate", "findings": [{code, file, pointer}]},
// sorted, so a rewritten baseline diffs cleanly. `base_dir` is the baseline file's folder.
RIG2D_EXPORT std::string write_baseline(const std::vector<FileReport>& reports, const std::string& base_dir);
RIG2D_EXPORT Result<Baseline> parse_baseline(std::string_view text, const std::string& path);

struct BaselineMatch {
  std::size_t matched = 0;  // findings removed from the reports
  std::size_t stale = 0;    // baseline entries that matched nothing (fixed since)
};
// Removes the findings the baseline lists (each entry matches one finding; duplicates need as many
// entries). File names are compared after making them relative to `base_dir`.
RIG2D_EXPORT BaselineMatch apply_baseline(std::vector<FileReport>& reports, const Baseline& baseline,
                                          const std::string& base_dir);

}  // namespace rig2d
