// SPDX-License-Identifier: Apache-2.0
// Keyframe curve evaluation exactly as the engine's curveEval / sampleClip (ENGINE-SPEC §1.6):
// same branches, same expression order, same iteration limits, so results match bit for bit.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/export.h"

namespace rig2d {

// Index of the last key with t <= time (binary search over sorted keys), -1 before the first key.
RIG2D_EXPORT int find_key_index(std::span<const Keyframe> keys, double time);

// Number track: 0 keys -> 0, clamped outside the key range, stepped after a key whose out tangent
// is not finite, else a weighted cubic Bezier in (time, value) solved for time by Newton steps with
// a bisection fallback (24 iterations, |err| < 1e-7).
RIG2D_EXPORT double eval_number_track(std::span<const Keyframe> keys, double time);
// Packed 0xRRGGBB: per-channel lerp with Math.round, stepped like numbers; 0 keys -> 0xFFFFFF.
RIG2D_EXPORT double eval_color_track(std::span<const Keyframe> keys, double time);
// Always stepped; returns 0 or 1 (the most recent key's truthiness). 0 keys -> 0.
RIG2D_EXPORT double eval_boolean_track(std::span<const Keyframe> keys, double time);
// Always stepped; returns the most recent key's raw value (an enum option index). 0 keys -> 0.
RIG2D_EXPORT double eval_stepped_track(std::span<const Keyframe> keys, double time);
// Dispatches on track.type (the engine's evalTrackValue).
RIG2D_EXPORT double eval_track(const Track& track, double time);

// Deform offsets at `time`: linear between the bracketing keys, held outside; float32-rounded.
// nullopt for a track with no keys. Length = the shorter of the two bracketing keys' offsets.
RIG2D_EXPORT std::optional<std::vector<double>> eval_deform_track(const DeformTrack& track, double time);

// The engine's advanceClipTime: time + dt, then 0 if duration <= 0, wrapped into [0, duration) when
// looping (fmod, negatives shifted up), else clamped to [0, duration]. Seconds.
RIG2D_EXPORT double advance_clip_time(double time, double dt, double duration, bool loop);

// Crossfade helpers (blendField): w = weight of `to` (0..1).
RIG2D_EXPORT double blend_number(double from, double to, double w);
// Shortest arc in radians: d = fmod(to - from, 2pi) folded into [-pi, pi], from + d * w.
RIG2D_EXPORT double blend_angle(double from, double to, double w);
// Per-channel lerp of packed 0xRRGGBB with Math.round.
RIG2D_EXPORT double blend_color(double from, double to, double w);
// Boolean / enum: `to` when w >= 0.5.
RIG2D_EXPORT double blend_discrete(double from, double to, double w);

// JS ToInt32 (truncate, wrap mod 2^32), used by `v | 0` on colors. NaN and infinities give 0.
RIG2D_EXPORT std::int32_t js_to_int32(double v);

}  // namespace rig2d
