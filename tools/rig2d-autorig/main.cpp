// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig: PNG sprites (or folders of them) in, engine-compatible .rig2d.json rigs out.
// The command line is options.h; batch_plan.h turns the sprite inputs into jobs, batch.h runs them
// and batch_report.h says how each went; --layout is layout_run.h.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "batch_plan.h"
#include "batch_report.h"
#include "common/cli_common.h"
#include "common/cli_docs.h"
#include "document_run.h"
#include "layout_run.h"
#include "rig2d/layered/document.h"
#include "options.h"
#include "slice_jobs.h"

namespace rig2d::cli {
namespace {

// Temp files and undo links a killed run left beside the outputs: removed before rigging (said at the
// default level), listed as "leftover PATH" by --check, named by --dry-run. True when there were any.
bool clean_leftovers(const Options& o, const std::vector<Job>& jobs) {
  const std::vector<std::string> found = job_write_leftovers(jobs);
  for (const std::string& path : found) {
    if (o.check) {
      std::printf("leftover %s\n", path.c_str());
    } else if (o.dry_run) {
      spdlog::info("would remove {} (left by an interrupted run)", printable(path));
    } else {
      std::error_code ec;
      std::filesystem::remove(path, ec);
      if (ec) spdlog::warn("cannot remove {} (left by an interrupted run): {}", printable(path), ec.message());
      else spdlog::info("removed {} (left by an interrupted run)", printable(path));
    }
  }
  return !found.empty();
}

// Rigs the jobs on --jobs threads, reporting each in job order; then the totals and the depfile.
int rig_jobs(const Options& o, const AutorigOptions& options, const std::string& options_key,
             const std::vector<Job>& jobs, const TemplateSources& templates) {
  MemoryBudget budget(o.memory_budget_mib << 20);
  const RunFlags flags{o.dry_run, o.force, o.check, o.jobs, &budget, options_key, RIG2D_VERSION, &templates};
  spdlog::trace("options in the digest:\n{}", options_key);
  const bool leftovers = clean_leftovers(o, jobs);
  BatchReport report(o, options, jobs);
  run_jobs(jobs, options, flags, [&](std::size_t i, const Outcome& r) { report.add(i, r); });
  report.finish();
  if (const int depfile_exit = write_depfile(o, jobs, templates); depfile_exit != kOk) return depfile_exit;
  const int code = report.exit_code(is_batch(o, jobs));
  return code == kOk && o.check && leftovers ? kFindings : code;
}

// --template FILE's path (a bundled name, auto and none read no file), for one rig's stamp and depfile.
std::optional<std::string> template_file(const Options& o) {
  if (o.template_spec.empty() || o.template_spec == "auto" || o.template_spec == "none" ||
      o.template_spec.find_first_of("/\\.") == std::string::npos)
    return std::nullopt;
  return o.template_spec;
}

// --layout: one multi-part rig, none of the sprite batch's options.
int rig_layout(const Options& o, const AutorigOptions& options, const std::string& options_key) {
  if (!o.inputs.empty() || o.shard || o.slice || o.slice_sheets || o.keep_bones || o.write_meta || o.template_map) {
    spdlog::error(
        "--layout builds one rig from the layout: no PNG inputs, --shard, --slice, --slice-sheets, --keep-bones, "
        "--write-meta or --template-map (one skeleton for every part: give --template)");
    return kUsage;
  }
  return run_layout({*o.layout, o.output, o.bones, o.depfile, o.list_inputs, o.check, o.dry_run, o.force, options_key,
                     template_file(o), o.memory_budget_mib << 20, o.list_null},
                    options);
}

// hero.psd|.psb|.ora: one multi-part rig from the document's layers.
int rig_document(const Options& o, const AutorigOptions& options, const std::string& options_key) {
  if (o.inputs.size() != 1 || o.layout || o.shard || o.slice || o.slice_sheets || o.keep_bones || o.write_meta ||
      o.template_map) {
    spdlog::error(
        "a layered document (.psd, .psb, .ora) is rigged alone: one input, without --layout, --shard, --slice, "
        "--slice-sheets, --keep-bones, --write-meta or --template-map (give --template)");
    return kUsage;
  }
  DocumentRun run;
  run.document = o.inputs.front();
  run.output = o.output;
  run.bones = o.bones;
  run.depfile = o.depfile;
  run.list_inputs = o.list_inputs;
  run.list_null = o.list_null;
  run.check = o.check;
  run.dry_run = o.dry_run;
  run.force = o.force;
  run.options_key = options_key;
  run.groups = o.groups == "flatten" ? GroupMode::Flatten : GroupMode::Parts;
  run.layers_out = o.layers_out;
  run.atlas.padding = o.atlas_padding;
  run.atlas.power_of_two = o.atlas_pot;
  run.memory_budget = o.memory_budget_mib << 20;
  run.template_file = template_file(o);
  return run_document(run, options);
}

int run(const Options& o, const std::string& options_key) {
  AutorigOptions options;
  if (const int code = prepare_autorig_options(o, options); code != kOk) return code;
  for (const std::string& input : o.inputs)
    if (layered_format_of(input)) return rig_document(o, options, options_key);
  if (o.layout) return rig_layout(o, options, options_key);
  TemplateSources templates;
  std::optional<TemplateMap> map;
  if (const int code = prepare_templates(o, templates.fallback, map); code != kOk) return code;
  if (map) templates.map = &*map;
  std::vector<Job> jobs;
  if (const int code = plan_batch(o, templates, jobs); code != kOk) return code;
  if (o.slice_sheets && !o.list_inputs) {
    if (o.check || o.shard) {
      // A check writes nothing; shards split a job list that slicing changes while they run.
      spdlog::error("--slice-sheets writes sidecars and adds jobs: slice the sheets in a run of their own, then {}",
                    o.check ? "--check" : "--shard");
      return kUsage;
    }
    bool sliced = false;
    if (const int code = slice_sheets(o, options.alpha_threshold, options_key, RIG2D_VERSION, jobs, sliced);
        code != kOk)
      return code;
    if (sliced) {  // the new slices are jobs of their own
      if (const int code = plan_batch(o, templates, jobs); code != kOk) return code;
    }
  }
  if (o.list_inputs) return list_inputs(jobs, templates, o.list_null);
  if (jobs.empty()) {
    spdlog::warn(o.shard ? "no PNG files in this shard" : "no PNG files found");
    return write_depfile(o, jobs, templates);
  }
  return rig_jobs(o, options, options_key, jobs, templates);
}

}  // namespace
}  // namespace rig2d::cli

int main(int argc, char** argv) {
  using namespace rig2d::cli;
  CLI::App app{"", "rig2d-autorig"};
  Options options;
  setup(app, options);
  add_docs_options(app, "rig PNG sprites into .rig2d.json skinning rigs");
  return run_main(app, argc, argv, [&] {
    setup_logging("rig2d-autorig", options.verbosity);
    return run(options, app.config_to_str(true, false));
  });
}