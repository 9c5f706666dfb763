// SPDX-License-Identifier: Apache-2.0
#include "rig2d/preview/pose_job.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>

#include "rig2d/anim/bundled_clips.h"
#include "rig2d/anim/curve.h"
#include "rig2d/anim/range_of_motion.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/preview/legend.h"
#include "rig2d/preview/pose_input.h"
#include "rig2d/preview/preview.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d {
namespace {

// Frames kept in memory for a sheet or an APNG, summed over frames.
constexpr std::uint64_t kMaxHeldPixels = 4 * kMaxImagePixels;
// Encoded frame PNGs held until they are written, summed over frames.
constexpr std::uint64_t kMaxHeldPngBytes = 2ull << 30;
// Vertices in a --dump-vertices file, summed over frames.
constexpr std::uint64_t kMaxDumpedVertices = 50'000'000;

std::string time_label(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", t);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return "t=" + s;
}

// A range-of-motion frame is labelled with the bone swinging in it and its swing, in degrees from
// the bind angle ("elbow +30"): its time says less.
std::string frame_label(double t, const PoseJob& job, const Clip& clip, const std::vector<std::string>& swung) {
  if (!job.range_of_motion || swung.empty() || clip.tracks.size() != swung.size()) return time_label(t);
  const auto slot = std::min(
      swung.size() - 1, static_cast<std::size_t>(std::max(0.0, std::floor(t / job.range_of_motion->seconds_per_bone))));
  const Track& track = clip.tracks[slot];
  const double degrees = (eval_number_track(track.keys, t) - track.keys.front().v) * 180 / std::numbers::pi;
  char buf[32];
  std::snprintf(buf, sizeof buf, " %+.0f", std::round(degrees) + 0.0);  // + 0.0: no "-0"
  return swung[slot] + buf;
}

Result<std::string> read_text(const std::string& path) { return read_file(path, kMaxJsonFileBytes); }

struct PlayedClip {
  Clip clip;
  ClipBinding binding;
};

// The clip a job plays, bound to the rig: its --anim file or the rig's range-of-motion clip (also
// kept as text when asked), with the sample times in result.times; nullopt when it plays none.
Result<std::optional<PlayedClip>> played_clip(const PoseJob& job, const Rig& rig, PoseResult& result) {
  if (!job.clip_path.empty() && job.range_of_motion)
    return make_error("pose.rom", "play either a clip file (--anim) or the range-of-motion clip (--rom), not both");
  PlayedClip played;
  std::optional<double> fps = job.fps;
  std::string label = job.clip_path;
  if (job.range_of_motion) {
    RangeOfMotionOptions options = *job.range_of_motion;
    for (const std::string& name : job.range_of_motion_bones) {
      auto bone = find_bone(rig, name);
      if (!bone) return Unexpected{bone.error()};
      options.bones.push_back(*bone);
    }
    auto rom = range_of_motion_clip(rig, options);
    if (!rom) {
      Error e = rom.error();
      if (e.code == "pose.rom.none") e.where.file = job.rig_path;  // the rig's doing, not the command line's
      return Unexpected{std::move(e)};
    }
    for (Diagnostic d : rom->skipped) {
      d.where.file = job.rig_path;
      result.diagnostics.push_back(std::move(d));
    }
    for (const std::size_t b : rom->bones) result.swung_bones.push_back(rig.bones[b].name);
    played.clip = std::move(rom->clip);
    if (job.clip_json) result.clip_json = write_clip(played.clip, KeyTangentMode::Free);
    if (!fps && job.times.empty()) fps = kRangeOfMotionFps;
    label = job.rig_path;
  } else if (!job.clip_path.empty()) {
    auto loaded = load_clip_spec(job.clip_path, &result.diagnostics);
    if (!loaded) return Unexpected{loaded.error()};
    played.clip = std::move(*loaded);
  } else if (!job.times.empty() || job.fps) {
    return make_error("pose.time", "--time and --fps need a clip (--anim or --rom)");
  } else {
    return std::optional<PlayedClip>{};
  }
  played.binding = bind_clip(played.clip, rig, label);
  result.diagnostics.insert(result.diagnostics.end(), played.binding.skipped.begin(), played.binding.skipped.end());
  auto times = clip_sample_times(played.clip, job.times, fps);
  if (!times) return Unexpected{times.error()};
  result.times = std::move(*times);
  return std::optional<PlayedClip>{std::move(played)};
}

constexpr Paint kLegendBackground{38, 38, 38, 1};

// The legends of the weight overlays that are on, stacked (heatmap bar over bone swatches), or
// nullopt when neither is on.
Result<std::optional<Image>> legend_panel(const Rig& rig, const Overlays& ov, int width) {
  std::optional<Image> panel;
  if (ov.weights_bone) {
    const std::string name = *ov.weights_bone < rig.bones.size() ? rig.bones[*ov.weights_bone].name : "";
    auto bar = weight_legend(name, ov.weight_ramp, width);
    if (!bar) return Unexpected{bar.error()};
    panel = std::move(*bar);
  }
  if (ov.dominant) {
    const std::vector<std::uint32_t> bones = dominant_bones_shown(rig);
    auto swatches = bone_legend(rig, bones, width);
    if (!swatches) return Unexpected{swatches.error()};
    if (panel) {
      auto both = stack_below(*panel, *swatches, kLegendBackground);
      if (!both) return Unexpected{both.error()};
      panel = std::move(*both);
    } else {
      panel = std::move(*swatches);
    }
  }
  return panel;
}

}  // namespace

