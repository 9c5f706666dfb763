// SPDX-License-Identifier: Apache-2.0
#include "check_files.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include <spdlog/spdlog.h>

#include "rig2d/anim/bundled_clips.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/validate/fix.h"

namespace rig2d::validate_cli {

namespace {

// --stdin-kind, else what --stdin-name's file name says (as for a file on disk), else a rig.
FileKind stdin_kind(const Options& o) {
  const std::string& k = o.stdin_kind;
  if (k.empty()) {
    const FileKind named = o.stdin_name.empty() ? FileKind::Rig : classify_path(o.stdin_name);
    return named == FileKind::Unsupported ? FileKind::Rig : named;
  }
  return k == "sidecar" ? FileKind::Sidecar : k == "scene" ? FileKind::Scene : k == "prefab" ? FileKind::Prefab : FileKind::Rig;
}

ValidateOptions validate_options(const Options& o) {
  ValidateOptions vo;
  vo.weight_tolerance = o.weight_tolerance;
  vo.strict = false;  // applied after the config, so a re-graded warning still fails a strict run
  vo.deform = o.deform || o.deform_errors;
  vo.deform_options.angle = o.deform_angle * 3.14159265358979323846 / 180;
  if (o.deform_errors) vo.deform_options.severity = Severity::Error;
  if (!o.anim.empty()) {  // read and checked by run() before any file is checked
    if (auto clip = load_clip_spec(o.anim)) vo.deform_clip = std::move(*clip);
    vo.deform_clip_name = o.anim;
    vo.deform = true;
  }
  return vo;
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

// One file ("-": standard input), --fix first; its check time measured.
FileReport check_one(const Options& o, const Validator& validator, const std::string& file, const AssetIndex* index,
                     const std::string& stdin_text, std::atomic<bool>& write_failed) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Diagnostic> notes;
  FileReport report;
  if (file == "-") {
    report = validator.validate_text(stdin_text, stdin_display_name(o), stdin_kind(o), index);
  } else {
    const bool fix = o.fix && classify_path(file) == FileKind::Rig;
    if (fix && !fix_file(file, validator.options(), o.force, notes)) write_failed = true;
    report = validator.validate_file(file, index);
  }
  report.diagnostics.insert(report.diagnostics.begin(), notes.begin(), notes.end());
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace

std::vector<FileReport> check_all(const Options& o, const std::vector<std::string>& files,
                                  const std::vector<const AssetIndex*>& file_index, const std::string& stdin_text,
                                  std::atomic<bool>& write_failed) {
  const Validator validator(validate_options(o));
  std::vector<FileReport> reports(files.size());
  std::atomic<std::size_t> next{0}, done{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      reports[i] = check_one(o, validator, files[i], file_index[i], stdin_text, write_failed);
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

}  // namespace rig2d::validate_cli
