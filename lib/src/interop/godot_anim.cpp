// SPDX-License-Identifier: Apache-2.0
// Rig clips -> Godot 4 Animation resources. A Bone2D's position, rotation and scale are its local
// transform in the parent's frame, y down, radians: what the rig's x / y / rz / sx / sy tracks hold,
// so key values carry over as they are (the Bone2D rest is written from the same numbers). Godot
// value tracks interpolate linearly between keys, so linear segments stay two keys, a stepped key
// gets transition 0 (Godot's ease curve 0 holds the key's value), and a curved segment becomes linear
// keys sampled from the engine's own Bezier evaluation, as finely as it takes to follow it.
#include "interop/godot_anim.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <span>

#include "interop/common.h"
#include "json/json_util.h"
#include "rig2d/anim/curve.h"

namespace rig2d::interop {
namespace {

// A Godot key: time, value, and the transition (ease) of the segment that starts at it.
struct GodotKey {
  double t = 0, v = 0, transition = 1;
};

// Largest distance, in value units (radians, px), a sampled curve may stray from the engine's curve at
// the middle of a sample interval; and the most samples a segment gets.
constexpr double kCurveTolerance = 1e-3;
constexpr int kMaxSamples = 32;

// A float in Godot's Variant text: an integral value keeps a ".0" so it reads back as a float.
std::string godot_float(double v) {
  std::string s = detail::js_number(v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// Samples over [a, b] (a two-key span: the engine's curve there depends on these keys only) until
// the midpoints of the pieces lie within kCurveTolerance of the curve.
int samples_for(std::span<const Keyframe> ab) {
  const double t0 = ab[0].t, dt = ab[1].t - ab[0].t;
  for (int n = 2; n < kMaxSamples; n *= 2) {
    double worst = 0;
    for (int k = 0; k < n; ++k) {
      const double ta = t0 + dt * k / n, tb = t0 + dt * (k + 1) / n;
      const double mid = (eval_number_track(ab, ta) + eval_number_track(ab, tb)) / 2;
      worst = std::max(worst, std::abs(eval_number_track(ab, (ta + tb) / 2) - mid));
    }
    if (worst <= kCurveTolerance) return n;
  }
  return kMaxSamples;
}

std::vector<GodotKey> godot_keys(const Track& track) {
  std::vector<GodotKey> out;
  const std::vector<Keyframe>& keys = track.keys;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Keyframe& a = keys[i];
    if (i + 1 == keys.size() || !std::isfinite(a.out_tangent)) {
      out.push_back({a.t, a.v, i + 1 == keys.size() ? 1.0 : 0.0});  // 0: hold until the next key
      continue;
    }
    out.push_back({a.t, a.v, 1});
    const Keyframe& b = keys[i + 1];
    const double dt = b.t - a.t;
    if (!(dt > 0)) continue;
    // Handles on the chord make the Bezier the chord itself, whatever their lengths.
    const double slope = (b.v - a.v) / dt;
    if (std::abs(a.out_tangent - slope) < 1e-9 && std::abs(b.in_tangent - slope) < 1e-9) continue;
    const std::span<const Keyframe> ab(&keys[i], 2);
    const int n = samples_for(ab);
    for (int k = 1; k < n; ++k) {
      const double t = a.t + dt * k / n;
      out.push_back({t, eval_number_track(ab, t), 1});
    }
  }
  return out;
}

// The Bone2D property a Transform field drives; "" when it has none.
const char* godot_property(const std::string& field) {
  if (field == "rz") return "rotation";
  if (field == "x") return "position:x";
  if (field == "y") return "position:y";
  if (field == "sx") return "scale:x";
  if (field == "sy") return "scale:y";
  return "";
}

std::string value_track(std::size_t index, const std::string& node_path, const std::vector<GodotKey>& keys) {
  const std::string p = "tracks/" + std::to_string(index) + "/";
  std::string times, transitions, values;
  for (const GodotKey& k : keys) {
    const char* sep = times.empty() ? "" : ", ";
    times += sep + detail::js_number(k.t);
    transitions += sep + detail::js_number(k.transition);
    values += sep + godot_float(k.v);
  }
  // loop_wrap off: the engine holds the last key to the end of a loop, it does not blend into the first.
  return p + "type = \"value\"\n" + p + "imported = false\n" + p + "enabled = true\n" + p + "path = NodePath(" +
         godot_quote(node_path) + ")\n" + p + "interp = 1\n" + p + "loop_wrap = false\n" + p +
         "keys = {\n\"times\": PackedFloat32Array(" + times + "),\n\"transitions\": PackedFloat32Array(" + transitions +
         "),\n\"update\": 0,\n\"values\": [" + values + "]\n}\n";
}

// One clip's Animation section.
std::string animation_section(const Clip& clip, const std::string& id, const std::vector<std::string>& paths,
                      const std::vector<std::string>& bone_nodes, std::vector<Diagnostic>& diagnostics) {
  std::string tracks;
  std::size_t count = 0;
  double last_key = 0;
  for (const Track& track : clip.tracks) {
    const auto it = std::find(paths.begin(), paths.end(), track.path);
    const char* property = godot_property(track.field);
    if (it == paths.end() || track.trait != "Transform" || !*property || track.type != TrackType::Number) {
      warn(diagnostics, "convert.godot.export.track",
           "clip \"" + clip.name + "\": track \"" + track.path + "\" " + track.trait + "." + track.field +
               " has no Godot counterpart (bone x, y, rz, sx, sy only): left out",
           {});
      continue;
    }
    if (track.keys.empty()) continue;
    last_key = std::max(last_key, track.keys.back().t);
    const std::string node = "Skeleton2D/" + bone_nodes[static_cast<std::size_t>(it - paths.begin())];
    tracks += value_track(count++, node + ":" + property, godot_keys(track));
  }
  if (!clip.deform_tracks.empty()) {
    warn(diagnostics, "convert.godot.export.deform", "clip \"" + clip.name + "\": deform tracks are not exported", {});
  }
  // Godot's length must be positive; a clip without a usable duration plays its keys once.
  const double length = std::isfinite(clip.duration) && clip.duration > 0 ? clip.duration : std::max(last_key, 0.001);
  std::string out = "[sub_resource type=\"Animation\" id=" + godot_quote(id) + "]\n";
  out += "resource_name = " + godot_quote(clip.name) + "\n";
  out += "length = " + godot_float(length) + "\n";
  if (clip.loop) out += "loop_mode = 1\n";
  return out + tracks + "\n";
}

}  // namespace

std::string godot_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') out += "\\n";
    else out += c;
  }
  return out + "\"";
}

