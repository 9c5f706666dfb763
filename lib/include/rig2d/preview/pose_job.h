// SPDX-License-Identifier: Apache-2.0
// One rig2d-pose run, entirely in memory: read the rig (engine normalization), resolve its sprites,
// build the pose(s) from assignments / a pose file / a clip, frame, render, and encode every
// requested output. Nothing is written; the caller writes the returned buffers (atomically), so a
// failed run leaves no file behind.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rig2d/anim/range_of_motion.h"
#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/preview/pose.h"
#include "rig2d/preview/views.h"

namespace rig2d {

struct PoseJob {
  std::string rig_path;                      // .rig2d.json
  std::string assets_root;                   // "" = default_asset_root(rig_path)
  std::vector<std::string> pose;             // "BONE.FIELD=VALUE", applied last
  std::string pose_file;                     // "" = none; applied after the clip
  // Contents already read (e.g. from standard input): used instead of reading rig_path / pose_file,
  // which then only name them in messages ("<stdin>").
  std::optional<std::string> rig_text;
  std::optional<std::string> pose_text;
  std::string clip_path;                     // "" = no clip
  // Instead of a clip file: the rig's range-of-motion test clip (range_of_motion.h), sampled at
  // kRangeOfMotionFps unless times or fps say otherwise.
  std::optional<RangeOfMotionOptions> range_of_motion;
  std::vector<std::string> range_of_motion_bones;  // its bones by name (as --pose finds them), in order
  std::vector<double> times;                 // s; clip sample times (wrapped/clamped like playback)
  std::optional<double> fps;                 // sample the clip at this rate over its duration
  // SkinnedSprite2D overrides (applied after the clip, before the pose file).
  std::optional<std::uint32_t> tint;         // 0xRRGGBB
  std::optional<double> opacity;             // 0..1
  bool flip_x = false;
  bool flip_y = false;
  FramingOptions framing;                    // --fit frames the posed bounds of every frame
  Paint background{0, 0, 0, 0};
  std::string overlays;                      // "wireframe,bones,weights:BONE,dominant,folds"
  bool weight_view = false;
  Ramp weight_ramp = Ramp::Viridis;          // colours of weights:BONE
  bool legend = false;                       // a legend panel under each frame (weights / dominant)
  SceneViewOptions scene;                    // --view billboard|ground: the 2.5D placement and camera
  int onion = 0;                             // onion skin: each frame shows this many frames sampled
                                             // before it, faint and tinted blue (0..kMaxOnion)
  // Which outputs to build.
  bool frames = true;                        // one PNG per frame
  bool sheet = false;                        // contact sheet
  int sheet_columns = 0;
  bool apng = false;                         // animated PNG
  bool vertices = false;                     // --dump-vertices JSON
  bool clip_json = false;                    // the range-of-motion clip as .anim.json text
};

inline constexpr std::size_t kMaxPoseFrames = 10000;
inline constexpr int kMaxOnion = 30;
inline constexpr double kRangeOfMotionFps = 12;

struct PoseResult {
  std::vector<double> times;                 // per frame, s (empty time list = one static pose)
  std::vector<std::string> frame_pngs;       // when job.frames
  std::string sheet_png;                     // when job.sheet
  std::string apng;                          // when job.apng
  std::string vertices_json;                 // when job.vertices
  std::string clip_json;                     // when job.clip_json (and range_of_motion)
  std::vector<std::string> swung_bones;      // range_of_motion: the bones in the order they swing
  View view;
  RenderStats stats;                         // summed over frames
  std::vector<Diagnostic> diagnostics;       // warnings and notes (missing textures, unbound tracks)
  std::vector<std::string> inputs;           // every file the run read (rig, pose file, clip, textures
                                             // and their sidecars), for check_output_paths
};

// Errors carry the offending file in where.file; an error without a file is a command-line
// problem (bad pose assignment, size, overlay, time). Codes: io.*, json.*, clip.*, pose.* (see
// docs/pose.md), raster.*, png.encode.
RIG2D_EXPORT Result<PoseResult> run_pose_job(const PoseJob& job);

// Parses the overlay list ("wireframe,bones,weights:BONE,dominant,folds"; empty = none).
// Errors: pose.overlay (unknown item), pose.bone (weights:<bone> names no bone; lists them).
RIG2D_EXPORT Result<Overlays> parse_overlays(const Rig& rig, const std::string& list);

// The sample times of a clip: `times` wrapped like playback (advance_clip_time from 0), or every
// 1/fps s over [0, duration) ([0, duration] when not looping), or {0}. Errors: pose.fps, pose.time,
// pose.frames (more than kMaxPoseFrames).
RIG2D_EXPORT Result<std::vector<double>> clip_sample_times(const Clip& clip, const std::vector<double>& times,
                                                           std::optional<double> fps);

// "NAME.png" -> "NAME_0007.png" (4 digits, more if needed).
RIG2D_EXPORT std::string numbered_path(const std::string& path, std::size_t index, std::size_t count);

}  // namespace rig2d
