// SPDX-License-Identifier: Apache-2.0
// The engine's normalizeAnimationClip (src/runtime/animation/types.ts) over parsed JSON, plus the
// checks that turn its garbage-in cases (NaN times, string values) into located errors.
#include <algorithm>
#include <cmath>

#include "json/json_util.h"
#include "rig2d/anim/clip.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

using detail::Json;

class ClipReader {
 public:
  ClipReader(std::string_view text, const std::string& path, std::vector<Diagnostic>* warnings)
      : text_(text), path_(path), warnings_(warnings) {}

  Location at(const std::string& pointer) const {
    const auto [line, col] = detail::locate_pointer(text_, pointer);
    return Location{path_, pointer, line, col};
  }

  Unexpected fail(std::string code, std::string message, const std::string& pointer) const {
    return make_error(std::move(code), std::move(message), at(pointer));
  }

  void warn(std::string code, std::string message, const std::string& pointer) const {
    if (warnings_) warnings_->push_back({Severity::Warning, std::move(code), std::move(message), at(pointer)});
  }

  // `value ?? fallback` for a string member; other types keep the fallback (with a warning).
  std::string string_or(const Json& obj, const char* key, const char* fallback, const std::string& pointer) const {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return fallback;
    if (it->is_string()) return it->get<std::string>();
    warn("clip.type", std::string("\"") + key + "\" should be a string; using \"" + fallback + "\"",
         pointer + "/" + key);
    return fallback;
  }

  Result<Clip> read(const Json& root) const {
    if (!root.is_object()) return fail("clip.root", "an animation clip must be a JSON object", "");
    Clip clip;
    clip.id = string_or(root, "id", "", "");
    clip.name = string_or(root, "name", "Clip", "");
    if (const auto it = root.find("duration"); it != root.end()) {
      if (it->is_number()) clip.duration = it->get<double>();
      else if (!it->is_null()) warn("clip.type", "\"duration\" should be a number of seconds; using 1", "/duration");
    }
    if (const auto it = root.find("frameRate"); it != root.end() && it->is_number() && it->get<double>() > 0) {
      clip.frame_rate = it->get<double>();
    }
    if (const auto it = root.find("loop"); it != root.end()) clip.loop = js_truthy(*it);
    if (const auto it = root.find("tracks"); it != root.end()) {
      if (it->is_array()) {
        for (std::size_t i = 0; i < it->size(); ++i) {
          auto track = read_track((*it)[i], "/tracks/" + std::to_string(i));
          if (!track) return Unexpected{track.error()};
          clip.tracks.push_back(std::move(*track));
        }
      } else if (!it->is_null()) {
        warn("clip.type", "\"tracks\" should be an array; the clip has no tracks", "/tracks");
      }
    }
    if (const auto it = root.find("deformTracks"); it != root.end() && it->is_array()) {
      for (std::size_t i = 0; i < it->size(); ++i) {
        auto track = read_deform((*it)[i], "/deformTracks/" + std::to_string(i));
        if (!track) return Unexpected{track.error()};
        clip.deform_tracks.push_back(std::move(*track));
      }
    }
    return clip;
  }

