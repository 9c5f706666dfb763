// SPDX-License-Identifier: Apache-2.0
#include "job_options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "rig2d/core/limits.h"
#include "rig2d/raster/canvas.h"

namespace rig2d::pose_cli {

namespace {

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

// "-" as the rig or the pose file: read standard input once, named <stdin> in messages.
int read_stdin_inputs(PoseJob& job) {
  if (job.rig_path == "-" && job.pose_file == "-") {
    return usage("only one of the rig and --pose-file can come from standard input (\"-\")", "pose.stdin");
  }
  std::optional<std::string>* text = job.rig_path == "-"    ? &job.rig_text
                                     : job.pose_file == "-" ? &job.pose_text
                                                            : nullptr;
  if (text == nullptr) return kOk;
  auto read = cli::read_input("-", kMaxJsonFileBytes);
  if (!read) {
    cli::print_error(read.error());
    return kBadInput;
  }
  *text = std::move(*read);
  (job.rig_path == "-" ? job.rig_path : job.pose_file) = "<stdin>";
  return kOk;
}

// --time / --fps, the weight ramp and the 2.5D view.
int set_sampling_and_view(Options& o) {
  PoseJob& job = o.job;
  if (!parse_number_list(o.times, job.times)) return usage("--time takes numbers of seconds, e.g. --time 0,0.25,0.5", "pose.time");
  job.fps = o.fps;
  job.weight_ramp = o.weight_ramp == "grey" ? Ramp::Grey : Ramp::Viridis;
  if (auto bad = set_scene(o); !bad.empty()) return usage(bad, "pose.view");
  if (o.fps && !o.times.empty()) return usage("give either --time or --fps, not both", "pose.time");
  return kOk;
}

// --size, --scale, --tint, --opacity and --background.
int set_framing_and_sprite(Options& o) {
  PoseJob& job = o.job;
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
  return kOk;
}

}  // namespace

int usage(const std::string& message, const std::string& code) {
  std::fprintf(stderr, "rig2d-pose: error: %s [%s]\n", printable(message).c_str(), code.c_str());
  return kUsage;
}

int prepare_job(Options& o) {
  if (o.rigs.size() != 1)
    return usage("give one rig (several rigs or folders need --contact-sheet or --html)", "pose.input");
  PoseJob& job = o.job;
  job.rig_path = o.rigs[0];
  if (const int code = read_stdin_inputs(job); code != kOk) return code;
  if (o.output.empty() && o.sheet.empty() && o.apng.empty() && o.dump.empty() && o.save_clip.empty() &&
      !o.list_inputs) {
    return usage("nothing to write: give -o, --sheet, --apng, --dump-vertices, --save-clip or --contact-sheet",
                 "pose.output");
  }
  if (!o.save_clip.empty() && !o.rom) return usage("--save-clip writes the --rom clip; add --rom", "pose.rom");
  if (job.onion > 0 && !o.rom && job.clip_path.empty()) {
    return usage("--onion draws the frames sampled before each frame of a clip; add --anim CLIP or --rom",
                 "pose.onion");
  }
  if (o.rom) {
    job.range_of_motion = RangeOfMotionOptions{o.rom_angle, o.rom_seconds, {}};
    job.range_of_motion_bones = o.rom_bones;
    job.clip_json = !o.save_clip.empty();
  }
  if (const int code = set_sampling_and_view(o); code != kOk) return code;
  if (const int code = set_framing_and_sprite(o); code != kOk) return code;
  job.frames = !o.output.empty();
  job.sheet = !o.sheet.empty();
  job.apng = !o.apng.empty();
  // With no picture asked for (--list-inputs, --save-clip alone), the vertex dump is the cheapest run.
  job.vertices = !o.dump.empty() || (!job.frames && !job.sheet && !job.apng);
  return kOk;
}

}  // namespace rig2d::pose_cli
