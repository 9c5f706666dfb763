// SPDX-License-Identifier: Apache-2.0
// Fitting templates into sprites drawn in code, and a bundled clip carried from one fitted rig to
// another through the template's bone names, against hand-computed bone transforms.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "../geometry/masks.h"
#include "bundled_templates.h"
#include "rig2d/anim/bundled_clips.h"
#include "rig2d/anim/rig_pose.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d {
namespace {

using test::Capsule;

// A standing figure whose arms hang against its body (no gap between arm and torso), legs apart.
std::vector<Capsule> figure(double head = 16, double leg = 50) {
  const double hip = 40 + 2 * head + 40;
  return {{{60, 20 + head}, {60, 20 + head}, head},            // head
          {{60, 20 + 2 * head + 8}, {60, hip - 4}, 17},        // torso
          {{45, 20 + 2 * head + 12}, {43, hip + 6}, 6},        // arms, touching the torso
          {{75, 20 + 2 * head + 12}, {77, hip + 6}, 6},
          {{52, hip}, {46, hip + leg}, 7},                     // legs
          {{68, hip}, {74, hip + leg}, 7}};
}

std::map<std::string, Vec2> joints_by_name(const TemplateFit& fit) {
  const std::vector<Vec2> j = joint_positions(fit.bones);
  std::map<std::string, Vec2> out;
  for (std::size_t i = 0; i < fit.bones.size(); ++i) out[fit.bones[i].name] = j[i];
  return out;
}

bool opaque(const Image& im, Vec2 rig_point) {  // rig space: origin at the image centre (default pivot)
  const int x = static_cast<int>(std::floor(rig_point.x + 0.5 * im.width));
  const int y = static_cast<int>(std::floor(rig_point.y + 0.5 * im.height));
  return x >= 0 && y >= 0 && x < im.width && y < im.height &&
         im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(im.width) + static_cast<std::size_t>(x)) + 3] > 8;
}

TEST_CASE("a standing figure with its arms against the body gets every humanoid bone, in place") {
  auto humanoid = bundled_template("humanoid");
  REQUIRE(humanoid.has_value());
  const Image im = test::draw_capsules(120, 230, figure());
  auto fit = fit_template(im, *humanoid);
  REQUIRE(fit.has_value());
  // Every bone but the optional eyes, which a face without eyes leaves out.
  CHECK(fit->omitted == std::vector<std::string>{"eye_l", "eye_r"});
  std::vector<std::string> want{humanoid->ground};  // where it stands, then the template's order (parents first)
  for (const TemplateBone& b : humanoid->bones)
    if (!b.spot) want.push_back(b.name);
  REQUIRE(fit->bones.size() == want.size());
  for (std::size_t i = 0; i < fit->bones.size(); ++i) CHECK(fit->bones[i].name == want[i]);
  CHECK(fit->forced.empty());
  CHECK(fit->score >= kTemplateFitFloor);
  auto j = joints_by_name(*fit);
  for (const auto& [name, p] : j) {
    INFO(name);
    CHECK(opaque(im, p));
  }
  // Image y grows down; '_l' is the figure's left, the screen's right.
  CHECK(j["head"].y < j["neck"].y);
  CHECK(j["neck"].y < j["chest"].y);
  CHECK(j["chest"].y < j["hips"].y);
  CHECK(j["hips"].y < j["shin_l"].y);
  CHECK(j["shin_l"].y < j["foot_l"].y);
  // It stands below its ankles, on a covered pixel with none under it, between its feet.
  CHECK(j[humanoid->ground].y > 0.5 * (j["foot_l"].y + j["foot_r"].y));
  CHECK(!opaque(im, {j[humanoid->ground].x, j[humanoid->ground].y + 1}));
  CHECK(j[humanoid->ground].x > j["foot_r"].x);
  CHECK(j[humanoid->ground].x < j["foot_l"].x);
  CHECK(j["foot_l"].x > 0);
  CHECK(j["foot_r"].x < 0);
  CHECK(j["hand_l"].x > j["chest"].x);
  CHECK(j["hand_r"].x < j["chest"].x);
  CHECK(j["hand_l"].y > j["upper_arm_l"].y);  // hanging down
  CHECK(std::find(fit->over_body.begin(), fit->over_body.end(), "hand_l") != fit->over_body.end());
  // The feet are found at the legs' ends: within a leg's width of them (rig space = image - centre).
  CHECK(std::abs(j["foot_l"].y + 115 - (40 + 32 + 40 + 50)) < 14);
}

