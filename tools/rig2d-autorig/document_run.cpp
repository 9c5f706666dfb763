// SPDX-License-Identifier: Apache-2.0
#include "document_run.h"

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
#include "rig2d/autorig/autorig_inputs.h"
#include "rig2d/build/stamp.h"

namespace rig2d::cli {
namespace {

namespace fs = std::filesystem;

// hero.psd -> hero.rig2d.json beside it; -o FOLDER/ (or an existing folder): the same name in it.
std::string document_rig_path(const DocumentRun& run) {
  const fs::path doc(run.document);
  const std::string name = doc.stem().string() + ".rig2d.json";
  if (!run.output) return (doc.parent_path() / name).string();
  std::error_code ec;
  if (run.output->back() == '/' || fs::is_directory(*run.output, ec)) return (fs::path(*run.output) / name).string();
  return *run.output;
}

std::vector<std::string> planned_inputs(const DocumentRun& run) {
  std::vector<std::string> files{run.document};
  if (run.bones) files.push_back(*run.bones);
  if (run.template_file) files.push_back(*run.template_file);
  return files;
}

std::optional<std::string> digest_of(const std::vector<std::string>& files, const DocumentRun& run) {
  Sha256 hash;
  auto field = [&](std::string_view tag, std::string_view bytes) {
    hash.update(std::string(tag) + " " + std::to_string(bytes.size()) + "\n");
    hash.update(bytes);
    hash.update("\n");
  };
  field("rig2d-autorig document stamp", RIG2D_VERSION);
  field("options", run.options_key);
  for (const std::string& f : files) {
    auto bytes = read_file(f, 2048ull << 20);
    if (!bytes) return std::nullopt;
    field("file " + f, *bytes);
  }
  return hash.hex_digest();
}

// The textures are outputs the stamp does not hash: a deleted atlas (or layer folder) re-rigs.
bool textures_present(const DocumentRun& run, const std::string& rig_path) {
  std::error_code ec;
  if (run.layers_out) return fs::is_directory(*run.layers_out, ec);
  const std::string atlas = document_atlas_path(rig_path);
  return fs::is_regular_file(atlas, ec) && fs::is_regular_file(sidecar_path(atlas), ec);
}

bool up_to_date(const DocumentRun& run, const std::string& rig_path, const std::optional<std::string>& digest) {
  if (run.check || run.dry_run || run.force || !digest || !textures_present(run, rig_path)) return false;
  AutorigFileRequest stamp_request;
  stamp_request.rig_path = rig_path;
  return stamp_is_current(stamp_request, *digest);
}

int write_depfile(const DocumentRun& run, const std::string& rig_path, const std::vector<std::string>& inputs) {
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

// --check: every output (textures and rig) must hold these bytes.
int check_outputs(const std::string& rig_path, const DocumentRigResult& res) {
  std::vector<OutputFile> all = res.textures;
  all.push_back({rig_path, res.rig_text});
  int code = kOk;
  std::error_code ec;
  for (const OutputFile& f : all) {
    if (file_has_bytes(f.path, f.bytes)) continue;
    std::printf("%s %s\n", fs::exists(f.path, ec) ? "stale" : "missing", f.path.c_str());
    code = kFindings;
  }
  return code;
}

// The textures, then the rig, then its stamp; each only when its bytes change (restat).
int write_outputs(const DocumentRun& run, const std::string& rig_path, const DocumentRigResult& res,
                  const std::optional<std::string>& digest) {
  std::vector<OutputFile> files = res.textures;
  files.push_back({rig_path, res.rig_text});
  if (digest) files.push_back({stamp_path(rig_path), stamp_text(*digest, res.rig_text)});
  std::vector<OutputFile> changed;
  for (OutputFile& f : files)
    if (!file_has_bytes(f.path, f.bytes)) changed.push_back(std::move(f));
  std::vector<std::string> outputs;
  for (const OutputFile& f : changed) outputs.push_back(f.path);
  if (run.depfile) outputs.push_back(*run.depfile);
  if (!changed.empty())
    if (const int code = write_checked_outputs(planned_inputs(run), outputs, changed); code != kOk) return code;
  const LayoutStats& s = res.stats;
  const bool rig_written = std::any_of(outputs.begin(), outputs.end(), [&](const std::string& p) { return p == rig_path; });
  spdlog::info("{} {} ({} parts, {} verts, {} tris, {} bones; {} texture files{})", rig_written ? "wrote" : "unchanged",
               printable(rig_path), s.parts.size(), s.vertices, s.triangles, s.bones, res.textures.size(),
               changed.empty() ? ", all unchanged" : "");
  return write_depfile(run, rig_path, res.inputs);
}

}  // namespace

int run_document(const DocumentRun& run, const AutorigOptions& options) {
  const std::string rig_path = document_rig_path(run);
  const std::vector<std::string> planned = planned_inputs(run);
  std::vector<std::string> fixed_outputs{rig_path, stamp_path(rig_path)};
  if (!run.layers_out) fixed_outputs.push_back(document_atlas_path(rig_path));
  if (run.depfile) fixed_outputs.push_back(*run.depfile);
  if (auto safe = check_output_paths(planned, fixed_outputs); !safe) {
    print_error(safe.error());
    return kUsage;
  }
  if (run.list_inputs) return print_input_list(planned, run.list_null);
  const auto digest = digest_of(planned, run);
  if (up_to_date(run, rig_path, digest)) {
    spdlog::info("up to date: {}", printable(rig_path));
    return write_depfile(run, rig_path, planned);
  }
  DocumentRigRequest request;
  request.document_path = run.document;
  request.rig_path = rig_path;
  request.bones_path = run.bones;
  request.groups = run.groups;
  request.layers_dir = run.layers_out;
  request.atlas = run.atlas;
  request.memory_budget = run.memory_budget;
  auto res = autorig_document(request, options);
  if (!res) {
    print_error(res.error());
    return res.error().code == "autorig.verify" ? kInternal : kBadInput;
  }
  for (const Diagnostic& d : res->warnings)
    if (spdlog::should_log(spdlog::level::warn)) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  if (!res->stats.template_note.empty())
    spdlog::debug("{}: skeleton: {}", printable(rig_path), res->stats.template_note);
  for (std::size_t p = 0; p < res->stats.parts.size(); ++p)
    spdlog::debug("{}: part {} \"{}\": {} verts, {} tris, {} bones", printable(rig_path), p, res->part_names[p],
                  res->stats.parts[p].vertices, res->stats.parts[p].triangles, res->stats.parts[p].bones.size());
  if (run.check) return check_outputs(rig_path, *res);
  if (run.dry_run) {
    spdlog::info("would write {} ({} parts, {} verts) and {} texture files", printable(rig_path),
                 res->stats.parts.size(), res->stats.vertices, res->textures.size());
    return kOk;
  }
  return write_outputs(run, rig_path, *res, digest);
}

}  // namespace rig2d::cli
