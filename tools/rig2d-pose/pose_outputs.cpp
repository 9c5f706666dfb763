// SPDX-License-Identifier: Apache-2.0
#include "pose_outputs.h"

#include <cstdio>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "rig2d/build/build_files.h"
#include "rig2d/io/files.h"

namespace rig2d::pose_cli {

namespace {

// --depfile: one rule per output, each naming every file the run read.
int write_depfile(const std::string& depfile, const std::vector<std::string>& outputs,
                  const std::vector<std::string>& inputs) {
  if (depfile.empty()) return kOk;
  std::vector<DepRule> rules;
  for (const std::string& path : outputs) {
    rules.push_back({path, {}});
    append_unique(rules.back().prerequisites, inputs);
  }
  // A file name no depfile can carry is the input's fault: said, nothing half-written.
  auto dep_text = depfile_text(rules);
  if (!dep_text) {
    cli::print_error(dep_text.error());
    return kBadInput;
  }
  if (auto ok = write_if_changed(depfile, *dep_text); !ok) {
    cli::print_error(ok.error());
    return kWriteFailed;
  }
  return kOk;
}

// The files to write, in order: numbered frames, the sheet, the APNG, the vertex dump, the clip.
std::vector<OutputFile> planned_writes(const Options& o, PoseResult& result) {
  const PoseJob& job = o.job;
  std::vector<OutputFile> writes;
  for (std::size_t i = 0; i < result.frame_pngs.size(); ++i) {
    const std::string path =
        result.frame_pngs.size() == 1 ? o.output : numbered_path(o.output, i, result.frame_pngs.size());
    writes.push_back({path, std::move(result.frame_pngs[i])});
  }
  if (job.sheet) writes.push_back({o.sheet, std::move(result.sheet_png)});
  if (job.apng) writes.push_back({o.apng, std::move(result.apng)});
  if (!o.dump.empty()) writes.push_back({o.dump, std::move(result.vertices_json)});
  if (job.clip_json) writes.push_back({o.save_clip, std::move(result.clip_json)});
  return writes;
}

// One line per run at the default level, however many frames.
void log_written(const std::vector<std::string>& out_paths) {
  for (const std::string& path : out_paths) spdlog::debug("wrote {}", printable(path));
  if (out_paths.size() == 1) {
    spdlog::info("wrote {}", printable(out_paths[0]));
  } else {
    spdlog::info("wrote {} files: {} ... {}", out_paths.size(), printable(out_paths.front()),
                 printable(out_paths.back()));
  }
}

}  // namespace

int list_inputs(const PoseResult& result, bool null) {
  std::vector<std::string> inputs;
  for (const std::string& path : result.inputs)
    if (path != "<stdin>") append_unique(inputs, {path});  // no file a build system can track
  return cli::print_input_list(inputs, null);
}

int write_outputs(const Options& o, PoseResult& result) {
  // Every output is checked against the inputs and each other, then all are written or none.
  std::vector<OutputFile> writes = planned_writes(o, result);
  std::vector<std::string> out_paths;
  for (const OutputFile& w : writes) out_paths.push_back(w.path);
  std::vector<std::string> checked = out_paths;  // the depfile must not clobber an input either
  if (!o.depfile.empty()) checked.push_back(o.depfile);
  if (const int code = cli::write_checked_outputs(result.inputs, checked, writes); code != kOk) return code;
  log_written(out_paths);
  std::vector<std::string> read_files;  // standard input is no file a build system can track
  for (const std::string& in : result.inputs) {
    if (in != "<stdin>") read_files.push_back(in);
  }
  return write_depfile(o.depfile, out_paths, read_files);
}

}  // namespace rig2d::pose_cli
