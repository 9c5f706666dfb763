// SPDX-License-Identifier: Apache-2.0
// rig2d-pose: posed and animated preview PNGs of a .rig2d.json rig, with the editor's overlays.
// Parses the command line into a PoseJob (job_options.h), runs it in memory, then writes every
// output atomically (pose_outputs.h); --contact-sheet is contact_sheet_run.h.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include <spdlog/spdlog.h>

#include "common/cli_common.h"
#include "common/cli_docs.h"
#include "contact_sheet_run.h"
#include "job_options.h"
#include "options.h"
#include "pose_outputs.h"
#include "review_page_run.h"
#include "rig2d/preview/pose_job.h"

namespace {

using namespace rig2d;
using namespace rig2d::pose_cli;

// Where the pose comes from: --pose, --pose-file, --anim, --time, --fps.
void add_pose_options(CLI::App& app, Options& o) {
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
  pose->add_option("--anim", o.job.clip_path,
                   "An engine .anim.json clip, bound to the bones by name-path, or a bundled template clip: "
                   "humanoid/idle|walk|run|jump|wave, quadruped/walk, bird/flap, fish/swim, snake/slither, tree/sway, "
                   "prop/wobble (for rigs made with rig2d-autorig --template)")
      ->type_name("CLIP");
  pose->add_option("--time", o.times, "Clip time(s) in seconds, repeatable or comma-separated; wrapped like "
                                      "playback (default: 0)")
      ->type_name("T[,T...]")
      ->allow_extra_args(false);  // one value per occurrence, so a positional may follow
  pose->add_option("--fps", o.fps, "Sample the whole clip at N frames per second instead of --time")->type_name("N");
  auto* rom = pose->add_flag("--rom", o.rom,
                             "Play a range-of-motion test instead of a clip: each bone in turn swings --rom-angle one "
                             "way, as far the other way and back, while the others hold their bind pose (bones "
                             "with a parent, in bone order); sampled at 12 fps unless --fps or --time");
  pose->add_option("--rom-angle", o.rom_angle, "--rom: degrees of swing each way, (0, 180] (default 45)")
      ->type_name("DEG")
      ->needs(rom);
  pose->add_option("--rom-seconds", o.rom_seconds, "--rom: seconds per bone, (0, 60] (default 1)")
      ->type_name("S")
      ->needs(rom);
  pose->add_option("--rom-bones", o.rom_bones, "--rom: swing only these bones, in this order (comma-separated)")
      ->type_name("A,B,...")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->needs(rom);
}

// The SkinnedSprite2D fields: tint, opacity, flips.
void add_sprite_options(CLI::App& app, Options& o) {
  auto* sprite = app.add_option_group("Sprite", "SkinnedSprite2D fields (a clip may animate them too)");
  sprite->add_option("--tint", o.tint, "Tint colour RRGGBB (default ffffff)")->type_name("RRGGBB");
  sprite->add_option("--opacity", o.opacity, "Opacity 0..1 (default 1)")->type_name("A");
  sprite->add_flag("--flip-x", o.job.flip_x, "Mirror about the rig origin's vertical axis");
  sprite->add_flag("--flip-y", o.job.flip_y, "Mirror about the rig origin's horizontal axis");
}

// What is written: frames, sheets, APNG, vertex dumps.
void add_output_options(CLI::App& app, Options& o) {
  auto* out = app.add_option_group("Output", "At least one is required; everything is written only after all succeed");
  out->add_option("-o,--output", o.output, "PNG of the frame; several frames become NAME_0000.png, NAME_0001.png, ...")
      ->type_name("PNG");
  out->add_option("--sheet", o.sheet, "Contact sheet: every frame in a grid with its time")->type_name("PNG");
  out->add_option("--columns", o.job.sheet_columns, "Contact sheet columns (default: about sqrt(frames))")->type_name("N");
  out->add_option("--contact-sheet", o.contact_sheet, "One review sheet of every rig given: per rig a row with the bind "
                                                     "pose, wireframe + bones, dominant-bone map, a bent pose and the "
                                                     "rig's figures (rig2d-validate --deform)")->type_name("PNG");
  out->add_option("--html", o.html,
                  "One self-contained review page (HTML) of every rig given: a list with search and "
                  "filters, each rig's figures and rig2d-validate --deform findings, and a viewer to "
                  "drag bones, play --anim and show wireframe, bones, weights (docs/previews.md)")
      ->type_name("HTML");
  out->add_option("--html-assets", o.html_assets,
                  "--html textures: embed (data: URIs, one file; default) or link "
                  "(the PNGs by relative path, for big folders)")
      ->check(CLI::IsMember({"embed", "link"}))
      ->type_name("MODE");
  out->add_option("--tile", o.tile, "Contact sheet tile size in px (default 192)")->type_name("PX");
  out->add_option("--contact-clip", o.contact_clip,
                  "With --contact-sheet: play this clip on every rig, --contact-frames more tiles per row (a bundled "
                  "clip such as humanoid/walk, or an .anim.json), folds in red, so one clip is reviewed on a whole "
                  "batch; tracks naming bones a rig lacks are skipped with a warning naming the rig")
      ->type_name("CLIP");
  out->add_option("--contact-frames", o.contact_frames,
                  "With --contact-clip: frames per rig, 1..8, evenly spaced over one loop (t = 0, d/N, ...)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str()
      ->type_name("N");
  out->add_option("--apng", o.apng, "Animated PNG of the frames (delay 1/fps, or the gaps between --time values)")
      ->type_name("PNG");
  out->add_option("--dump-vertices", o.dump, "Skinned vertex positions per part and frame (rig px, float32), JSON")
      ->type_name("JSON");
  out->add_option("--save-clip", o.save_clip,
                  "With --rom: the range-of-motion clip as an engine .anim.json (for the "
                  "editor, or --anim)")
      ->type_name("CLIP");
}

// Size, scale, margin and background.
void add_framing_options(CLI::App& app, Options& o) {
  auto* view = app.add_option_group("Framing");
  view->add_option("--size", o.size, "Output size in px (default: the framed bounds * scale + 2 * margin)")->type_name("WxH");
  view->add_option("--scale", o.scale, "Output px per rig px (default 1, or the fitting scale with --fit and --size)")
      ->type_name("S");
  view->add_flag("--fit", o.job.framing.fit, "Frame the posed bounds of all frames (default: the bind-pose bounds)");
  view->add_option("--margin", o.job.framing.margin, "Free border around the bounds in px (default 8)")->type_name("PX");
  view->add_option("--background", o.background, "Background #RRGGBB, #RRGGBBAA or transparent (default)")
      ->type_name("COLOR");
}

// Editor overlays and the weight view.
void add_overlay_options(CLI::App& app, Options& o) {
  auto* ov = app.add_option_group("Overlays", "Editor-style overlays, drawn over the sprite");
  ov->add_option("--overlay", o.job.overlays,
                 "Comma list: wireframe (triangle edges), bones (joints and links), names (each bone's name beside "
                 "its joint), weights:BONE (influence of one bone, coloured by --weight-ramp), dominant (a colour per "
                 "dominant bone), folds (triangles turned inside out against the bind pose, in red)")
      ->type_name("LIST");
  ov->add_option("--onion", o.job.onion,
                 "Onion skin for a clip: each frame also shows the N frames sampled before it, faint, tinted blue "
                 "and fainter the older (0..30; default 0)")
      ->check(CLI::Range(0, kMaxOnion))
      ->type_name("N");
  ov->add_flag("--weight-view", o.job.weight_view, "Show weights:BONE opaque instead of the texture (the editor's weight view)");
  ov->add_option("--weight-ramp", o.weight_ramp, "Colours of weights:BONE: viridis (perceptual, default) or grey (the editor's)")
      ->check(CLI::IsMember({"viridis", "grey"}))
      ->type_name("RAMP");
  ov->add_flag("--legend", o.job.legend, "Add a legend under each frame: the weight colour bar and/or the dominant bones' names");
}

// The 2.5D view and its camera.
void add_view_options(CLI::App& app, Options& o) {
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
}

// Depfiles and --list-inputs for build systems.
void add_build_options(CLI::App& app, Options& o) {
  auto* build = app.add_option_group("Build systems");
  build->add_option("--depfile", o.depfile,
                    "Also write a Makefile-syntax depfile (Ninja/CMake DEPFILE, make): each output and every file "
                    "read (rig, pose file, clip, textures and their sidecars)")
      ->type_name("FILE");
  build->add_flag("--list-inputs", o.list_inputs,
                  "Print every file the run reads, one per line, and write nothing (no output option needed)");
  build->add_flag("--null", o.list_null,
                  "With --list-inputs: end each path with a NUL byte instead of a newline (for xargs -0); without it "
                  "a path holding a newline is an error (list.newline)");
}

void setup(CLI::App& app, Options& o) {
  app.add_option("rig", o.rigs,
                 "The .rig2d.json to render (\"-\": read it from standard input); with --contact-sheet or --html, "
                 "any number of rigs and folders (searched for *.rig2d.json)")
      ->type_name("RIG|DIR")
      ->required();
  add_pose_options(app, o);
  add_sprite_options(app, o);
  add_output_options(app, o);
  add_framing_options(app, o);
  add_overlay_options(app, o);
  add_view_options(app, o);
  app.add_option("--assets", o.job.assets_root, "Asset root holding the .meta.json sidecars (default: the nearest "
                                                "'assets' folder above the rig, else the rig's folder)")->type_name("DIR");
  add_build_options(app, o);
  cli::add_verbosity(app, o.verbosity);
}

// Runs the job; prints its diagnostics and, with -v, its render figures. nullopt (with the exit code
// in `code`) when the job failed.
std::optional<PoseResult> render(const Options& o, int& code) {
  const auto start = std::chrono::steady_clock::now();
  auto result = run_pose_job(o.job);
  if (!result) {
    const Error& e = result.error();
    // An error without a file came from the command line itself.
    if (!e.where.file.empty()) {
      cli::print_error(e);
      code = kBadInput;
    } else {
      std::fprintf(stderr, "rig2d-pose: error: %s [%s]\n", printable(e.message).c_str(), e.code.c_str());
      code = kUsage;
    }
    return std::nullopt;
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
  return std::move(*result);
}

int run(Options& o) {
  if (!o.contact_clip.empty() && o.contact_sheet.empty())
    return usage("--contact-clip adds a clip's frames to --contact-sheet; play a clip on one rig with --anim",
                 "pose.output");
  if (!o.html.empty()) return run_review_page(o);
  if (!o.contact_sheet.empty()) return run_contact_sheet(o);
  if (const int code = prepare_job(o); code != kOk) return code;
  int code = kOk;
  std::optional<PoseResult> result = render(o, code);
  if (!result) return code;
  if (o.list_inputs) return list_inputs(*result, o.list_null);
  return write_outputs(o, *result);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "rig2d-pose: render a .rig2d.json rig posed (--pose, --pose-file) or animated (--anim, or --rom: a "
      "range-of-motion test) to PNG "
      "frames, a contact sheet or an animated PNG, with editor overlays, flat or as the engine's 2.5D billboard / "
      "ground "
      "sprite (--view); or, for many rigs, one review sheet (--contact-sheet) or one interactive HTML review "
      "page (--html). Sprites resolve from the "
      "rig's GUIDs through .meta.json sidecars under --assets; a part without a texture is drawn "
      "with a flat tint.",
      "rig2d-pose"};
  app.set_version_flag("--version", std::string("rig2d-pose ") + RIG2D_VERSION);
  Options options;
  setup(app, options);
  cli::add_docs_options(app, "render a rig posed or animated to PNG frames, sheets and animated PNGs");
  return cli::run_main(app, argc, argv, [&] {
    cli::setup_logging("rig2d-pose", options.verbosity);
    return run(options);
  });
}