// A head 140 px across (over half the figure's height) on a torso 64 px wide, arms against the
// torso, short legs (feet at y 273).
std::vector<Capsule> chibi_parts() {
  return {{{80, 80}, {80, 80}, 70},    // head: y 10..150
          {{80, 160}, {80, 200}, 32},  // torso: y 128..232
          {{50, 160}, {47, 212}, 9},   // arms, touching it
          {{110, 160}, {113, 212}, 9},
          {{67, 222}, {64, 262}, 11},  // legs
          {{93, 222}, {96, 262}, 11}};
}

TEST_CASE("a chibi's big head sits on its neck: the neck at the chin, the head joint above it, the hips' sockets at the legs") {
  auto humanoid = bundled_template("humanoid");
  REQUIRE(humanoid.has_value());
  const Image im = test::draw_capsules(160, 290, chibi_parts());
  auto fit = fit_template(im, *humanoid);
  REQUIRE(fit.has_value());
  CHECK(fit->score >= kTemplateFitFloor);
  auto j = joints_by_name(*fit);  // rig space: image - (80, 145)
  const double chin = 142 - 145;  // where the torso's sides meet the head
  INFO("neck " << j["neck"].y << ", head " << j["head"].y << ", chest " << j["chest"].y << ", hips " << j["hips"].y);
  CHECK(std::abs(j["neck"].y - chin) < 16);
  CHECK(j["head"].y < j["neck"].y - 10);  // up in the face, above the neck
  CHECK(j["head"].y > 10 - 145);          // within the head
  CHECK(j["chest"].y > j["neck"].y);
  CHECK(j["chest"].y < j["hips"].y);
  CHECK(j["upper_arm_l"].y > chin);       // the shoulders on the torso, not on the head
  CHECK(j["upper_arm_r"].y > chin);
  // The legs turn at their sockets, where they leave the hips' disc: apart, not at the middle.
  CHECK(j["thigh_l"].x - j["thigh_r"].x > 12);
  // The hips sit in the pelvis: below the middle of the torso's round lower end (image y 200, rig
  // 55), above the sockets' line, centred between the legs.
  INFO("hips " << j["hips"].x << ", " << j["hips"].y << "; sockets " << j["thigh_r"].y << ", " << j["thigh_l"].y);
  CHECK(std::abs(j["hips"].x - 0.5 * (j["thigh_l"].x + j["thigh_r"].x)) < 2);
  CHECK(j["hips"].y > 55);
  CHECK(j["hips"].y < j["thigh_l"].y - 5);
}

// A head wider than tall (190 x 170 px, y 35..205) with a lock of hair rising from its crown to
// y 2, on a torso as wide as the arms drawn against it (72 px, no pinch below the chin), short legs:
// the head's width is a step up from the body's, and the proportions, measuring the figure to the
// lock's tip, put the neck up in the head, where the axis narrows into the lock.
Image big_head_with_lock() {
  const std::vector<Capsule> parts{{{100, 215}, {100, 250}, 36},   // torso: y 179..286
                                   {{80, 290}, {78, 330}, 12},     // legs
                                   {{120, 290}, {122, 330}, 12},
                                   {{112, 40}, {122, 10}, 8}};     // the lock
  return test::make_sprite(200, 360, [&](double x, double y) {
    const double ex = (x - 100) / 95, ey = (y - 120) / 85;
    return ex * ex + ey * ey <= 1 ||
           std::any_of(parts.begin(), parts.end(), [&](const Capsule& c) { return c.contains(x, y); });
  });
}

