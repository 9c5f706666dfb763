// SPDX-License-Identifier: Apache-2.0
// The shape skeleton on sprites drawn in code: joints inside, a chain per limb, nothing rigid.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "../geometry/masks.h"
#include "rig2d/autorig/autorig.h"
#include "rig2d/quality/deform_check.h"
#include "rig2d/skeleton/shape_skeleton.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d {
namespace {

using test::Capsule;
using test::make_sprite;

// A sprite made of capsules; `limbs` are the ones whose far ends (`b`) are tips to check.
struct Shape {
  int width = 0, height = 0;
  std::vector<Capsule> body;
  std::vector<Capsule> limbs;
  bool contains(double x, double y) const {
    for (const auto& c : body)
      if (c.contains(x, y)) return true;
    for (const auto& c : limbs)
      if (c.contains(x, y)) return true;
    return false;
  }
  Image image() const {
    return make_sprite(width, height, [this](double x, double y) { return contains(x, y); });
  }
};

Shape figure() {  // head, torso, two arms, two legs 18 px apart at the feet
  return {120, 160,
          {{{60, 55}, {60, 95}, 16}},
          {{{60, 50}, {60, 16}, 13}, {{50, 60}, {16, 96}, 6}, {{70, 60}, {104, 96}, 6},
           {{53, 95}, {44, 150}, 7}, {{67, 95}, {76, 150}, 7}}};
}

Shape star() {  // five arms round a disc
  Shape s{180, 180, {{{90, 90}, {90, 90}, 22}}, {}};
  for (int k = 0; k < 5; ++k) {
    const double a = -std::numbers::pi / 2 + 2 * std::numbers::pi * k / 5;
    s.limbs.push_back({{90 + 20 * std::cos(a), 90 + 20 * std::sin(a)}, {90 + 80 * std::cos(a), 90 + 80 * std::sin(a)}, 9});
  }
  return s;
}

Shape spider() {  // a round body with eight thin legs, four a side, each bending down at a knee
  Shape s{240, 200, {{{120, 100}, {120, 100}, 30}}, {}};
  for (int k = 0; k < 8; ++k) {
    const bool left = k < 4;
    const double deg = left ? 145 + 20 * k : 35 - 20 * (k - 4);
    const double a = deg * std::numbers::pi / 180, down = (left ? deg - 60 : deg + 60) * std::numbers::pi / 180;
    const Vec2 knee{120 + 68 * std::cos(a), 100 + 68 * std::sin(a)};
    s.body.push_back({{120, 100}, knee, 3.5});
    s.limbs.push_back({knee, {knee.x + 35 * std::cos(down), knee.y + 35 * std::sin(down)}, 3.5});
  }
  return s;
}

Shape tree() {  // a trunk with three branches, one with a twig
  return {200, 200,
          {{{100, 190}, {100, 112}, 10}},
          {{{100, 140}, {52, 86}, 6}, {{100, 128}, {148, 84}, 6}, {{100, 112}, {100, 24}, 7}, {{76, 113}, {44, 126}, 4}}};
}

Shape small_sprite() {  // 40 x 60: a body on two stubby legs
  return {40, 60, {{{20, 18}, {20, 34}, 11}}, {{{15, 38}, {12, 56}, 4}, {{25, 38}, {28, 56}, 4}}};
}

bool worm_contains(double x, double y) {
  for (double t = 20; t <= 220; t += 0.5)
    if (std::hypot(x - t, y - (60 + 36 * std::sin(2 * std::numbers::pi * (t - 20) / 200))) <= 12) return true;
  return false;
}

std::vector<Vec2> joints_in_image(const std::vector<Bone>& bones, const Image& image) {
  std::vector<Vec2> j = joint_positions(bones);
  for (Vec2& p : j) p = {p.x + 0.5 * image.width, p.y + 0.5 * image.height};
  return j;
}

bool opaque_at(const Image& image, Vec2 p) {
  const int x = static_cast<int>(std::floor(p.x)), y = static_cast<int>(std::floor(p.y));
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return false;
  return image.rgba[4 * (static_cast<std::size_t>(y) * image.width + x) + 3] > 8;
}

Rig shape_rig(const Image& image) {
  AutorigOptions o;
  o.mesh = MeshMode::Outline;
  o.skeleton = SkeletonMode::Shape;
  o.outline.max_edge = 10;  // interior vertices all along each limb
  auto rig = autorig_image(image, o);
  REQUIRE(rig);
  return std::move(*rig);
}

std::vector<std::uint32_t> dominant_bones(const Part& part) {
  std::vector<std::uint32_t> out;
  for (std::size_t v = 0; v < part.mesh.verts.size(); ++v) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < 4; ++k)
      if (part.skin_weights[4 * v + k] > part.skin_weights[4 * v + best]) best = k;
    out.push_back(part.skin_indices[4 * v + best]);
  }
  return out;
}

// Fraction of the vertices each bone dominates.
std::vector<double> dominance_shares(const Rig& rig) {
  const Part& part = rig.parts.at(0);
  std::vector<double> share(rig.bones.size(), 0);
  const auto dom = dominant_bones(part);
  for (std::uint32_t b : dom) share[b] += 1.0 / static_cast<double>(dom.size());
  return share;
}

// The bones of a limb's own chain: the bone whose joint inside the limb lies nearest its tip (a short
// limb may have a single bone, at its root) and that bone's ancestors, less every ancestor shared
// with another limb's tip bone (the body's bones).
std::vector<std::set<std::uint32_t>> own_chains(const Shape& shape, const std::vector<Bone>& bones,
                                                const std::vector<Vec2>& joints) {
  std::vector<std::set<std::uint32_t>> chains;
  for (const Capsule& limb : shape.limbs) {
    const auto to_tip = [&](std::uint32_t i) {
      const double d = std::hypot(joints[i].x - limb.b.x, joints[i].y - limb.b.y);
      return limb.contains(joints[i].x, joints[i].y, 3) ? d : 1e6 + d;
    };
    std::uint32_t tip = 0;
    for (std::uint32_t i = 1; i < joints.size(); ++i)
      if (to_tip(i) < to_tip(tip)) tip = i;
    std::set<std::uint32_t> chain;
    for (std::int64_t b = tip; b >= 0; b = bones[static_cast<std::size_t>(b)].parent) chain.insert(static_cast<std::uint32_t>(b));
    chains.push_back(std::move(chain));
  }
  std::vector<std::set<std::uint32_t>> own = chains;
  for (std::size_t l = 0; l < chains.size(); ++l)
    for (std::size_t m = 0; m < chains.size(); ++m)
      if (m != l)
        for (std::uint32_t b : chains[m]) own[l].erase(b);
  return own;
}

