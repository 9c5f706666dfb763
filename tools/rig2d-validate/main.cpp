// SPDX-License-Identifier: Apache-2.0
// rig2d-validate: checks rigs, sidecars and scenes before commit; text, JSON, JUnit, SARIF, GitHub and
// GitLab Code Quality reports; config files and baselines for existing asset trees.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include <spdlog/spdlog.h>

#include "common/cli_common.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/validate/fix.h"
#include "rig2d/validate/policy.h"
#include "rig2d/validate/report.h"
#include "rig2d/validate/validate.h"

namespace fs = std::filesystem;
using namespace rig2d;

namespace {

struct Options {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string output;
  std::string assets;
  double weight_tolerance = 1e-4;
  bool strict = false;
  bool fix = false;
  bool deform = false;
  double deform_angle = 60;  // degrees
  bool deform_errors = false;
  bool force = false;
  unsigned jobs = 1;
  std::string progress = "auto";
  std::string stdin_kind = "rig";
  std::string config;
  bool no_config = false;
  std::string baseline;
  std::string write_baseline;
  std::optional<std::size_t> max_findings;
  std::string docs_url = kDefaultDocsBaseUri;
  bool junit_times = false;
  cli::Verbosity verbosity;
};

void setup(CLI::App& app, Options& o) {
  app.add_option("paths", o.paths,
                 "Files or folders to check. Folders are searched recursively for *.rig2d.json, *.meta.json and "
                 "scene/prefab *.json (other engine JSON types, manifest.json and hidden folders are skipped). "
                 "\"-\" reads one file from standard input (see --stdin-kind), named <stdin> in reports")
      ->required();
  app.add_option("--format", o.format,
                 "Report format: text (file:line:col: severity: pointer: message [code], one per line), json, junit, "
                 "sarif (SARIF 2.1.0), github (workflow commands) or codeclimate (GitLab Code Quality); see "
                 "docs/validate.md")
      ->check(CLI::IsMember({"text", "json", "junit", "sarif", "github", "codeclimate"}))
      ->capture_default_str();
  app.add_option("--stdin-kind", o.stdin_kind, "What \"-\" (standard input) holds: rig, sidecar, scene or prefab")
      ->check(CLI::IsMember({"rig", "sidecar", "scene", "prefab"}))
      ->capture_default_str();
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
      ->check(CLI::ExistingDirectory);
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
  cli::add_verbosity(app, o.verbosity);
}

bool hidden_or_vendor(const fs::path& p) {
  const std::string name = p.filename().string();
  return (name.size() > 1 && name[0] == '.') || name == "node_modules";
}

struct Input {
  std::string file;
  std::string origin;  // the folder argument it was found under, else the file's own folder
  bool named = false;  // named on the command line (not found by a folder walk)
};

// Expands PATHs into a sorted, de-duplicated file list; missing paths are kept so they are
// reported as unreadable.
std::vector<Input> collect(const std::vector<std::string>& paths) {
  std::vector<Input> out;
  std::set<std::string> seen;
  std::string origin;
  const auto add = [&](const std::string& file, bool named) {
    std::error_code ec;
    const std::string key = fs::weakly_canonical(fs::path(file), ec).string();
    if (seen.insert(ec ? file : key).second) out.push_back({file, origin, named});
  };
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path == "-") {
      if (seen.insert("-").second) out.push_back({"-", "", true});
      continue;
    }
    if (!fs::is_directory(path, ec)) {
      if (fs::exists(path, ec) && classify_path(path) == FileKind::Unsupported) {
        spdlog::warn("{}: skipped: not a rig, sidecar or scene file", printable(path));
        continue;
      }
      origin = fs::path(path).has_parent_path() ? fs::path(path).parent_path().string() : std::string(".");
      add(path, true);
      continue;
    }
    origin = path;
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (hidden_or_vendor(it->path())) {
        if (it->is_directory(ec)) it.disable_recursion_pending();
        continue;
      }
      if (it->is_symlink(ec)) continue;  // as documented: the walk follows no symlink, to a file or a folder
      if (it->is_regular_file(ec) && classify_path(it->path().string()) != FileKind::Unsupported) {
        found.push_back(it->path().generic_string());
      }
    }
    if (ec) spdlog::warn("{}: could not list everything: {}", printable(path), ec.message());
    std::sort(found.begin(), found.end());
    for (const std::string& f : found) add(f, false);
  }
  return out;
}

