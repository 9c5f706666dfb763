// SPDX-License-Identifier: Apache-2.0
// Templates on real art (tests/data/real-sprites, CC0): every standing, walking, kicking and cheering
// figure gets both arms and both legs on opaque pixels and `auto` calls it a humanoid; arms drawn
// raised are found raised, on the real cheering figure and on a figure drawn in code; a tree gets a
// trunk chain into its canopy; `auto` fits only the templates the shape allows.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "../geometry/masks.h"
#include "bundled_templates.h"
#include "rig2d/image/png.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d {
namespace {

const std::filesystem::path kRealSprites = std::filesystem::path(RIG2D_SOURCE_DIR) / "tests/data/real-sprites";

const char* const kRealFigures[] = {
    "kenney_platformer-characters_female_female_idle.png",  "kenney_platformer-characters_female_female_kick.png",
    "kenney_platformer-characters_female_female_walk1.png", "kenney_platformer-characters_player_player_cheer2.png",
    "kenney_platformer-characters_player_player_idle.png",
};

std::map<std::string, Vec2> real_joints(const TemplateFit& fit) {
  const std::vector<Vec2> j = joint_positions(fit.bones);
  std::map<std::string, Vec2> out;
  for (std::size_t i = 0; i < fit.bones.size(); ++i) out[fit.bones[i].name] = j[i];
  return out;
}

// Rig space: the origin at the image centre (the default pivot).
bool real_opaque(const Image& im, Vec2 p) {
  const int x = static_cast<int>(std::floor(p.x + 0.5 * im.width));
  const int y = static_cast<int>(std::floor(p.y + 0.5 * im.height));
  return x >= 0 && y >= 0 && x < im.width && y < im.height &&
         im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(im.width) + static_cast<std::size_t>(x)) + 3] > 8;
}

Image real_load(const char* name) {
  auto im = load_png((kRealSprites / name).string());
  REQUIRE(im.has_value());
  return std::move(*im);
}

TEST_CASE("every real standing, walking, kicking and cheering figure gets both arms and legs, auto calls it humanoid") {
  const auto bundled = test::all_bundled_templates();
  for (const char* name : kRealFigures) {
    INFO(name);
    const Image im = real_load(name);
    auto fit = fit_template(im, bundled.front());
    REQUIRE(fit.has_value());
    CHECK(fit->template_name == "humanoid");
    CHECK(fit->score >= kTemplateFitFloor);
    CHECK(fit->forced.empty());
    const auto j = real_joints(*fit);
    for (const char* limb : {"upper_arm_l", "lower_arm_l", "hand_l", "upper_arm_r", "lower_arm_r", "hand_r", "thigh_l",
                             "shin_l", "foot_l", "thigh_r", "shin_r", "foot_r", "head"})
      CHECK(j.count(limb) == 1);
    for (const auto& [bone, p] : j) {
      INFO(bone);
      CHECK(real_opaque(im, p));
    }
    // The feet below the hips, the head above the chest.
    CHECK(j.at("foot_l").y > j.at("hips").y);
    CHECK(j.at("foot_r").y > j.at("hips").y);
    CHECK(j.at("head").y < j.at("chest").y);
    auto chosen = fit_template_auto(im, bundled);
    REQUIRE(chosen.has_value());
    REQUIRE(chosen->best.has_value());
    CHECK(chosen->best->template_name == "humanoid");
    // Fitted first, it is the only one fitted.
    CHECK(chosen->scores.size() == 1);
  }
}

TEST_CASE("the real cheering figure's raised arms are found raised") {
  const auto bundled = test::all_bundled_templates();
  const Image im = real_load("kenney_platformer-characters_player_player_cheer2.png");
  auto fit = fit_template(im, bundled.front());
  REQUIRE(fit.has_value());
  const auto j = real_joints(*fit);
  // Both fists are drawn beside the head, above the shoulders: the hands end above them.
  CHECK(j.at("hand_l").y < j.at("upper_arm_l").y);
  CHECK(j.at("hand_r").y < j.at("upper_arm_r").y);
  CHECK(j.at("hand_l").y < j.at("chest").y);
  CHECK(j.at("hand_r").y < j.at("chest").y);
  CHECK(j.at("hand_l").x > j.at("hand_r").x);
  // Found in the shape, not placed over the body from the proportions.
  CHECK(std::find(fit->over_body.begin(), fit->over_body.end(), "hand_l") == fit->over_body.end());
  CHECK(std::find(fit->over_body.begin(), fit->over_body.end(), "hand_r") == fit->over_body.end());
}

