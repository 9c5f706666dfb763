// SPDX-License-Identifier: Apache-2.0
// The bundled humanoid idle, walk and run on humanoid rigs as rig2d-autorig makes them
// (--template humanoid, the tool's defaults): on the real figures of tests/data/real-sprites (CC0)
// and on figures drawn in code with their arms against the body, no frame turns more than 1% of the
// triangles inside out, while the arms still move art of their own. Arms placed over the body are a
// layer on the body's weights (HeatWeightsOptions::over_body): before, a hand lying over a thigh took
// the leg's vertices down to the foot and walks folded the legs (2-3% of the triangles). Legs drawn
// touching are cut apart (a slit between them, as an animator draws each leg on its own): before, the
// triangles bridging them turned over when a walk swung the legs together (4-6% on chibi figures).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
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
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/weights/heat_weights.h"
#include "autorig/autorig_internal.h"
#include "weights/leg_slit.h"

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

// The largest share of one vertex the bones named carry together (a limb's bones: an elbow's vertex
// is shared between the upper and lower arm and still moves with the arm).
double clips_largest_weight(const Rig& rig, const std::vector<std::string>& names) {
  double out = 0;
  const Part& part = rig.parts.at(0);
  const std::size_t slots = part.skin_indices.size() / part.mesh.verts.size();
  for (std::size_t v = 0; v < part.mesh.verts.size(); ++v) {
    double carried = 0;
    for (std::size_t s = v * slots; s < (v + 1) * slots; ++s)
      for (const std::string& n : names)
        if (rig.bones.at(part.skin_indices[s]).name == n) carried += part.skin_weights[s];
    out = std::max(out, carried);
  }
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

// A figure standing with its legs apart and its feet turned in until their toes touch (a gap
// between the shins, none between the feet), drawn in a 120 x 150 sprite.
constexpr double kSlitHip = 80, kSlitAnkle = 128;
Image clips_touching_feet() {
  const std::vector<test::Capsule> parts = {
      {{60, 26}, {60, 26}, 22},                     // head
      {{60, 52}, {60, kSlitHip}, 18},               // torso
      {{50, kSlitHip}, {44, kSlitAnkle}, 9},        // legs, a gap between the shins
      {{70, kSlitHip}, {76, kSlitAnkle}, 9},
      {{40, kSlitAnkle + 6}, {57, kSlitAnkle + 8}, 8},  // feet turned in, toes overlapping 6 px
      {{80, kSlitAnkle + 6}, {63, kSlitAnkle + 8}, 8}};
  return test::draw_capsules(120, 150, parts);
}

// Humanoid bones placed on that figure by hand (texture px from the sprite's centre), named as the
// template names them so the bundled clips drive them.
std::vector<Bone> clips_touching_feet_bones() {
  struct Joint {
    const char* name;
    std::int64_t parent;
    double x, y;  // texture px
  };
  const Joint joints[] = {{"hips", -1, 60, kSlitHip - 8},     {"spine", 0, 60, 62},
                          {"chest", 1, 60, 50},               {"neck", 2, 60, 44},
                          {"head", 3, 60, 30},                {"thigh_l", 0, 70, kSlitHip},
                          {"shin_l", 5, 73, 104},             {"foot_l", 6, 76, kSlitAnkle},
                          {"thigh_r", 0, 50, kSlitHip},       {"shin_r", 8, 47, 104},
                          {"foot_r", 9, 44, kSlitAnkle}};
  std::vector<Bone> bones;
  for (const Joint& j : joints) {
    Bone b;
    b.name = j.name;
    b.parent = j.parent;
    const double px = j.parent < 0 ? 60 : joints[j.parent].x, py = j.parent < 0 ? 75 : joints[j.parent].y;
    b.x = j.x - px;  // no rotations: local offsets are the joints' differences
    b.y = j.y - py;
    bones.push_back(std::move(b));
  }
  return bones;
}

// The figure rigged with its hand-placed bones (outline mesh, bone heat), cut between the legs
// first when `slit`.
Rig clips_touching_feet_rig(bool slit) {
  const Image image = clips_touching_feet();
  const std::vector<Bone> bones = clips_touching_feet_bones();
  auto mesh = outline_mesh(image);
  REQUIRE(mesh.has_value());
  if (slit) {
    detail::LegPair legs;
    legs.left.assign(bones.size(), 0);
    legs.right.assign(bones.size(), 0);
    for (std::size_t b = 5; b <= 7; ++b) legs.left[b] = 1;
    for (std::size_t b = 8; b <= 10; ++b) legs.right[b] = 1;
    CHECK(detail::slit_between_legs(*mesh, bones, std::vector<detail::LegPair>{legs}, 4096) >= 2);
  }
  auto heat = compute_heat_weights(*mesh, bones);
  REQUIRE(heat.has_value());
  Rig rig;
  rig.bones = bones;
  Part part;
  part.mesh = std::move(*mesh);
  part.skin_indices = std::move(heat->weights.indices);
  part.skin_weights = std::move(heat->weights.weights);
  rig.parts.push_back(std::move(part));
  // Standing on the template's ground bone below the feet, as a fit puts it: the clips name paths from it.
  detail::add_ground_bone(rig, Bone{bundled_template("humanoid")->ground, -1, 0, kSlitAnkle + 4 - 75, 0, false});
  return rig;
}

// The worst frame's flipped share of walk and run.
double clips_legs_worst_flips(const Rig& rig) {
  double worst = 0;
  for (const char* name : {"humanoid/walk", "humanoid/run"}) {
    auto clip = load_clip_spec(name);
    REQUIRE(clip.has_value());
    worst = std::max(worst, check_clip_deformation(rig, *clip, name).stats.flip_fraction);
  }
  return worst;
}

// The share of triangles with one corner mostly skinned by a bone of one leg and another corner
// mostly by a bone of the other leg (bridging the two legs), of those lying below `below_y` (image px).
double clips_bridging_share(const Rig& rig, double below_y) {
  const Part& part = rig.parts.at(0);
  auto side = [&](std::uint32_t v) {
    const std::string& name = rig.bones.at(part.skin_indices[4 * v]).name;  // slot 0: the largest weight
    for (const char* leg : {"thigh", "shin", "foot"}) {
      if (name == std::string(leg) + "_l") return 1;
      if (name == std::string(leg) + "_r") return 2;
    }
    return 0;
  };
  std::size_t bridging = 0;
  const std::size_t nt = part.mesh.tris.size() / 3;
  for (std::size_t t = 0; t < nt; ++t) {
    int sides = 0;
    bool below = true;
    for (int k = 0; k < 3; ++k) {
      sides |= side(part.mesh.tris[3 * t + k]);
      below = below && part.mesh.verts[part.mesh.tris[3 * t + k]].y + 75 > below_y;  // pivot at the centre
    }
    bridging += below && sides == 3;
  }
  return nt ? static_cast<double>(bridging) / static_cast<double>(nt) : 0;
}

TEST_CASE("feet drawn touching: walk and run fold the triangles between them unless the mesh is cut there") {
  const Rig whole = clips_touching_feet_rig(false);
  const Rig cut = clips_touching_feet_rig(true);
  // Uncut, triangles bridge the feet and the walk's legs swinging together turn them over.
  CHECK(clips_bridging_share(whole, kSlitAnkle) > 0);
  CHECK(clips_legs_worst_flips(whole) > 0.01);
  // Cut, no triangle below the knees has a corner on each leg (only the crotch, where the cut ends,
  // still joins them), and every frame stays within 1%.
  CHECK(clips_bridging_share(cut, 104) == 0);
  CHECK(clips_legs_worst_flips(cut) <= 0.01);
  // The cut only doubles vertices: the same art, the same triangles.
  const Mesh& a = whole.parts[0].mesh;
  const Mesh& b = cut.parts[0].mesh;
  CHECK(b.tris.size() == a.tris.size());
  CHECK(b.verts.size() > a.verts.size());
  for (std::size_t v = a.verts.size(); v < b.verts.size(); ++v)
    CHECK(std::find(a.verts.begin(), a.verts.end(), b.verts[v]) != a.verts.end());
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

TEST_CASE("figures with their arms against the body play idle, walk and run within 1% flipped, the arms move") {
  struct Proportions {
    double head, torso, leg;
  };
  for (const Proportions p : {Proportions{14, 46, 60}, Proportions{20, 40, 44}, Proportions{28, 34, 30}}) {
    INFO("head " << p.head << " torso " << p.torso << " leg " << p.leg);
    const Rig rig = clips_humanoid_rig(clips_figure(p.head, p.torso, p.leg));
    clips_check_plays(rig);
    // Not by giving the arms nothing: each arm still carries most of some vertex. (The chibi's arms,
    // against a body as wide as its head, carry at most 0.54-0.55 of a vertex: barely most.)
    CHECK(clips_largest_weight(rig, {"upper_arm_l", "lower_arm_l", "hand_l"}) > 0.5);
    CHECK(clips_largest_weight(rig, {"upper_arm_r", "lower_arm_r", "hand_r"}) > 0.5);
  }
}

}  // namespace
}  // namespace rig2d
