// SPDX-License-Identifier: Apache-2.0
#include "contact_sheet_run.h"

#include <cstdio>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "job_options.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
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
  auto sheet = rig_contact_sheet(*paths, so);
  if (!sheet) return usage(sheet.error().message, sheet.error().code);
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