TEST_CASE("the real kicking figure's kicking leg is a leg, not an arm") {
  const auto bundled = test::all_bundled_templates();
  const Image im = real_load("kenney_platformer-characters_female_female_kick.png");
  auto fit = fit_template(im, bundled.front());
  REQUIRE(fit.has_value());
  const auto j = real_joints(*fit);
  // 80 x 110 px: the standing foot at the bottom left, the kicking foot out to the right at the
  // height of the other knee (rig space, origin at the centre: x 34, y 28). One foot on each leg.
  CHECK(j.at("foot_l").x - j.at("foot_r").x > 0.5 * im.width);
  CHECK(j.at("foot_r").y - j.at("foot_l").y > 0.15 * im.height);
  CHECK(j.at("foot_l").x > 0.35 * im.width);
  // No hand reaches the kicking foot: the arms stay by the body.
  for (const char* hand : {"hand_l", "hand_r"}) {
    INFO(hand);
    CHECK(std::hypot(j.at(hand).x - j.at("foot_l").x, j.at(hand).y - j.at("foot_l").y) > 0.25 * im.width);
  }
}

TEST_CASE("the real big-headed idle figure's neck is at its chin and its chest on the shirt, not in the face") {
  const auto bundled = test::all_bundled_templates();
  const Image im = real_load("kenney_platformer-characters_player_player_idle.png");
  auto fit = fit_template(im, bundled.front());
  REQUIRE(fit.has_value());
  const auto j = real_joints(*fit);
  // 80 x 110 px (rig space: image - (40, 55)): the head y 14..64, as wide as the shirt below it with
  // the arms against it (y 65..99); the face's mouth about y 52, the chin where the shirt begins.
  INFO("neck " << j.at("neck").y << ", chest " << j.at("chest").y << ", shoulders " << j.at("upper_arm_l").y << ", "
               << j.at("upper_arm_r").y);
  CHECK(j.at("neck").y >= 56 - 55);
  CHECK(j.at("neck").y <= 66 - 55);
  CHECK(j.at("chest").y >= 60 - 55);
  CHECK(j.at("chest").y < j.at("spine").y);
  CHECK(j.at("chest").y >= j.at("upper_arm_l").y);
  CHECK(j.at("chest").y >= j.at("upper_arm_r").y);
  // With the arms found on the sleeves from the colour edges (their shoulders about y 70), the chest
  // moves down to the shoulders' height, the spine joint with it, still above the hips.
  TemplateFitOptions o;
  o.colour_edges = true;
  auto armed = fit_template(im, bundled.front(), o);
  REQUIRE(armed.has_value());
  const auto a = real_joints(*armed);
  INFO("armed: chest " << a.at("chest").y << ", shoulders " << a.at("upper_arm_l").y << ", " << a.at("upper_arm_r").y
                       << ", spine " << a.at("spine").y << ", hips " << a.at("hips").y);
  CHECK(std::find(armed->refined.begin(), armed->refined.end(), "upper_arm_l") != armed->refined.end());
  CHECK(std::abs(a.at("chest").y - 0.5 * (a.at("upper_arm_l").y + a.at("upper_arm_r").y)) < 1);
  CHECK(a.at("chest").y < a.at("spine").y);
  CHECK(a.at("spine").y < a.at("hips").y);
  CHECK(a.at("neck").y == Approx(j.at("neck").y));
}

TEST_CASE("a figure drawn in code with its arms raised gets them raised, both ways round") {
  const auto bundled = test::all_bundled_templates();
  // Head, torso, legs apart, and arms from the shoulders up and out past the head.
  const std::vector<test::Capsule> parts = {{{80, 50}, {80, 50}, 18},  {{80, 80}, {80, 140}, 18},
                                          {{70, 140}, {64, 200}, 8}, {{90, 140}, {96, 200}, 8},
                                          {{66, 82}, {36, 22}, 7},   {{94, 82}, {124, 22}, 7}};
  const Image im = test::draw_capsules(160, 220, parts);
  auto fit = fit_template(im, bundled.front());
  REQUIRE(fit.has_value());
  CHECK(fit->score >= kTemplateFitFloor);
  const auto j = real_joints(*fit);
  // Rig space: image minus (80, 110). The raised hands end near the fists (image (36, 22), (124, 22)).
  CHECK(j.at("hand_l").y < j.at("upper_arm_l").y);
  CHECK(j.at("hand_r").y < j.at("upper_arm_r").y);
  CHECK(j.at("hand_l").y < -110 + 60);
  CHECK(j.at("hand_r").y < -110 + 60);
  CHECK(j.at("hand_l").x > 20);
  CHECK(j.at("hand_r").x < -20);
  CHECK(j.at("foot_l").y > 40);
  CHECK(j.at("foot_r").y > 40);
  auto chosen = fit_template_auto(im, bundled);
  REQUIRE((chosen && chosen->best));
  CHECK(chosen->best->template_name == "humanoid");
}