// Every limb's outer third is dominated by bones of its own chain, never by the body's or another
// limb's.
void check_limbs_own_their_ends(const Shape& shape, const Rig& rig, const Image& image) {
  const Part& part = rig.parts.at(0);
  const auto dom = dominant_bones(part);
  const auto own = own_chains(shape, rig.bones, joints_in_image(rig.bones, image));
  for (std::size_t l = 0; l < shape.limbs.size(); ++l) {
    const Capsule& limb = shape.limbs[l];
    const double length = std::hypot(limb.b.x - limb.a.x, limb.b.y - limb.a.y);
    std::size_t outer = 0;
    for (std::size_t v = 0; v < part.mesh.verts.size(); ++v) {
      const Vec2 p{part.mesh.verts[v].x + 0.5 * image.width, part.mesh.verts[v].y + 0.5 * image.height};
      const double to_tip = std::hypot(p.x - limb.b.x, p.y - limb.b.y);
      if (!limb.contains(p.x, p.y, 3) || to_tip > limb.r + length / 3) continue;
      const auto in_other = [&](const Capsule& c) { return &c != &limb && c.contains(p.x, p.y, 3); };
      if (std::any_of(shape.limbs.begin(), shape.limbs.end(), in_other)) continue;
      ++outer;
      INFO("limb " << l << " vertex " << v << " (" << p.x << ", " << p.y << ") dominated by " << rig.bones[dom[v]].name);
      CHECK(own[l].count(dom[v]) == 1);
    }
    INFO("limb " << l);
    CHECK(outer >= 3);
  }
}

void check_joints_inside(const std::vector<Bone>& bones, const Image& image) {
  for (const Vec2& j : joints_in_image(bones, image)) {
    INFO("joint (" << j.x << ", " << j.y << ")");
    CHECK(opaque_at(image, j));
  }
}

void check_not_rigid(const Rig& rig) {
  const auto share = dominance_shares(rig);
  const auto owners = std::count_if(share.begin(), share.end(), [](double s) { return s >= 0.05; });
  CHECK(owners >= 2);
}

// The bones of a body with one detached island (two islands, every joint inside) and their joints in
// image px.
std::pair<std::vector<Bone>, std::vector<Vec2>> two_island_bones(const Image& image) {
  ShapeSkeletonStats stats;
  auto bones = shape_skeleton(image, {}, &stats);
  REQUIRE(bones);
  CHECK(stats.islands == 2);
  check_joints_inside(*bones, image);
  return {*bones, joints_in_image(*bones, image)};
}

}  // namespace

TEST_CASE("shape_skeleton: a chain per limb on generated characters", "[skeleton]") {
  const std::vector<std::pair<std::string, Shape>> shapes{
      {"figure", figure()}, {"star", star()}, {"spider", spider()}, {"tree", tree()}, {"small 40x60", small_sprite()}};
  for (const auto& [name, shape] : shapes) {
    SECTION(name) {
      const Image image = shape.image();
      ShapeSkeletonStats stats;
      auto bones = shape_skeleton(image, {}, &stats);
      REQUIRE(bones);
      check_joints_inside(*bones, image);
      CHECK(stats.tips >= shape.limbs.size());
      const Rig rig = shape_rig(image);
      check_limbs_own_their_ends(shape, rig, image);
      check_not_rigid(rig);
    }
  }
}

TEST_CASE("shape_skeleton: a leg bends on its own", "[skeleton]") {
  const Shape shape = figure();
  const Image image = shape.image();
  auto bones = shape_skeleton(image);
  REQUIRE(bones);
  // Bones are parents first; the two legs have separate chains below the body.
  std::set<std::string> names;
  for (const Bone& b : *bones) {
    CHECK(b.parent < static_cast<std::int64_t>(&b - bones->data()));
    CHECK(b.rot == 0);
    names.insert(b.name);
  }
  CHECK(names.size() == bones->size());
  CHECK(names.count("root") == 1);
  CHECK(names.count("down_l_1") == 1);
  CHECK(names.count("down_r_1") == 1);
  CHECK(names.count("left_1") == 1);
  CHECK(names.count("right_1") == 1);
}

TEST_CASE("shape_skeleton: an S-curved worm gets bones along its curve", "[skeleton]") {
  const Image image = make_sprite(240, 120, worm_contains);
  auto bones = shape_skeleton(image);
  REQUIRE(bones);
  CHECK(bones->size() >= 3);
  check_joints_inside(*bones, image);
  // The joints follow the curve: each lies within the worm's half-width of its centre line.
  for (const Vec2& j : joints_in_image(*bones, image)) {
    const double centre = 60 + 36 * std::sin(2 * std::numbers::pi * (j.x - 20) / 200);
    CHECK(std::abs(j.y - centre) <= 12);
  }
  check_not_rigid(shape_rig(image));
}

TEST_CASE("shape_skeleton: islands get their own chains, parented to the nearest bone", "[skeleton]") {
  // A body and a detached hat above it.
  const Image image = make_sprite(100, 150, [](double x, double y) {
    return Capsule{{50, 60}, {50, 135}, 14}.contains(x, y) || Capsule{{25, 14}, {75, 14}, 8}.contains(x, y);
  });
  const auto [bones, joints] = two_island_bones(image);
  int hat_roots = 0;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    if (bones[i].name != "island1") continue;
    ++hat_roots;
    CHECK(joints[i].y < 30);  // in the hat
    REQUIRE(bones[i].parent >= 0);
    CHECK(joints[static_cast<std::size_t>(bones[i].parent)].y > 40);  // parented into the body
  }
  CHECK(hat_roots == 1);
  check_not_rigid(shape_rig(image));
}

