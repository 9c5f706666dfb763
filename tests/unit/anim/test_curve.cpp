// SPDX-License-Identifier: Apache-2.0
// Curve evaluation against ENGINE-SPEC §5.8 (sampleClip.test.ts, curveEval.test.ts, computed extras)
// and §5.3 (deform tracks). Exact values are V8's outputs; `==` is intended.
#include <catch2/catch.hpp>
#include <cmath>

#include "rig2d/anim/curve.h"
#include "support/test_math.h"

using namespace rig2d;
using Catch::Matchers::WithinAbs;

namespace {

Keyframe flat(double t, double v) { return Keyframe{t, v, 0, 0, std::nullopt, std::nullopt}; }

std::vector<Keyframe> ramp010() { return {flat(0, 0), flat(1, 10)}; }
}  // namespace

TEST_CASE("curve: flat tangents with default weights are smoothstep (computed extras)", "[anim]") {
  const auto keys = ramp010();
  CHECK(eval_number_track(keys, 0.1) == 0.28);
  CHECK(eval_number_track(keys, 0.25) == 1.5625);
  CHECK(eval_number_track(keys, 0.5) == 5);
  CHECK(eval_number_track(keys, 0.75) == 8.4375);
  CHECK(eval_number_track(keys, 0.9) == 9.72);
  const std::vector<Keyframe> hundred{flat(0, 0), flat(1, 100)};
  CHECK(eval_number_track(hundred, 0.25) == 15.625);
  // smoothstep closed form, away from the sampled points too
  for (double t = 0.05; t < 1; t += 0.1) {
    CHECK_THAT(eval_number_track(keys, t), WithinAbs(10 * (3 * t * t - 2 * t * t * t), 1e-6));
  }
}

TEST_CASE("curve: heavy left out-weight bends the segment (computed extra)", "[anim]") {
  auto keys = ramp010();
  keys[0].out_weight = 0.9;
  CHECK(eval_number_track(keys, 0.5) == 2.3095006386016763);
}

TEST_CASE("curve: secant tangents make a straight line (computed extra)", "[anim]") {
  std::vector<Keyframe> keys{{0, 0, 10, 10}, {1, 10, 10, 10}};
  CHECK(eval_number_track(keys, 0.25) == 2.5);
}

TEST_CASE("curve: weights summing over 1 stay monotonic within the key values", "[anim]") {
  std::vector<Keyframe> keys{{0, 0, 0, 10, std::nullopt, 0.9}, {1, 10, 10, 0, 0.9, std::nullopt}};
  double prev = -1;
  for (int i = 0; i <= 1000; ++i) {
    const double v = eval_number_track(keys, i / 1000.0);
    CHECK(v >= 0);
    CHECK(v <= 10);
    CHECK(v >= prev);
    prev = v;
  }
}

TEST_CASE("curve: clamping, single key, empty track, zero-length segment", "[anim]") {
  const auto keys = ramp010();
  CHECK(eval_number_track(keys, -3) == 0);
  CHECK(eval_number_track(keys, 7) == 10);
  CHECK(eval_number_track(std::vector<Keyframe>{flat(2, 42)}, 0) == 42);
  CHECK(eval_number_track(std::vector<Keyframe>{}, 0) == 0);
  // Two keys at the same time: the first key wins at its time, the last one after it.
  const std::vector<Keyframe> same{flat(1, 3), flat(1, 5)};
  CHECK(eval_number_track(same, 1) == 3);
  CHECK(eval_number_track(same, 1.5) == 5);
}

TEST_CASE("curve: findKeyIndex (curveEval.test.ts)", "[anim]") {
  const std::vector<Keyframe> keys{flat(0, 0), flat(1, 0), flat(2, 0)};
  CHECK(find_key_index(keys, -0.5) == -1);
  CHECK(find_key_index(keys, 0) == 0);
  CHECK(find_key_index(keys, 1.5) == 1);
  CHECK(find_key_index(keys, 5) == 2);
}

TEST_CASE("curve: a stepped out tangent holds until the next key (curveEval.test.ts)", "[anim]") {
  std::vector<Keyframe> keys{{0, 0, 0, kStepped}, flat(1, 100)};
  CHECK(eval_number_track(keys, 0) == 0);
  CHECK(eval_number_track(keys, 0.5) == 0);
  CHECK(eval_number_track(keys, 0.99) == 0);
  CHECK(eval_number_track(keys, 1) == 100);
}

TEST_CASE("curve: color tracks lerp per channel with Math.round (spec 5.8 #7, extras)", "[anim]") {
  const std::vector<Keyframe> grey{flat(0, 0x000000), flat(1, 0xffffff)};
  CHECK(eval_color_track(grey, 0.5) == 0x808080);
  const std::vector<Keyframe> rg{flat(0, 0xff0000), flat(1, 0x00ff00)};
  CHECK(eval_color_track(rg, 0.5) == 0x808000);
  CHECK(eval_color_track(std::vector<Keyframe>{}, 0.5) == 0xffffff);
  CHECK(eval_color_track(rg, -1) == 0xff0000);
  CHECK(eval_color_track(rg, 2) == 0x00ff00);
  std::vector<Keyframe> stepped{{0, 0xff0000, 0, kStepped}, flat(1, 0x0000ff)};
  CHECK(eval_color_track(stepped, 0.7) == 0xff0000);
}