TEST_CASE("a real tree gets a trunk chain of three bones into its canopy under auto") {
  const auto bundled = test::all_bundled_templates();
  const Image im = real_load("kenney_foliage-pack_png_foliagePack_005.png");
  auto chosen = fit_template_auto(im, bundled);
  REQUIRE((chosen && chosen->best));
  CHECK(chosen->best->template_name == "tree");
  const auto j = real_joints(*chosen->best);
  REQUIRE(j.count("trunk") == 1);
  int chain = 0;
  for (const char* name : {"trunk_1", "trunk_2", "trunk_3"}) {
    INFO(name);
    REQUIRE(j.count(name) == 1);
    CHECK(real_opaque(im, j.at(name)));
    chain += j.at(name).y < j.at("trunk").y;
  }
  CHECK(chain == 3);
  CHECK(j.at("trunk_3").y < j.at("trunk_1").y);
}

TEST_CASE("auto calls a real fish drawn in profile a fish, its head and tail at the body's ends") {
  const auto bundled = test::all_bundled_templates();
  const Image im = real_load("kenney_platformer-art-deluxe_extra_animations_and_enemies_fishGreen.png");
  auto chosen = fit_template_auto(im, bundled);
  REQUIRE((chosen && chosen->best));
  CHECK(chosen->best->template_name == "fish");
  CHECK(chosen->best->score >= kTemplateFitFloor);
  // Humanoid, quadruped and bird need a head and feet the shape does not show.
  for (const char* ruled_out : {"humanoid", "quadruped", "bird"}) {
    INFO(ruled_out);
    CHECK(std::find(chosen->skipped.begin(), chosen->skipped.end(), ruled_out) != chosen->skipped.end());
  }
  const auto j = real_joints(*chosen->best);
  for (const auto& [bone, p] : j) {
    INFO(bone);
    CHECK(real_opaque(im, p));
  }
  // It faces left (fitted mirrored): the head left of the body, the tail's fin right of it.
  CHECK(chosen->best->mirrored);
  CHECK(j.at("head").x < j.at("body").x);
  CHECK(j.at("tail_fin").x > j.at("tail_1").x);
  CHECK(j.at("tail_1").x > j.at("body").x);
}

TEST_CASE("auto skips templates the shape rules out, and the upright ones for a figure lying down") {
  const auto bundled = test::all_bundled_templates();
  // A long body lying along the ground with a tail: wider than tall.
  const Image im = test::draw_capsules(200, 70, {{{40, 35}, {150, 35}, 22}, {{150, 35}, {190, 20}, 8}, {{150, 35}, {190, 50}, 8}});
  auto chosen = fit_template_auto(im, bundled);
  REQUIRE((chosen && chosen->best));
  // Humanoid and bird come before the first template that fits it, and are skipped unfitted.
  for (const char* upright : {"humanoid", "bird"}) {
    INFO(upright);
    CHECK(std::find(chosen->skipped.begin(), chosen->skipped.end(), upright) != chosen->skipped.end());
  }
  for (const char* upright : {"humanoid", "bird", "tree"}) {
    INFO(upright);
    CHECK(std::none_of(chosen->scores.begin(), chosen->scores.end(), [&](const auto& s) { return s.first == upright; }));
  }
  CHECK(chosen->best->template_name != "humanoid");
  // Deterministic.
  auto again = fit_template_auto(im, bundled);
  REQUIRE((again && again->best));
  CHECK(again->best->bones == chosen->best->bones);
  CHECK(again->scores == chosen->scores);
}

}  // namespace
}  // namespace rig2d