Result<Overlays> parse_overlays(const Rig& rig, const std::string& list) {
  Overlays ov;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) continue;
    if (item == "wireframe") ov.wireframe = true;
    else if (item == "bones") ov.bones = true;
    else if (item == "names")
      ov.names = true;
    else if (item == "dominant") ov.dominant = true;
    else if (item == "folds") ov.folds = true;
    else if (item.rfind("weights:", 0) == 0) {
      auto bone = find_bone(rig, item.substr(8));
      if (!bone) return Unexpected{bone.error()};
      ov.weights_bone = *bone;
    } else {
      return make_error("pose.overlay", "unknown overlay \"" + item +
                                            "\"; use wireframe, bones, names, weights:<bone>, dominant or folds");
    }
  }
  return ov;
}

Result<std::vector<double>> clip_sample_times(const Clip& clip, const std::vector<double>& times,
                                              std::optional<double> fps) {
  std::vector<double> out;
  if (fps) {
    if (!(*fps > 0) || !std::isfinite(*fps)) return make_error("pose.fps", "--fps must be a positive number");
    if (!(clip.duration > 0) || !std::isfinite(clip.duration)) {
      return make_error("pose.fps", "the clip's duration is not a positive number of seconds; use --time");
    }
    const double frames = clip.duration * *fps;
    if (frames > double(kMaxPoseFrames)) {
      return make_error("pose.frames", "--fps " + std::to_string(*fps) + " gives more than " +
                                           std::to_string(kMaxPoseFrames) + " frames");
    }
    // A looping clip's end is its start again, so it is left out.
    for (std::size_t k = 0;; ++k) {
      const double t = static_cast<double>(k) / *fps;
      if (clip.loop ? !(t < clip.duration) : t > clip.duration + 1e-9) break;
      out.push_back(std::min(t, clip.duration));
    }
    return out;
  }
  if (times.size() > kMaxPoseFrames) return make_error("pose.frames", "more than " + std::to_string(kMaxPoseFrames) + " times");
  for (const double t : times) {
    if (!std::isfinite(t)) return make_error("pose.time", "--time values must be finite numbers of seconds");
    out.push_back(advance_clip_time(0, t, clip.duration, clip.loop));
  }
  if (out.empty()) out.push_back(0);
  return out;
}