// Applies --fix to one rig file; the notes go first in its report. Returns false if the write failed.
bool fix_file(const std::string& path, const ValidateOptions& vo, bool force, std::vector<Diagnostic>& notes) {
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return true;  // reported by the validation pass
  auto fixed = fix_rig(*text, path, FixOptions{vo.weight_tolerance});
  if (!fixed) {
    notes.push_back(Diagnostic{Severity::Note, "fix.skipped", "not fixed: " + fixed.error().message, Location{path}});
    return true;
  }
  if (!fixed->changed) return true;
  if (auto written = write_file_atomic(path, fixed->text, WriteOptions{force}); !written) {
    cli::print_error(written.error());
    return false;
  }
  notes = std::move(fixed->changes);
  return true;
}

// The config: --config, else the nearest kValidateConfigName in the first input's folder or above.
std::optional<std::string> find_config(const Options& o, const std::vector<std::string>& paths) {
  if (!o.config.empty()) return o.config;
  if (o.no_config) return std::nullopt;
  std::error_code ec;
  fs::path dir = fs::current_path(ec);
  for (const std::string& p : paths) {
    if (p == "-") continue;
    dir = fs::absolute(fs::is_directory(p, ec) ? fs::path(p) : fs::path(p).parent_path(), ec);
    break;
  }
  for (fs::path d = dir.lexically_normal(); !d.empty(); d = d.parent_path()) {
    const fs::path candidate = d / kValidateConfigName;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    if (d == d.parent_path()) break;
  }
  return std::nullopt;
}

// Reads the config or baseline; prints the error and returns nullopt when it is unusable.
template <typename T, typename Parse>
std::optional<T> load(const std::string& path, Parse parse) {
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) {
    cli::print_error(text.error());
    return std::nullopt;
  }
  auto parsed = parse(*text, path);
  if (!parsed) {
    cli::print_error(parsed.error());
    return std::nullopt;
  }
  return std::move(*parsed);
}

FileKind stdin_kind(const std::string& name) {
  return name == "sidecar" ? FileKind::Sidecar : name == "scene" ? FileKind::Scene : name == "prefab" ? FileKind::Prefab
                                                                                                     : FileKind::Rig;
}

// SARIF declares columns in code points: rewrite the byte columns from each file's text.
void sarif_columns(std::vector<FileReport>& reports, const std::string& stdin_text) {
  for (FileReport& r : reports) {
    if (r.diagnostics.empty() || r.unreadable) continue;
    if (r.path == "<stdin>") {
      columns_to_code_points(r, stdin_text);
    } else if (auto text = read_file(r.path, kMaxJsonFileBytes)) {
      columns_to_code_points(r, *text);
    }
  }
}

// One asset index per root, scanned before any file is checked. Standard input uses --assets only.
struct Indexes {
  std::map<std::string, std::unique_ptr<AssetIndex>> roots;
  std::vector<const AssetIndex*> per_file;
};

Indexes index_roots(const Options& o, const std::vector<Input>& inputs) {
  Indexes out;
  out.per_file.assign(inputs.size(), nullptr);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    // Default root: the nearest "assets" folder above the file, else the folder argument it came from.
    std::string root = o.assets;
    if (root.empty() && inputs[i].file == "-") continue;
    if (root.empty()) {
      root = default_asset_root(inputs[i].file);
      if (fs::path(root).filename() != "assets") root = inputs[i].origin;
    }
    auto it = out.roots.find(root);
    if (it == out.roots.end()) {
      auto scanned = AssetIndex::scan(root);
      std::unique_ptr<AssetIndex> index;
      if (scanned) {
        index = std::make_unique<AssetIndex>(std::move(*scanned));
        spdlog::debug("asset root {}: {} GUIDs", printable(root), index->entries().size());
      } else {
        cli::print_error(scanned.error());
      }
      it = out.roots.emplace(root, std::move(index)).first;
    }
    out.per_file[i] = it->second.get();
  }
  return out;
}

