// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig: PNG sprites (or folders of them) in, engine-compatible .rig2d.json rigs out.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "batch_plan.h"
#include "common/cli_common.h"
#include "layout_run.h"
#include "options.h"
#include "rig2d/pipeline/autorig_inputs.h"

namespace rig2d::cli {
namespace {

// Library errors and findings are already GNU style ("file:line:col: error: ... [code]").
void log_error(const Error& e) { print_error(e); }
void log_warning(const Diagnostic& d) {
  if (spdlog::should_log(spdlog::level::warn)) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
}

int run(const Options& o, const std::string& options_key) {
  AutorigOptions options;
  if (const int code = prepare_autorig_options(o, options); code != kOk) return code;

  if (o.layout) {
    if (!o.inputs.empty() || o.shard || o.slice || o.keep_bones || o.write_meta) {
      spdlog::error("--layout builds one rig from the layout: no PNG inputs, --shard, --slice, --keep-bones or --write-meta");
      return kUsage;
    }
    return run_layout({*o.layout, o.output, o.bones, o.depfile, o.list_inputs, o.check, o.dry_run, o.force, options_key},
                      options);
  }
  std::vector<Job> jobs;
  if (const int code = plan_batch(o, jobs); code != kOk) return code;
  if (o.list_inputs) return list_inputs(jobs);
  const bool batch = is_batch(o, jobs);
  if (jobs.empty()) {
    spdlog::warn(o.shard ? "no PNG files in this shard" : "no PNG files found");
    return write_depfile(o, jobs);
  }

  // The "\r ESC[K" status line only where stderr is a terminal that takes control sequences.
  const bool progress = stderr_takes_control_sequences() && !o.verbosity.quiet && jobs.size() > 1;
  std::size_t written = 0, skipped = 0, failed = 0, vertices = 0, triangles = 0;
  int exit_code = kOk;
  MemoryBudget budget(o.memory_budget_mib << 20);
  RunFlags flags{o.dry_run, o.force, o.check, o.jobs, &budget, options_key, RIG2D_VERSION};
  spdlog::trace("options in the digest:\n{}", options_key);
  if (progress) {
    std::fprintf(stderr, "[0/%zu] %s", jobs.size(), jobs.front().display.c_str());
    std::fflush(stderr);
  }
  run_jobs(jobs, options, flags, [&](std::size_t i, const Outcome& r) {
    const Job& job = jobs[i];
    if (progress) std::fprintf(stderr, "\r\033[K");
    if (r.result) {
      for (const Diagnostic& d : r.result->warnings) log_warning(d);
    }
    switch (r.status) {
      case Status::UpToDate:
      case Status::Unchanged:
        ++skipped;
        spdlog::debug("{}: {} ({})", printable(job.display),
                      r.status == Status::UpToDate ? "up to date" : "re-rigged, unchanged",
                      printable(job.request.rig_path));
        break;
      case Status::Failed:
        ++failed;
        log_error(r.error);
        if (exit_code == kOk || r.exit_code == kInternal) exit_code = r.exit_code;
        break;
      case Status::Written:
      case Status::WouldWrite: {
        ++written;
        for (const std::string& change : r.changes) std::printf("%s\n", change.c_str());
        if (o.check) break;
        const AutorigFileResult& res = *r.result;
        const AutorigStats& s = res.stats;
        vertices += s.vertices;
        triangles += s.triangles;
        // One line per sprite at the default level; the sidecar, when written, rides on it.
        const std::string meta =
            res.meta_text ? fmt::format("; {} {}", o.dry_run ? "would write" : res.meta_created ? "created" : "updated",
                                        printable(sidecar_path(job.request.png_path)))
                          : std::string();
        spdlog::info("{} {} ({} verts, {} tris, {} bones{})", o.dry_run ? "would write" : "wrote",
                     printable(job.request.rig_path), s.vertices, s.triangles, s.bones, meta);
        // Notes (e.g. a tip bone on the sprite's edge gets no weight) are normal: shown with -v.
        if (spdlog::should_log(spdlog::level::debug))
          for (const Diagnostic& d : s.weight_warnings) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
        spdlog::debug(
            "{}: {}x{} px, mask {}x{} ({} covered), {} -> {} verts {} tris (coverage IoU {:.4f}), {} bones, {} weights; "
            "id {} ({}), "
            "sprite {}; read {:.2f} ms, decode {:.2f} ms, coverage {:.2f} ms, mesh {:.2f} ms, bones {:.2f} ms, "
            "weights {:.2f} ms, verify {:.2f} ms{}",
            printable(job.display), s.image_width, s.image_height, s.mask_width, s.mask_height, s.covered_cells,
            options.mesh == MeshMode::Grid ? fmt::format("grid {}x{}", s.cols, s.rows) : std::string("outline"),
            s.vertices, s.triangles, s.coverage.iou, s.bones,
            weights_mode_name(options.weights), res.rig_id, res.id_kept ? "kept" : "derived", res.sprite_guid,
            res.read_ms, res.decode_ms, s.coverage_ms, s.mesh_ms, s.bones_ms, s.weights_ms, res.verify_ms,
            res.bones_kept ? "; bones kept from the existing rig" : "");
        if (options.skeleton == SkeletonMode::Shape && !o.bones && !res.bones_kept) {
          const ShapeSkeletonStats& k = s.skeleton;
          spdlog::debug(
              "{}: skeleton: {} px cells, {} axis cells, {} spurs pruned, {} holes filled (cells), {} islands ({} "
              "too small), {} limbs ({} tips), {} bones{}",
              printable(job.display), k.cell, k.axis_cells, k.branches_pruned, k.holes_filled, k.islands, k.islands_skipped,
              k.limbs, k.tips, k.bones, k.axis_fallback ? ", principal-axis fallback" : "");
        }
        const OutlineYardstick& y = s.yardstick;
        spdlog::debug(
            "{}: yardstick {}: alpha mass inside {:.5f} (>= {}), {} px with alpha >= {} outside (least covered "
            "{:.3f}), transparent border {:.3f} px per px of outline (<= {}: {} px over {:.1f} px)",
            printable(job.display), passes(y) ? "met" : "missed", y.alpha_mass_inside, kYardstickMinAlphaMass, y.opaque_outside,
            kYardstickOpaqueAlpha, y.opaque_min_inside, y.border_per_outline_px, kYardstickMaxBorder,
            y.transparent_inside, y.outline_length);
        if (options.mesh == MeshMode::Outline) {
          const OutlineMeshStats& m = s.outline;
          spdlog::debug(
              "{}: outline: contour {} rings {} points -> simplified {} rings {} points -> {} verts {} tris, min "
              "angle {:.1f} deg ({} under {}{}), coverage IoU {:.4f} recall {:.4f} (vs the grown mask {:.4f})",
              printable(job.display), m.contour_rings, m.contour_points, m.simplified_rings, m.simplified_points, m.vertices,
              m.triangles, m.min_angle_deg, m.skinny_triangles, options.outline.min_angle_deg,
              m.budget_reached ? ", vertex budget reached" : "", m.coverage.iou, m.coverage.recall, m.fit.iou);
        }
        break;
      }
    }
    if (progress && i + 1 < jobs.size()) {
      std::fprintf(stderr, "[%zu/%zu] %s", i + 1, jobs.size(), jobs[i + 1].display.c_str());
      std::fflush(stderr);
    }
  });
  if (progress) std::fprintf(stderr, "\r\033[K");
  if (o.check) {
    spdlog::info("{} would change, {} current, {} failed", written, skipped, failed);
  } else {
    spdlog::info("{} {}, {} up to date, {} failed; {} vertices, {} triangles", written,
                 o.dry_run ? "would be written" : "written", skipped, failed, vertices, triangles);
  }
  if (const int depfile_exit = write_depfile(o, jobs); depfile_exit != kOk) return depfile_exit;
  if (failed != 0) return batch ? kFindings : exit_code;
  return o.check && written > 0 ? kFindings : kOk;
}

}  // namespace
}  // namespace rig2d::cli

int main(int argc, char** argv) {
  using namespace rig2d::cli;
  CLI::App app{"", "rig2d-autorig"};
  Options options;
  setup(app, options);
  return run_main(app, argc, argv, [&] {
    setup_logging("rig2d-autorig", options.verbosity);
    return run(options, app.config_to_str(true, false));
  });
}