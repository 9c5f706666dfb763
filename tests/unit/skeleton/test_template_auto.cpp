// SPDX-License-Identifier: Apache-2.0
// `auto`'s second look: a template whose fit scores well is still turned down when the shape lacks
// the parts of its kind (a fish's tail fin, a quadruped's horizontal body, a head wider than an ear,
// feet that are limbs, a limbless prop), and the shape skeleton is kept. On real art
// (tests/data/real-sprites, CC0) and on shapes drawn in code whose measures are known.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "../geometry/masks.h"
#include "bundled_templates.h"
#include "rig2d/image/png.h"
#include "rig2d/skeleton/template.h"

namespace rig2d {
namespace {

Image auto_real(const std::string& name) {
  auto im = load_png((std::filesystem::path(RIG2D_SOURCE_DIR) / "tests/data/real-sprites" / name).string());
  REQUIRE(im.has_value());
  return std::move(*im);
}

// The reason `template_name` was turned down, "" when it was not.
std::string auto_rejected(const TemplateAutoFit& chosen, const std::string& template_name) {
  for (const auto& [name, why] : chosen.rejected)
    if (name == template_name) return why;
  return {};
}

bool auto_keeps_shape(const TemplateAutoFit& chosen) {
  return !chosen.best || chosen.best->score < kTemplateFitFloor;
}

struct AutoCase {
  const char* sprite;
  const char* turned_down;  // the template whose fit scored well
  const char* why;          // words of the reason
};

}  // namespace

TEST_CASE("auto keeps the shape skeleton for real sprites no template truly fits, and says why") {
  const auto bundled = test::all_bundled_templates();
  const AutoCase cases[] = {
      // A mouse lying down and a bush: a head, a tail and a fin by the score, but no fin fans out.
      {"kenney_platformer-art-deluxe_extra_animations_and_enemies_mouse.png", "fish", "no tail fin"},
      {"kenney_foliage-pack_png_foliagePack_003.png", "fish", "no tail fin"},
      // A round bee and a winged chick: legs, but under no horizontal body.
      {"kenney_platformer-art-deluxe_extra_animations_and_enemies_bee.png", "quadruped", "longer than deep"},
      {"kenney_jumper-pack_png_wingMan3.png", "quadruped", "longer than deep"},
      // A bunny's ears and a barnacle's horns are no head (nor arms).
      {"kenney_jumper-pack_png_bunny2_stand.png", "humanoid", "not a head"},
      {"kenney_platformer-art-deluxe_extra_animations_and_enemies_barnacle.png", "humanoid", "not a head"},
      // A frog sitting shows no front legs: placed from the proportions, they would be invented.
      {"kenney_platformer-art-deluxe_extra_animations_and_enemies_frog.png", "quadruped", "shows nothing of front_leg_l"},
  };
  for (const AutoCase& c : cases) {
    INFO(c.sprite);
    auto chosen = fit_template_auto(auto_real(c.sprite), bundled);
    REQUIRE(chosen.has_value());
    CHECK(auto_keeps_shape(*chosen));
    const std::string why = auto_rejected(*chosen, c.turned_down);
    INFO(why);
    CHECK(why.find(c.why) != std::string::npos);
    // It was fitted and scored well: turned down by the second look, not by the score.
    const auto score = std::find_if(chosen->scores.begin(), chosen->scores.end(),
                                    [&](const auto& s) { return s.first == c.turned_down; });
    REQUIRE(score != chosen->scores.end());
    CHECK(score->second >= kTemplateFitFloor);
  }
}

TEST_CASE("auto still calls the real fish a fish and the real tree a tree") {
  const auto bundled = test::all_bundled_templates();
  auto fish = fit_template_auto(auto_real("kenney_platformer-art-deluxe_extra_animations_and_enemies_fishGreen.png"), bundled);
  REQUIRE((fish && fish->best));
  CHECK(fish->best->template_name == "fish");
  CHECK(fish->rejected.empty());
  auto tree = fit_template_auto(auto_real("kenney_foliage-pack_png_foliagePack_005.png"), bundled);
  REQUIRE((tree && tree->best));
  CHECK(tree->best->template_name == "tree");
}

TEST_CASE("auto takes a lone sleeved arm part for no tree: its sleeve is no crown over a trunk") {
  const auto bundled = test::all_bundled_templates();
  // 17 x 33 px: a sleeve 17 px wide on a forearm narrowing to 4 px at the hand. By the widths alone a
  // crown on a trunk (the forearm 0.65 of the sleeve's width where the trunk's first joint goes),
  // but the shape widens gradually towards the top (at most 0.62 of the height climbed).
  auto arm = fit_template_auto(auto_real("kenney_platformer-characters_female_arm.png"), bundled);
  REQUIRE(arm.has_value());
  INFO((arm->best ? arm->best->template_name : std::string("-")));
  CHECK(auto_keeps_shape(*arm));
  const std::string why = auto_rejected(*arm, "tree");
  INFO(why);
  CHECK(why.find("no crown over its trunk") != std::string::npos);
}

TEST_CASE("a tree drawn in code has a crown over its trunk, and a cone widening to its top has none") {
  const auto bundled = test::all_bundled_templates();
  // A trunk 12 px wide and 70 px tall under a round crown 80 px across: the crown's outline leaves
  // the trunk's line almost square to it.
  auto tree = fit_template_auto(test::draw_capsules(120, 200, {{{60, 190}, {60, 110}, 6}, {{60, 60}, {60, 60}, 40}}), bundled);
  REQUIRE((tree && tree->best));
  CHECK(tree->best->template_name == "tree");
  // A cone from 8 px wide at the bottom to 40 px at the top, capped round: it widens by 32 px over
  // 110 px climbed (0.3 a pixel), so no crown overhangs it.
  std::vector<test::Capsule> cone;
  for (int k = 0; k < 11; ++k) cone.push_back({{60, 190.0 - 10 * k}, {60, 180.0 - 10 * k}, 4 + 1.6 * (k + 1)});
  cone.push_back({{60, 70}, {60, 70}, 22});
  auto limb = fit_template_auto(test::draw_capsules(120, 200, cone), bundled);
  REQUIRE(limb.has_value());
  INFO((limb->best ? limb->best->template_name : std::string("-")));
  CHECK((!limb->best || limb->best->template_name != "tree"));
  const std::string why = auto_rejected(*limb, "tree");
  INFO(why);
  CHECK(why.find("no crown over its trunk") != std::string::npos);
}

TEST_CASE("a fish drawn in code is a fish with its tail fin, and not without it") {
  const auto bundled = test::all_bundled_templates();
  // Body 40 px tall (x 20..120), a stalk 10 px tall (x 100..130), a fin of two strokes fanning out to
  // 56 px tall at x 150: 5.6 times the stalk.
  const std::vector<test::Capsule> body = {{{40, 40}, {100, 40}, 20}, {{100, 40}, {130, 40}, 5}};
  std::vector<test::Capsule> with_fin = body;
  with_fin.push_back({{130, 40}, {150, 18}, 6});
  with_fin.push_back({{130, 40}, {150, 62}, 6});
  auto fish = fit_template_auto(test::draw_capsules(170, 80, with_fin), bundled);
  REQUIRE((fish && fish->best));
  CHECK(fish->best->template_name == "fish");
  // The same body whose tail ends as it began, 10 px tall: no fin.
  auto tadpole = fit_template_auto(test::draw_capsules(170, 80, body), bundled);
  REQUIRE(tadpole.has_value());
  CHECK((!tadpole->best || tadpole->best->template_name != "fish"));
  const std::string why = auto_rejected(*tadpole, "fish");
  INFO(why);
  CHECK(why.find("no tail fin") != std::string::npos);
}

TEST_CASE("a rigid prop is for a shape without extremities") {
  const auto bundled = test::all_bundled_templates();
  // A disc: no end of the shape, a prop.
  auto disc = fit_template_auto(test::draw_capsules(96, 96, {{{48, 48}, {48, 48}, 40}}), bundled);
  REQUIRE((disc && disc->best));
  CHECK(disc->best->template_name == "prop");
  CHECK(disc->best->bones.size() == 1);
  // A disc with a long handle: the handle bends, so not a prop.
  auto pan = fit_template_auto(test::draw_capsules(200, 96, {{{48, 48}, {48, 48}, 40}, {{48, 48}, {190, 48}, 6}}), bundled);
  REQUIRE(pan.has_value());
  INFO((pan->best ? pan->best->template_name : std::string("-")));
  CHECK((!pan->best || pan->best->template_name != "prop"));
  const std::string why = auto_rejected(*pan, "prop");
  INFO(why);
  CHECK(why.find("to bend, a rigid prop none") != std::string::npos);
}

TEST_CASE("auto's second look is deterministic") {
  const auto bundled = test::all_bundled_templates();
  const Image im = auto_real("kenney_jumper-pack_png_bunny2_stand.png");
  auto a = fit_template_auto(im, bundled);
  auto b = fit_template_auto(im, bundled);
  REQUIRE((a && b));
  CHECK(a->rejected == b->rejected);
  CHECK(a->scores == b->scores);
}

}  // namespace rig2d