TEST_CASE("shape_skeleton: a round island gets one bone, turning on the side facing the body", "[skeleton]") {
  // A body and a detached round head above it: a small head (0.4 of the body's size) and one as large
  // as a cartoon's (0.8), which has no limb and would be folded along its principal axis.
  for (const double r : {12.0, 24.0}) {
    CAPTURE(r);
    const double cy = 6 + r;  // the head's centre
    const Image image = make_sprite(100, static_cast<int>(2 * r + 120), [&](double x, double y) {
      return Capsule{{50, 2 * r + 24}, {50, 2 * r + 99}, 14}.contains(x, y) || std::hypot(x - 50, y - cy) <= r;
    });
    const auto [bones, joints] = two_island_bones(image);
    int in_head = 0;
    for (std::size_t i = 0; i < bones.size(); ++i) {
      if (joints[i].y >= cy - r && joints[i].y <= cy + r) {
        ++in_head;
        CHECK(bones[i].name == "island1");
        CHECK(joints[i].y > cy + 0.5 * r);  // at the head's lower rim (the neck), not its middle
        REQUIRE(bones[i].parent >= 0);
        CHECK(joints[static_cast<std::size_t>(bones[i].parent)].y > cy + r + 5);  // hangs from the body
      }
    }
    CHECK(in_head == 1);
    const Rig rig = shape_rig(image);
    const DeformReport report = check_deformation(rig, {});
    for (const PartDeformStats& part : report.stats.parts) CHECK(part.flip_fraction == 0);
    for (double share : dominance_shares(rig)) CHECK(share > 0);  // every bone leads some vertices
  }
}

TEST_CASE("shape_skeleton: small holes and bumps make no bones", "[skeleton]") {
  const Image plain = make_sprite(60, 200, [](double x, double y) { return Capsule{{30, 20}, {30, 180}, 18}.contains(x, y); });
  const Image bumpy = make_sprite(60, 200, [](double x, double y) {
    const bool eye = std::hypot(x - 30, y - 60) < 3;  // a small hole
    const bool bump = std::hypot(x - 48, y - 120) < 4;  // a 1-2 px bump on the outline
    return (Capsule{{30, 20}, {30, 180}, 18}.contains(x, y) && !eye) || bump;
  });
  ShapeSkeletonStats a, b;
  auto plain_bones = shape_skeleton(plain, {}, &a);
  auto bumpy_bones = shape_skeleton(bumpy, {}, &b);
  REQUIRE(plain_bones);
  REQUIRE(bumpy_bones);
  CHECK(b.holes_filled > 0);
  CHECK(a.limbs == 2);  // the root sits mid-body: one chain up, one down
  CHECK(b.limbs == a.limbs);
  CHECK(bumpy_bones->size() == plain_bones->size());
}

TEST_CASE("shape_skeleton: a disc falls back to its principal axis and is not rigid", "[skeleton]") {
  const Image disc = make_sprite(96, 96, [](double x, double y) { return std::hypot(x - 48, y - 48) <= 40; });
  ShapeSkeletonStats stats;
  auto bones = shape_skeleton(disc, {}, &stats);
  REQUIRE(bones);
  CHECK(stats.axis_fallback);
  CHECK(bones->size() >= 2);
  check_joints_inside(*bones, disc);
  check_not_rigid(shape_rig(disc));
}

TEST_CASE("shape_skeleton: rigid_reach gives a compact piece one bone, a long one its chains", "[skeleton]") {
  // The disc's axis reaches about its own radius from the root (1x), the 1.6:1 bar's about 1.6 times its
  // half-width, a 5:1 bar five times: under rigid_reach 2 the first two are rigid.
  const Image disc = make_sprite(96, 96, [](double x, double y) { return std::hypot(x - 48, y - 48) <= 40; });
  const Image bar2 = make_sprite(100, 60, [](double x, double y) { return Capsule{{40, 30}, {60, 30}, 16}.contains(x, y); });
  const Image bar5 = make_sprite(200, 50, [](double x, double y) { return Capsule{{25, 25}, {175, 25}, 16}.contains(x, y); });
  ShapeSkeletonOptions o;
  o.rigid_reach = 2;
  for (const Image* im : {&disc, &bar2}) {
    ShapeSkeletonStats st;
    auto bones = shape_skeleton(*im, o, &st);
    REQUIRE(bones);
    CHECK(bones->size() == 1);
    CHECK(st.rigid_pieces == 1);
    check_joints_inside(*bones, *im);
  }
  ShapeSkeletonStats st;
  auto bones = shape_skeleton(bar5, o, &st);
  REQUIRE(bones);
  CHECK(bones->size() >= 3);
  CHECK(st.rigid_pieces == 0);
  o.rigid_reach = 101;
  CHECK_FALSE(check_shape_skeleton_options(o));
}

TEST_CASE("shape_skeleton: rigid_length gives a piece that reaches under it one bone", "[skeleton]") {
  // A 30 x 6 px stroke (a mouth) reaches about 14 px each way from its middle: its own chains without
  // rigid_length, one bone under 16 px; drawn 3x larger it reaches 45 px and keeps its chains.
  const Image small = make_sprite(40, 16, [](double x, double y) { return Capsule{{8, 8}, {32, 8}, 3}.contains(x, y); });
  const Image large = make_sprite(120, 48, [](double x, double y) { return Capsule{{24, 24}, {96, 24}, 9}.contains(x, y); });
  ShapeSkeletonOptions o;
  auto plain = shape_skeleton(small, o);
  REQUIRE(plain);
  CHECK(plain->size() >= 3);
  o.rigid_length = 16;
  ShapeSkeletonStats st;
  auto rigid = shape_skeleton(small, o, &st);
  REQUIRE(rigid);
  CHECK(rigid->size() == 1);
  CHECK(st.rigid_pieces == 1);
  auto kept = shape_skeleton(large, o, &st);
  REQUIRE(kept);
  CHECK(kept->size() >= 3);
  CHECK(st.rigid_pieces == 0);
  o.rigid_length = -1;
  CHECK_FALSE(check_shape_skeleton_options(o));
}