TEST_CASE("a big head on a body with no pinch below it: the neck at the chin, not up in the head") {
  auto humanoid = bundled_template("humanoid");
  REQUIRE(humanoid.has_value());
  const Image im = big_head_with_lock();
  auto fit = fit_template(im, *humanoid);
  REQUIRE(fit.has_value());
  CHECK(fit->score >= kTemplateFitFloor);
  auto j = joints_by_name(*fit);  // rig space: image - (100, 180)
  const double chin = 205 - 180;  // the head's bottom, where the torso leaves it
  INFO("head " << j["head"].y << ", neck " << j["neck"].y << ", chest " << j["chest"].y << ", shoulders "
               << j["upper_arm_l"].y << ", " << j["upper_arm_r"].y << ", hips " << j["hips"].y);
  CHECK(std::abs(j["neck"].y - chin) < 8);
  CHECK(j["chest"].y > j["neck"].y);
  CHECK(j["chest"].y < j["hips"].y);
  CHECK(j["upper_arm_l"].y > chin - 8);  // the shoulders on the torso, not in the face
  CHECK(j["upper_arm_r"].y > chin - 8);
  CHECK(j["head"].y < j["neck"].y);
  CHECK(j["head"].y > 35 - 180);
}

// Whether (x, y) lies inside the convex polygon `pts` (either winding).
bool fit_in_convex(const std::vector<Vec2>& pts, double x, double y) {
  bool neg = false, pos = false;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Vec2 a = pts[i], b = pts[(i + 1) % pts.size()];
    const double c = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
    neg = neg || c < 0, pos = pos || c > 0;
  }
  return !(neg && pos);
}

// An 80x112 figure with a big head (46 px wide, y 13..57, peaked at the top) on a short body as
// wide as it with the arms drawn against the torso (60 px, y 64..99): the chin (41 px, y 56..66) is
// no narrower than the body's inscribed radius, so the axis shows no pinch there, and the head's own
// axis narrows towards its peak.
Image fit_big_head_figure() {
  const std::vector<Vec2> head{{17, 57}, {17, 36}, {40, 13}, {63, 36}, {63, 57}};
  const std::vector<Vec2> body{{20, 64}, {11, 78}, {10, 99}, {70, 99}, {69, 78}, {61, 64}};
  return test::make_sprite(80, 112, [&](double x, double y) {
    const bool chin = x >= 19 && x <= 60 && y >= 56 && y <= 66;
    const bool legs = y >= 98 && y <= 110 && ((x >= 22 && x <= 40) || (x >= 43 && x <= 61));
    return fit_in_convex(head, x, y) || fit_in_convex(body, x, y) || chin || legs;
  });
}

TEST_CASE("a big head on a body as wide as it: the neck at the chin, the chest below the head and the shoulders") {
  auto humanoid = bundled_template("humanoid");
  REQUIRE(humanoid.has_value());
  const Image im = fit_big_head_figure();
  auto fit = fit_template(im, *humanoid);
  REQUIRE(fit.has_value());
  CHECK(fit->score >= kTemplateFitFloor);
  auto j = joints_by_name(*fit);  // rig space: image - (40, 56)
  const double head_bottom = 57 - 56, body_top = 64 - 56;
  INFO("head " << j["head"].y << ", neck " << j["neck"].y << ", chest " << j["chest"].y << ", shoulders "
               << j["upper_arm_l"].y << ", " << j["upper_arm_r"].y << ", hips " << j["hips"].y);
  // The neck in the chin, between the head's bottom and the body's top (not up in the face).
  CHECK(j["neck"].y >= head_bottom - 2);
  CHECK(j["neck"].y <= body_top + 2);
  // The chest below the head and at or below both shoulders; the head joint up in the head.
  CHECK(j["chest"].y > head_bottom);
  CHECK(j["chest"].y >= j["upper_arm_l"].y);
  CHECK(j["chest"].y >= j["upper_arm_r"].y);
  CHECK(j["chest"].y < j["hips"].y);
  CHECK(j["head"].y < j["neck"].y);
  CHECK(j["head"].y > 13 - 56);
  for (const auto& [name, p] : j) {
    INFO(name);
    CHECK(opaque(im, p));
  }
}

// Paints a dark grey disc (luminance 20 on the sprites' grey 200) into the opaque pixels of `im`.
void fit_paint_dark_disc(Image& im, double cx, double cy, double r, double stretch = 1) {
  for (int y = 0; y < im.height; ++y)
    for (int x = 0; x < im.width; ++x) {
      if (std::hypot((x + 0.5 - cx) / stretch, y + 0.5 - cy) > r) continue;
      std::uint8_t* p = &im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(im.width) + static_cast<std::size_t>(x))];
      p[0] = p[1] = p[2] = 20;
    }
}

