// SPDX-License-Identifier: Apache-2.0
// A line-for-line port of the engine's curveEval.ts / sampleClip.ts helpers. Expression order is
// kept exactly (the build has -ffp-contract=off), so every result matches V8 bit for bit.
#include "rig2d/anim/curve.h"

#include <cmath>

#include "anim/js_truthy.h"
#include "rig2d/core/affine.h"
#include "rig2d/core/types.h"

namespace rig2d {
namespace {

double clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

// Cubic Bezier scalar and its derivative, in the engine's term order.
double bezier(double p0, double p1, double p2, double p3, double u) {
  const double m = 1 - u;
  return m * m * m * p0 + 3 * m * m * u * p1 + 3 * m * u * u * p2 + u * u * u * p3;
}

double bezier_deriv(double p0, double p1, double p2, double p3, double u) {
  const double m = 1 - u;
  return 3 * (m * m * (p1 - p0) + 2 * m * u * (p2 - p1) + u * u * (p3 - p2));
}

double eval_segment(const Keyframe& a, const Keyframe& b, double time) {
  const double dt = b.t - a.t;
  if (dt <= 0) return b.v;
  const double m_a = std::isfinite(a.out_tangent) ? a.out_tangent : 0;
  const double m_b = std::isfinite(b.in_tangent) ? b.in_tangent : 0;
  double w_a = clamp(a.out_weight.value_or(kDefaultTangentWeight), 0, 0.999);
  double w_b = clamp(b.in_weight.value_or(kDefaultTangentWeight), 0, 0.999);
  // Two heavy handles would make x(u) non-monotonic; the engine scales both down together.
  const double w_sum = w_a + w_b;
  if (w_sum > 1) {
    const double s = 1 / w_sum;
    w_a *= s;
    w_b *= s;
  }
  const double x1 = w_a * dt;
  const double x2 = dt - w_b * dt;
  const double y0 = a.v;
  const double y1 = a.v + m_a * (w_a * dt);
  const double y2 = b.v - m_b * (w_b * dt);
  const double y3 = b.v;

  // x(u) is increasing on [0,1]: Newton inside a shrinking bracket, bisecting when a step escapes.
  const double target_x = time - a.t;
  double lo = 0;
  double hi = 1;
  double u = clamp(target_x / dt, 0, 1);
  for (int i = 0; i < 24; ++i) {
    const double x = bezier(0, x1, x2, dt, u) - target_x;
    if (std::fabs(x) < 1e-7) break;
    if (x < 0) lo = u;
    else hi = u;
    const double dx = bezier_deriv(0, x1, x2, dt, u);
    double next = dx > 1e-12 ? u - x / dx : (lo + hi) / 2;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    u = next;
  }
  return bezier(y0, y1, y2, y3, u);
}

// (r << 16) | (g << 8) | b on JS int32 values.
double pack_rgb(double r, double g, double b) {
  const auto ur = static_cast<std::uint32_t>(js_to_int32(r));
  const auto ug = static_cast<std::uint32_t>(js_to_int32(g));
  const auto ub = static_cast<std::uint32_t>(js_to_int32(b));
  return static_cast<double>(static_cast<std::int32_t>((ur << 16) | (ug << 8) | ub));
}

double channel(double packed, int shift) { return static_cast<double>((js_to_int32(packed) >> shift) & 0xff); }

double lerp(double a, double b, double t) { return a + (b - a) * t; }

}  // namespace

std::int32_t js_to_int32(double v) {
  if (!std::isfinite(v)) return 0;
  const double t = std::trunc(v);
  double m = std::fmod(t, 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(m));
}

int find_key_index(std::span<const Keyframe> keys, double time) {
  int lo = 0;
  int hi = static_cast<int>(keys.size()) - 1;
  int res = -1;
  while (lo <= hi) {
    const int mid = (lo + hi) >> 1;
    if (keys[static_cast<std::size_t>(mid)].t <= time) {
      res = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return res;
}

double eval_number_track(std::span<const Keyframe> keys, double time) {
  const std::size_t n = keys.size();
  if (n == 0) return 0;
  if (n == 1) return keys[0].v;
  if (time <= keys[0].t) return keys[0].v;
  const Keyframe& last = keys[n - 1];
  if (time >= last.t) return last.v;
  const auto i = static_cast<std::size_t>(find_key_index(keys, time));
  const Keyframe& left = keys[i];
  const Keyframe& right = keys[i + 1];
  if (!std::isfinite(left.out_tangent)) return left.v;  // stepped
  const double dt = right.t - left.t;
  if (dt <= 0) return right.v;
  return eval_segment(left, right, time);
}

double eval_color_track(std::span<const Keyframe> keys, double time) {
  const std::size_t n = keys.size();
  if (n == 0) return 0xffffff;
  if (n == 1) return js_to_int32(keys[0].v);
  if (time <= keys[0].t) return js_to_int32(keys[0].v);
  const Keyframe& last = keys[n - 1];
  if (time >= last.t) return js_to_int32(last.v);
  const auto i = static_cast<std::size_t>(find_key_index(keys, time));
  const Keyframe& a = keys[i];
  const Keyframe& b = keys[i + 1];
  if (!std::isfinite(a.out_tangent)) return js_to_int32(a.v);
  const double dt = b.t - a.t;
  const double f = dt <= 0 ? 0 : (time - a.t) / dt;
  const double r = js_to_int32(js_round(lerp(channel(a.v, 16), channel(b.v, 16), f))) & 0xff;
  const double g = js_to_int32(js_round(lerp(channel(a.v, 8), channel(b.v, 8), f))) & 0xff;
  const double bl = js_to_int32(js_round(lerp(channel(a.v, 0), channel(b.v, 0), f))) & 0xff;
  return pack_rgb(r, g, bl);
}

double eval_boolean_track(std::span<const Keyframe> keys, double time) {
  if (keys.empty()) return 0;
  if (time < keys[0].t) return detail::js_number_truthy(keys[0].v) ? 1 : 0;
  return detail::js_number_truthy(keys[static_cast<std::size_t>(find_key_index(keys, time))].v) ? 1 : 0;
}

double eval_stepped_track(std::span<const Keyframe> keys, double time) {
  if (keys.empty()) return 0;
  if (time < keys[0].t) return keys[0].v;
  return keys[static_cast<std::size_t>(find_key_index(keys, time))].v;
}

double eval_track(const Track& track, double time) {
  switch (track.type) {
    case TrackType::Color: return eval_color_track(track.keys, time);
    case TrackType::Boolean: return eval_boolean_track(track.keys, time);
    case TrackType::Enum: return eval_stepped_track(track.keys, time);
    case TrackType::Number: break;
  }
  return eval_number_track(track.keys, time);
}

std::optional<std::vector<double>> eval_deform_track(const DeformTrack& track, double time) {
  const auto& keys = track.keys;
  const std::size_t n = keys.size();
  if (n == 0) return std::nullopt;
  auto rounded = [](const std::vector<double>& v) {
    std::vector<double> out(v.size());
    for (std::size_t k = 0; k < v.size(); ++k) out[k] = round_to_float(v[k]);
    return out;
  };
  if (n == 1 || time <= keys[0].t) return rounded(keys[0].offsets);
  if (time >= keys[n - 1].t) return rounded(keys[n - 1].offsets);
  // Same search as find_key_index, on the deform keys' times.
  int lo = 0, hi = static_cast<int>(n) - 1, res = -1;
  while (lo <= hi) {
    const int mid = (lo + hi) >> 1;
    if (keys[static_cast<std::size_t>(mid)].t <= time) {
      res = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  const DeformKey& a = keys[static_cast<std::size_t>(res)];
  const DeformKey& b = keys[static_cast<std::size_t>(res) + 1];
  const double dt = b.t - a.t;
  const double f = dt <= 0 ? 0 : (time - a.t) / dt;
  const std::size_t len = std::min(a.offsets.size(), b.offsets.size());
  std::vector<double> out(len);
  for (std::size_t k = 0; k < len; ++k) out[k] = round_to_float(a.offsets[k] + (b.offsets[k] - a.offsets[k]) * f);
  return out;
}

double advance_clip_time(double time, double dt, double duration, bool loop) {
  double t = time + dt;
  if (duration <= 0) return 0;
  if (loop) {
    t = std::fmod(t, duration);
    if (t < 0) t += duration;
    return t;
  }
  return t < 0 ? 0 : t > duration ? duration : t;
}

double blend_number(double from, double to, double w) { return from + (to - from) * w; }

double blend_angle(double from, double to, double w) {
  constexpr double kPi = 3.141592653589793;
  constexpr double kTwoPi = kPi * 2;
  double d = std::fmod(to - from, kTwoPi);
  if (d > kPi) d -= kTwoPi;
  else if (d < -kPi) d += kTwoPi;
  return from + d * w;
}

double blend_color(double from, double to, double w) {
  const double ar = channel(from, 16), ag = channel(from, 8), ab = channel(from, 0);
  const double br = channel(to, 16), bg = channel(to, 8), bb = channel(to, 0);
  const double r = js_round(ar + (br - ar) * w);
  const double g = js_round(ag + (bg - ag) * w);
  const double bl = js_round(ab + (bb - ab) * w);
  return pack_rgb(r, g, bl);
}

double blend_discrete(double from, double to, double w) { return w >= 0.5 ? to : from; }

}  // namespace rig2d
