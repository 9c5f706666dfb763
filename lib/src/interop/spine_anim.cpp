// SPDX-License-Identifier: Apache-2.0
// Spine timelines are read the way the runtimes play them: before the first key the setup pose holds,
// linear and stepped segments are exact, and a Bézier segment is the runtimes' polyline through 9
// points at u = 0.1 .. 0.9 (CurveTimeline.setBezier/getBezierValue). Every channel is thus piecewise
// linear with jumps, so its breakpoints (key times + Bézier samples) give rig2d keys that replay it
// exactly; translate channels mix through the parent's setup transform on the union of breakpoints.
#include "interop/spine_anim.h"

#include <algorithm>
#include <cmath>

#include "rig2d/asset/guid.h"

namespace rig2d::interop {
namespace {

using detail::Json;

enum class Curve { Linear, Stepped, Bezier };

struct ChannelKey {
  double t = 0, v = 0;
  Curve curve = Curve::Linear;
  std::array<Vec2, 9> samples{};  // Bezier only
};

using Channel = std::vector<ChannelKey>;

[[noreturn]] void fail(const SpineAnimContext& ctx, std::string code, std::string message, const std::string& ptr) {
  throw ConvertFailure{ctx.src.fail(std::move(code), std::move(message), ptr).error};
}

double num(const SpineAnimContext& ctx, const Json& obj, const char* key, double fallback, const std::string& ptr) {
  const auto it = obj.find(key);
  if (it == obj.end()) return fallback;
  if (!it->is_number() || !std::isfinite(it->get<double>())) {
    fail(ctx, "spine.timeline", std::string("\"") + key + "\" must be a finite number", ptr + "/" + key);
  }
  return it->get<double>();
}

// Reads channel `channel` (0 = x / value, 1 = y) of a timeline whose keys hold `value_key`.
Channel read_channel(const SpineAnimContext& ctx, const Json& frames, const char* value_key, const char* alt_key,
                     int channel, const std::string& ptr) {
  if (!frames.is_array()) fail(ctx, "spine.timeline", "a timeline must be an array of keys", ptr);
  Channel keys;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const std::string kp = ptr + "/" + std::to_string(i);
    const Json& f = frames[i];
    if (!f.is_object()) fail(ctx, "spine.timeline", "a key must be an object", kp);
    ChannelKey k;
    k.t = num(ctx, f, "time", 0, kp);
    k.v = f.contains(value_key) ? num(ctx, f, value_key, 0, kp) : num(ctx, f, alt_key, 0, kp);
    if (!keys.empty() && k.t < keys.back().t) fail(ctx, "spine.timeline", "key times must not decrease", kp + "/time");
    keys.push_back(k);
  }
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto c = frames[i].find("curve");
    if (c == frames[i].end()) continue;
    const std::string cp = ptr + "/" + std::to_string(i) + "/curve";
    if (c->is_string() && c->get<std::string>() == "stepped") {
      keys[i].curve = Curve::Stepped;
    } else if (c->is_array()) {
      const std::size_t base = static_cast<std::size_t>(channel) * 4;
      if (c->size() < base + 4 || !std::all_of(c->begin(), c->end(), [](const Json& v) { return v.is_number(); })) {
        fail(ctx, "spine.timeline.curve", "a Bézier curve needs 4 numbers per value (cx1, cy1, cx2, cy2)", cp);
      }
      if (i + 1 >= keys.size()) continue;  // a curve on the last key shapes nothing
      keys[i].curve = Curve::Bezier;
      keys[i].samples = spine_bezier_samples(keys[i].t, keys[i].v, (*c)[base].get<double>(), (*c)[base + 1].get<double>(),
                                             (*c)[base + 2].get<double>(), (*c)[base + 3].get<double>(), keys[i + 1].t,
                                             keys[i + 1].v);
    } else {
      fail(ctx, "spine.timeline.curve", "\"curve\" must be \"stepped\" or an array of Bézier handles", cp);
    }
  }
  return keys;
}

// The segment's value at t (keys[i].t <= t <= keys[i+1].t).
double segment_value(const ChannelKey& a, const ChannelKey& b, double t) {
  if (a.curve == Curve::Stepped) return a.v;
  const auto lerp = [](Vec2 p, Vec2 q, double x) { return q.x > p.x ? p.y + (x - p.x) / (q.x - p.x) * (q.y - p.y) : q.y; };
  if (a.curve == Curve::Linear) return lerp({a.t, a.v}, {b.t, b.v}, t);
  Vec2 prev{a.t, a.v};
  for (const Vec2& s : a.samples) {
    if (s.x >= t) return lerp(prev, s, t);
    prev = s;
  }
  return lerp(prev, {b.t, b.v}, t);
}