TEST_CASE("a face's two dark eyes get the eye bones at their middles, a face without a mirrored pair gets none") {
  auto humanoid = bundled_template("humanoid");
  REQUIRE(humanoid.has_value());
  Image eyes = test::draw_capsules(160, 290, chibi_parts());
  fit_paint_dark_disc(eyes, 55, 85, 6);  // the screen's left: the figure's right eye
  fit_paint_dark_disc(eyes, 105, 85, 6);
  auto fit = fit_template(eyes, *humanoid);
  REQUIRE(fit.has_value());
  CHECK(fit->omitted.empty());
  auto j = joints_by_name(*fit);  // rig space: image - (80, 145)
  REQUIRE((j.count("eye_l") && j.count("eye_r")));
  CHECK(j["eye_l"].x == Approx(105 - 80).margin(0.5));
  CHECK(j["eye_l"].y == Approx(85 - 145).margin(0.5));
  CHECK(j["eye_r"].x == Approx(55 - 80).margin(0.5));
  CHECK(j["eye_r"].y == Approx(85 - 145).margin(0.5));
  for (const Bone& b : fit->bones)  // children of the head
    if (b.name.rfind("eye_", 0) == 0) CHECK(fit->bones[static_cast<std::size_t>(b.parent)].name == "head");

  // One eye and, across the face, a brow (a bar five times longer than high): no pair, no eyes.
  Image brow = test::draw_capsules(160, 290, chibi_parts());
  fit_paint_dark_disc(brow, 55, 85, 6);
  fit_paint_dark_disc(brow, 105, 85, 3, 5);
  auto none = fit_template(brow, *humanoid);
  REQUIRE(none.has_value());
  CHECK(none->omitted == std::vector<std::string>{"eye_l", "eye_r"});
  // The rest of the skeleton is the same either way: spots move no other bone.
  auto plain = fit_template(test::draw_capsules(160, 290, chibi_parts()), *humanoid);
  REQUIRE(plain.has_value());
  REQUIRE(plain->bones.size() + 2 == fit->bones.size());
  const auto pj = joints_by_name(*plain);
  for (const auto& [name, p] : pj) {
    INFO(name);
    CHECK(p.x == j[name].x);
    CHECK(p.y == j[name].y);
  }
  CHECK(plain->score == fit->score);
}

TEST_CASE("a chibi on a ground shadow painted in a dark tint keeps two feet, and auto calls it humanoid") {
  const std::vector<SkeletonTemplate> bundled = test::all_bundled_templates();
  // The shadow: an ellipse wider than the figure under its feet, dark purple, a third opaque, where
  // the figure is transparent. Left in, it joined the feet into one blob with one end of the axis.
  Image im = test::draw_capsules(160, 290, chibi_parts());
  for (int y = 0; y < im.height; ++y)
    for (int x = 0; x < im.width; ++x) {
      std::uint8_t* p = &im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(im.width) + static_cast<std::size_t>(x))];
      if (p[3] != 0 || std::hypot((x + 0.5 - 80) / 70, (y + 0.5 - 272) / 12) > 1) continue;
      p[0] = 80, p[1] = 40, p[2] = 55, p[3] = 85;
    }
  auto chosen = fit_template_auto(im, bundled);
  REQUIRE((chosen && chosen->best));
  CHECK(chosen->best->template_name == "humanoid");
  auto j = joints_by_name(*chosen->best);  // rig space: image - (80, 145)
  // Each foot on its own leg (legs at image x 64..67 and 93..96), not out at the shadow's ends.
  CHECK(std::abs(j["foot_l"].x - (95 - 80)) < 12);
  CHECK(std::abs(j["foot_r"].x - (65 - 80)) < 12);
  CHECK(j["foot_l"].y > j["shin_l"].y);
  CHECK(j["foot_r"].y > j["shin_r"].y);
}