TEST_CASE("shape_skeleton: a closed loop moves as one, a loop with a free end keeps its chains", "[skeleton]") {
  // A ring's axis is a cycle: chained around it, the halves meet again and tear apart when one bends.
  const auto ring_at = [](double x, double y) {
    const double r = std::hypot(x - 64, y - 64);
    return r >= 36 && r <= 54;
  };
  const Image ring = make_sprite(128, 128, ring_at);
  ShapeSkeletonStats st;
  auto bones = shape_skeleton(ring, {}, &st);
  REQUIRE(bones);
  CHECK(bones->size() == 1);
  CHECK(st.loop_pieces == 1);
  check_joints_inside(*bones, ring);
  const DeformReport report = check_deformation(shape_rig(ring), {});
  for (const PartDeformStats& part : report.stats.parts) CHECK(part.flip_fraction == 0);
  // A handle below it (a free tip): a key ring's chain still bends along the handle.
  const Image keyring = make_sprite(128, 220, [&](double x, double y) {
    return ring_at(x, y) || Capsule{{64, 110}, {64, 200}, 10}.contains(x, y);
  });
  ShapeSkeletonStats kst;
  auto key_bones = shape_skeleton(keyring, {}, &kst);
  REQUIRE(key_bones);
  CHECK(kst.loop_pieces == 0);
  CHECK(key_bones->size() >= 2);
  // ... and the ring itself has no bones: chained, its halves would tear apart where the cycle was
  // cut. Every joint lies on the handle, below the ring's inner edge (y = 64 + 36).
  CHECK(kst.loop_limbs >= 1);
  for (const Vec2& joint : joints_in_image(*key_bones, keyring)) CHECK(joint.y > 100);
  const DeformReport key_report = check_deformation(shape_rig(keyring), {});
  for (const PartDeformStats& part : key_report.stats.parts) CHECK(part.flip_fraction == 0);
}

TEST_CASE("shape_skeleton: the rims of a pair of glasses get no bones, the bridge and temples do", "[skeleton]") {
  // Two rings 60 px wide, a bridge between them and a temple leaving each outer side: the rims are
  // cycles of the axis with free ends beside them, so the piece is no closed loop, but no bone runs
  // around a rim.
  const auto rim = [](double x, double y, double cx) {
    const double r = std::hypot(x - cx, y - 50);
    return r >= 22 && r <= 30;
  };
  const Image glasses = make_sprite(300, 100, [&](double x, double y) {
    return rim(x, y, 100) || rim(x, y, 200) || Capsule{{128, 50}, {172, 50}, 5}.contains(x, y) ||
           Capsule{{10, 50}, {72, 50}, 5}.contains(x, y) || Capsule{{228, 50}, {290, 50}, 5}.contains(x, y);
  });
  ShapeSkeletonStats st;
  auto bones = shape_skeleton(glasses, {}, &st);
  REQUIRE(bones);
  CHECK(st.loop_pieces == 0);
  CHECK(st.loop_limbs >= 2);
  check_joints_inside(*bones, glasses);
  // No joint inside either rim's band past the bridge and temple ends (the rims span x 70..130 and
  // 170..230; their left and right ends are where the temples and bridge join).
  const auto on_rim = [](Vec2 joint) {
    return (std::abs(joint.x - 100) < 20 || std::abs(joint.x - 200) < 20) && std::abs(joint.y - 50) > 10;
  };
  for (const Vec2& joint : joints_in_image(*bones, glasses)) CHECK_FALSE(on_rim(joint));
  const DeformReport report = check_deformation(shape_rig(glasses), {});
  for (const PartDeformStats& part : report.stats.parts) CHECK(part.flip_fraction == 0);
  // A budget that cuts the temples keeps to its count and puts no bones back around a rim.
  for (int budget : {2, 3, 4}) {
    ShapeSkeletonOptions o;
    o.max_bones = budget;
    auto cut = shape_skeleton(glasses, o);
    REQUIRE(cut);
    CHECK(cut->size() <= static_cast<std::size_t>(budget));
    check_joints_inside(*cut, glasses);
    for (const Vec2& joint : joints_in_image(*cut, glasses)) CHECK_FALSE(on_rim(joint));
  }
}

TEST_CASE("shape_skeleton: arms drawn with their hands on the hips move with the body", "[skeleton]") {
  // Each arm and the flank beside it enclose a gap: chained, a bent arm tore from the hip (2.9% of
  // the triangles flipped at 60 deg). The legs below keep their chains.
  const Image figure = test::draw_capsules(240, 260, {{{120, 40}, {120, 40}, 22}, {{120, 70}, {120, 150}, 20},
                                                {{108, 150}, {100, 240}, 9}, {{132, 150}, {140, 240}, 9},
                                                {{102, 72}, {40, 105}, 7}, {{40, 105}, {100, 140}, 7},
                                                {{138, 72}, {200, 105}, 7}, {{200, 105}, {140, 140}, 7}});
  ShapeSkeletonStats st;
  auto bones = shape_skeleton(figure, {}, &st);
  REQUIRE(bones);
  CHECK(st.loop_limbs >= 2);
  check_joints_inside(*bones, figure);
  for (const Vec2& joint : joints_in_image(*bones, figure)) CHECK(std::abs(joint.x - 120) < 35);  // none on an arm
  std::size_t below_hips = 0;
  for (const Vec2& joint : joints_in_image(*bones, figure)) below_hips += joint.y > 170;
  CHECK(below_hips >= 2);  // the legs bend
  const DeformReport report = check_deformation(shape_rig(figure), {});
  for (const PartDeformStats& part : report.stats.parts) CHECK(part.flip_fraction == 0);
}

