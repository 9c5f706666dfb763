// SPDX-License-Identifier: Apache-2.0
// rig2d-validate: checks rigs, sidecars and scenes before commit; text, JSON, JUnit and SARIF reports.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include <spdlog/spdlog.h>

#include "common/cli_common.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/validate/fix.h"
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
  cli::Verbosity verbosity;
};

void setup(CLI::App& app, Options& o) {
  app.add_option("paths", o.paths,
                 "Files or folders to check. Folders are searched recursively for *.rig2d.json, *.meta.json and "
                 "scene/prefab *.json (other engine JSON types, manifest.json and hidden folders are skipped)")
      ->required();
  app.add_option("--format", o.format,
                 "Report format: text (file:line:col: severity: pointer: message [code], one per line), json, junit "
                 "or sarif (SARIF 2.1.0); see docs/validate.md")
      ->check(CLI::IsMember({"text", "json", "junit", "sarif"}))
      ->capture_default_str();
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
};

// Expands PATHs into a sorted, de-duplicated file list; missing paths are kept so they are
// reported as unreadable.
std::vector<Input> collect(const std::vector<std::string>& paths) {
  std::vector<Input> out;
  std::set<std::string> seen;
  std::string origin;
  const auto add = [&](const std::string& file) {
    std::error_code ec;
    const std::string key = fs::weakly_canonical(fs::path(file), ec).string();
    if (seen.insert(ec ? file : key).second) out.push_back({file, origin});
  };
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      if (fs::exists(path, ec) && classify_path(path) == FileKind::Unsupported) {
        spdlog::warn("{}: skipped: not a rig, sidecar or scene file", printable(path));
        continue;
      }
      origin = fs::path(path).has_parent_path() ? fs::path(path).parent_path().string() : std::string(".");
      add(path);
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
    for (const std::string& f : found) add(f);
  }
  return out;
}

class Progress {
 public:
  Progress(bool enabled, std::size_t total) : enabled_(enabled), total_(total) {}
  void update(std::size_t done, bool final = false) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!final && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    std::fprintf(stderr, "\r\033[Krig2d-validate: %s %zu/%zu files", final ? "checked" : "checking", done, total_);
    if (final) std::fprintf(stderr, "\n");
    std::fflush(stderr);
  }

 private:
  bool enabled_;
  std::size_t total_;
  std::chrono::steady_clock::time_point last_{};
};

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

int run(const Options& o) {
  const auto format = parse_report_format(o.format);
  const std::vector<Input> inputs = collect(o.paths);
  std::vector<std::string> files;
  for (const Input& in : inputs) files.push_back(in.file);
  if (files.empty()) {
    spdlog::error("no rig, sidecar or scene files found in the given paths");
    return cli::kBadInput;
  }

  // One asset index per root, scanned before any file is checked.
  std::map<std::string, std::unique_ptr<AssetIndex>> indexes;
  std::vector<const AssetIndex*> file_index(files.size(), nullptr);
  for (std::size_t i = 0; i < files.size(); ++i) {
    // Default root: the nearest "assets" folder above the file, else the folder argument it came from.
    std::string root = o.assets;
    if (root.empty()) {
      root = default_asset_root(files[i]);
      if (fs::path(root).filename() != "assets") root = inputs[i].origin;
    }
    auto it = indexes.find(root);
    if (it == indexes.end()) {
      auto scanned = AssetIndex::scan(root);
      std::unique_ptr<AssetIndex> index;
      if (scanned) {
        index = std::make_unique<AssetIndex>(std::move(*scanned));
        spdlog::debug("asset root {}: {} GUIDs", printable(root), index->entries().size());
      } else {
        cli::print_error(scanned.error());
      }
      it = indexes.emplace(root, std::move(index)).first;
    }
    file_index[i] = it->second.get();
  }

  // The report must not land on any file this run reads (a checked file, or one its index read).
  if (!o.output.empty()) {
    std::vector<std::string> read = files;
    for (const auto& [root, index] : indexes) {
      if (!index) continue;
      for (const AssetEntry& e : index->entries()) {
        read.push_back(e.path);
        read.push_back(e.owner_file);
      }
    }
    if (auto safe = check_output_paths(read, std::vector<std::string>{o.output}); !safe) {
      cli::print_error(safe.error());
      return cli::kUsage;
    }
  }

  ValidateOptions vo;
  vo.weight_tolerance = o.weight_tolerance;
  vo.strict = o.strict;
  vo.deform = o.deform || o.deform_errors;
  vo.deform_options.angle = o.deform_angle * 3.14159265358979323846 / 180;
  if (o.deform_errors) vo.deform_options.severity = Severity::Error;
  const Validator validator(vo);
  std::vector<FileReport> reports(files.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> write_failed{false};
  const auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      std::vector<Diagnostic> notes;
      if (o.fix && classify_path(files[i]) == FileKind::Rig && !fix_file(files[i], vo, o.force, notes)) write_failed = true;
      reports[i] = validator.validate_file(files[i], file_index[i]);
      reports[i].diagnostics.insert(reports[i].diagnostics.begin(), notes.begin(), notes.end());
      ++done;
    }
  };
  const bool show = o.progress == "always" || (o.progress == "auto" && cli::stderr_is_tty() && !o.verbosity.quiet);
  Progress progress(show, files.size());
  std::vector<std::thread> pool;
  const unsigned jobs = std::min<unsigned>(o.jobs, static_cast<unsigned>(files.size()));
  for (unsigned t = 0; t < jobs; ++t) pool.emplace_back(work);
  while (done < files.size()) {
    progress.update(done);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (std::thread& t : pool) t.join();
  progress.update(done, true);

  check_duplicate_guids(reports, file_index);
  const std::string report = format_report(reports, *format, RIG2D_VERSION);
  if (o.output.empty()) {
    std::fwrite(report.data(), 1, report.size(), stdout);
    std::fflush(stdout);
  } else if (auto written = write_file_atomic(o.output, report); !written) {
    cli::print_error(written.error());
    return cli::kWriteFailed;
  }

  const ReportTotals t = report_totals(reports);
  spdlog::info("{} files: {} clean, {} errors, {} warnings{}", t.files, t.clean, t.errors, t.warnings,
               t.unreadable ? fmt::format(", {} unreadable", t.unreadable) : std::string());
  if (write_failed) return cli::kWriteFailed;
  if (t.unreadable > 0) return cli::kBadInput;
  return t.errors > 0 ? cli::kFindings : cli::kOk;
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