// Value at t; `from_left` gives the limit just before t. Before the first key: the setup pose (0).
double channel_value(const Channel& keys, double t, bool from_left) {
  // Keys at or before t (strictly before when from_left), found by bisection: key times never
  // decrease, and a linear scan per breakpoint made long timelines quadratic.
  const auto before = [](const ChannelKey& k, double x) { return k.t < x; };
  const auto after = [](double x, const ChannelKey& k) { return x < k.t; };
  const std::size_t count = static_cast<std::size_t>(
      (from_left ? std::lower_bound(keys.begin(), keys.end(), t, before) : std::upper_bound(keys.begin(), keys.end(), t, after)) -
      keys.begin());
  if (count == 0) return 0;
  if (count == keys.size()) return keys.back().v;
  return segment_value(keys[count - 1], keys[count], t);
}

void add_breakpoints(const Channel& keys, std::vector<double>& times) {
  if (keys.empty()) return;
  times.push_back(0);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    times.push_back(keys[i].t);
    if (keys[i].curve == Curve::Bezier) {
      for (const Vec2& s : keys[i].samples) {
        if (s.x > keys[i].t && s.x < keys[i + 1].t) times.push_back(s.x);
      }
    }
  }
}

// Track of bind + sum(coef[c] * channel c) over the union of breakpoints. Empty when nothing moves it.
Track combine(const std::vector<const Channel*>& channels, const std::vector<double>& coef, double bind,
              const std::string& path, const std::string& field) {
  std::vector<double> times;
  for (std::size_t c = 0; c < channels.size(); ++c) {
    if (channels[c] && std::abs(coef[c]) > 1e-12) add_breakpoints(*channels[c], times);
  }
  Track track{path, "Transform", field, TrackType::Number, {}};
  if (times.empty()) return track;
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  std::vector<Breakpoint> points;
  for (double t : times) {
    Breakpoint p{t, bind, bind};
    for (std::size_t c = 0; c < channels.size(); ++c) {
      if (!channels[c] || std::abs(coef[c]) <= 1e-12) continue;
      p.left += coef[c] * channel_value(*channels[c], t, true);
      p.right += coef[c] * channel_value(*channels[c], t, false);
    }
    points.push_back(p);
  }
  track.keys = keys_from_breakpoints(points);
  return track;
}

double max_time(const Json& v) {
  double t = 0;
  if (v.is_object()) {
    if (auto it = v.find("time"); it != v.end() && it->is_number()) t = it->get<double>();
    for (const auto& item : v) t = std::max(t, max_time(item));
  } else if (v.is_array()) {
    for (const auto& item : v) t = std::max(t, max_time(item));
  }
  return std::isfinite(t) ? t : 0;
}