TEST_CASE("shape_skeleton: the same bones wherever the sprite sits, and deterministic", "[skeleton]") {
  const Shape shape = figure();
  const auto placed = [&](int dx, int dy) {
    return make_sprite(200, 220, [&](double x, double y) { return shape.contains(x - dx, y - dy); });
  };
  const Image a = placed(0, 0), b = placed(37, 23);
  auto ba = shape_skeleton(a), bb = shape_skeleton(b), again = shape_skeleton(a);
  REQUIRE(ba);
  REQUIRE(bb);
  REQUIRE(again);
  CHECK(*ba == *again);
  REQUIRE(ba->size() == bb->size());
  const auto ja = joints_in_image(*ba, a), jb = joints_in_image(*bb, b);
  for (std::size_t i = 0; i < ja.size(); ++i) {
    CHECK((*ba)[i].name == (*bb)[i].name);
    CHECK(jb[i].x == Approx(ja[i].x + 37).margin(1e-9));
    CHECK(jb[i].y == Approx(ja[i].y + 23).margin(1e-9));
  }
}

TEST_CASE("shape_skeleton: the bone budget holds", "[skeleton]") {
  const Image image = spider().image();
  for (int budget : {2, 5, 9, 16}) {
    ShapeSkeletonOptions o;
    o.max_bones = budget;
    auto bones = shape_skeleton(image, o);
    REQUIRE(bones);
    CHECK(bones->size() <= static_cast<std::size_t>(budget));
    CHECK(bones->size() >= 2);
  }
}

TEST_CASE("shape_skeleton: degenerate sprites give valid rigs", "[skeleton]") {
  for (const auto& [name, image] : test::property_sprites()) {
    SECTION(name) {
      auto bones = shape_skeleton(image);
      REQUIRE(bones);
      CHECK(!bones->empty());
      CHECK(bones->size() <= 32);
      check_joints_inside(*bones, image);
      AutorigOptions o;
      o.mesh = MeshMode::Outline;
      o.skeleton = SkeletonMode::Shape;
      auto rig = autorig_image(image, o);
      REQUIRE(rig);
      CHECK(verify_rig(*rig));
    }
  }
}

TEST_CASE("shape_skeleton: a shape thinner than half a working cell keeps its chain", "[skeleton]") {
  // 2-3 px ropes 2000-3000 px long: the working grid's cells are 13-19 px, so no cell is half covered.
  struct Rope {
    const char* name;
    int width, height;
    std::function<bool(double, double)> inside;
    double length;  // px the joints must spread over, at least
  };
  const std::vector<Rope> ropes{
      {"2000x3 bar", 2000, 3, [](double, double) { return true; }, 1000},
      {"3x2000 bar", 3, 2000, [](double, double) { return true; }, 1000},
      {"3000x2 bar", 3000, 2, [](double, double) { return true; }, 1500},
      {"2 px diagonal", 1400, 1400, [](double x, double y) { return std::fabs(x - y) < 1.5; }, 1000},
  };
  for (const Rope& rope : ropes) {
    SECTION(rope.name) {
      const Image image = make_sprite(rope.width, rope.height, rope.inside, false);
      auto bones = shape_skeleton(image);
      REQUIRE(bones);
      REQUIRE(bones->size() >= 3);
      CHECK(bones->size() <= 32);
      check_joints_inside(*bones, image);
      const std::vector<Vec2> joints = joints_in_image(*bones, image);
      double spread = 0;
      for (const Vec2& a : joints)
        for (const Vec2& b : joints) spread = std::max(spread, std::hypot(a.x - b.x, a.y - b.y));
      CHECK(spread >= rope.length);
      AutorigOptions o;  // the CLI's default pipeline rigs it
      o.mesh = MeshMode::Outline;
      o.skeleton = SkeletonMode::Shape;
      auto rig = autorig_image(image, o);
      REQUIRE(rig);
      CHECK(verify_rig(*rig));
    }
  }
}

// The spider drawn five times larger with legs 4 px wide: the working grid's cells are twice that,
// so a leg running along a cell row's edge half covers no cell.
Shape large_thin_spider() {
  const Shape small = spider();
  const double k = 5;
  const auto scaled = [k](const Capsule& c, double r) {
    return Capsule{{c.a.x * k, c.a.y * k}, {c.b.x * k, c.b.y * k}, r};
  };
  Shape s{static_cast<int>(small.width * k), static_cast<int>(small.height * k), {}, {}};
  s.body.push_back(scaled(small.body[0], small.body[0].r * k));
  for (std::size_t i = 1; i < small.body.size(); ++i) s.body.push_back(scaled(small.body[i], 2));
  for (const Capsule& limb : small.limbs) s.limbs.push_back(scaled(limb, 2));
  return s;
}

TEST_CASE("shape_skeleton: legs thinner than half a working cell on a large body keep their chains", "[skeleton]") {
  const Shape shape = large_thin_spider();
  const Image image = make_sprite(
      shape.width, shape.height, [&](double x, double y) { return shape.contains(x, y); }, false);
  ShapeSkeletonStats stats;
  auto bones = shape_skeleton(image, {}, &stats);
  REQUIRE(bones);
  REQUIRE(stats.cell >= 8);
  check_joints_inside(*bones, image);
  CHECK(stats.tips >= shape.limbs.size());
  // Each leg bends at its knee: a joint within a few px of it.
  const std::vector<Vec2> joints = joints_in_image(*bones, image);
  for (std::size_t l = 0; l < shape.limbs.size(); ++l) {
    const Vec2 knee = shape.limbs[l].a;
    double nearest = 1e9;
    for (const Vec2& j : joints) nearest = std::min(nearest, std::hypot(j.x - knee.x, j.y - knee.y));
    INFO("leg " << l << " knee (" << knee.x << ", " << knee.y << ")");
    CHECK(nearest <= 3 * stats.cell);
  }
  AutorigOptions o;  // the CLI's default pipeline
  o.mesh = MeshMode::Outline;
  o.skeleton = SkeletonMode::Shape;
  auto rig = autorig_image(image, o);
  REQUIRE(rig);
  check_limbs_own_their_ends(shape, *rig, image);
}