 private:
  static bool js_truthy(const Json& v) {
    if (v.is_null()) return true;  // `loop ?? true`
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number()) {
      const double d = v.get<double>();
      return d != 0 && !std::isnan(d);
    }
    if (v.is_string()) return !v.get_ref<const std::string&>().empty();
    return true;
  }

  // normTangent: a finite slope or +inf is kept, anything else (null, strings, -inf) is flat.
  static double norm_tangent(const Json& obj, const char* key) {
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_number()) return 0;
    const double v = it->get<double>();
    return std::isfinite(v) || v == kStepped ? v : 0;
  }

  std::optional<double> weight(const Json& obj, const char* key, const std::string& pointer) const {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return std::nullopt;
    if (it->is_number()) return it->get<double>();
    warn("clip.type", std::string("\"") + key + "\" should be a number; using the default 1/3", pointer + "/" + key);
    return std::nullopt;
  }

  Result<Track> read_track(const Json& tr, const std::string& pointer) const {
    if (!tr.is_object()) return fail("clip.track", "a track must be an object {path, trait, field, type, keys}", pointer);
    Track track;
    for (const char* key : {"path", "trait", "field"}) {
      const auto it = tr.find(key);
      if (it != tr.end() && !it->is_null() && !it->is_string()) {
        return fail("clip.track", std::string("track \"") + key + "\" must be a string", pointer + "/" + key);
      }
    }
    track.path = string_or(tr, "path", "", pointer);
    track.trait = string_or(tr, "trait", "", pointer);
    track.field = string_or(tr, "field", "", pointer);
    const std::string type = string_or(tr, "type", "number", pointer);
    if (type == "number") track.type = TrackType::Number;
    else if (type == "color") track.type = TrackType::Color;
    else if (type == "boolean") track.type = TrackType::Boolean;
    else if (type == "enum") track.type = TrackType::Enum;
    else warn("clip.track.type", "unknown track type \"" + type + "\"; evaluated as a number track", pointer + "/type");
    const auto keys = tr.find("keys");
    if (keys == tr.end() || !keys->is_array()) return track;
    for (std::size_t k = 0; k < keys->size(); ++k) {
      const Json& key = (*keys)[k];
      const std::string kp = pointer + "/keys/" + std::to_string(k);
      if (!key.is_object()) return fail("clip.key", "a key must be an object {t, v, inTangent, outTangent}", kp);
      Keyframe f;
      const auto t = key.find("t");
      if (t == key.end() || !t->is_number() || !std::isfinite(t->get<double>())) {
        return fail("clip.key.time", "key time \"t\" must be a finite number of seconds", t == key.end() ? kp : kp + "/t");
      }
      f.t = t->get<double>();
      const auto v = key.find("v");
      if (v != key.end() && v->is_boolean()) {
        f.v = v->get<bool>() ? 1 : 0;
      } else if (v != key.end() && v->is_number()) {
        f.v = v->get<double>();
      } else {
        return fail("clip.key.value", "key value \"v\" must be a number (or a boolean)", v == key.end() ? kp : kp + "/v");
      }
      f.in_tangent = norm_tangent(key, "inTangent");
      const auto mode = key.find("tangentMode");
      const bool constant = mode != key.end() && mode->is_string() && mode->get_ref<const std::string&>() == "constant";
      f.out_tangent = constant ? kStepped : norm_tangent(key, "outTangent");
      f.in_weight = weight(key, "inWeight", kp);
      f.out_weight = weight(key, "outWeight", kp);
      track.keys.push_back(f);
    }
    std::stable_sort(track.keys.begin(), track.keys.end(),
                     [](const Keyframe& a, const Keyframe& b) { return a.t < b.t; });
    return track;
  }

  Result<DeformTrack> read_deform(const Json& dt, const std::string& pointer) const {
    if (!dt.is_object()) return fail("clip.track", "a deform track must be an object {path, part, keys}", pointer);
    DeformTrack track;
    track.path = string_or(dt, "path", "", pointer);
    track.part = string_or(dt, "part", "", pointer);
    const auto keys = dt.find("keys");
    if (keys == dt.end() || !keys->is_array()) return track;
    for (std::size_t k = 0; k < keys->size(); ++k) {
      const Json& key = (*keys)[k];
      const std::string kp = pointer + "/keys/" + std::to_string(k);
      if (!key.is_object()) return fail("clip.key", "a deform key must be an object {t, offsets}", kp);
      DeformKey d;
      if (const auto t = key.find("t"); t != key.end() && !t->is_null()) {
        if (!t->is_number() || !std::isfinite(t->get<double>())) {
          return fail("clip.key.time", "key time \"t\" must be a finite number of seconds", kp + "/t");
        }
        d.t = t->get<double>();
      }
      if (const auto off = key.find("offsets"); off != key.end() && off->is_array()) {
        if (off->size() > 2 * kMaxVertices) {
          return fail("clip.deform.offsets", "more offsets than 2 x the vertex limit", kp + "/offsets");
        }
        d.offsets.reserve(off->size());
        for (std::size_t i = 0; i < off->size(); ++i) {
          if (!(*off)[i].is_number()) {
            return fail("clip.deform.offsets", "deform offsets must be numbers (px)", kp + "/offsets/" + std::to_string(i));
          }
          d.offsets.push_back((*off)[i].get<double>());
        }
      }
      track.keys.push_back(std::move(d));
    }
    std::stable_sort(track.keys.begin(), track.keys.end(),
                     [](const DeformKey& a, const DeformKey& b) { return a.t < b.t; });
    return track;
  }

  std::string_view text_;
  const std::string& path_;
  std::vector<Diagnostic>* warnings_;
};

}  // namespace

Result<Clip> read_clip(std::string_view text, const std::string& path, std::vector<Diagnostic>* warnings) {
  auto json = detail::parse_json(text, path);
  if (!json) return Unexpected{json.error()};
  return ClipReader(text, path, warnings).read(*json);
}

Result<Clip> load_clip(const std::string& path, std::vector<Diagnostic>* warnings) {
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return Unexpected{text.error()};
  return read_clip(*text, path, warnings);
}

std::string write_clip(const Clip& clip, KeyTangentMode mode) {
  const char* finite_mode = mode == KeyTangentMode::Free ? "free" : "linear";
  Json tracks = Json::array();
  for (const Track& track : clip.tracks) {
    Json keys = Json::array();
    for (const Keyframe& k : track.keys) {
      Json key = {{"t", k.t}, {"v", k.v}, {"inTangent", k.in_tangent}};
      if (k.out_tangent == kStepped) {
        key["outTangent"] = nullptr;
        key["tangentMode"] = "constant";
      } else {
        key["outTangent"] = k.out_tangent;
        key["tangentMode"] = finite_mode;
      }
      key["broken"] = true;
      keys.push_back(std::move(key));
    }
    static const char* kTypes[] = {"number", "color", "boolean", "enum"};
    tracks.push_back({{"path", track.path},
                      {"trait", track.trait},
                      {"field", track.field},
                      {"type", kTypes[static_cast<int>(track.type)]},
                      {"keys", std::move(keys)}});
  }
  Json doc = {
      {"id", clip.id},     {"name", clip.name},          {"duration", clip.duration}, {"frameRate", clip.frame_rate},
      {"loop", clip.loop}, {"tracks", std::move(tracks)}};
  return detail::to_js_json(doc);
}

}  // namespace rig2d
