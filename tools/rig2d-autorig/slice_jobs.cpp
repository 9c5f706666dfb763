// SPDX-License-Identifier: Apache-2.0
#include "slice_jobs.h"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "rig2d/build/build_files.h"
#include "common/cli_common.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/sheet_slicing.h"
#include "rig2d/autorig/slices.h"
#include "rig2d/build/stamp.h"

namespace rig2d::cli {

namespace {

// The PNG was rigged whole from these very bytes and options, and was no sheet then.
bool known_no_sheet(const Job& job, const std::string& options_key, const std::string& version) {
  const auto inputs = read_input_bytes(job.request);
  return inputs && stamp_says_no_sheet(job.request, input_digest(*inputs, options_key, version));
}

}  // namespace

int slice_sheets(const Options& o, int alpha_threshold, const std::string& options_key, const std::string& version,
                 const std::vector<Job>& jobs, bool& sliced) {
  sliced = false;
  for (const Job& job : jobs) {
    if (job.request.slice) continue;
    if (!o.force && known_no_sheet(job, options_key, version)) {
      spdlog::debug("{}: no sheet (its rig is current, and its stamp says the image was no sheet)", job.display);
      continue;
    }
    auto slicing = slice_sheet_file(job.request.png_path, alpha_threshold, o.write_meta, job.request.mint_root);
    if (!slicing) {
      spdlog::debug("{}: not sliced: {}", job.display, slicing.error().message);
      continue;
    }
    if (!*slicing) continue;
    const std::string meta = sidecar_path(job.request.png_path);
    if (o.dry_run) {
      spdlog::info("{}: looks like a sprite sheet: would write {} slices, one per sprite, into {}", job.display,
                   (*slicing)->slices, meta);
      continue;
    }
    auto wrote = write_if_changed(meta, (*slicing)->meta_text);
    if (!wrote) {
      print_error(wrote.error());
      return kWriteFailed;
    }
    sliced = true;
    spdlog::info("{}: looks like a sprite sheet: wrote {} slices, one per sprite, into {}{}; each is rigged on its own",
                 job.display, (*slicing)->slices, meta, (*slicing)->meta_created ? " (new)" : "");
    // Deleting is the user's call: the rig may be referenced or edited. It no longer draws anything.
    std::error_code ec;
    if (std::filesystem::exists(job.request.rig_path, ec))
      spdlog::warn(
          "{}: the whole-image rig made before remains; the engine makes no sprite for a sliced sheet, so it "
          "draws nothing now: delete it or point it at a slice",
          job.request.rig_path);
  }
  return kOk;
}

}  // namespace rig2d::cli
