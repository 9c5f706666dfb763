// SPDX-License-Identifier: Apache-2.0
// rig2d-pose: posed and animated preview PNGs of a .rig2d.json rig, with the editor's overlays.
// Parses the command line into a PoseJob, runs it in memory, then writes every output atomically.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "common/build_files.h"
#include "common/cli_common.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/image/png.h"
#include "rig2d/pipeline/contact_sheet.h"
#include "rig2d/pipeline/pose_job.h"

namespace {

using namespace rig2d;

struct Options {
  PoseJob job;
  std::string output, sheet, apng, dump;
  std::vector<std::string> times;
  std::string size, tint, background = "transparent";
  std::optional<double> scale, fps, opacity;
  std::string depfile;
  std::string weight_ramp = "viridis";
  std::vector<std::string> rigs;
  std::string contact_sheet;
  int tile = 192;
  std::string view = "flat2d", anchor = "bottom", facing = "cylindrical";
  double heading = 0, yaw = 0, pitch = 20;
  bool no_grid = false;
  std::optional<double> distance;
  bool list_inputs = false;
  cli::Verbosity verbosity;
};

void setup(CLI::App& app, Options& o) {
  app.add_option("rig", o.rigs, "The .rig2d.json to render (\"-\": read it from standard input); with --contact-sheet, "
                                "any number of rigs and folders (searched for *.rig2d.json)")->required();
  auto* pose = app.add_option_group("Pose", "Where the pose comes from (bind pose by default)");
  pose->add_option("--pose", o.job.pose,
                   "Set one bone's local transform, BONE.FIELD=VALUE; fields x, y (px), rot (radians), sx, sy. "
                   "Repeatable; applied last")
      ->type_name("BONE.FIELD=V")
      ->allow_extra_args(false);  // one value per occurrence, so a positional may follow
  pose->add_option("--pose-file", o.job.pose_file,
                   "JSON pose {\"bones\": {\"mid\": {\"rot\": 0.5}}, \"sprite\": {...}}; applied after the clip "
                   "(\"-\": standard input)")
      ->type_name("FILE");
  pose->add_option("--anim", o.job.clip_path, "An engine .anim.json clip, bound to the bones by name-path")->type_name("CLIP");
  pose->add_option("--time", o.times, "Clip time(s) in seconds, repeatable or comma-separated; wrapped like "
                                      "playback (default: 0)")
      ->type_name("T[,T...]")
      ->allow_extra_args(false);  // one value per occurrence, so a positional may follow
  pose->add_option("--fps", o.fps, "Sample the whole clip at N frames per second instead of --time")->type_name("N");
  auto* sprite = app.add_option_group("Sprite", "SkinnedSprite2D fields (a clip may animate them too)");
  sprite->add_option("--tint", o.tint, "Tint colour RRGGBB (default ffffff)")->type_name("RRGGBB");
  sprite->add_option("--opacity", o.opacity, "Opacity 0..1 (default 1)")->type_name("A");
  sprite->add_flag("--flip-x", o.job.flip_x, "Mirror about the rig origin's vertical axis");
  sprite->add_flag("--flip-y", o.job.flip_y, "Mirror about the rig origin's horizontal axis");
  auto* out = app.add_option_group("Output", "At least one is required; everything is written only after all succeed");
  out->add_option("-o,--output", o.output, "PNG of the frame; several frames become NAME_0000.png, NAME_0001.png, ...")
      ->type_name("PNG");
  out->add_option("--sheet", o.sheet, "Contact sheet: every frame in a grid with its time")->type_name("PNG");
  out->add_option("--columns", o.job.sheet_columns, "Contact sheet columns (default: about sqrt(frames))")->type_name("N");
  out->add_option("--contact-sheet", o.contact_sheet, "One review sheet of every rig given: per rig a row with the bind "
                                                     "pose, wireframe + bones, dominant-bone map, a bent pose and the "
                                                     "rig's figures (rig2d-validate --deform)")->type_name("PNG");
  out->add_option("--tile", o.tile, "Contact sheet tile size in px (default 192)")->type_name("PX");
  out->add_option("--apng", o.apng, "Animated PNG of the frames (delay 1/fps, or the gaps between --time values)")
      ->type_name("PNG");
  out->add_option("--dump-vertices", o.dump, "Skinned vertex positions per part and frame (rig px, float32), JSON")
      ->type_name("JSON");
  auto* view = app.add_option_group("Framing");
  view->add_option("--size", o.size, "Output size in px (default: the framed bounds * scale + 2 * margin)")->type_name("WxH");
  view->add_option("--scale", o.scale, "Output px per rig px (default 1, or the fitting scale with --fit and --size)")
      ->type_name("S");
  view->add_flag("--fit", o.job.framing.fit, "Frame the posed bounds of all frames (default: the bind-pose bounds)");
  view->add_option("--margin", o.job.framing.margin, "Free border around the bounds in px (default 8)")->type_name("PX");
  view->add_option("--background", o.background, "Background #RRGGBB, #RRGGBBAA or transparent (default)")
      ->type_name("COLOR");
  auto* ov = app.add_option_group("Overlays", "Editor-style overlays, drawn over the sprite");
  ov->add_option("--overlay", o.job.overlays,
                 "Comma list: wireframe (triangle edges), bones (joints and links), weights:BONE (grayscale "
                 "influence of one bone), dominant (a colour per dominant bone), folds (triangles turned inside out against "
                 "the bind pose, in red)")->type_name("LIST");
  ov->add_flag("--weight-view", o.job.weight_view, "Show weights:BONE opaque instead of the texture (the editor's weight view)");
  ov->add_option("--weight-ramp", o.weight_ramp, "Colours of weights:BONE: viridis (perceptual, default) or grey (the editor's)")
      ->check(CLI::IsMember({"viridis", "grey"}))
      ->type_name("RAMP");
  ov->add_flag("--legend", o.job.legend, "Add a legend under each frame: the weight colour bar and/or the dominant bones' names");
  auto* scene = app.add_option_group("2.5D view", "How the engine shows the rig in 3D (Billboard3D / FlatSprite3D)");
  scene->add_option("--view", o.view, "flat2d (default), billboard (standing, facing the camera) or ground (lying on the "
                                       "ground plane, turned by --heading)")
      ->check(CLI::IsMember({"flat2d", "billboard", "ground"}))
      ->type_name("VIEW");
  scene->add_option("--anchor", o.anchor, "Billboard anchor: bottom (lowest bind vertex on the ground, default) or center")
      ->check(CLI::IsMember({"bottom", "center"}))
      ->type_name("A");
  scene->add_option("--facing", o.facing, "Billboard facing: cylindrical (turns about the vertical, default) or spherical")
      ->check(CLI::IsMember({"cylindrical", "spherical"}))
      ->type_name("MODE");
  scene->add_option("--ppu", o.job.scene.pixels_per_unit, "pixelsPerUnit: rig px per world unit (default 100; <= 0 means 100)")
      ->type_name("N");
  scene->add_option("--heading", o.heading, "Ground sprite heading (Transform.ry) in degrees (default 0)")->type_name("DEG");
  scene->add_option("--camera-yaw", o.yaw, "Camera yaw about the vertical in degrees; 0 looks from +z (default 0)")
      ->type_name("DEG");
  scene->add_option("--camera-pitch", o.pitch, "Camera pitch in degrees, -90..90; 0 is level, 90 looks straight down "
                                               "(default 20)")->type_name("DEG");
  scene->add_option("--camera-distance", o.distance, "Camera distance from the rig's centre in world units (default "
                                                     "3 x the rig's size)")->type_name("UNITS");
  scene->add_flag("--orthographic", o.job.scene.camera.orthographic, "Orthographic camera instead of perspective");
  scene->add_flag("--no-grid", o.no_grid, "Leave out the ground grid");
  app.add_option("--assets", o.job.assets_root, "Asset root holding the .meta.json sidecars (default: the nearest "
                                                "'assets' folder above the rig, else the rig's folder)")->type_name("DIR");
  auto* build = app.add_option_group("Build systems");
  build->add_option("--depfile", o.depfile,
                    "Also write a Makefile-syntax depfile (Ninja/CMake DEPFILE, make): each output and every file "
                    "read (rig, pose file, clip, textures and their sidecars)")
      ->type_name("FILE");
  build->add_flag("--list-inputs", o.list_inputs,
                  "Print every file the run reads, one per line, and write nothing (no output option needed)");
  cli::add_verbosity(app, o.verbosity);
}

bool parse_number_list(const std::vector<std::string>& items, std::vector<double>& out) {
  for (const std::string& item : items) {
    std::size_t start = 0;
    while (start <= item.size()) {
      const std::size_t comma = std::min(item.find(',', start), item.size());
      const std::string part = item.substr(start, comma - start);
      start = comma + 1;
      if (part.empty()) continue;
      try {
        std::size_t used = 0;
        out.push_back(std::stod(part, &used));
        if (used != part.size()) return false;
      } catch (const std::exception&) {
        return false;
      }
    }
  }
  return true;
}

int usage(const std::string& message, const std::string& code) {
  std::fprintf(stderr, "rig2d-pose: error: %s [%s]\n", printable(message).c_str(), code.c_str());
  return cli::kUsage;
}

// --contact-sheet: every rig of the inputs in one sheet, written after every row rendered.
int run_contact_sheet(const Options& o) {
  if (!o.output.empty() || !o.sheet.empty() || !o.apng.empty() || !o.dump.empty()) {
    return usage("--contact-sheet is its own output; render single rigs with -o, --sheet or --apng in another run",
                 "pose.output");
  }
  auto paths = collect_rig_paths(o.rigs);
  if (!paths) {
    cli::print_error(paths.error());
    return cli::kBadInput;
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
    return cli::kWriteFailed;
  }
  const std::vector<std::string> outputs{o.contact_sheet};
  if (auto safe = check_output_paths(sheet->inputs, outputs); !safe) {
    cli::print_error(safe.error());
    return cli::kUsage;
  }
  std::vector<OutputFile> writes{{o.contact_sheet, std::move(*png)}};
  if (auto ok = write_files_atomic(writes); !ok) {
    cli::print_error(ok.error());
    return cli::kWriteFailed;
  }
  spdlog::info("wrote {} ({} rigs)", printable(o.contact_sheet), sheet->rows.size());
  return cli::kOk;
}

// The 2.5D view options, degrees to radians; a message when one is out of range.
std::string set_scene(Options& o) {
  SceneViewOptions& v = o.job.scene;
  v.kind = o.view == "billboard" ? ViewKind::Billboard : o.view == "ground" ? ViewKind::Ground : ViewKind::Flat2D;
  v.anchor = o.anchor == "center" ? BillboardAnchor::Center : BillboardAnchor::Bottom;
  v.facing = o.facing == "spherical" ? BillboardFacing::Spherical : BillboardFacing::Cylindrical;
  constexpr double kRad = 3.14159265358979323846 / 180;
  if (!std::isfinite(o.heading) || !std::isfinite(o.yaw) || !(o.pitch >= -90 && o.pitch <= 90)) {
    return "--heading and --camera-yaw take finite degrees, --camera-pitch -90..90";
  }
  if (o.distance && !(*o.distance > 0 && *o.distance <= 1e6)) return "--camera-distance must be within (0, 1e6] world units";
  if (!std::isfinite(v.pixels_per_unit) || v.pixels_per_unit > 1e6 || (v.pixels_per_unit > 0 && v.pixels_per_unit < 1e-3)) {
    return "--ppu must be 0.001..1e6 (or <= 0 for the engine's default, 100)";
  }
  v.heading = o.heading * kRad;
  v.camera.yaw = o.yaw * kRad;
  v.camera.pitch = o.pitch * kRad;
  v.camera.distance = o.distance;
  v.grid = !o.no_grid;
  return {};
}

// --depfile: one rule per output, each naming every file the run read.
int write_depfile(const std::string& depfile, const std::vector<std::string>& outputs,
                  const std::vector<std::string>& inputs) {
  if (depfile.empty()) return cli::kOk;
  std::vector<cli::DepRule> rules;
  for (const std::string& path : outputs) {
    rules.push_back({path, {}});
    cli::append_unique(rules.back().prerequisites, inputs);
  }
  if (auto ok = cli::write_if_changed(depfile, cli::depfile_text(rules)); !ok) {
    cli::print_error(ok.error());
    return cli::kWriteFailed;
  }
  return cli::kOk;
}

// "-" as the rig or the pose file: read standard input once, named <stdin> in messages.
int read_stdin_inputs(PoseJob& job) {
  if (job.rig_path == "-" && job.pose_file == "-") {
    return usage("only one of the rig and --pose-file can come from standard input (\"-\")", "pose.stdin");
  }
  std::optional<std::string>* text = job.rig_path == "-"    ? &job.rig_text
                                     : job.pose_file == "-" ? &job.pose_text
                                                            : nullptr;
  if (text == nullptr) return cli::kOk;
  auto read = cli::read_input("-", kMaxJsonFileBytes);
  if (!read) {
    cli::print_error(read.error());
    return cli::kBadInput;
  }
  *text = std::move(*read);
  (job.rig_path == "-" ? job.rig_path : job.pose_file) = "<stdin>";
  return cli::kOk;
}

int run(Options& o) {
  if (!o.contact_sheet.empty()) return run_contact_sheet(o);
  if (o.rigs.size() != 1) return usage("give one rig (several rigs or folders need --contact-sheet)", "pose.input");
  PoseJob& job = o.job;
  job.rig_path = o.rigs[0];
  if (const int code = read_stdin_inputs(job); code != cli::kOk) return code;
  if (o.output.empty() && o.sheet.empty() && o.apng.empty() && o.dump.empty() && !o.list_inputs) {
    return usage("nothing to write: give -o, --sheet, --apng, --dump-vertices or --contact-sheet", "pose.output");
  }
  if (!parse_number_list(o.times, job.times)) return usage("--time takes numbers of seconds, e.g. --time 0,0.25,0.5", "pose.time");
  job.fps = o.fps;
  job.weight_ramp = o.weight_ramp == "grey" ? Ramp::Grey : Ramp::Viridis;
  if (auto bad = set_scene(o); !bad.empty()) return usage(bad, "pose.view");
  if (o.fps && !o.times.empty()) return usage("give either --time or --fps, not both", "pose.time");
  if (!o.size.empty()) {
    int w = 0, h = 0;
    char tail = 0;
    if (std::sscanf(o.size.c_str(), "%dx%d%c", &w, &h, &tail) != 2 || w < 1 || h < 1) {
      return usage("--size takes WxH in pixels, both at least 1 (got \"" + o.size + "\")", "pose.size");
    }
    job.framing.width = w;
    job.framing.height = h;
  }
  job.framing.scale = o.scale;
  if (!o.tint.empty()) {
    auto c = parse_color(o.tint);
    if (!c || c->alpha != 1) return usage("--tint takes RRGGBB (got \"" + o.tint + "\")", "pose.tint");
    job.tint = (std::uint32_t(c->r) << 16) | (std::uint32_t(c->g) << 8) | c->b;
  }
  if (o.opacity && !(*o.opacity >= 0 && *o.opacity <= 1)) return usage("--opacity must be within 0..1", "pose.opacity");
  job.opacity = o.opacity;
  auto bg = parse_color(o.background);
  if (!bg) return usage(bg.error().message, bg.error().code);
  job.background = *bg;
  job.frames = !o.output.empty();
  job.sheet = !o.sheet.empty();
  job.apng = !o.apng.empty();
  job.vertices = !o.dump.empty() || (o.list_inputs && !job.frames && !job.sheet && !job.apng);  // cheapest

  const auto start = std::chrono::steady_clock::now();
  auto result = run_pose_job(job);
  if (!result) {
    const Error& e = result.error();
    // An error without a file came from the command line itself.
    if (!e.where.file.empty()) {
      cli::print_error(e);
      return cli::kBadInput;
    }
    std::fprintf(stderr, "rig2d-pose: error: %s [%s]\n", printable(e.message).c_str(), e.code.c_str());
    return cli::kUsage;
  }
  for (const Diagnostic& d : result->diagnostics) {
    if (d.severity == Severity::Note) spdlog::debug("{}", format_diagnostic(d));
    else if (!o.verbosity.quiet) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const RenderStats& st = result->stats;
  spdlog::debug("render: {} frame(s) of {}x{} px at scale {:.4g}, {} triangles ({} skipped), {} px shaded, {:.1f} ms",
                result->frame_pngs.empty() ? result->times.size() : result->frame_pngs.size(), result->view.width,
                result->view.height, result->view.scale, st.raster.triangles, st.raster.triangles_skipped,
                st.raster.pixels, ms);

  if (o.list_inputs) {
    std::vector<std::string> inputs;
    cli::append_unique(inputs, result->inputs);
    for (const std::string& path : inputs) {
      if (path != "<stdin>") std::printf("%s\n", path.c_str());  // no file a build system can track
    }
    return cli::kOk;
  }
  // Every output is checked against the inputs and each other, then all are written or none.
  std::vector<OutputFile> writes;
  for (std::size_t i = 0; i < result->frame_pngs.size(); ++i) {
    const std::string path =
        result->frame_pngs.size() == 1 ? o.output : numbered_path(o.output, i, result->frame_pngs.size());
    writes.push_back({path, std::move(result->frame_pngs[i])});
  }
  if (job.sheet) writes.push_back({o.sheet, std::move(result->sheet_png)});
  if (job.apng) writes.push_back({o.apng, std::move(result->apng)});
  if (job.vertices) writes.push_back({o.dump, std::move(result->vertices_json)});
  std::vector<std::string> out_paths;
  for (const OutputFile& w : writes) out_paths.push_back(w.path);
  std::vector<std::string> checked = out_paths;  // the depfile must not clobber an input either
  if (!o.depfile.empty()) checked.push_back(o.depfile);
  if (auto safe = check_output_paths(result->inputs, checked); !safe) {
    cli::print_error(safe.error());
    return cli::kUsage;
  }
  if (auto made = cli::create_parent_dirs(checked); !made) {
    cli::print_error(made.error());
    return cli::kWriteFailed;
  }
  if (auto ok = write_files_atomic(writes); !ok) {
    cli::print_error(ok.error());
    return cli::kWriteFailed;
  }
  // One line per run at the default level, however many frames.
  for (const std::string& path : out_paths) spdlog::debug("wrote {}", printable(path));
  if (out_paths.size() == 1) {
    spdlog::info("wrote {}", printable(out_paths[0]));
  } else {
    spdlog::info("wrote {} files: {} ... {}", out_paths.size(), printable(out_paths.front()),
                 printable(out_paths.back()));
  }
  std::vector<std::string> read_files;  // standard input is no file a build system can track
  for (const std::string& in : result->inputs) {
    if (in != "<stdin>") read_files.push_back(in);
  }
  return write_depfile(o.depfile, out_paths, read_files);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rig2d-pose: render a .rig2d.json rig posed (--pose, --pose-file) or animated (--anim) to PNG "
               "frames, a contact sheet or an animated PNG, with editor overlays, flat or as the engine's 2.5D billboard / ground "
               "sprite (--view); or one review sheet of many rigs (--contact-sheet). Sprites resolve from the "
               "rig's GUIDs through .meta.json sidecars under --assets; a part without a texture is drawn "
               "with a flat tint.",
               "rig2d-pose"};
  app.set_version_flag("--version", std::string("rig2d-pose ") + RIG2D_VERSION);
  Options options;
  setup(app, options);
  return cli::run_main(app, argc, argv, [&] {
    cli::setup_logging("rig2d-pose", options.verbosity);
    return run(options);
  });
}
