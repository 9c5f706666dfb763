// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig: PNG sprites (or folders of them) in, engine-compatible .rig2d.json rigs out.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>

#include "batch.h"
#include "common/build_files.h"
#include "common/cli_common.h"
#include "layout_run.h"
#include "stamp.h"
#include "rig2d/pipeline/autorig_inputs.h"

namespace rig2d::cli {
namespace {

struct Options {
  std::vector<std::string> inputs;
  std::optional<std::string> output;
  std::optional<std::string> bones;
  bool keep_bones = false;
  std::string skeleton = "shape";
  ShapeSkeletonOptions shape;
  std::optional<int> bone_count;
  std::string axis = "auto";
  std::string mesh = "outline";
  OutlineMeshOptions outline;
  std::string weights = "heat";
  std::optional<double> cols, rows;
  double cell_size = kDefaultCellSize;
  int alpha_threshold = 8;
  bool no_cull = false;
  double falloff = 2;
  double radius = 0;
  int max_influences = 4;
  double min_weight = 0.01;
  int smooth = 0;
  std::string pivot = "0.5,0.5";
  bool write_meta = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::uint64_t memory_budget_mib = 2048;
  bool dry_run = false;
  bool force = false;
  bool check = false;
  std::optional<std::string> depfile;
  bool list_inputs = false;
  std::optional<std::string> shard;
  std::optional<std::string> base;
  std::optional<std::string> slice;
  std::optional<std::string> layout;
  Verbosity verbosity;
};

// What build systems and CI need: the up-to-date check, the inputs, a slice of the work.
void add_build_options(CLI::App& app, Options& o) {
  app.add_flag("--check", o.check,
               "Re-rig everything in memory and write nothing: exit 1 listing each output that would change "
               "(\"stale PATH\" / \"missing PATH\" on stdout), 0 when all are current (a CI drift check)");
  app.add_option("--depfile", o.depfile,
                 "Also write a Makefile-syntax depfile (for Ninja/CMake DEPFILE, make): each rig and the files it "
                 "was made from")
      ->type_name("FILE");
  app.add_flag("--list-inputs", o.list_inputs,
               "Print every file the run would read (PNG, sidecar, bones file, kept rig), one per line; rig nothing");
  app.add_option("--shard", o.shard,
                 "Run only shard K of N (1 <= K <= N): the sprites sorted by path, every N-th from the K-th; the N "
                 "shards together write exactly what one run writes")
      ->type_name("K/N");
  app.add_option("--base", o.base,
                 "With -o FOLDER: mirror each PNG's path relative to this folder (default: a folder input itself; "
                 "for file inputs, their deepest common folder)")
      ->type_name("DIR");
}

void setup(CLI::App& app, Options& o) {
  app.description(
      "Auto-rig PNG sprites into .rig2d.json rigs the engine loads: alpha coverage -> mesh (by default an outline "
      "mesh hugging the alpha, see docs/outline.md; --mesh grid gives the engine's culled grid) -> bones (by "
      "default a skeleton that follows the sprite's shape, a chain per limb, see docs/skeleton.md; --skeleton chain "
      "gives the engine's straight chain; or hand-placed) -> weights: bone heat measured through the sprite "
      "(default), or --weights joint for the engine's nearest-joint weights, which with --mesh grid is exactly the "
      "engine's autoRig2D/buildRig2D. Each sprite needs its <file>.png.meta.json sidecar (its texture GUID); the "
      "rig's sprite is that texture's whole-image sprite GUID.");
  app.add_option("inputs", o.inputs, "PNG files and/or folders (searched recursively for *.png)");
  app.add_option("--layout", o.layout,
                 "Build one multi-part (v2) rig instead: from a layout file (canvas, parts with png or slice, x, y, "
                 "order, name; docs/autorig.md) or a folder of same-size full-canvas layer PNGs in name order. "
                 "-o names the rig (default: beside it, <layout>.rig2d.json)")
      ->type_name("FILE|DIR");
  app.add_option("-o,--output", o.output,
                 "One PNG: the rig file (default: <image minus .png>.rig2d.json beside it), or a folder. "
                 "Folders/several inputs: the output folder, mirroring the input layout (default: beside each PNG)");
  app.add_option("--bones", o.bones,
                 "Hand-placed bones JSON for every sprite: [{name, parent, x, y, rot}, ...] or {\"bones\": [...]}, "
                 "texture px from the pivot, +y down, radians. Default: a suggested chain");
  app.add_flag("--keep-bones", o.keep_bones,
               "Re-use the bones of the rig already at the output path (hand-placed or edited bones survive a "
               "re-run; mesh and weights are redone); sprites without a rig use --bones or a suggested chain");
  app.add_option("--skeleton", o.skeleton,
                 "Suggested bones: shape (the medial axis of the alpha: a root in the main body and a chain per "
                 "limb) or chain (the engine's suggestBones: one straight chain on the pivot line, --bone-count, "
                 "--axis; exact with --mesh grid --weights joint)")
      ->check(CLI::IsMember({"shape", "chain"}))
      ->capture_default_str();
  app.add_option("--max-bones", o.shape.max_bones,
                 "shape: bone budget per sprite, 2..256; long limbs get fewer bones first, then the shortest limbs "
                 "go")
      ->capture_default_str();
  app.add_option("--min-branch", o.shape.min_branch,
                 "shape: px a limb must reach beyond the body it leaves to get bones (also at least "
                 "--branch-ratio of the body's half-width); smaller bumps make no bones")
      ->capture_default_str();
  app.add_option("--branch-ratio", o.shape.branch_ratio,
                 "shape: a limb must also reach this fraction of its junction's half-width beyond it, 0..10")
      ->capture_default_str();
  app.add_option("--bone-length", o.shape.bone_length,
                 "shape: target bone length in limb half-widths, 0.5..100 (smaller = more bones per limb)")
      ->capture_default_str();
  app.add_option("--bend-angle", o.shape.bend_angle,
                 "shape: degrees; where a limb's axis turns more than this, a joint goes (a knee, a curl), 5..180")
      ->capture_default_str();
  app.add_option("--bone-count", o.bone_count, "chain: chain length, 2..6 (default: about one bone per 96 px)")
      ->check(CLI::Range(2, 6));
  app.add_option("--axis", o.axis, "chain: direction: auto (vertical if height >= width), x or y")
      ->check(CLI::IsMember({"auto", "x", "y"}))
      ->capture_default_str();
  app.add_option("--mesh", o.mesh,
                 "Mesh scheme: outline (alpha outline, simplified, quality Delaunay triangles) or grid (the engine's "
                 "culled grid, --cols/--rows/--cell-size/--no-cull)")
      ->check(CLI::IsMember({"outline", "grid"}))
      ->capture_default_str();
  app.add_option("--margin", o.outline.margin,
                 "Outline: px the outline grows beyond the alpha threshold, so antialiased edges stay covered, 0..64")
      ->capture_default_str();
  app.add_option("--outline-tolerance", o.outline.tolerance,
                 "Outline: simplification tolerance in px, 0..64 (0 keeps every traced point; <= --margin never "
                 "clips an opaque pixel)")
      ->capture_default_str();
  app.add_option("--min-area", o.outline.min_area, "Outline: islands and holes under this many px^2 are dropped")
      ->capture_default_str();
  app.add_option("--min-angle", o.outline.min_angle_deg,
                 "Outline: smallest triangle angle in degrees, 0..34 (0 = no quality refinement)")
      ->capture_default_str();
  app.add_option("--max-edge", o.outline.max_edge,
                 "Outline: longest triangle edge in px, so interiors get vertices to bend (0 = no bound)")
      ->capture_default_str();
  app.add_option("--max-verts", o.outline.max_vertices, "Vertex budget of every rig written (both mesh schemes; a layout's parts together): an outline over it is "
                 "coarsened with a warning, a mesh that still cannot fit fails (autorig.budget)")
      ->capture_default_str();
  app.add_option("--weights", o.weights,
                 "Weight scheme: heat (bone heat diffused through the sprite, so a limb is not pulled by bones "
                 "across a gap) or joint (the engine's nearest-joint inverse distance)")
      ->check(CLI::IsMember({"heat", "joint"}))
      ->capture_default_str();
  app.add_option("--cols", o.cols, "Grid columns, 1..1024 (default: width / cell size, 1..24)");
  app.add_option("--rows", o.rows, "Grid rows, 1..1024 (default: height / cell size, 1..24)");
  app.add_option("--cell-size", o.cell_size, "Grid cell size in px when --cols/--rows are not given")
      ->capture_default_str();
  app.add_option("--alpha-threshold", o.alpha_threshold, "A pixel is opaque when its alpha > this, 0..255")
      ->check(CLI::Range(0, 255))
      ->capture_default_str();
  app.add_flag("--no-cull", o.no_cull, "Keep every grid cell, even fully transparent ones (bones still follow the alpha)");
  app.add_option("--falloff", o.falloff,
                 "joint: weight falloff exponent: w = 1/(d^p + 1e-4), or (1-d/R)^p with --radius, (0, 16]")
      ->capture_default_str();
  app.add_option("--radius", o.radius, "joint: influence radius in px; 0 = unbounded (the engine's one-click default)")
      ->capture_default_str();
  app.add_option("--max-influences", o.max_influences, "Bones per vertex, 1..4")
      ->check(CLI::Range(1, 4))
      ->capture_default_str();
  app.add_option("--min-weight", o.min_weight,
                 "heat: drop a bone's weight below this fraction of the vertex's total, [0, 0.25); weights near "
                 "it fade out instead of stepping")
      ->capture_default_str();
  app.add_option("--smooth", o.smooth, "heat: extra smoothing passes over each bone's weights, 0..100 (wider joint blends)")
      ->capture_default_str();
  app.add_option("--pivot", o.pivot,
                 "Rig origin as fractions of the sprite: X,Y with 0,0 top-left, 1,1 bottom-right (0.5,1 = feet)")
      ->capture_default_str();
  app.add_flag("--write-meta", o.write_meta,
               "Create a missing sidecar {\"version\": 2, \"id\": <uuid v5 of path and bytes>, \"type\": \"2d\"}, "
               "and add \"type\": \"2d\" to one without a type");
  app.add_option("-j,--jobs", o.jobs, "Worker threads (default: the number of cores); output never depends on it")
      ->check(CLI::Range(1u, 256u));
  app.add_option("--memory-budget", o.memory_budget_mib,
                 "MiB of decoded images all workers may hold at once; a sprite waits until its decode fits, and "
                 "one that needs more than the whole budget fails (memory.budget)")
      ->check(CLI::Range(std::uint64_t{16}, std::uint64_t{1} << 30))
      ->capture_default_str();
  app.add_flag("--dry-run", o.dry_run, "Rig and check everything in memory, write nothing");
  app.add_flag("--force", o.force,
               "Re-rig even sprites whose stamp says their rig is current (files are still only rewritten when "
               "their bytes change)");
  app.add_option("--slice", o.slice,
                 "Of a sheet whose sidecar lists \"sprites\" slices (each rigged into <png stem>.<slice>.rig2d.json), "
                 "rig only the slice of this name")
      ->type_name("NAME");
  add_build_options(app, o);
  add_verbosity(app, o.verbosity);
  app.set_version_flag("--version", std::string("rig2d-autorig ") + RIG2D_VERSION);
  // Options that do not change a rig's bytes stay out of the digest; every other option is in it.
  for (const char* name : {"inputs", "--output", "--bones", "--jobs", "--memory-budget", "--dry-run", "--force",
                           "--check", "--depfile", "--list-inputs", "--shard", "--base", "--slice", "--layout", "--verbose",
                           "--quiet"}) {
    app.get_option(name)->configurable(false);
  }
}

std::optional<std::pair<double, double>> parse_pivot(const std::string& s) {
  const auto comma = s.find(',');
  if (comma == std::string::npos) return std::nullopt;
  try {
    std::size_t used_x = 0, used_y = 0;
    const std::string xs = s.substr(0, comma), ys = s.substr(comma + 1);
    const double x = std::stod(xs, &used_x);
    const double y = std::stod(ys, &used_y);
    if (used_x != xs.size() || used_y != ys.size()) return std::nullopt;
    return std::pair{x, y};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Library errors and findings are already GNU style ("file:line:col: error: ... [code]").
void log_error(const Error& e) { print_error(e); }
void log_warning(const Diagnostic& d) {
  if (spdlog::should_log(spdlog::level::warn)) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
}

// Every file the jobs read, each once, in job order.
std::vector<std::string> all_inputs(const std::vector<Job>& jobs) {
  std::vector<std::string> files;
  for (const Job& job : jobs) append_unique(files, job_input_files(job.request));
  return files;
}

// --depfile: one rule per rig. A rig kept by --keep-bones is left out of its own prerequisites (a
// build system would see a cycle); the stamp's rig hash covers it.
int write_depfile(const Options& o, const std::vector<Job>& jobs) {
  if (!o.depfile || o.check || o.dry_run) return kOk;
  std::vector<DepRule> rules;
  for (const Job& job : jobs) {
    DepRule rule{job.request.rig_path, {}};
    for (const std::string& input : job_input_files(job.request)) {
      if (input != job.request.rig_path) rule.prerequisites.push_back(input);
    }
    rules.push_back(std::move(rule));
  }
  if (auto ok = write_if_changed(*o.depfile, depfile_text(rules)); !ok) {
    log_error(ok.error());
    return kWriteFailed;
  }
  return kOk;
}

int run(const Options& o, const std::string& options_key) {
  AutorigOptions options;
  options.alpha_threshold = o.alpha_threshold;
  options.cull = !o.no_cull;
  options.mesh = *parse_mesh_mode(o.mesh);
  options.outline = o.outline;
  options.weights = *parse_weights_mode(o.weights);
  options.coverage_stats = o.verbosity.verbose > 0 && !o.verbosity.quiet;  // shown only by -v
  options.cols = o.cols;
  options.rows = o.rows;
  options.cell_size = o.cell_size;
  options.skeleton = *parse_skeleton_mode(o.skeleton);
  options.shape = o.shape;
  options.bone_count = o.bone_count;
  options.axis = o.axis == "x" ? BoneAxis::X : o.axis == "y" ? BoneAxis::Y : BoneAxis::Auto;
  options.joint.falloff = o.falloff;
  options.joint.radius = o.radius;
  options.joint.max_influences = o.max_influences;
  options.heat.max_influences = o.max_influences;
  options.heat.min_weight = o.min_weight;
  options.heat.smooth_passes = o.smooth;
  const auto pivot = parse_pivot(o.pivot);
  if (!pivot) {
    spdlog::error("--pivot: expected X,Y (two numbers, e.g. 0.5,1), got \"{}\"", o.pivot);
    return kUsage;
  }
  options.pivot_x = pivot->first;
  options.pivot_y = pivot->second;
  if (auto ok = check_autorig_options(options); !ok) {
    spdlog::error("{} [{}]", ok.error().message, ok.error().code);
    return kUsage;
  }
  if (o.bones) {  // read once up front: a bad shared bones file fails every sprite the same way
    auto bones = read_bones_file(*o.bones);
    if (!bones) {
      log_error(bones.error());
      return kBadInput;
    }
  }

  if (o.layout) {
    if (!o.inputs.empty() || o.shard || o.slice || o.keep_bones || o.write_meta) {
      spdlog::error("--layout builds one rig from the layout: no PNG inputs, --shard, --slice, --keep-bones or --write-meta");
      return kUsage;
    }
    return run_layout({*o.layout, o.output, o.bones, o.depfile, o.list_inputs, o.check, o.dry_run, o.force, options_key},
                      options);
  }
  if (o.inputs.empty()) {
    spdlog::error("no input: give PNG files or folders, or --layout FILE|DIR");
    return kUsage;
  }
  std::optional<Shard> shard;
  if (o.shard && !(shard = parse_shard(*o.shard))) {
    spdlog::error("--shard: expected K/N with 1 <= K <= N, got \"{}\"", *o.shard);
    return kUsage;
  }
  // A sprite's sidecar and texture GUID come from its path, so it cannot come from standard input.
  if (std::find(o.inputs.begin(), o.inputs.end(), "-") != o.inputs.end() || (o.bones && *o.bones == "-")) {
    spdlog::error("\"-\" (standard input) is not an input here: a sprite's .meta.json is written beside its PNG and "
                  "its texture GUID derives from its path, and --bones files are stamped by content; give file paths");
    return kUsage;
  }
  auto jobs = plan_jobs({o.inputs, o.output, o.base, o.bones, o.keep_bones, o.write_meta, o.slice});
  if (!jobs) {
    log_error(jobs.error());
    return jobs.error().code == "autorig.input" ? kBadInput : kUsage;
  }
  if (auto safe = check_job_outputs(*jobs, o.depfile); !safe) {
    log_error(safe.error());
    return kUsage;
  }
  if (shard) *jobs = select_shard(*jobs, *shard);
  if (o.list_inputs) {
    for (const std::string& path : all_inputs(*jobs)) std::printf("%s\n", path.c_str());
    return kOk;
  }
  std::error_code ec;
  const bool batch = o.inputs.size() > 1 || std::filesystem::is_directory(o.inputs[0], ec) || jobs->size() > 1;
  if (jobs->empty()) {
    spdlog::warn(shard ? "no PNG files in this shard" : "no PNG files found");
    return write_depfile(o, *jobs);
  }

  // The "\r ESC[K" status line only where stderr is a terminal that takes control sequences.
  const bool progress = stderr_takes_control_sequences() && !o.verbosity.quiet && jobs->size() > 1;
  std::size_t written = 0, skipped = 0, failed = 0, vertices = 0, triangles = 0;
  int exit_code = kOk;
  MemoryBudget budget(o.memory_budget_mib << 20);
  RunFlags flags{o.dry_run, o.force, o.check, o.jobs, &budget, options_key, RIG2D_VERSION};
  spdlog::trace("options in the digest:\n{}", options_key);
  if (progress) {
    std::fprintf(stderr, "[0/%zu] %s", jobs->size(), jobs->front().display.c_str());
    std::fflush(stderr);
  }
  run_jobs(*jobs, options, flags, [&](std::size_t i, const Outcome& r) {
    const Job& job = (*jobs)[i];
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
    if (progress && i + 1 < jobs->size()) {
      std::fprintf(stderr, "[%zu/%zu] %s", i + 1, jobs->size(), (*jobs)[i + 1].display.c_str());
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
  if (const int depfile_exit = write_depfile(o, *jobs); depfile_exit != kOk) return depfile_exit;
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
