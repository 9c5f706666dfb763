// SPDX-License-Identifier: Apache-2.0
// The engine's `.anim.json` clip (ENGINE-SPEC §1.6), after normalizeAnimationClip: defaults filled,
// tangents normalized (finite or +inf, else 0; tangentMode "constant" forces a stepped +inf out
// tangent), keys stably sorted by time. Times in seconds, tangents in value units per second.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

// An out tangent of +inf makes the segment after the key stepped (hold the key's value).
inline constexpr double kStepped = std::numeric_limits<double>::infinity();
inline constexpr double kDefaultTangentWeight = 1.0 / 3.0;

enum class TrackType { Number, Color, Boolean, Enum };

struct Keyframe {
  double t = 0;                       // s
  double v = 0;                       // number; packed 0xRRGGBB (color); 0/1 (boolean); index (enum)
  double in_tangent = 0;              // value units / s
  double out_tangent = 0;             // value units / s; kStepped = hold
  std::optional<double> in_weight;    // handle length as a fraction of the segment; absent = 1/3
  std::optional<double> out_weight;
};

struct Track {
  std::string path;   // name-path from the animated root: "" = the root, "root/arm" = a descendant
  std::string trait;  // "Transform" for bones
  std::string field;  // Transform: x, y, rz (radians), sx, sy (z, rx, ry, sz are ignored by skinning)
  TrackType type = TrackType::Number;
  std::vector<Keyframe> keys;  // sorted by t (stable)
};

struct DeformKey {
  double t = 0;                  // s
  std::vector<double> offsets;   // dense [dx0, dy0, dx1, dy1, ...] in bind/texture space, px
};

struct DeformTrack {
  std::string path;  // to the SkinnedSprite2D entity ("" = the root)
  std::string part;  // rig part name
  std::vector<DeformKey> keys;  // sorted by t (stable)
};

struct Clip {
  std::string id;
  std::string name = "Clip";
  double duration = 1;     // s (kept as read, even when <= 0 or infinite)
  double frame_rate = 60;  // authoring only
  bool loop = true;        // JS truthiness of the file's value, default true
  std::vector<Track> tracks;
  std::vector<DeformTrack> deform_tracks;
};

// Reads a clip the way the engine's loader does, but rejects data the engine would turn into NaN
// or garbage. Errors: json.syntax / json.too_deep / json.too_large (see parse_json), io.* when read
// from a file, clip.root (not an object), clip.track (a track is not an object), clip.key (a key is
// not an object), clip.key.time (t not a finite number), clip.key.value (v not a number or
// boolean), clip.deform.offsets (non-numeric offset). Each error names the JSON pointer and
// line:col. Oddities the engine tolerates (unknown track type, non-numeric weights, a non-array
// `tracks`) are appended to `warnings` when given.
RIG2D_EXPORT Result<Clip> read_clip(std::string_view text, const std::string& path,
                                    std::vector<Diagnostic>* warnings = nullptr);
// read_file (kMaxJsonFileBytes) + read_clip.
RIG2D_EXPORT Result<Clip> load_clip(const std::string& path, std::vector<Diagnostic>* warnings = nullptr);

// The tangent mode write_clip records on keys with finite tangents; it only matters to the editor's
// re-tangenting (ENGINE-SPEC 3.9), playback reads the tangents themselves.
enum class KeyTangentMode {
  Linear,  // the tangents are the slopes to the neighbouring keys (as imports make them)
  Free,    // set on purpose (e.g. flat at a turning point); the editor keeps them as they are
};

// An .anim.json clip as the editor writes it (ENGINE-SPEC 1.6): {id, name, duration, frameRate,
// loop, tracks[{path, trait, field, type, keys[{t, v, inTangent, outTangent, tangentMode, broken}]}]};
// a stepped key is written "outTangent": null with "tangentMode": "constant". Deform tracks and key
// weights are not written. JSON.stringify(clip, null, 2) layout.
RIG2D_EXPORT std::string write_clip(const Clip& clip, KeyTangentMode mode = KeyTangentMode::Linear);

}  // namespace rig2d