TEST_CASE("template fits are deterministic and move with the sprite") {
  auto humanoid = bundled_template("humanoid");
  REQUIRE(humanoid.has_value());
  const auto a = fit_template(test::draw_capsules(140, 250, figure()), *humanoid);
  const auto b = fit_template(test::draw_capsules(140, 250, figure()), *humanoid);
  const auto c = fit_template(test::draw_capsules(140, 250, figure(), 11, 7), *humanoid);
  REQUIRE((a && b && c));
  CHECK(a->bones == b->bones);
  REQUIRE(a->bones.size() == c->bones.size());
  const auto ja = joint_positions(a->bones), jc = joint_positions(c->bones);
  for (std::size_t i = 0; i < ja.size(); ++i) {
    INFO(a->bones[i].name);
    CHECK(jc[i].x - ja[i].x == Approx(11).margin(1.01));
    CHECK(jc[i].y - ja[i].y == Approx(7).margin(1.01));
  }
}

TEST_CASE("a tree gets a trunk chain into its canopy, optional bones the sprite lacks are left out") {
  auto tree = bundled_template("tree");
  REQUIRE(tree.has_value());
  // A trunk 70 px tall under a round canopy 90 px across.
  const Image im = test::draw_capsules(120, 190, {{{60, 180}, {60, 100}, 7}, {{60, 60}, {60, 60}, 45}});
  auto fit = fit_template(im, *tree);
  REQUIRE(fit.has_value());
  auto j = joints_by_name(*fit);
  int trunk_in_canopy = 0, chain = 0;
  for (const char* name : {"trunk_1", "trunk_2", "trunk_3", "crown"}) {
    REQUIRE(j.count(name) == 1);
    ++chain;
    trunk_in_canopy += j[name].y + 95 < 105;  // above the canopy's lower edge (image y 105)
  }
  CHECK(chain >= 3);
  CHECK(trunk_in_canopy >= 2);
  CHECK(j["trunk"].y > j["trunk_1"].y);
  CHECK(j["trunk_1"].y > j["trunk_2"].y);
  CHECK(j["trunk_2"].y > j["trunk_3"].y);
  // The canopy is round: no branches.
  CHECK(j.count("branch_l") == 0);
  CHECK(std::find(fit->omitted.begin(), fit->omitted.end(), "branch_tip_r") != fit->omitted.end());
}

TEST_CASE("the prop template is one bone at the middle") {
  auto prop = bundled_template("prop");
  REQUIRE(prop.has_value());
  auto fit = fit_template(test::draw_capsules(80, 80, {{{40, 40}, {40, 40}, 30}}), *prop);
  REQUIRE(fit.has_value());
  REQUIRE(fit->bones.size() == 1);
  CHECK(std::hypot(fit->bones[0].x, fit->bones[0].y) < 3);
}

TEST_CASE("auto calls a ring a prop: a loop cut open has no feet") {
  const std::vector<SkeletonTemplate> bundled = test::all_bundled_templates();
  // A ring's medial axis is a cycle; cut open into a tree it has two ends where the cut is, which the
  // humanoid's feet matched (the sample ring scored 0.88 as a humanoid).
  Image ring{128, 128, std::vector<std::uint8_t>(128 * 128 * 4, 0)};
  for (int y = 0; y < 128; ++y)
    for (int x = 0; x < 128; ++x) {
      const double r = std::hypot(x + 0.5 - 64, y + 0.5 - 64);
      if (r < 36 || r > 54) continue;
      std::uint8_t* p = &ring.rgba[4 * (static_cast<std::size_t>(y) * 128 + static_cast<std::size_t>(x))];
      p[0] = 200, p[1] = 80, p[2] = 40, p[3] = 255;
    }
  auto chosen = fit_template_auto(ring, bundled);
  REQUIRE((chosen && chosen->best));
  CHECK(chosen->best->template_name == "prop");
  CHECK(chosen->best->bones.size() == 1);
  CHECK(std::find(chosen->skipped.begin(), chosen->skipped.end(), "humanoid") != chosen->skipped.end());
}

// Rotates v by a radians (+y down, as the engine composes bone transforms).
Vec2 turned(Vec2 v, double a) { return {v.x * std::cos(a) - v.y * std::sin(a), v.x * std::sin(a) + v.y * std::cos(a)}; }

