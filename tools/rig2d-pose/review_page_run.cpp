// SPDX-License-Identifier: Apache-2.0
#include "review_page_run.h"

#include <cstdio>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "job_options.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/preview/contact_sheet.h"
#include "rig2d/preview/review_page.h"

namespace rig2d::pose_cli {

int run_review_page(const Options& o) {
  if (!o.output.empty() || !o.sheet.empty() || !o.apng.empty() || !o.dump.empty() || !o.save_clip.empty() ||
      !o.contact_sheet.empty()) {
    return usage("--html is its own output; render PNGs or a contact sheet in another run", "pose.output");
  }
  if (o.rom) return usage("--html plays a clip given with --anim; play --rom on one rig with --sheet", "pose.rom");
  if (!o.job.pose.empty() || !o.job.pose_file.empty() || !o.times.empty() || o.fps) {
    return usage(
        "--html opens each rig at its bind pose; a pose or time goes in the page's address "
        "(review.html#rig=NAME&pose=BONE.rot=0.5&time=0.4)",
        "pose.review");
  }
  auto paths = collect_rig_paths(o.rigs);
  if (!paths) {
    cli::print_error(paths.error());
    return kBadInput;
  }
  if (paths->empty()) return usage("no *.rig2d.json in the given folders", "pose.input");
  ReviewPageOptions ro;
  ro.assets_root = o.job.assets_root;
  ro.link_assets = o.html_assets == "link";
  ro.page_path = o.html;
  ro.clip_path = o.job.clip_path;
  auto page = review_page(*paths, ro);
  if (!page) {
    if (page.error().where.file.empty()) return usage(page.error().message, page.error().code);
    cli::print_error(page.error());
    return kBadInput;
  }
  for (const Diagnostic& d : page->diagnostics) {
    if (!o.verbosity.quiet) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  }
  const std::size_t size = page->html.size();
  const std::vector<std::string> outputs{o.html};
  std::vector<OutputFile> writes{{o.html, std::move(page->html)}};
  if (const int rc = cli::write_checked_outputs(page->inputs, outputs, writes); rc != kOk) return rc;
  spdlog::info("wrote {} ({} rigs, {} failed to load, {} KiB, {} KiB of it textures)", printable(o.html), page->rigs,
               page->failed, (size + 1023) / 1024, (page->texture_bytes * 4 / 3 + 1023) / 1024);
  return kOk;
}

}  // namespace rig2d::pose_cli