std::string numbered_path(const std::string& path, std::size_t index, std::size_t count) {
  const std::filesystem::path p(path);
  std::size_t digits = 4;
  for (std::size_t n = count; n >= 10000; n /= 10) ++digits;
  std::string number = std::to_string(index);
  if (number.size() < digits) number.insert(0, digits - number.size(), '0');
  const std::string ext = p.has_extension() ? p.extension().string() : std::string(".png");
  return (p.parent_path() / (p.stem().string() + "_" + number + ext)).string();
}

namespace {

// Onion skin: the job.onion frames sampled before frame f, oldest first and faintest (the nearest at
// kOnionOpacity, each older one a step fainter), each through its own projection in the 2.5D views.
std::vector<GhostFrame> onion_ghosts(const Rig& rig, const PoseJob& job, const RenderOptions& options,
                                     const std::vector<RigPose>& poses,
                                     const std::vector<std::vector<std::vector<Vec2>>>& skinned, std::size_t f) {
  constexpr double kOnionOpacity = 0.45;
  std::vector<GhostFrame> ghosts;
  const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(job.onion), f);
  for (std::size_t k = count; k >= 1; --k) {
    GhostFrame ghost;
    ghost.pose = &poses[f - k];
    ghost.skinned = &skinned[f - k];
    ghost.opacity = kOnionOpacity * (1.0 - static_cast<double>(k - 1) / job.onion);
    if (job.scene.kind != ViewKind::Flat2D)
      ghost.project = scene_projection(options.view, SceneProjector(rig, poses[f - k].sprite, job.scene));
    ghosts.push_back(std::move(ghost));
  }
  return ghosts;
}

void note(PoseResult& result, const PoseJob& job, Severity severity, const char* code, std::string message) {
  result.diagnostics.push_back({severity, code, std::move(message), Location{job.rig_path, {}}});
}

// One frame's pose: the clip at `time`, then the sprite overrides, the pose file and --pose.
Result<RigPose> pose_at(const PoseJob& job, const Rig& rig, const PlayedClip* played, const std::string& pose_text,
                        double time) {
  RigPose pose = bind_pose(rig);
  if (played) apply_clip(played->clip, played->binding, time, pose);
  if (job.tint) pose.sprite.color = *job.tint & 0xffffffu;
  if (job.opacity) pose.sprite.opacity = *job.opacity;
  pose.sprite.flip_x = pose.sprite.flip_x || job.flip_x;
  pose.sprite.flip_y = pose.sprite.flip_y || job.flip_y;
  if (!job.pose_file.empty()) {
    if (auto ok = apply_pose_file(rig, pose_text, job.pose_file, pose); !ok) return Unexpected{ok.error()};
  }
  for (const std::string& a : job.pose) {
    if (auto ok = apply_pose_assignment(rig, a, pose); !ok) return Unexpected{ok.error()};
  }
  return pose;
}

// Every frame's pose and skinned vertices: one per sample time, or the one static pose.
struct Frames {
  std::vector<double> times;  // {0} for a static pose
  std::vector<RigPose> poses;
  std::vector<std::vector<std::vector<Vec2>>> skinned;
};

Result<Frames> sample_frames(const PoseJob& job, const Rig& rig, const PlayedClip* played, const std::string& pose_text,
                             const std::vector<double>& clip_times) {
  Frames frames;
  frames.times = played ? clip_times : std::vector<double>{0};
  frames.poses.reserve(frames.times.size());
  // A clip's frames skin the same rig: its bind matrices and meshes planned once.
  const bool many = frames.times.size() > 1;
  const RigSkinPlan plan = many ? plan_rig_skin(rig) : RigSkinPlan{};
  RigSkinScratch scratch;
  for (const double t : frames.times) {
    auto pose = pose_at(job, rig, played, pose_text, t);
    if (!pose) return Unexpected{pose.error()};
    if (many) {
      skin_rig(rig, *pose, plan, scratch, frames.skinned.emplace_back());
    } else {
      frames.skinned.push_back(skin_rig(rig, *pose));
    }
    frames.poses.push_back(std::move(*pose));
  }
  return frames;
}