TEST_CASE("autorig: the outline mesh is fine enough to bend between the bones", "[skeleton][pipeline]") {
  // A 40x30 blob gets bones about 9 px apart; a 64 px edge bound would leave one inner vertex.
  const Image blob = make_sprite(40, 30, [](double x, double y) { return std::hypot((x - 20) / 19, (y - 15) / 14) <= 1; });
  const Rig rig = shape_rig(blob);
  const Part& part = rig.parts.at(0);
  const auto joints = joint_positions(rig.bones);
  std::vector<double> links;
  for (std::size_t i = 0; i < rig.bones.size(); ++i) {
    if (rig.bones[i].parent < 0) continue;
    const Vec2 a = joints[i], b = joints[static_cast<std::size_t>(rig.bones[i].parent)];
    if (std::hypot(a.x - b.x, a.y - b.y) > 1e-9) links.push_back(std::hypot(a.x - b.x, a.y - b.y));
  }
  REQUIRE(!links.empty());
  std::sort(links.begin(), links.end());
  const double bound = std::max(4.0, 0.5 * links[links.size() / 2]);
  for (std::size_t t = 0; t < part.mesh.tris.size(); t += 3)
    for (std::size_t k = 0; k < 3; ++k) {
      const Vec2 a = part.mesh.verts[part.mesh.tris[t + k]], b = part.mesh.verts[part.mesh.tris[t + (k + 1) % 3]];
      CHECK(std::hypot(a.x - b.x, a.y - b.y) <= bound + 1e-9);
    }
  check_not_rigid(rig);
  const auto share = dominance_shares(rig);
  CHECK(std::count_if(share.begin(), share.end(), [](double s) { return s >= 0.1; }) >= 2);
}

// Opaque pixels' area, and the square root of it: the size the skeleton's floors are relative to.
double sprite_size(const Image& image) {
  double area = 0;
  for (std::size_t i = 0; i < image.rgba.size() / 4; ++i) area += image.rgba[4 * i + 3] > 8;
  return std::sqrt(area);
}

Shape footed_figure() {  // the figure with a toe and a heel at the end of each leg
  Shape s = figure();
  for (const double x : {44.0, 76.0}) {
    s.body.push_back({{x, 150}, {x - 7, 156}, 3});
    s.body.push_back({{x, 150}, {x + 7, 156}, 3});
  }
  return s;
}

TEST_CASE("shape_skeleton: no stub bones, no shared joints, limbs turn at their roots", "[skeleton]") {
  const std::vector<std::pair<std::string, Shape>> shapes{{"figure", figure()}, {"footed figure", footed_figure()},
                                                          {"star", star()},     {"spider", spider()},
                                                          {"tree", tree()},     {"small 40x60", small_sprite()}};
  for (const auto& [name, shape] : shapes) {
    SECTION(name) {
      const Image image = shape.image();
      auto bones = shape_skeleton(image);
      REQUIRE(bones);
      check_joints_inside(*bones, image);
      const auto joints = joints_in_image(*bones, image);
      const double size = sprite_size(image);
      std::vector<int> children(bones->size(), 0);
      for (const Bone& b : *bones)
        if (b.parent >= 0) ++children[static_cast<std::size_t>(b.parent)];
      for (std::size_t i = 0; i < bones->size(); ++i) {
        // Every joint is a joint of its own: a limb leaving a junction turns at its edge (a hip), not
        // about the junction's centre with the bone before it.
        for (std::size_t j = 0; j < i; ++j) {
          INFO((*bones)[i].name << " and " << (*bones)[j].name);
          CHECK(std::hypot(joints[i].x - joints[j].x, joints[i].y - joints[j].y) > 2);
        }
        // Along a chain (a parent with one child) no bone is shorter than 12% of the sprite's size
        // (the floor is 15% of the piece's, less the tip's rounding).
        const std::int64_t p = (*bones)[i].parent;
        if (p < 0 || children[static_cast<std::size_t>(p)] != 1) continue;
        const Vec2 a = joints[i], b = joints[static_cast<std::size_t>(p)];
        INFO((*bones)[static_cast<std::size_t>(p)].name << " -> " << (*bones)[i].name << ", size " << size);
        CHECK(std::hypot(a.x - b.x, a.y - b.y) >= 0.12 * size);
      }
    }
  }
}

Shape boxy_figure() {  // a round head on a rectangular torso, arms straight out from its top corners
  Shape s{200, 230, {{{100, 40}, {100, 40}, 22}}, {}};
  for (double y = 64; y <= 150; y += 2) s.body.push_back({{70, y}, {130, y}, 2});  // torso x 68..132
  s.limbs = {
      {{70, 80}, {30, 80}, 9}, {{130, 80}, {170, 80}, 9}, {{84, 150}, {84, 215}, 11}, {{116, 150}, {116, 215}, 11}};
  return s;
}

TEST_CASE("shape_skeleton: an arm leaving the side of a boxy torso turns at its shoulder", "[skeleton]") {
  // The torso's medial axis forks twice (hips, shoulders): the arms leave the upper fork, which is
  // merged with the lower one as a short link. Their first joints go on the torso's sides, not at the
  // upper fork's centre (where each arm's lone bone would point up into the head).
  const Shape shape = boxy_figure();
  const Image image = shape.image();
  const Rig rig = shape_rig(image);
  const auto joints = joints_in_image(rig.bones, image);
  const auto own = own_chains(shape, rig.bones, joints);
  for (std::size_t arm = 0; arm < 2; ++arm) {
    const double side = arm == 0 ? 68 : 132;
    REQUIRE_FALSE(own[arm].empty());
    const std::uint32_t first = *own[arm].begin();  // parents first: the chain's first bone
    INFO("arm " << arm << ": first joint (" << joints[first].x << ", " << joints[first].y << ")");
    CHECK(std::abs(joints[first].x - side) <= 10);
  }
  const Part& part = rig.parts.at(0);
  const auto dom = dominant_bones(part);
  for (std::size_t v = 0; v < dom.size(); ++v) {
    const double y = part.mesh.verts[v].y + 0.5 * image.height;
    if (y >= 56) continue;  // the head, above the torso's top
    INFO("head vertex " << v << " dominated by " << rig.bones[dom[v]].name);
    CHECK(own[0].count(dom[v]) + own[1].count(dom[v]) == 0);
  }
  check_limbs_own_their_ends(shape, rig, image);
}