// The report and baseline must not land on any file this run reads (a checked file, or one its index read).
bool outputs_safe(const Options& o, const std::vector<std::string>& files, const Indexes& indexes) {
  std::vector<std::string> outputs;
  for (const std::string* out : {&o.output, &o.write_baseline}) {
    if (!out->empty()) outputs.push_back(*out);
  }
  if (outputs.empty()) return true;
  std::vector<std::string> read = files;
  for (const auto& [root, index] : indexes.roots) {
    if (!index) continue;
    for (const AssetEntry& e : index->entries()) {
      read.push_back(e.path);
      read.push_back(e.owner_file);
    }
  }
  auto safe = check_output_paths(read, outputs);
  if (!safe) cli::print_error(safe.error());
  return static_cast<bool>(safe);
}

// The files the run itself reads or writes (config, baseline, report) are never checked as scenes
// when a folder walk finds them. Named on the command line they are checked (and -o naming one is
// refused by the output safety check).
std::vector<Input> without_own_files(std::vector<Input> inputs, const Options& o) {
  std::set<std::string> own;
  std::error_code ec;
  for (const std::string* f : {&o.output, &o.baseline, &o.write_baseline, &o.config}) {
    if (!f->empty()) own.insert(fs::weakly_canonical(*f, ec).string());
  }
  std::erase_if(inputs, [&](const Input& in) {
    return !in.named && own.count(fs::weakly_canonical(in.file, ec).string()) > 0;
  });
  return inputs;
}