GodotAnimations godot_animations(const Rig& rig, const std::vector<std::string>& bone_nodes,
                                 const std::vector<Clip>& clips, std::vector<Diagnostic>& diagnostics) {
  GodotAnimations out;
  if (clips.empty()) return out;
  const std::vector<std::string> paths = bone_paths(rig);
  std::map<std::string, int> used;  // library keys must differ: a repeated clip name gets _2, _3...
  std::string library;
  for (std::size_t i = 0; i < clips.size(); ++i) {
    const std::string id = "Animation_" + std::to_string(i + 1);
    out.sub_resources += animation_section(clips[i], id, paths, bone_nodes, diagnostics);
    const std::string base = clips[i].name.empty() ? "animation" : clips[i].name;
    std::string name = base;
    for (int n = 2; used.count(name); ++n) name = base + "_" + std::to_string(n);
    used[name] = 1;
    library += godot_quote(name) + ": SubResource(" + godot_quote(id) + ")" + (i + 1 < clips.size() ? ",\n" : "\n");
  }
  out.sub_resources += "[sub_resource type=\"AnimationLibrary\" id=\"AnimationLibrary_1\"]\n_data = {\n" + library + "}\n\n";
  out.count = clips.size() + 1;
  out.player = "\n[node name=\"AnimationPlayer\" type=\"AnimationPlayer\" parent=\".\"]\nlibraries = {\n\"\": "
               "SubResource(\"AnimationLibrary_1\")\n}\n";
  return out;
}

}  // namespace rig2d::interop