// Framing is shared by every frame so a sequence does not jitter: the bind pose, or with --fit the
// union of the posed bounds; the 2.5D views frame the camera's image plane.
Bounds frame_bounds(const PoseJob& job, const Rig& rig, const Overlays& ov, const Frames& frames) {
  const auto joints = [&](const RigPose& p) { return ov.bones ? posed_joints(rig, p) : std::vector<Vec2>{}; };
  RigPose bind = bind_pose(rig);
  bind.sprite = frames.poses[0].sprite;
  const std::vector<std::vector<Vec2>> bind_skinned =
      job.framing.fit ? std::vector<std::vector<Vec2>>{} : skin_rig(rig, bind);
  const std::size_t count = job.framing.fit ? frames.poses.size() : 1;
  Bounds bounds;
  for (std::size_t f = 0; f < count; ++f) {
    const RigPose& p = job.framing.fit ? frames.poses[f] : bind;
    const auto& skinned = job.framing.fit ? frames.skinned[f] : bind_skinned;
    if (job.scene.kind != ViewKind::Flat2D) {
      add_scene_bounds(bounds, rig, skinned, SceneProjector(rig, p.sprite, job.scene), joints(p));
    } else {
      add_pose_bounds(bounds, rig, skinned, p.sprite, joints(p));
    }
  }
  return bounds;
}

// What a job may hold in memory, checked before anything is decoded or drawn.
Result<void> check_frame_limits(const PoseJob& job, const Rig& rig, const View& view, std::size_t frames) {
  const bool hold = job.sheet || job.apng;
  if (hold &&
      static_cast<std::uint64_t>(view.width) * static_cast<std::uint64_t>(view.height) * frames > kMaxHeldPixels) {
    return make_error("pose.frames", std::to_string(frames) + " frames of " + std::to_string(view.width) + "x" +
                                         std::to_string(view.height) +
                                         " px are too many for a sheet or APNG; lower --fps or --scale");
  }
  if (job.vertices) {
    std::uint64_t verts = 0;
    for (const Part& part : rig.parts) verts += part.mesh.verts.size();
    if (verts * frames > kMaxDumpedVertices) {
      return make_error("pose.frames", "the vertex dump would hold " + std::to_string(verts * frames) +
                                           " vertices (limit " + std::to_string(kMaxDumpedVertices) +
                                           "); sample fewer frames");
    }
  }
  return {};
}

// The parts' sprites through the asset index, decoded only once the output size passed its limits.
// An explicit --assets root must exist; the default one may not (every part is then drawn flat).
Result<PartTextures> part_textures(const PoseJob& job, const Rig& rig, PoseResult& result) {
  PartTextures textures;
  textures.parts.resize(rig.parts.size());
  const std::string root = job.assets_root.empty() ? default_asset_root(job.rig_path) : job.assets_root;
  // A rig given as text (standard input) has no folder of its own: only an assets/ folder above the
  // working folder is a root then, never the whole working folder.
  const bool no_root = job.rig_text && job.assets_root.empty() && std::filesystem::path(root).filename() != "assets";
  auto index = no_root ? Result<AssetIndex>(make_error("asset.root", "no assets/ folder above the working folder; "
                                                                       "pass --assets to resolve the rig's sprites"))
                       : AssetIndex::scan(root);
  if (!index) {
    if (!job.assets_root.empty()) return Unexpected{index.error()};
    note(result, job, Severity::Warning, "pose.assets",
         "no asset index at " + root + " (" + index.error().message + "); every part is drawn with the flat tint");
    return textures;
  }
  textures = load_part_textures(rig, *index, job.rig_path);
  for (const Part& part : rig.parts) {
    if (const auto source = index->resolve_sprite(part.sprite)) {
      result.inputs.push_back(source->texture_path);
      result.inputs.push_back(sidecar_path(source->texture_path));
    }
  }
  result.diagnostics.insert(result.diagnostics.end(), textures.warnings.begin(), textures.warnings.end());
  return textures;
}

