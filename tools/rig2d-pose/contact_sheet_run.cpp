// SPDX-License-Identifier: Apache-2.0
#include "contact_sheet_run.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "job_options.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/anim/bundled_clips.h"
#include "rig2d/preview/contact_sheet.h"

namespace rig2d::pose_cli {

int run_contact_sheet(const Options& o) {
  if (!o.output.empty() || !o.sheet.empty() || !o.apng.empty() || !o.dump.empty() || !o.save_clip.empty()) {
    return usage("--contact-sheet is its own output; render single rigs with -o, --sheet or --apng in another run",
                 "pose.output");
  }
  if (o.rom)
    return usage("--contact-sheet shows one bent pose per rig; play --rom on one rig with --sheet", "pose.rom");
  if (o.job.onion > 0)
    return usage("--contact-sheet shows one bent pose per rig; --onion is for one rig's clip (--anim or --rom)",
                 "pose.onion");
  auto paths = collect_rig_paths(o.rigs);
  if (!paths) {
    cli::print_error(paths.error());
    return kBadInput;
  }
  if (paths->empty()) return usage("no *.rig2d.json in the given folders", "pose.input");
  RigSheetOptions so;
  so.tile = o.tile;
  so.assets_root = o.job.assets_root;
  std::optional<Clip> clip;
  if (!o.contact_clip.empty()) {
    std::vector<Diagnostic> clip_warnings;
    auto loaded = load_clip_spec(o.contact_clip, &clip_warnings);
    if (!loaded) {
      cli::print_error(loaded.error());
      return loaded.error().code == "anim.clip.unknown" ? kUsage : kBadInput;
    }
    for (const Diagnostic& d : clip_warnings)
      if (!o.verbosity.quiet) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    clip = std::move(*loaded);
    so.clip = &*clip;
    so.clip_name = o.contact_clip;  // a bundled clip's name as given; a file's stem
    if (std::filesystem::is_regular_file(o.contact_clip)) {
      so.clip_name = std::filesystem::path(o.contact_clip).stem().string();
      if (so.clip_name.ends_with(".anim")) so.clip_name.resize(so.clip_name.size() - 5);
    }
    so.clip_frames = o.contact_frames;
  }
  auto sheet = rig_contact_sheet(*paths, so);
  if (!sheet) return usage(sheet.error().message, sheet.error().code);
  if (!o.contact_clip.empty() && std::filesystem::is_regular_file(o.contact_clip))
    sheet->inputs.push_back(o.contact_clip);
  for (const Diagnostic& d : sheet->diagnostics) {
    if (!o.verbosity.quiet) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  }
  auto png = encode_png(sheet->image);
  if (!png) {
    cli::print_error(png.error());
    return kWriteFailed;
  }
  const std::vector<std::string> outputs{o.contact_sheet};
  std::vector<OutputFile> writes{{o.contact_sheet, std::move(*png)}};
  if (const int rc = cli::write_checked_outputs(sheet->inputs, outputs, writes); rc != kOk) return rc;
  spdlog::info("wrote {} ({} rigs)", printable(o.contact_sheet), sheet->rows.size());
  return kOk;
}

}  // namespace rig2d::pose_cli
