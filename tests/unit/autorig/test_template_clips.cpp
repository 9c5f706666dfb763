// SPDX-License-Identifier: Apache-2.0
// The bundled humanoid idle, walk and run on humanoid rigs as rig2d-autorig makes them
// (--template humanoid, the tool's defaults): on the real figures of tests/data/real-sprites (CC0)
// and on figures drawn in code with their arms against the body, no frame turns more than 1% of the
// triangles inside out, while the arms still move art of their own. Arms placed over the body are a
// layer on the body's weights (HeatWeightsOptions::over_body): before, a hand lying over a thigh took
// the leg's vertices down to the foot and walks folded the legs (2-3% of the triangles).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

// GCC 12 reports the std::optional<std::vector<Bone>> member of AutorigOptions as maybe
// uninitialized at -O1 with sanitizers (a known false positive of its optional/vector inlining).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "../geometry/masks.h"
#include "rig2d/anim/bundled_clips.h"
#include "rig2d/autorig/autorig.h"
#include "rig2d/image/png.h"
#include "rig2d/quality/clip_deform.h"
#include "rig2d/skeleton/template.h"

namespace rig2d {
namespace {

const std::filesystem::path kClipSprites = std::filesystem::path(RIG2D_SOURCE_DIR) / "tests/data/real-sprites";

Rig clips_humanoid_rig(const Image& image) {
  AutorigOptions o = AutorigOptions::tool_defaults();
  auto tmpl = bundled_template("humanoid");
  REQUIRE(tmpl.has_value());
  o.skeleton_template = std::move(*tmpl);
  auto rig = autorig_image(image, o);
  REQUIRE(rig.has_value());
  return std::move(*rig);
}

// Idle, walk and run: every frame at 30 fps within 1% flipped, every track bound.
void clips_check_plays(const Rig& rig) {
  for (const char* name : {"humanoid/idle", "humanoid/walk", "humanoid/run"}) {
    INFO(name);
    auto clip = load_clip_spec(name);
    REQUIRE(clip.has_value());
    const ClipDeformReport report = check_clip_deformation(rig, *clip, name);
    CHECK(report.stats.frames >= 2);
    CHECK(report.stats.tracks_bound == clip->tracks.size());
    CHECK(report.stats.flip_fraction <= 0.01);
  }
}

// The largest weight any vertex gives one of the bones named.
double clips_largest_weight(const Rig& rig, const std::vector<std::string>& names) {
  double out = 0;
  const Part& part = rig.parts.at(0);
  for (std::size_t s = 0; s < part.skin_indices.size(); ++s)
    for (const std::string& n : names)
      if (rig.bones.at(part.skin_indices[s]).name == n) out = std::max(out, part.skin_weights[s]);
  return out;
}

// A figure standing facing the viewer, arms hanging against the torso and hands against the thighs
// (no gap between them), legs apart; `head` sets the proportions (a chibi's big head).
Image clips_figure(double head, double torso, double leg) {
  const double neck = 8 + 2 * head, hip = neck + torso;
  const std::vector<test::Capsule> parts = {
      {{60, 4 + head}, {60, 4 + head}, head},                     // head
      {{60, neck + 6}, {60, hip}, 17},                            // torso
      {{44, neck + 10}, {42, hip + 0.3 * leg}, 6},                // arms, down to the thighs
      {{76, neck + 10}, {78, hip + 0.3 * leg}, 6},
      {{52, hip}, {47, hip + leg}, 7},                            // legs
      {{68, hip}, {73, hip + leg}, 7}};
  return test::draw_capsules(120, static_cast<int>(hip + leg + 12), parts);
}

TEST_CASE("idle, walk and run fold no more than 1% of the triangles of the real humanoid figures") {
  for (const char* name : {"kenney_platformer-characters_female_female_idle.png",
                           "kenney_platformer-characters_female_female_kick.png",
                           "kenney_platformer-characters_female_female_walk1.png",
                           "kenney_platformer-characters_player_player_cheer2.png",
                           "kenney_platformer-characters_player_player_idle.png"}) {
    INFO(name);
    auto image = load_png((kClipSprites / name).string());
    REQUIRE(image.has_value());
    clips_check_plays(clips_humanoid_rig(*image));
  }
}

TEST_CASE("figures with their arms against the body play idle, walk and run within 1% flipped; the arms move") {
  struct Proportions {
    double head, torso, leg;
  };
  for (const Proportions p : {Proportions{14, 46, 60}, Proportions{20, 40, 44}, Proportions{28, 34, 30}}) {
    INFO("head " << p.head << " torso " << p.torso << " leg " << p.leg);
    const Rig rig = clips_humanoid_rig(clips_figure(p.head, p.torso, p.leg));
    clips_check_plays(rig);
    // Not by giving the arms nothing: each arm still carries most of some vertex.
    CHECK(clips_largest_weight(rig, {"upper_arm_l", "lower_arm_l", "hand_l"}) > 0.5);
    CHECK(clips_largest_weight(rig, {"upper_arm_r", "lower_arm_r", "hand_r"}) > 0.5);
  }
}

}  // namespace
}  // namespace rig2d