// Draws every frame: its PNG when job.frames (within kMaxHeldPngBytes), the image itself in `held`
// for a sheet or APNG, its vertices for the dump.
Result<void> render_frames(const PoseJob& job, const Rig& rig, Frames& frames, const PartTextures& textures,
                           RenderOptions options, const std::optional<Image>& legend, bool animated, PoseResult& result,
                           std::vector<Image>& held, std::vector<VertexFrame>& vertex_frames) {
  const bool scene = job.scene.kind != ViewKind::Flat2D;
  std::uint64_t png_bytes = 0;
  for (std::size_t f = 0; f < frames.poses.size(); ++f) {
    if (scene) apply_scene_view(options, SceneProjector(rig, frames.poses[f].sprite, job.scene), job.scene.grid);
    if (job.onion > 0) options.ghosts = onion_ghosts(rig, job, options, frames.poses, frames.skinned, f);
    auto image = render_pose(rig, textures.parts, frames.poses[f], frames.skinned[f], options, &result.stats);
    if (!image) return Unexpected{image.error()};
    if (legend) {
      image = stack_below(*image, *legend, kLegendBackground);
      if (!image) return Unexpected{image.error()};
    }
    if (job.frames) {
      auto png = encode_png(*image);
      if (!png) return Unexpected{png.error()};
      png_bytes += png->size();
      if (png_bytes > kMaxHeldPngBytes) {
        return make_error("pose.frames", "the frame PNGs exceed " + std::to_string(kMaxHeldPngBytes >> 20) +
                                             " MiB; sample fewer frames or lower --scale");
      }
      result.frame_pngs.push_back(std::move(*png));
    }
    if (job.vertices) {
      // Later frames draw this one as a ghost: keep it then.
      vertex_frames.push_back({animated ? std::optional<double>(frames.times[f]) : std::nullopt,
                               job.onion > 0 ? frames.skinned[f] : std::move(frames.skinned[f])});
    }
    if (job.sheet || job.apng) held.push_back(std::move(*image));
  }
  return {};
}

// The APNG's frame delays: 1/fps, or the gap to the next --time value (the last frame keeps the
// one before it), in ms.
std::vector<std::uint32_t> apng_delays(const PoseJob& job, const std::vector<double>& times) {
  std::vector<std::uint32_t> delays;
  for (std::size_t f = 0; f < times.size(); ++f) {
    double seconds = job.fps ? 1 / *job.fps : 0.1;
    if (!job.fps && f + 1 < times.size() && times[f + 1] > times[f]) {
      seconds = times[f + 1] - times[f];
    } else if (!job.fps && f > 0) {
      seconds = delays.back() / 1000.0;
    }
    delays.push_back(static_cast<std::uint32_t>(std::clamp(std::round(seconds * 1000), 1.0, 600000.0)));
  }
  return delays;
}

// The contact sheet and the APNG of the held frames.
Result<void> encode_sequences(const PoseJob& job, const std::vector<Image>& held, const Frames& frames,
                              const Clip& clip, bool animated, PoseResult& result) {
  if (job.sheet) {
    std::vector<std::string> labels;
    if (animated) {
      for (const double t : frames.times) labels.push_back(frame_label(t, job, clip, result.swung_bones));
    }
    SheetOptions so;
    so.columns = job.sheet_columns;
    auto sheet = contact_sheet(held, labels, so);
    if (!sheet) return Unexpected{sheet.error()};
    auto png = encode_png(*sheet);
    if (!png) return Unexpected{png.error()};
    result.sheet_png = std::move(*png);
  }
  if (job.apng) {
    auto apng = encode_apng(held, apng_delays(job, frames.times));
    if (!apng) return Unexpected{apng.error()};
    result.apng = std::move(*apng);
  }
  return {};
}

