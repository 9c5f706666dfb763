// SPDX-License-Identifier: Apache-2.0
#include "batch_report.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <string>

#include "rig2d/asset/sprite_meta.h"

namespace rig2d::cli {
namespace {

// Library findings are already GNU style ("file:line:col: warning: ... [code]").
void log_warning(const Diagnostic& d) {
  if (spdlog::should_log(spdlog::level::warn)) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
}

// -v: the sprite's sizes, mesh, bones, ids and the time of each step.
void log_rig_figures(const Job& job, const AutorigFileResult& res, const AutorigOptions& options) {
  const AutorigStats& s = res.stats;
  spdlog::debug(
      "{}: {}x{} px, mask {}x{} ({} covered), {} -> {} verts {} tris (coverage IoU {:.4f}), {} bones, {} weights; "
      "id {} ({}), "
      "sprite {}; read {:.2f} ms, decode {:.2f} ms, coverage {:.2f} ms, mesh {:.2f} ms, bones {:.2f} ms, "
      "weights {:.2f} ms, verify {:.2f} ms{}",
      printable(job.display), s.image_width, s.image_height, s.mask_width, s.mask_height, s.covered_cells,
      options.mesh == MeshMode::Grid ? fmt::format("grid {}x{}", s.cols, s.rows) : std::string("outline"), s.vertices,
      s.triangles, s.coverage.iou, s.bones, weights_mode_name(options.weights), res.rig_id,
      res.id_kept ? "kept" : "derived", res.sprite_guid, res.read_ms, res.decode_ms, s.coverage_ms, s.mesh_ms,
      s.bones_ms, s.weights_ms, res.verify_ms, res.bones_kept ? "; bones kept from the existing rig" : "");
}

// -v: how the shape skeleton found its bones.
void log_skeleton(const Job& job, const ShapeSkeletonStats& k) {
  spdlog::debug(
      "{}: skeleton: {} px cells, {} axis cells, {} spurs pruned, {} holes filled (cells), {} islands ({} "
      "too small), {} limbs ({} tips), {} bones{}{}{}",
      printable(job.display), k.cell, k.axis_cells, k.branches_pruned, k.holes_filled, k.islands, k.islands_skipped,
      k.limbs, k.tips, k.bones, k.axis_fallback ? ", principal-axis fallback" : "",
      k.loop_pieces + k.loop_limbs > 0
          ? fmt::format("; loops: {} closed (one bone each), {} runs around holes without bones (docs/skeleton.md)",
                        k.loop_pieces, k.loop_limbs)
          : "",
      k.drop_shadow > 0
          ? fmt::format(", a drop shadow left out ({:.1f} % of the covered pixels deep in it)", 100 * k.drop_shadow)
          : "");
}

// -v: the mesh against the outline yardstick (docs/outline.md).
void log_yardstick(const Job& job, const OutlineYardstick& y) {
  spdlog::debug(
      "{}: yardstick {}: alpha mass inside {:.5f} (>= {}), {} px with alpha >= {} outside (least covered "
      "{:.3f}), transparent border {:.3f} px per px of outline (<= {}: {} px over {:.1f} px)",
      printable(job.display), passes(y) ? "met" : "missed", y.alpha_mass_inside, kYardstickMinAlphaMass,
      y.opaque_outside, kYardstickOpaqueAlpha, y.opaque_min_inside, y.border_per_outline_px, kYardstickMaxBorder,
      y.transparent_inside, y.outline_length);
}

// -v: the outline mesh, step by step.
void log_outline(const Job& job, const OutlineMeshStats& m, const AutorigOptions& options) {
  spdlog::debug(
      "{}: outline: contour {} rings {} points -> simplified {} rings {} points -> {} verts {} tris, min "
      "angle {:.1f} deg ({} under {}{}), coverage IoU {:.4f} recall {:.4f} (vs the grown mask {:.4f})",
      printable(job.display), m.contour_rings, m.contour_points, m.simplified_rings, m.simplified_points, m.vertices,
      m.triangles, m.min_angle_deg, m.skinny_triangles, options.outline.min_angle_deg,
      m.budget_reached ? ", vertex budget reached" : "", m.coverage.iou, m.coverage.recall, m.fit.iou);
  spdlog::debug("{}: outline error: within {:.2f} px of the alpha outline grown by {:.2f} px ({:.2f} px inside to {:.2f} px outside "
                "it), {} vertices across the bones",
                printable(job.display), m.tolerance, m.margin, std::max(0.0, m.tolerance - m.margin),
                m.margin + m.tolerance, m.interior_points);
}

// -v: how many vertices each bone dominates (the run-time cost of a rig is its vertex count).
void log_bone_vertices(const Job& job, const std::vector<AutorigStats::BoneVertices>& counts) {
  std::string text;
  for (std::size_t b = 0; b < counts.size(); ++b)
    text += fmt::format("{}{} {}", b ? ", " : "", printable(counts[b].bone), counts[b].vertices);
  spdlog::debug("{}: vertices per bone: {}", printable(job.display), text);
}

}  // namespace

BatchReport::BatchReport(const Options& o, const AutorigOptions& options, const std::vector<Job>& jobs)
    : o_(o),
      options_(options),
      jobs_(jobs),
      // The "\r ESC[K" status line only where stderr is a terminal that takes control sequences.
      progress_(stderr_takes_control_sequences() && !o.verbosity.quiet && jobs.size() > 1) {
  if (progress_) {
    std::fprintf(stderr, "[0/%zu] %s", jobs_.size(), jobs_.front().display.c_str());
    std::fflush(stderr);
  }
}

void BatchReport::add(std::size_t i, const Outcome& r) {
  const Job& job = jobs_[i];
  if (progress_) std::fprintf(stderr, "\r\033[K");
  if (r.result) {
    for (const Diagnostic& d : r.result->warnings) log_warning(d);
  }
  switch (r.status) {
    case Status::UpToDate:
    case Status::Unchanged:
      ++(r.status == Status::UpToDate ? skipped_ : unchanged_);
      spdlog::debug("{}: {} ({})", printable(job.display),
                    r.status == Status::UpToDate ? "up to date" : "re-rigged, unchanged",
                    printable(job.request.rig_path));
      break;
    case Status::Failed:
      ++failed_;
      print_error(r.error);
      if (failure_exit_ == kOk || r.exit_code == kInternal) failure_exit_ = r.exit_code;
      break;
    case Status::Written:
    case Status::WouldWrite:
      ++written_;
      for (const std::string& change : r.changes) std::printf("%s\n", change.c_str());
      if (!o_.check) add_written(job, *r.result);
      break;
  }
  if (progress_ && i + 1 < jobs_.size()) {
    std::fprintf(stderr, "[%zu/%zu] %s", i + 1, jobs_.size(), jobs_[i + 1].display.c_str());
    std::fflush(stderr);
  }
}

void BatchReport::add_written(const Job& job, const AutorigFileResult& res) {
  const AutorigStats& s = res.stats;
  vertices_ += s.vertices;
  triangles_ += s.triangles;
  // One line per sprite at the default level; the sidecar, when written, rides on it.
  const std::string meta = res.meta_text ? fmt::format("; {} {}",
                                                       o_.dry_run         ? "would write"
                                                       : res.meta_created ? "created"
                                                                          : "updated",
                                                       printable(sidecar_path(job.request.png_path)))
                                         : std::string();
  spdlog::info("{} {} ({} verts, {} tris, {} bones{})", o_.dry_run ? "would write" : "wrote",
               printable(job.request.rig_path), s.vertices, s.triangles, s.bones, meta);
  // Notes (e.g. a tip bone on the sprite's edge gets no weight) are normal: shown with -v.
  if (spdlog::should_log(spdlog::level::debug))
    for (const Diagnostic& d : s.weight_warnings) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  log_rig_figures(job, res, options_);
  if (!s.template_note.empty()) spdlog::debug("{}: skeleton: {}", printable(job.display), s.template_note);
  const bool fitted = s.template_note.starts_with("template ") || s.template_note.starts_with("auto: template ");
  if (options_.skeleton == SkeletonMode::Shape && !o_.bones && !res.bones_kept && !fitted) log_skeleton(job, s.skeleton);
  log_yardstick(job, s.yardstick);
  if (options_.mesh == MeshMode::Outline) log_outline(job, s.outline, options_);
  log_bone_vertices(job, s.bone_vertices);
}

void BatchReport::finish() const {
  if (progress_) std::fprintf(stderr, "\r\033[K");
  if (o_.check) {
    spdlog::info("{} would change, {} current, {} failed", written_, skipped_ + unchanged_, failed_);
  } else {
    // Rigs made again (no stamp, --force, an edited input) that came out byte-identical are left
    // alone: "remade, unchanged", not "up to date", which says they were not looked at.
    const std::string remade = unchanged_ ? fmt::format("{} remade, unchanged, ", unchanged_) : std::string();
    spdlog::info("{} {}, {}{} up to date, {} failed; {} vertices, {} triangles", written_,
                 o_.dry_run ? "would be written" : "written", remade, skipped_, failed_, vertices_, triangles_);
  }
}

int BatchReport::exit_code(bool batch) const {
  if (failed_ != 0) return batch ? kFindings : failure_exit_;
  return o_.check && written_ > 0 ? kFindings : kOk;
}

}  // namespace rig2d::cli
