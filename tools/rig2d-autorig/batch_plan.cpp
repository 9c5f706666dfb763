// SPDX-License-Identifier: Apache-2.0
#include "batch_plan.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <utility>

#include "rig2d/build/build_files.h"
#include "rig2d/build/stamp.h"

namespace rig2d::cli {
namespace {

// Checks what plan_jobs cannot: some input, a well-formed --shard, no standard input. Returns kOk or
// prints why and returns kUsage.
int check_batch_inputs(const Options& o, std::optional<Shard>& shard) {
  if (o.inputs.empty()) {
    spdlog::error("no input: give PNG files or folders, or --layout FILE|DIR");
    return kUsage;
  }
  if (o.shard && !(shard = parse_shard(*o.shard))) {
    spdlog::error("--shard: expected K/N with 1 <= K <= N, got \"{}\"", *o.shard);
    return kUsage;
  }
  // A sprite's sidecar and texture GUID come from its path, so it cannot come from standard input.
  if (std::find(o.inputs.begin(), o.inputs.end(), "-") != o.inputs.end() || (o.bones && *o.bones == "-")) {
    spdlog::error(
        "\"-\" (standard input) is not an input here: a sprite's .meta.json is written beside its PNG and "
        "its texture GUID derives from its path, and --bones files are stamped by content; give file paths");
    return kUsage;
  }
  return kOk;
}

// The job's files and, when its template choice reads any, the map and the template file. A choice
// that fails lists nothing more: the run reports it.
std::vector<std::string> job_files(const Job& job, const TemplateSources& templates) {
  std::vector<std::string> files = job_input_files(job.request);
  if (auto choice = choose_template(job.request.png_path, std::nullopt, templates))
    append_unique(files, template_choice_inputs(*choice, templates));
  return files;
}

}  // namespace

int plan_batch(const Options& o, const TemplateSources& templates, std::vector<Job>& jobs) {
  std::optional<Shard> shard;
  if (const int code = check_batch_inputs(o, shard); code != kOk) return code;
  auto planned = plan_jobs({o.inputs, o.output, o.base, o.bones, o.keep_bones, o.write_meta, o.slice});
  if (!planned) {
    print_error(planned.error());
    return planned.error().code == "autorig.input" ? kBadInput : kUsage;
  }
  if (!o.slice && spdlog::should_log(spdlog::level::warn)) {
    for (const Diagnostic& d : sheet_orphans(*planned)) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  }
  // The template map and template files are read too: no rig, stamp or depfile may overwrite them.
  std::vector<std::string> template_files;
  std::set<std::string> chosen;  // a sheet's slices share one choice
  for (const Job& job : *planned) {
    if (!chosen.insert(job.request.png_path).second) continue;
    if (auto choice = choose_template(job.request.png_path, std::nullopt, templates))
      append_unique(template_files, template_choice_inputs(*choice, templates));
  }
  if (auto safe = check_job_outputs(*planned, o.depfile, template_files); !safe) {
    print_error(safe.error());
    return kUsage;
  }
  jobs = shard ? select_shard(*planned, *shard) : std::move(*planned);
  return kOk;
}

bool is_batch(const Options& o, const std::vector<Job>& jobs) {
  std::error_code ec;
  return o.inputs.size() > 1 || std::filesystem::is_directory(o.inputs[0], ec) || jobs.size() > 1;
}

int list_inputs(const std::vector<Job>& jobs, const TemplateSources& templates, bool null) {
  std::vector<std::string> files;
  for (const Job& job : jobs) append_unique(files, job_files(job, templates));
  return print_input_list(files, null);
}

// A rig kept by --keep-bones is left out of its own prerequisites (a build system would see a cycle);
// the stamp's rig hash covers it.
int write_depfile(const Options& o, const std::vector<Job>& jobs, const TemplateSources& templates) {
  if (!o.depfile || o.check || o.dry_run) return kOk;
  std::vector<DepRule> rules;
  for (const Job& job : jobs) {
    DepRule rule{job.request.rig_path, {}};
    for (const std::string& input : job_files(job, templates)) {
      if (input != job.request.rig_path) rule.prerequisites.push_back(input);
    }
    rules.push_back(std::move(rule));
  }
  // A file name no depfile can carry is the input's fault: said, nothing half-written.
  auto dep_text = depfile_text(rules);
  if (!dep_text) {
    print_error(dep_text.error());
    return kBadInput;
  }
  if (auto ok = write_if_changed(*o.depfile, *dep_text); !ok) {
    print_error(ok.error());
    return kWriteFailed;
  }
  return kOk;
}

}  // namespace rig2d::cli