// Checks every file on o.jobs threads, with the progress line. The reports keep input order.
std::vector<FileReport> check_all(const Options& o, const std::vector<std::string>& files,
                                  const std::vector<const AssetIndex*>& file_index, const std::string& stdin_text,
                                  std::atomic<bool>& write_failed) {
  ValidateOptions vo;
  vo.weight_tolerance = o.weight_tolerance;
  vo.strict = false;  // applied after the config, so a re-graded warning still fails a strict run
  vo.deform = o.deform || o.deform_errors;
  vo.deform_options.angle = o.deform_angle * 3.14159265358979323846 / 180;
  if (o.deform_errors) vo.deform_options.severity = Severity::Error;
  const Validator validator(vo);
  std::vector<FileReport> reports(files.size());
  std::atomic<std::size_t> next{0}, done{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      const auto start = std::chrono::steady_clock::now();
      std::vector<Diagnostic> notes;
      if (files[i] == "-") {
        reports[i] = validator.validate_text(stdin_text, "<stdin>", stdin_kind(o.stdin_kind), file_index[i]);
      } else {
        const bool fix = o.fix && classify_path(files[i]) == FileKind::Rig;
        if (fix && !fix_file(files[i], vo, o.force, notes)) write_failed = true;
        reports[i] = validator.validate_file(files[i], file_index[i]);
      }
      reports[i].diagnostics.insert(reports[i].diagnostics.begin(), notes.begin(), notes.end());
      reports[i].seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ++done;
    }
  };
  const bool show = o.progress == "always" || (o.progress == "auto" && cli::stderr_is_tty() && !o.verbosity.quiet);
  cli::ProgressLine progress(show, o.progress == "always");
  std::vector<std::thread> pool;
  const unsigned jobs = std::min<unsigned>(o.jobs, static_cast<unsigned>(files.size()));
  for (unsigned t = 0; t < jobs; ++t) pool.emplace_back(work);
  while (done < files.size()) {
    progress.update(fmt::format("rig2d-validate: checking {}/{} files", done.load(), files.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (std::thread& t : pool) t.join();
  progress.done(fmt::format("rig2d-validate: checked {}/{} files", done.load(), files.size()));
  return reports;
}

// --write-baseline (writes every finding, then they all count as known) or --baseline. Returns the
// number of findings left out of the report, or nullopt when the baseline could not be written.
std::optional<std::size_t> baseline_step(const Options& o, std::vector<FileReport>& reports,
                                         const std::optional<Baseline>& baseline) {
  if (!o.write_baseline.empty()) {
    const std::string dir = fs::absolute(o.write_baseline).parent_path().string();
    auto made = cli::create_parent_dirs({o.write_baseline});
    auto written = made ? write_file_atomic(o.write_baseline, write_baseline(reports, dir)) : Result<void>(made);
    if (!written) {
      cli::print_error(written.error());
      return std::nullopt;
    }
    std::size_t count = 0;
    for (FileReport& r : reports) {
      count += r.diagnostics.size();
      r.diagnostics.clear();
    }
    spdlog::info("wrote {} ({} findings)", printable(o.write_baseline), count);
    return count;
  }
  if (!baseline) return 0;
  const BaselineMatch m = apply_baseline(reports, *baseline, fs::absolute(o.baseline).parent_path().string());
  if (m.stale > 0) {
    spdlog::info("{}: {} entries match no finding any more (rewrite it with --write-baseline)", printable(o.baseline),
                 m.stale);
  }
  return m.matched;
}

// The report to -o (folders created, written atomically) or stdout; false when it could not be written.
bool emit(const Options& o, const std::string& report) {
  if (o.output.empty()) {
    std::fwrite(report.data(), 1, report.size(), stdout);
    std::fflush(stdout);
    return true;
  }
  auto made = cli::create_parent_dirs({o.output});
  auto written = made ? write_file_atomic(o.output, report) : Result<void>(made);
  if (!written) cli::print_error(written.error());
  return static_cast<bool>(written);
}

int run(const Options& o) {
  const auto format = parse_report_format(o.format);
  std::optional<ValidateConfig> config;
  if (const auto config_path = find_config(o, o.paths)) {
    config = load<ValidateConfig>(*config_path, parse_validate_config);
    if (!config) return cli::kUsage;
    spdlog::debug("config {}", printable(*config_path));
  }
  std::optional<Baseline> baseline;
  if (!o.baseline.empty() && !(baseline = load<Baseline>(o.baseline, parse_baseline))) return cli::kUsage;
  const std::vector<Input> inputs = without_own_files(collect(o.paths), o);
  std::vector<std::string> files;
  for (const Input& in : inputs) files.push_back(in.file);
  // Nothing to check (an empty folder, or only skipped types) is not a failure: CI steps that upload
  // the report still get a valid, empty one.
  if (files.empty()) spdlog::warn("no rig, sidecar or scene files found in the given paths; the report is empty");
  const Indexes indexes = index_roots(o, inputs);
  if (!outputs_safe(o, files, indexes)) return cli::kUsage;

  std::string stdin_text;
  if (std::find(files.begin(), files.end(), "-") != files.end()) {
    auto text = cli::read_input("-", kMaxJsonFileBytes);
    if (!text) {
      cli::print_error(text.error());
      return cli::kBadInput;
    }
    stdin_text = std::move(*text);
    if (o.fix) spdlog::warn("<stdin>: --fix rewrites files only; standard input is only checked");
  }
  std::atomic<bool> write_failed{false};
  std::vector<FileReport> reports = check_all(o, files, indexes.per_file, stdin_text, write_failed);

  // Cross-file checks, then the config, --strict, the baseline and the cap, in that order.
  check_duplicate_guids(reports, indexes.per_file);
  if (config) apply_config(reports, *config);
  if (o.strict) {
    for (FileReport& r : reports) apply_strict(r);
  }
  ReportOptions ro;
  ro.tool_version = RIG2D_VERSION;
  ro.docs_base_uri = o.docs_url;
  if (!ro.docs_base_uri.empty() && ro.docs_base_uri.back() != '/') ro.docs_base_uri += '/';
  ro.base_dir = fs::current_path().string();
  ro.junit_times = o.junit_times;
  const auto baselined = baseline_step(o, reports, baseline);
  if (!baselined) return cli::kWriteFailed;
  ro.baselined = *baselined;
  // Counted before the cap: errors it leaves out of the listing still fail the run.
  const bool has_errors = report_totals(reports).errors > 0;
  const std::optional<std::size_t> cap = o.max_findings ? o.max_findings : config ? config->max_findings : std::nullopt;
  if (cap) cap_findings(reports, *cap);
  if (*format == ReportFormat::Sarif) sarif_columns(reports, stdin_text);
  if (!emit(o, format_report(reports, *format, ro))) return cli::kWriteFailed;

  const ReportTotals t = report_totals(reports);
  spdlog::info("{} files: {} clean, {} errors, {} warnings{}{}", t.files, t.clean, t.errors, t.warnings,
               t.unreadable ? fmt::format(", {} unreadable", t.unreadable) : std::string(),
               ro.baselined ? fmt::format(", {} baselined", ro.baselined) : std::string());
  if (write_failed) return cli::kWriteFailed;
  if (t.unreadable > 0) return cli::kBadInput;
  return has_errors ? cli::kFindings : cli::kOk;
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
  return cli::run_main(app, argc, argv, [&] {
    cli::setup_logging("rig2d-validate", o.verbosity);
    return run(o);
  });
}