Shape frog() {  // a wide round body on two thin legs splayed to the bottom corners: no junction, a bar
  return {200, 150, {{{100, 68}, {100, 68}, 42}}, {{{74, 100}, {34, 136}, 7}, {{126, 100}, {166, 136}, 7}}};
}

TEST_CASE("shape_skeleton: the thin halves of a bar with a body in its middle turn at the body's edge", "[skeleton]") {
  const Shape shape = frog();
  const Image image = shape.image();
  ShapeSkeletonStats stats;
  auto bones = shape_skeleton(image, {}, &stats);
  REQUIRE(bones);
  check_joints_inside(*bones, image);
  const Capsule& body = shape.body[0];
  const auto in_core = [&](Vec2 p) { return std::hypot(p.x - body.a.x, p.y - body.a.y) < 0.6 * body.r; };
  // The root sits in the body, and no other joint does: each leg turns where it leaves the body.
  const std::vector<Vec2> joints = joints_in_image(*bones, image);
  CHECK(in_core(joints[0]));
  // Both legs are limbs, named where they point; neither is a "spine".
  std::set<std::string> chains;
  for (const Bone& b : *bones) chains.insert(b.name.substr(0, b.name.rfind('_')));
  CHECK(chains == std::set<std::string>{"root", "down_l", "down_r"});
  for (std::size_t i = 1; i < joints.size(); ++i) {
    INFO("bone " << bones->at(i).name << " at (" << joints[i].x << ", " << joints[i].y << ")");
    CHECK_FALSE(in_core(joints[i]));
  }
  // So bending a leg leaves the body where it is: the body's core follows the root.
  const Rig rig = shape_rig(image);
  const Part& part = rig.parts.at(0);
  std::size_t core = 0;
  for (std::size_t v = 0; v < part.mesh.verts.size(); ++v) {
    const Vec2 p{part.mesh.verts[v].x + 0.5 * image.width, part.mesh.verts[v].y + 0.5 * image.height};
    if (!in_core(p)) continue;
    ++core;
    double root_weight = 0;
    for (std::size_t k = 0; k < 4; ++k)
      if (part.skin_indices[4 * v + k] == 0) root_weight += part.skin_weights[4 * v + k];
    INFO("vertex (" << p.x << ", " << p.y << ")");
    CHECK(root_weight >= 0.5);
  }
  CHECK(core >= 10);
  check_limbs_own_their_ends(shape, rig, image);
}

TEST_CASE("shape_skeleton: a toe and a heel make no extra limbs", "[skeleton]") {
  const Image plain = figure().image(), footed = footed_figure().image();
  ShapeSkeletonStats a, b;
  auto plain_bones = shape_skeleton(plain, {}, &a);
  auto footed_bones = shape_skeleton(footed, {}, &b);
  REQUIRE(plain_bones);
  REQUIRE(footed_bones);
  CHECK(b.limbs == a.limbs);
  CHECK(b.tips == a.tips);
  // No joint below the ankles: a foot is the end of its leg's last bone.
  for (const Vec2& j : joints_in_image(*footed_bones, footed)) CHECK(j.y < 148);
}

TEST_CASE("shape_skeleton: bending any bone 60 degrees keeps the generated figures' triangles", "[skeleton][quality]") {
  const std::vector<std::pair<std::string, Shape>> shapes{
      {"figure", figure()}, {"footed figure", footed_figure()}, {"star", star()}, {"tree", tree()}, {"small 40x60", small_sprite()}};
  for (const auto& [name, shape] : shapes) {
    SECTION(name) {
      const Image image = shape.image();
      AutorigOptions o;  // the default pipeline: outline mesh, shape skeleton, heat weights
      auto rig = autorig_image(image, o);
      REQUIRE(rig);
      const DeformReport report = check_deformation(*rig, {});
      for (const PartDeformStats& part : report.stats.parts) {
        INFO("area ratio " << part.min_area_ratio << " to " << part.max_area_ratio << ", flips " << part.flip_fraction);
        CHECK(part.flip_fraction == 0);
        CHECK(part.min_area_ratio >= 0.2);
        CHECK(part.max_area_ratio <= 5);
        CHECK(part.max_edge_stretch <= 3);
      }
    }
  }
}

TEST_CASE("shape_skeleton: rooted near a point, a limb hangs from there", "[skeleton]") {
  // A bar rooted near its top end: one chain from there down, no bones above the root.
  const Image bar = make_sprite(60, 200, [](double x, double y) { return Capsule{{30, 20}, {30, 180}, 14}.contains(x, y); });
  ShapeSkeletonOptions o;
  o.root_near = Vec2{30, 30};
  auto bones = shape_skeleton(bar, o);
  REQUIRE(bones);
  check_joints_inside(*bones, bar);
  const auto joints = joints_in_image(*bones, bar);
  CHECK(joints[0].y < 50);  // the root, near the given point
  for (std::size_t i = 1; i < joints.size(); ++i) CHECK(joints[i].y > joints[0].y);
  CHECK(bones->size() >= 2);
}

// `figure` standing in an elliptic patch of colour `rgb` at `alpha` (where the figure is transparent).
Image with_patch(Image image, Vec2 centre, Vec2 radii, std::uint8_t alpha, std::array<std::uint8_t, 3> rgb) {
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      std::uint8_t* p = &image.rgba[4 * (static_cast<std::size_t>(y) * image.width + x)];
      if (p[3] != 0 || std::hypot((x + 0.5 - centre.x) / radii.x, (y + 0.5 - centre.y) / radii.y) > 1) continue;
      p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2];
      p[3] = alpha;
    }
  return image;
}