TEST_CASE("curve: boolean tracks are stepped 0/1 (curveEval.test.ts)", "[anim]") {
  const std::vector<Keyframe> keys{flat(0, 0), flat(1, 1), flat(2, 0)};
  CHECK(eval_boolean_track(keys, 0.5) == 0);
  CHECK(eval_boolean_track(keys, 1) == 1);
  CHECK(eval_boolean_track(keys, 1.9) == 1);
  CHECK(eval_boolean_track(keys, 2) == 0);
  CHECK(eval_boolean_track(std::vector<Keyframe>{flat(1, 5)}, 0) == 1);  // before the first key
}

TEST_CASE("curve: enum tracks hold the raw index (spec 5.8 #8, curveEval.test.ts)", "[anim]") {
  const std::vector<Keyframe> two{flat(0, 0), flat(1, 2)};
  CHECK(eval_stepped_track(two, 0) == 0);
  CHECK(eval_stepped_track(two, 0.4) == 0);
  CHECK(eval_stepped_track(two, 1) == 2);
  const std::vector<Keyframe> keys{flat(0, 0), flat(1, 2), flat(2, 1)};
  CHECK(eval_stepped_track(keys, 0.5) == 0);
  CHECK(eval_stepped_track(keys, 1) == 2);
  CHECK(eval_stepped_track(keys, 1.9) == 2);
  CHECK(eval_stepped_track(keys, 2) == 1);
}

TEST_CASE("curve: eval_track dispatches on the type", "[anim]") {
  Track t;
  t.keys = {flat(0, 0x000000), flat(1, 0xffffff)};
  t.type = TrackType::Color;
  CHECK(eval_track(t, 0.5) == 0x808080);
  t.type = TrackType::Number;
  CHECK(eval_track(t, 0.5) == 0xffffff / 2.0);
}

TEST_CASE("curve: advanceClipTime (spec 5.8 #21-#26)", "[anim]") {
  CHECK(advance_clip_time(1.9, 0.2, 2, true) == 0.10000000000000009);
  CHECK_THAT(advance_clip_time(0, -0.1, 2, true), WithinAbs(1.9, 1e-12));
  CHECK(advance_clip_time(1.9, 0.5, 2, false) == 2);
  CHECK(advance_clip_time(0, -0.5, 2, false) == 0);
  CHECK_THAT(advance_clip_time(0, 5, 2, true), WithinAbs(1, 1e-12));
  CHECK_THAT(advance_clip_time(0.5, 4, 2, true), WithinAbs(0.5, 1e-12));
  const double wrapped = advance_clip_time(0, -5, 2, true);
  CHECK_THAT(wrapped, WithinAbs(1, 1e-12));
  CHECK(wrapped >= 0);
  CHECK(wrapped < 2);
  CHECK(advance_clip_time(0, 100, 2, false) == 2);
  CHECK(advance_clip_time(2, -100, 2, false) == 0);
  CHECK(advance_clip_time(1, 0.5, 0, true) == 0);
  CHECK(advance_clip_time(1, 0.5, -3, false) == 0);
  CHECK(advance_clip_time(2, 0, 2, true) == 0);
}

TEST_CASE("curve: crossfade blend helpers (spec 5.8 #14-#18)", "[anim]") {
  CHECK(blend_number(0, 100, 0.5) == 50);
  CHECK(blend_number(20, 80, 0) == 20);
  CHECK(blend_number(20, 80, 1) == 80);
  CHECK(blend_angle(170 * kPi / 180, -170 * kPi / 180, 0.5) == 3.141592653589793);
  CHECK(blend_color(0xff0000, 0x0000ff, 0.5) == 0x800080);
  CHECK(blend_discrete(0, 2, 0.4) == 0);
  CHECK(blend_discrete(0, 2, 0.6) == 2);
}

TEST_CASE("curve: JS ToInt32", "[anim]") {
  CHECK(js_to_int32(1.7) == 1);
  CHECK(js_to_int32(-1.7) == -1);
  CHECK(js_to_int32(4294967295.0) == -1);
  CHECK(js_to_int32(4294967296.0 + 5) == 5);
  CHECK(js_to_int32(std::nan("")) == 0);
}

TEST_CASE("deform: linear between keys, held outside, float32 (spec 5.3 #1-#3)", "[anim]") {
  DeformTrack track{"", "main", {{0, {0, 0, 0, 0}}, {1, {10, -4, 2, 6}}}};
  CHECK(*eval_deform_track(track, -5) == std::vector<double>{0, 0, 0, 0});
  CHECK(*eval_deform_track(track, 9) == std::vector<double>{10, -4, 2, 6});
  CHECK(*eval_deform_track(track, 0.5) == std::vector<double>{5, -2, 1, 3});
  CHECK(*eval_deform_track(track, 0.3) ==
        std::vector<double>{3, -1.2000000476837158, 0.6000000238418579, 1.7999999523162842});
  CHECK_FALSE(eval_deform_track(DeformTrack{}, 0).has_value());
  DeformTrack single{"", "main", {{2, {7, 8}}}};
  CHECK(*eval_deform_track(single, 0) == std::vector<double>{7, 8});
}