TEST_CASE("a bundled clip plays on two fitted rigs through the same names, as computed by hand") {
  auto humanoid = bundled_template("humanoid");
  auto clip = load_clip_spec("humanoid/walk");
  REQUIRE((humanoid && clip));
  const Image tall = test::draw_capsules(120, 250, figure(14, 70)), chibi = test::draw_capsules(120, 210, figure(30, 26));
  for (const Image* im : {&tall, &chibi}) {
    auto fit = fit_template(*im, *humanoid);
    REQUIRE(fit.has_value());
    Rig rig;
    rig.bones = fit->bones;
    const ClipBinding binding = bind_clip(*clip, rig);
    CHECK(binding.skipped.empty());
    CHECK(binding.bones.size() == clip->tracks.size());  // every track drives a bone in both rigs
    RigPose pose = bind_pose(rig);
    // At t = 0.25 s (a key) the walk's thigh_l turns 0.3 sin(pi/2) = 0.3 rad and its shin_l
    // 0.18 + 0.18 sin(2 pi (0.25 + 0.8)) = 0.18 + 0.18 sin(0.1 pi) rad.
    apply_clip(*clip, binding, 0.25, pose);
    std::vector<Affine2> world(rig.bones.size());
    pose_root_local(rig.bones, pose.bones, world);
    std::map<std::string, std::size_t> at;
    for (std::size_t i = 0; i < rig.bones.size(); ++i) at[rig.bones[i].name] = i;
    const double thigh = 0.3, shin = 0.18 + 0.18 * std::sin(0.1 * std::acos(-1.0));
    const std::vector<Vec2> bind = joint_positions(rig.bones);
    const Vec2 hip = bind[at["thigh_l"]];  // the hips do not move in the walk: the socket stays
    CHECK(world[at["thigh_l"]].e == Approx(hip.x).margin(1e-9));
    CHECK(world[at["thigh_l"]].f == Approx(hip.y).margin(1e-9));
    const Vec2 knee_offset{rig.bones[at["shin_l"]].x, rig.bones[at["shin_l"]].y};
    const Vec2 knee = turned(knee_offset, thigh);
    CHECK(world[at["shin_l"]].e == Approx(hip.x + knee.x).margin(1e-5));
    CHECK(world[at["shin_l"]].f == Approx(hip.y + knee.y).margin(1e-5));
    const Vec2 ankle = turned({rig.bones[at["foot_l"]].x, rig.bones[at["foot_l"]].y}, thigh + shin);
    CHECK(world[at["foot_l"]].e == Approx(hip.x + knee.x + ankle.x).margin(1e-5));
    CHECK(world[at["foot_l"]].f == Approx(hip.y + knee.y + ankle.y).margin(1e-5));
  }
}

TEST_CASE("a clip naming bones a rig lacks skips those tracks with a warning naming them") {
  auto clip = load_clip_spec("quadruped/walk");
  REQUIRE(clip.has_value());
  Rig rig;  // a quadruped rig without the optional tail, standing on its ground bone
  auto quadruped = bundled_template("quadruped");
  REQUIRE(quadruped.has_value());
  REQUIRE(!quadruped->ground.empty());
  rig.bones.push_back({quadruped->ground, -1, 0, 0, 0, false});
  std::vector<std::int64_t> index(quadruped->bones.size(), -1);
  for (std::size_t i = 0; i < quadruped->bones.size(); ++i) {
    const TemplateBone& b = quadruped->bones[i];
    if (b.name.rfind("tail", 0) == 0) continue;
    Bone bone;
    bone.name = b.name;
    bone.parent = b.parent < 0 ? 0 : index[static_cast<std::size_t>(b.parent)];
    bone.x = 5;
    index[i] = static_cast<std::int64_t>(rig.bones.size());
    rig.bones.push_back(bone);
  }
  const ClipBinding binding = bind_clip(*clip, rig, "walk.anim.json");
  std::size_t tail_warnings = 0;
  for (const Diagnostic& d : binding.skipped) {
    CHECK(d.code == "anim.track.path");
    CHECK(d.severity == Severity::Warning);
    tail_warnings += d.message.find("tail_") != std::string::npos;
  }
  CHECK(tail_warnings == 2);
  CHECK(binding.bones.size() + 2 == clip->tracks.size());
  CHECK(load_clip_spec("humanoid/moonwalk").error().code == "anim.clip.unknown");
  CHECK(bundled_clip_names().size() == 11);
}

}  // namespace
}  // namespace rig2d
