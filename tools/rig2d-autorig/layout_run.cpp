// SPDX-License-Identifier: Apache-2.0
#include "layout_run.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <filesystem>

#include "rig2d/build/build_files.h"
#include "common/cli_common.h"
#include "rig2d/core/limits.h"
#include "rig2d/core/sha256.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/layout.h"
#include "rig2d/build/stamp.h"

namespace rig2d::cli {
namespace {

namespace fs = std::filesystem;

// hero.layout.json -> hero.rig2d.json, layers/ -> layers.rig2d.json (beside the folder).
// -o FOLDER/ (or an existing folder): the same name inside it.
std::string layout_rig_path(const LayoutRun& run) {
  std::string base = fs::path(run.layout).lexically_normal().string();
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  for (const std::string_view suffix : {".json", ".layout"})
    if (base.size() > suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
      base.resize(base.size() - suffix.size());
  const std::string beside = base + ".rig2d.json";
  if (!run.output) return beside;
  std::error_code ec;
  if (run.output->back() == '/' || fs::is_directory(*run.output, ec))
    return (fs::path(*run.output) / fs::path(beside).filename()).string();
  return *run.output;
}

// The files the rig is made from, known before rigging: the layout file, each part's PNG and
// sidecar, the bones file. nullopt when a part names a slice GUID only (found by scanning the asset
// root while rigging): such a layout is always re-rigged (and rewritten only when it changes).
std::optional<std::vector<std::string>> planned_inputs(const LayoutRun& run) {
  auto layout = read_part_layout(run.layout);
  if (!layout) return std::nullopt;
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(run.layout, ec)) files.push_back(run.layout);
  for (const LayoutPart& part : layout->parts) {
    if (part.png.empty()) return std::nullopt;
    append_unique(files, {part.png, sidecar_path(part.png)});
  }
  if (run.bones) files.push_back(*run.bones);
  if (run.template_file) append_unique(files, {*run.template_file});
  return files;
}

std::optional<std::string> digest_of(const std::vector<std::string>& files, const LayoutRun& run) {
  Sha256 hash;
  auto field = [&](std::string_view tag, std::string_view bytes) {
    hash.update(std::string(tag) + " " + std::to_string(bytes.size()) + "\n");
    hash.update(bytes);
    hash.update("\n");
  };
  field("rig2d-autorig layout stamp", RIG2D_VERSION);
  field("options", run.options_key);
  for (const std::string& f : files) {
    auto bytes = read_file(f, kMaxPngFileBytes);
    if (!bytes) return std::nullopt;
    field("file " + f, *bytes);
  }
  return hash.hex_digest();
}

// --depfile: the rig and the files it was made from.
int write_depfile(const LayoutRun& run, const std::string& rig_path, const std::vector<std::string>& inputs) {
  if (!run.depfile) return kOk;
  // A file name no depfile can carry is the input's fault: said, nothing half-written.
  auto dep_text = depfile_text({{rig_path, inputs}});
  if (!dep_text) {
    print_error(dep_text.error());
    return kBadInput;
  }
  if (auto dep = write_if_changed(*run.depfile, *dep_text); !dep) {
    print_error(dep.error());
    return kWriteFailed;
  }
  return kOk;
}

int write_outputs(const LayoutRun& run, const std::string& rig_path, const LayoutRigResult& res,
                  const std::optional<std::string>& digest) {
  std::error_code ec;
  if (const fs::path parent = fs::path(rig_path).parent_path(); !parent.empty()) fs::create_directories(parent, ec);
  auto rig = write_if_changed(rig_path, res.rig_text);
  if (!rig) {
    print_error(rig.error());
    return kWriteFailed;
  }
  if (digest) {
    if (auto stamp = write_if_changed(stamp_path(rig_path), stamp_text(*digest, res.rig_text), kStampWrite); !stamp) {
      print_error(stamp.error());
      return kWriteFailed;
    }
  }
  const LayoutStats& s = res.stats;
  spdlog::info("{} {} ({} parts, {} verts, {} tris, {} bones)", *rig ? "wrote" : "unchanged", printable(rig_path),
               s.parts.size(), s.vertices, s.triangles, s.bones);
  return write_depfile(run, rig_path, res.inputs);
}

// The rig, its stamp and the depfile may not overwrite a planned input or each other.
int check_outputs(const LayoutRun& run, const std::string& rig_path, const std::vector<std::string>& planned) {
  std::vector<std::string> outputs{rig_path, stamp_path(rig_path)};
  if (run.depfile) outputs.push_back(*run.depfile);
  if (auto safe = check_output_paths(planned, outputs); !safe) {
    print_error(safe.error());
    return kUsage;
  }
  return kOk;
}

// --list-inputs: one file a line (NUL-ended with --null).
int list_inputs(const LayoutRun& run, const std::vector<std::string>& files) {
  return print_input_list(files, run.list_null);
}

// The stamp says the rig is current (never with --list-inputs, --check, --dry-run or --force).
bool up_to_date(const LayoutRun& run, const std::string& rig_path, const std::optional<std::string>& digest) {
  if (run.list_inputs || run.check || run.dry_run || run.force || !digest) return false;
  AutorigFileRequest stamp_request;
  stamp_request.rig_path = rig_path;
  return stamp_is_current(stamp_request, *digest);
}

// -v: each part's mesh and bones.
void log_parts(const std::string& rig_path, const LayoutStats& stats) {
  if (!stats.template_note.empty()) spdlog::debug("{}: skeleton: {}", printable(rig_path), stats.template_note);
  for (std::size_t p = 0; p < stats.parts.size(); ++p) {
    const LayoutPartStats& ps = stats.parts[p];
    spdlog::debug("{}: part {}: {} verts, {} tris, {} bones{}", printable(rig_path), p, ps.vertices, ps.triangles,
                  ps.bones.size(), ps.nearest_bone_fallback ? " (no bone through it: the nearest one)" : "");
  }
}

// --check: kFindings, printing "stale PATH" or "missing PATH", when the rig on disk is not these bytes.
int check_rig(const std::string& rig_path, const std::string& rig_text) {
  if (file_has_bytes(rig_path, rig_text)) return kOk;
  std::error_code ec;
  std::printf("%s %s\n", fs::exists(rig_path, ec) ? "stale" : "missing", rig_path.c_str());
  return kFindings;
}

}  // namespace

int run_layout(const LayoutRun& run, const AutorigOptions& options) {
  const std::string rig_path = layout_rig_path(run);
  const auto planned = planned_inputs(run);
  if (planned) {
    if (const int code = check_outputs(run, rig_path, *planned); code != kOk) return code;
    if (run.list_inputs) return list_inputs(run, *planned);  // known without rigging
  }
  const std::optional<std::string> digest = planned ? digest_of(*planned, run) : std::nullopt;
  if (up_to_date(run, rig_path, digest)) {
    spdlog::info("{}: up to date", printable(rig_path));
    return write_depfile(run, rig_path, *planned);
  }
  auto res = autorig_layout({run.layout, rig_path, run.bones, run.memory_budget}, options);
  if (!res) {
    print_error(res.error());
    return res.error().code == "autorig.verify" ? kInternal : kBadInput;
  }
  for (const Diagnostic& d : res->warnings)
    if (spdlog::should_log(spdlog::level::warn)) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  if (run.list_inputs) return list_inputs(run, res->inputs);
  log_parts(rig_path, res->stats);
  if (run.check) return check_rig(rig_path, res->rig_text);
  if (run.dry_run) {
    spdlog::info("would write {} ({} parts, {} verts)", printable(rig_path), res->stats.parts.size(), res->stats.vertices);
    return kOk;
  }
  return write_outputs(run, rig_path, *res, digest);
}

}  // namespace rig2d::cli