// The rig, read and normalized; the text comes from job.rig_text when given (standard input).
Result<Rig> read_job_rig(const PoseJob& job) {
  auto text = job.rig_text ? Result<std::string>(*job.rig_text) : read_text(job.rig_path);
  if (!text) return Unexpected{text.error()};
  return read_rig_normalized(*text, job.rig_path);
}

Result<std::string> read_pose_text(const PoseJob& job) {
  if (job.pose_file.empty()) return std::string{};
  return job.pose_text ? Result<std::string>(*job.pose_text) : read_text(job.pose_file);
}

}  // namespace

Result<PoseResult> run_pose_job(const PoseJob& job) {
  PoseResult result;
  result.inputs = {job.rig_path};
  if (!job.pose_file.empty()) result.inputs.push_back(job.pose_file);
  if (!job.clip_path.empty()) result.inputs.push_back(job.clip_path);
  auto rig_read = read_job_rig(job);
  if (!rig_read) return Unexpected{rig_read.error()};
  const Rig& rig = *rig_read;
  if (rig.parts.empty() || rig.parts[0].mesh.verts.empty()) {
    note(result, job, Severity::Warning, "pose.engine.skipped",
         "the first part (by order) has no vertices, so the engine skips this whole rig; the preview draws it anyway");
  }
  auto overlays = parse_overlays(rig, job.overlays);
  if (!overlays) return Unexpected{overlays.error()};
  overlays->weight_view = job.weight_view;
  overlays->weight_ramp = job.weight_ramp;

  // Pose sources, validated once up front so a bad one fails before any rendering.
  auto pose_text = read_pose_text(job);
  if (!pose_text) return Unexpected{pose_text.error()};
  auto played = played_clip(job, rig, result);
  if (!played) return Unexpected{played.error()};
  const PlayedClip* clip = played->has_value() ? &**played : nullptr;
  auto frames = sample_frames(job, rig, clip, *pose_text, result.times);
  if (!frames) return Unexpected{frames.error()};

  auto view = frame_view(frame_bounds(job, rig, *overlays, *frames), job.framing);
  if (!view) {
    Error e = view.error();
    if (e.code == "pose.empty") e.where.file = job.rig_path;  // the rig holds nothing to draw
    return Unexpected{std::move(e)};
  }
  result.view = *view;
  if (auto ok = check_frame_limits(job, rig, *view, frames->poses.size()); !ok) return Unexpected{ok.error()};
  auto textures = part_textures(job, rig, result);
  if (!textures) return Unexpected{textures.error()};

  if (job.onion > 0 && frames->poses.size() < 2) {
    note(result, job, Severity::Warning, "pose.onion.none",
         "--onion draws the frames sampled before each frame, and only one frame is sampled; sample the clip with "
         "--fps or several --time values");
  }
  auto legend = job.legend ? legend_panel(rig, *overlays, view->width) : Result<std::optional<Image>>(std::nullopt);
  if (!legend) return Unexpected{legend.error()};
  if (job.legend && !*legend) {
    note(result, job, Severity::Warning, "pose.legend.none",
         "--legend draws a legend for weights:BONE or dominant; neither is on");
  }

  RenderOptions options;
  options.view = *view;
  options.background = job.background;
  options.overlays = *overlays;
  std::vector<Image> held;
  std::vector<VertexFrame> vertex_frames;
  if (auto ok =
          render_frames(job, rig, *frames, *textures, options, *legend, clip != nullptr, result, held, vertex_frames);
      !ok)
    return Unexpected{ok.error()};
  const Clip no_clip;
  if (auto ok = encode_sequences(job, held, *frames, clip ? clip->clip : no_clip, clip != nullptr, result); !ok)
    return Unexpected{ok.error()};
  if (job.vertices) result.vertices_json = vertices_json(rig, vertex_frames);
  return result;
}

}  // namespace rig2d
