// SPDX-License-Identifier: Apache-2.0
// rig2d-validate: checks rigs, sidecars and scenes before commit; text, JSON, JUnit, SARIF, GitHub and
// GitLab Code Quality reports; config files and baselines for existing asset trees.
// The command line is parsed here; inputs.h gathers the files, check_files.h checks them and
// report_output.h writes the report.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <optional>

#include <spdlog/spdlog.h>

#include "check_files.h"
#include "rig2d/anim/bundled_clips.h"
#include "common/cli_common.h"
#include "common/cli_docs.h"
#include "inputs.h"
#include "options.h"
#include "report_output.h"
#include "rig2d/anim/bundled_clips.h"
#include "rig2d/core/limits.h"
#include "rig2d/validate/policy.h"
#include "rig2d/validate/report.h"
#include "rig2d/validate/validate.h"

using namespace rig2d;
using namespace rig2d::validate_cli;
namespace fs = std::filesystem;

namespace {

// The inputs: paths, and what standard input holds.
void add_input_options(CLI::App& app, Options& o) {
  app.add_option("paths", o.paths,
                 "Files or folders to check. Folders are searched recursively for *.rig2d.json, *.meta.json and "
                 "scene/prefab *.json (other engine JSON types, manifest.json and hidden folders are skipped). "
                 "\"-\" reads one file from standard input (see --stdin-kind, --stdin-name), named <stdin> in reports")
      ->type_name("PATH")
      ->required();
  app.add_option("--format", o.format,
                 "Report format: text (file:line:col: severity: pointer: message [code], one per line), json, junit, "
                 "sarif (SARIF 2.1.0), github (workflow commands), codeclimate (GitLab Code Quality) or html (a "
                 "self-contained review page: the findings and a viewer to bend each rig; docs/previews.md); see "
                 "docs/validate.md")
      ->check(CLI::IsMember({"text", "json", "junit", "sarif", "github", "codeclimate", "html"}))
      ->capture_default_str();
  app.add_option("--html-assets", o.html_assets,
                 "--format html textures: embed (data: URIs, one file; default) or link (the PNGs by a path "
                 "relative to -o)")
      ->check(CLI::IsMember({"embed", "link"}))
      ->type_name("MODE");
  app.add_option("--stdin-kind", o.stdin_kind,
                 "What \"-\" (standard input) holds: rig, sidecar, scene or prefab. Default: what --stdin-name's file "
                 "name says, else rig")
      ->check(CLI::IsMember({"rig", "sidecar", "scene", "prefab"}));
  app.add_option("--stdin-name", o.stdin_name,
                 "The path reports give \"-\" instead of <stdin>, e.g. in a pre-commit hook: git show "
                 ":assets/hero.rig2d.json | rig2d-validate - --stdin-name assets/hero.rig2d.json. Config rules per "
                 "path glob and baseline entries apply to it, its references resolve in the nearest assets/ folder above "
                 "it (unless --assets); the file itself is not read")
      ->type_name("PATH");
}

// Config, baseline and the report (format details, -o, the asset root).
void add_report_options(CLI::App& app, Options& o) {
  app.add_option("--config", o.config,
                 std::string("Config file (JSON): ignore codes, override severities, rules per path glob, maxFindings. "
                             "Default: the nearest ") +
                     kValidateConfigName + " in the first input's folder or above; see docs/validate.md")
      ->type_name("FILE");
  app.add_flag("--no-config", o.no_config, std::string("Do not look for a ") + kValidateConfigName + " file");
  app.add_option("--baseline", o.baseline,
                 "Known findings (written by --write-baseline): they are left out of the report and do not fail the "
                 "run; new ones do. Matched by code, file and JSON pointer, not line")
      ->type_name("FILE");
  app.add_option("--write-baseline", o.write_baseline,
                 "Write every finding of this run (after the config) to FILE as a baseline; the run then passes")
      ->type_name("FILE");
  app.add_option("--max-findings", o.max_findings,
                 "List at most N findings in the report (overrides the config's maxFindings); errors left out "
                 "still fail the run")
      ->type_name("N");
  app.add_option("--docs-url", o.docs_url,
                 "Absolute base URL of the docs folder, for SARIF helpUri links (rule pages are appended)")
      ->type_name("URL")
      ->capture_default_str();
  app.add_flag("--junit-times", o.junit_times,
               "JUnit: write each file's measured check time (else time=\"0.000\", so reports stay byte-identical)");
  app.add_option("-o,--output", o.output, "Write the report to FILE (atomically) instead of stdout")->type_name("FILE");
  app.add_option("--assets", o.assets,
                 "Asset root for GUID lookups (sprites, rigs, clips, duplicates); lookups never leave it. Default: per "
                 "file, the nearest ancestor folder named \"assets\", else the folder argument the file was found "
                 "under (a file named directly: its own folder)")
      ->type_name("DIR")
      ->check(CLI::ExistingDirectory);
}

// What is checked and how: tolerances, --strict, --fix, --deform, threads, progress.
void add_check_options(CLI::App& app, Options& o) {
  app.add_option("--weight-tolerance", o.weight_tolerance,
                 "Largest allowed |sum - 1| of one vertex's 4 skin weights (unitless)")
      ->type_name("X")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_flag("--strict", o.strict, "Treat warnings as errors (exit 1 on any warning)");
  app.add_flag("--fix", o.fix,
               "Rewrite rigs so they say what the engine loads: renormalize weights, fill defaults; writes atomically, "
               "keeps key order and the engine's JSON layout, and reports every change as a fix.* note");
  app.add_flag("--deform", o.deform,
               "Also bend every joint of each rig both ways and report folds, stretch, unused bones, rigid area, weight "
               "leaking across transparent gaps and texture pixels outside the mesh (deform.* warnings; docs/quality.md)");
  app.add_option("--deform-angle", o.deform_angle, "Bend angle of --deform in degrees (each joint is bent by + and -)")
      ->type_name("DEG")
      ->check(CLI::Range(0.0, 180.0))
      ->capture_default_str();
  app.add_option("--anim", o.anim,
                 "With --deform (implied): also play this clip on every rig and measure every frame against the bind "
                 "pose (folds, area, stretch: deform.clip.*); a .anim.json file or a bundled template clip such as "
                 "humanoid/walk (docs/templates.md). Tracks naming bones a rig lacks are skipped with a warning")
      ->type_name("CLIP");
  app.add_flag("--deform-errors", o.deform_errors,
               "deform.* findings are errors (exit 1), for a CI quality gate; implies --deform");
  app.add_flag("--force", o.force,
               "With --fix: also rewrite read-only rigs (refused by default); their mode is kept either way");
  app.add_option("-j,--jobs", o.jobs, "Files checked in parallel (threads); the report is identical for any value")
      ->type_name("N")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  app.add_option("--progress", o.progress, "Progress line on stderr: auto (only on a terminal), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

void setup(CLI::App& app, Options& o) {
  add_input_options(app, o);
  add_report_options(app, o);
  add_check_options(app, o);
  cli::add_verbosity(app, o.verbosity);
}

// The config (--config or found) and --baseline; false when one is unusable (printed).
bool load_policy(const Options& o, std::optional<ValidateConfig>& config, std::optional<Baseline>& baseline) {
  if (const auto config_path = find_config(o, o.paths)) {
    config = load_config(*config_path);
    if (!config) return false;
    spdlog::debug("config {}", printable(*config_path));
  }
  return o.baseline.empty() || (baseline = load_baseline(o.baseline));
}

// --stdin-name names "-", so it needs one and must not be another input's name too (the reports
// would be told apart by name only). False when not (printed).
bool stdin_name_usable(const Options& o, const std::vector<std::string>& files) {
  if (o.stdin_name.empty()) return true;
  if (std::find(files.begin(), files.end(), "-") == files.end()) {
    spdlog::error("--stdin-name {}: names standard input, but \"-\" is not among the paths", printable(o.stdin_name));
    return false;
  }
  const auto same = [&](const std::string& f) {
    return f != "-" && fs::path(f).lexically_normal() == fs::path(o.stdin_name).lexically_normal();
  };
  if (std::any_of(files.begin(), files.end(), same)) {
    spdlog::error("--stdin-name {}: is also one of the files checked; give standard input another name",
                  printable(o.stdin_name));
    return false;
  }
  return true;
}

// Standard input, read once when "-" is among the files; false when it could not be read (printed).
bool read_stdin(const Options& o, const std::vector<std::string>& files, std::string& stdin_text) {
  if (std::find(files.begin(), files.end(), "-") == files.end()) return true;
  auto text = cli::read_input("-", kMaxJsonFileBytes);
  if (!text) {
    cli::print_error(text.error());
    return false;
  }
  stdin_text = std::move(*text);
  if (o.fix) spdlog::warn("{}: --fix rewrites files only; standard input is only checked", printable(stdin_display_name(o)));
  return true;
}

// Cross-file checks, then the config, --strict, the baseline and the cap, in that order; writes the
// report and returns the exit code.
int finish(const Options& o, std::vector<FileReport>& reports, const std::vector<const AssetIndex*>& per_file,
           const std::optional<ValidateConfig>& config, const std::optional<Baseline>& baseline,
           const std::string& stdin_text, bool write_failed) {
  const bool html = o.format == "html";  // the review page, built from the finished reports below
  const auto format = html ? std::optional<ReportFormat>(ReportFormat::Json) : parse_report_format(o.format);
  check_duplicate_guids(reports, per_file);
  if (config) apply_config(reports, *config);
  if (o.strict) {
    for (FileReport& r : reports) apply_strict(r);
  }
  ReportOptions ro = report_options(o);
  const auto baselined = baseline_step(o, reports, baseline);
  if (!baselined) return kWriteFailed;
  ro.baselined = *baselined;
  // Counted before the cap: errors it leaves out of the listing still fail the run.
  const bool has_errors = report_totals(reports).errors > 0;
  const std::optional<std::size_t> cap = o.max_findings ? o.max_findings : config ? config->max_findings : std::nullopt;
  if (cap) cap_findings(reports, *cap);
  if (*format == ReportFormat::Sarif) sarif_columns(reports, stdin_display_name(o), stdin_text);
  if (html) {
    const auto page = html_report(o, reports);
    if (!page) return kBadInput;
    if (!emit(o, *page)) return kWriteFailed;
  } else if (!emit(o, format_report(reports, *format, ro))) {
    return kWriteFailed;
  }

  const ReportTotals t = report_totals(reports);
  spdlog::info("{} files: {} clean, {} errors, {} warnings{}{}", t.files, t.clean, t.errors, t.warnings,
               t.unreadable ? fmt::format(", {} unreadable", t.unreadable) : std::string(),
               ro.baselined ? fmt::format(", {} baselined", ro.baselined) : std::string());
  if (write_failed) return kWriteFailed;
  if (t.unreadable > 0) return kBadInput;
  return has_errors ? kFindings : kOk;
}

int run(const Options& o) {
  std::optional<ValidateConfig> config;
  std::optional<Baseline> baseline;
  if (!load_policy(o, config, baseline)) return kUsage;
  if (!o.anim.empty()) {
    auto clip = load_clip_spec(o.anim);
    if (!clip) {
      cli::print_error(clip.error());
      return kBadInput;
    }
  }
  const std::vector<Input> inputs = without_own_files(collect(o.paths), o);
  std::vector<std::string> files;
  for (const Input& in : inputs) files.push_back(in.file);
  // Nothing to check (an empty folder, or only skipped types) is not a failure: CI steps that upload
  // the report still get a valid, empty one.
  if (files.empty()) spdlog::warn("no rig, sidecar or scene files found in the given paths; the report is empty");
  const Indexes indexes = index_roots(o, inputs);
  if (!outputs_safe(o, files, indexes) || !stdin_name_usable(o, files)) return kUsage;
  std::string stdin_text;
  if (!read_stdin(o, files, stdin_text)) return kBadInput;
  std::atomic<bool> write_failed{false};
  std::vector<FileReport> reports = check_all(o, files, indexes.per_file, stdin_text, write_failed);
  return finish(o, reports, indexes.per_file, config, baseline, stdin_text, write_failed);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "rig2d-validate: checks .rig2d.json rigs, .meta.json sidecars and scene/prefab JSON before commit.\n"
      "Every finding is reported with file, line:col, JSON pointer, severity and a stable code\n"
      "(see docs/validate.md). Exit codes: 0 clean (warnings allowed unless --strict), 1 findings,\n"
      "2 usage, 3 an input is unreadable, 4 the report or a --fix could not be written.",
      "rig2d-validate"};
  app.set_version_flag("--version", std::string("rig2d-validate ") + RIG2D_VERSION);
  Options o;
  setup(app, o);
  cli::add_docs_options(app, "check rigs, sidecars and scenes before commit");
  return cli::run_main(app, argc, argv, [&] {
    cli::setup_logging("rig2d-validate", o.verbosity);
    return run(o);
  });
}