std::set<std::string> bone_names(const std::vector<Bone>& bones) {
  std::set<std::string> names;
  for (const Bone& b : bones) names.insert(b.name);
  return names;
}

TEST_CASE("shape_skeleton: a baked drop shadow shapes no bones", "[skeleton]") {
  // The figure's legs end at y = 150, 32 px apart; a dark, 35 % opaque shadow joins their feet.
  const Image plain = figure().image();
  const Image shadowed = with_patch(plain, {60, 150}, {44, 9}, 90, {20, 20, 20});
  ShapeSkeletonStats plain_stats, stats, kept_stats;
  auto plain_bones = shape_skeleton(plain, {}, &plain_stats);
  auto bones = shape_skeleton(shadowed, {}, &stats);
  ShapeSkeletonOptions keep;
  keep.skip_drop_shadow = false;
  auto kept = shape_skeleton(shadowed, keep, &kept_stats);
  REQUIRE(plain_bones);
  REQUIRE(bones);
  REQUIRE(kept);
  CHECK(plain_stats.drop_shadow == 0);
  CHECK(stats.drop_shadow > 0.05);
  CHECK(kept_stats.drop_shadow == 0);
  // Left out, the shadow changes nothing: the same bones as without it, each leg its own chain.
  CHECK(bone_names(*bones) == bone_names(*plain_bones));
  CHECK(bone_names(*bones).count("down_l_1") == 1);
  CHECK(bone_names(*bones).count("down_r_1") == 1);
  for (const Vec2 j : joints_in_image(*bones, shadowed)) {
    const int x = static_cast<int>(std::floor(j.x)), y = static_cast<int>(std::floor(j.y));
    CHECK(shadowed.rgba[4 * (static_cast<std::size_t>(y) * shadowed.width + x) + 3] > 127);
  }
  // Kept, the shadow joins the feet and the skeleton follows it instead.
  CHECK(bone_names(*kept) != bone_names(*plain_bones));
}


// No drop shadow found: the same bones as with shadows kept.
void check_no_shadow(const Image& image) {
  ShapeSkeletonStats stats;
  ShapeSkeletonOptions keep;
  keep.skip_drop_shadow = false;
  auto bones = shape_skeleton(image, {}, &stats);
  auto kept = shape_skeleton(image, keep);
  REQUIRE(bones);
  REQUIRE(kept);
  CHECK(stats.drop_shadow == 0);
  REQUIRE(bones->size() == kept->size());
  for (std::size_t i = 0; i < bones->size(); ++i) {
    CHECK((*bones)[i].name == (*kept)[i].name);
    CHECK((*bones)[i].x == (*kept)[i].x);
    CHECK((*bones)[i].y == (*kept)[i].y);
  }
}

TEST_CASE("shape_skeleton: light, dominant or edge semi-transparency is no drop shadow", "[skeleton]") {
  SECTION("a light patch (a wing, glass) keeps shaping bones") {
    check_no_shadow(with_patch(figure().image(), {60, 150}, {44, 9}, 90, {200, 200, 200}));
  }
  SECTION("a dark, semi-transparent body with small opaque details (a ghost with eyes) is the sprite") {
    const Image eyes = make_sprite(80, 100, [](double x, double y) { return std::hypot(x - 40, y - 50) < 6; });
    check_no_shadow(with_patch(eyes, {40, 50}, {36, 46}, 100, {30, 30, 30}));
  }
  SECTION("a soft dark edge (alpha 255 to 0 over 3 px, a fifth of the pixels) lies within the depth") {
    Image soft;
    soft.width = soft.height = 40;
    soft.rgba.assign(4 * 40 * 40, 0);
    for (int y = 0; y < 40; ++y)
      for (int x = 0; x < 40; ++x) {
        const double r = std::hypot(x + 0.5 - 20, y + 0.5 - 20);
        soft.rgba[4 * (static_cast<std::size_t>(y) * 40 + x) + 3] =
            static_cast<std::uint8_t>(std::lround(255 * std::clamp((13 - r) / 3, 0.0, 1.0)));
      }
    check_no_shadow(soft);
  }
}

TEST_CASE("shape_skeleton: a tinted drop shadow (dark purple, as painted under a character) shapes no bones", "[skeleton]") {
  // No channel above 96, a third opaque: a shadow painted in the art's dark outline colour.
  const Image plain = figure().image();
  const Image shadowed = with_patch(plain, {60, 150}, {44, 9}, 85, {90, 40, 60});
  ShapeSkeletonStats stats;
  auto plain_bones = shape_skeleton(plain);
  auto bones = shape_skeleton(shadowed, {}, &stats);
  REQUIRE((plain_bones && bones));
  CHECK(stats.drop_shadow > 0.05);
  CHECK(bone_names(*bones) == bone_names(*plain_bones));
  // A mid-tone patch (a channel at 128) is art, not a shadow.
  check_no_shadow(with_patch(plain, {60, 150}, {44, 9}, 85, {128, 60, 60}));
}

TEST_CASE("shape_skeleton: errors", "[skeleton]") {
  ShapeSkeletonOptions o;
  o.max_bones = 1;
  auto bad = shape_skeleton(figure().image(), o);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "skeleton.options");
  CHECK(bad.error().message.find("max_bones") != std::string::npos);
  ShapeSkeletonOptions nowhere;
  nowhere.root_near = Vec2{std::nan(""), 0};
  auto bad_point = shape_skeleton(figure().image(), nowhere);
  REQUIRE_FALSE(bad_point);
  CHECK(bad_point.error().message.find("root_near") != std::string::npos);
  const Image empty = make_sprite(16, 16, [](double, double) { return false; });
  auto none = shape_skeleton(empty);
  REQUIRE_FALSE(none);
  CHECK(none.error().code == "skeleton.empty");
  Image broken;
  broken.width = 4;
  broken.height = 4;
  auto inconsistent = shape_skeleton(broken);
  REQUIRE_FALSE(inconsistent);
  CHECK(inconsistent.error().code == "coverage.image");
}

}  // namespace rig2d