void bone_timelines(SpineAnimContext& ctx, const std::string& anim, const Json& bones, const std::string& ptr,
                    const std::vector<std::string>& paths, Clip& clip) {
  if (!bones.is_object()) fail(ctx, "spine.timeline", "\"bones\" must be an object", ptr);
  for (const auto& [bone_name, timelines] : bones.items()) {
    const std::string bp = ptr + "/" + detail::pointer_token(bone_name);
    const auto bi = ctx.bone_index.find(bone_name);
    if (bi == ctx.bone_index.end()) fail(ctx, "spine.timeline.bone", "no bone named \"" + bone_name + "\"", bp);
    if (!timelines.is_object()) fail(ctx, "spine.timeline", "a bone's timelines must be an object", bp);
    const std::size_t b = static_cast<std::size_t>(bi->second);
    const Bone& bone = ctx.rig.bones[b];
    std::optional<Channel> rotate, tx, ty;
    for (const auto& [kind, frames] : timelines.items()) {
      const std::string tp = bp + "/" + detail::pointer_token(kind);
      if (kind == "rotate") rotate = read_channel(ctx, frames, "value", "angle", 0, tp);
      else if (kind == "translate") tx = read_channel(ctx, frames, "x", "x", 0, tp), ty = read_channel(ctx, frames, "y", "y", 1, tp);
      else if (kind == "translatex") tx = read_channel(ctx, frames, "value", "x", 0, tp);
      else if (kind == "translatey") ty = read_channel(ctx, frames, "value", "y", 0, tp);
      else {
        warn(ctx.diagnostics, "convert.spine.anim.timeline",
             "animation \"" + anim + "\": bone \"" + bone_name + "\" " + kind + " timeline is not imported (rig2d clips carry "
             "bone rotation and translation only)", ctx.src.at(tp));
      }
    }
    const bool parent_rigid = bone.parent < 0 || ctx.rigid[static_cast<std::size_t>(bone.parent)];
    if ((rotate || tx || ty) && (!ctx.rigid[b] || !parent_rigid)) {
      warn(ctx.diagnostics, "convert.spine.anim.nonrigid",
           "animation \"" + anim + "\": bone \"" + bone_name + "\" or its parent has setup scale or shear, so its keys are "
           "mapped through the setup transform and posed results can differ from Spine", ctx.src.at(bp));
    }
    if (rotate) {
      Track t = combine({&*rotate}, {-deg_to_rad(1)}, bone.rot, paths[b], "rz");
      if (!t.keys.empty()) clip.tracks.push_back(std::move(t));
    }
    if (tx || ty) {
      // rig delta = R(-parent rig rotation) * flipY * P * spine delta.
      double parent_rot = 0;
      for (std::int64_t p = bone.parent; p >= 0; p = ctx.rig.bones[static_cast<std::size_t>(p)].parent) {
        parent_rot += ctx.rig.bones[static_cast<std::size_t>(p)].rot;
      }
      const auto& P = ctx.parent_linear[b];
      const double m00 = P[0], m01 = P[1], m10 = -P[2], m11 = -P[3];  // flipY * P
      const double c = std::cos(parent_rot), s = std::sin(parent_rot);
      const double l00 = c * m00 + s * m10, l01 = c * m01 + s * m11, l10 = -s * m00 + c * m10, l11 = -s * m01 + c * m11;
      const Channel* X = tx ? &*tx : nullptr;
      const Channel* Y = ty ? &*ty : nullptr;
      Track x = combine({X, Y}, {l00, l01}, bone.x, paths[b], "x");
      Track y = combine({X, Y}, {l10, l11}, bone.y, paths[b], "y");
      if (!x.keys.empty()) clip.tracks.push_back(std::move(x));
      if (!y.keys.empty()) clip.tracks.push_back(std::move(y));
    }
  }
}

}  // namespace

std::array<Vec2, 9> spine_bezier_samples(double t0, double v0, double cx1, double cy1, double cx2, double cy2, double t1,
                                         double v1) {
  std::array<Vec2, 9> out{};
  for (int k = 1; k <= 9; ++k) {
    const double u = k / 10.0, w = 1 - u;
    const double b0 = w * w * w, b1 = 3 * w * w * u, b2 = 3 * w * u * u, b3 = u * u * u;
    out[static_cast<std::size_t>(k - 1)] = {b0 * t0 + b1 * cx1 + b2 * cx2 + b3 * t1, b0 * v0 + b1 * cy1 + b2 * cy2 + b3 * v1};
  }
  return out;
}

Clip spine_animation_to_clip(SpineAnimContext& ctx, const std::string& name, const Json& anim, const std::string& rig_id) {
  const std::string ptr = "/animations/" + detail::pointer_token(name);
  if (!anim.is_object()) fail(ctx, "spine.animation", "an animation must be an object", ptr);
  Clip clip;
  clip.id = uuid_v5(rig_id.empty() ? std::string(kRigIdNamespace) : rig_id, "clip:" + name);
  clip.name = name;
  clip.duration = max_time(anim);
  clip.frame_rate = 30;
  clip.loop = true;
  const std::vector<std::string> paths = bone_paths(ctx.rig);
  for (const auto& [kind, value] : anim.items()) {
    const std::string kp = ptr + "/" + detail::pointer_token(kind);
    if (kind == "bones") {
      bone_timelines(ctx, name, value, kp, paths, clip);
    } else {
      const bool deform = kind == "deform" || kind == "attachments";
      const bool slots = kind == "slots", order = kind == "drawOrder" || kind == "draworder", events = kind == "events";
      const char* what = deform ? "deform/attachment timelines"
                         : slots ? "slot timelines (colour, attachment switches)"
                         : order ? "draw order changes"
                         : events ? "events"
                                  : "constraint timelines";
      const char* code = deform ? "convert.spine.anim.deform"
                         : slots ? "convert.spine.anim.slots"
                         : order ? "convert.spine.anim.draw_order"
                         : events ? "convert.spine.anim.events"
                                  : "convert.spine.anim.constraint";
      warn(ctx.diagnostics, code,
           "animation \"" + name + "\": " + what + " are not imported", ctx.src.at(kp));
    }
  }
  return clip;
}

}  // namespace rig2d::interop
