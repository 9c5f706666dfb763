// SPDX-License-Identifier: Apache-2.0
#include "report_output.h"

#include <cstdio>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/preview/review_page.h"

namespace rig2d::validate_cli {
namespace fs = std::filesystem;

namespace {

// Writes every finding to --write-baseline, then clears them all; nullopt when it could not be written.
std::optional<std::size_t> write_baseline_file(const Options& o, std::vector<FileReport>& reports) {
  const std::string dir = fs::absolute(o.write_baseline).parent_path().string();
  auto made = create_parent_dirs({o.write_baseline});
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

}  // namespace

std::optional<std::size_t> baseline_step(const Options& o, std::vector<FileReport>& reports,
                                         const std::optional<Baseline>& baseline) {
  if (!o.write_baseline.empty()) return write_baseline_file(o, reports);
  if (!baseline) return 0;
  const BaselineMatch m = apply_baseline(reports, *baseline, fs::absolute(o.baseline).parent_path().string());
  if (m.stale > 0) {
    spdlog::info("{}: {} entries match no finding any more (rewrite it with --write-baseline)", printable(o.baseline),
                 m.stale);
  }
  return m.matched;
}

ReportOptions report_options(const Options& o) {
  ReportOptions ro;
  ro.tool_version = RIG2D_VERSION;
  ro.docs_base_uri = o.docs_url;
  if (!ro.docs_base_uri.empty() && ro.docs_base_uri.back() != '/') ro.docs_base_uri += '/';
  ro.base_dir = fs::current_path().string();
  ro.junit_times = o.junit_times;
  return ro;
}

void sarif_columns(std::vector<FileReport>& reports, const std::string& stdin_name, const std::string& stdin_text) {
  for (FileReport& r : reports) {
    if (r.diagnostics.empty() || r.unreadable) continue;
    if (r.path == stdin_name) {
      columns_to_code_points(r, stdin_text);
    } else if (auto text = read_file(r.path, kMaxJsonFileBytes)) {
      columns_to_code_points(r, *text);
    }
  }
}

std::optional<std::string> html_report(const Options& o, const std::vector<FileReport>& reports) {
  std::vector<ReviewInput> inputs;
  inputs.reserve(reports.size());
  for (const FileReport& r : reports) {
    inputs.push_back({r.path == "-" ? stdin_display_name(o) : r.path, r});
    if (r.path == "-") inputs.back().report->path = "-";
  }
  ReviewPageOptions ro;
  ro.assets_root = o.assets;
  ro.validate = false;
  ro.docs_base_uri = o.docs_url;
  ro.link_assets = o.html_assets == "link";
  ro.page_path = o.output.empty() ? "review.html" : o.output;
  ro.title = "rig2d-validate report";
  auto page = review_page(inputs, ro);
  if (!page) {
    cli::print_error(page.error());
    return std::nullopt;
  }
  return std::move(page->html);
}

bool emit(const Options& o, const std::string& report) {
  if (o.output.empty()) {
    std::fwrite(report.data(), 1, report.size(), stdout);
    std::fflush(stdout);
    return true;
  }
  auto made = create_parent_dirs({o.output});
  auto written = made ? write_file_atomic(o.output, report) : Result<void>(made);
  if (!written) cli::print_error(written.error());
  return static_cast<bool>(written);
}

}  // namespace rig2d::validate_cli
