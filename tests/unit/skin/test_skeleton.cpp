// SPDX-License-Identifier: Apache-2.0
// deriveBindMatrices and pose matrices: ENGINE-SPEC §2.3, §2.5, §5.1 #9, §5.4 #5-6, §5.12 (cycle).
#include <catch2/catch.hpp>

#include "rig2d/skin/skeleton.h"
#include "support/test_math.h"

using namespace rig2d;
using Catch::Matchers::WithinAbs;

namespace {

void check_translation(const Affine2& m, double e, double f) {
  CHECK(m.a == 1);
  CHECK(m.b == 0);
  CHECK(m.c == 0);
  CHECK(m.d == 1);
  CHECK(m.e == e);
  CHECK(m.f == f);
}
}  // namespace

TEST_CASE("skeleton: R1 inverse bind matrices (spec 5.1 #9)", "[skin]") {
  const std::vector<Bone> bones{{"root", -1, 0, 0, 0}, {"arm", 0, 10, 0, 0}};
  const BindMatrices m = derive_bind_matrices(bones);
  check_translation(m.inv_bind[0], 0, 0);
  check_translation(m.inv_bind[1], -10, 0);
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const Affine2 id = multiply(m.root_local[i], m.inv_bind[i]);
    CHECK_THAT(id.a, WithinAbs(1, 1e-6));
    CHECK_THAT(id.d, WithinAbs(1, 1e-6));
    CHECK_THAT(id.e, WithinAbs(0, 1e-6));
    CHECK_THAT(id.f, WithinAbs(0, 1e-6));
  }
}

TEST_CASE("skeleton: any bone order and cycles resolve like the engine (spec 5.12)", "[skin]") {
  // Child listed before its parent.
  const std::vector<Bone> reversed{{"tip", 1, 0, 20, 0}, {"mid", 2, 0, 10, 0}, {"root", -1, 0, 5, 0}};
  const auto joints = joint_positions(reversed);
  CHECK(joints[0] == Vec2{0, 35});
  CHECK(joints[1] == Vec2{0, 15});
  CHECK(joints[2] == Vec2{0, 5});

  // a -> b -> a: broken at the first repeat; invBind = [T(-1,-2), T(0,-2)].
  const std::vector<Bone> cycle{{"a", 1, 1, 0, 0}, {"b", 0, 0, 2, 0}};
  const BindMatrices m = derive_bind_matrices(cycle);
  check_translation(m.inv_bind[0], -1, -2);
  check_translation(m.inv_bind[1], 0, -2);

  // Out-of-range and self parents are roots.
  const std::vector<Bone> odd{{"x", 7, 1, 0, 0}, {"y", -5, 0, 1, 0}, {"z", 2, 3, 3, 0}};
  const auto j = joint_positions(odd);
  CHECK(j[0] == Vec2{1, 0});
  CHECK(j[1] == Vec2{0, 1});
  CHECK(j[2] == Vec2{3, 3});
}

TEST_CASE("skeleton: a 5000-bone chain resolves without recursion", "[skin]") {
  std::vector<Bone> chain;
  for (int i = 0; i < 5000; ++i) chain.push_back({"b" + std::to_string(i), i - 1, 1, 0, 0});
  const auto joints = joint_positions(chain);
  CHECK(joints.back() == Vec2{5000, 0});
}

TEST_CASE("skeleton: bind pose gives identity skinning matrices", "[skin]") {
  const std::vector<Bone> bones{{"root", -1, 3, 96, 0.3}, {"mid", 0, 0, -96, -1.1}, {"tip", 1, 5, -40, 2.5}};
  const BindMatrices bind = derive_bind_matrices(bones);
  const auto locals = bind_locals(bones);
  std::vector<Affine2> now(bones.size()), skin(bones.size());
  pose_root_local(bones, locals, now);
  skinning_matrices(now, bind.inv_bind, skin);
  for (const Affine2& s : skin) {
    CHECK_THAT(s.a, WithinAbs(1, 1e-12));
    CHECK_THAT(s.b, WithinAbs(0, 1e-12));
    CHECK_THAT(s.c, WithinAbs(0, 1e-12));
    CHECK_THAT(s.d, WithinAbs(1, 1e-12));
    CHECK_THAT(s.e, WithinAbs(0, 1e-12));
    CHECK_THAT(s.f, WithinAbs(0, 1e-12));
  }
}

TEST_CASE("skeleton: noScale drops the parent's scale only (spec 2.5 #9, 5.4 #5-6)", "[skin]") {
  std::vector<Bone> bones{{"p", -1, 0, 0, 0}, {"c", 0, 10, 0, 0}};
  const BindMatrices bind = derive_bind_matrices(bones);
  const std::vector<BoneLocal> pose{{0, 0, 0, 2, 2}, {10, 0, 0, 1, 1}};
  std::vector<Affine2> now(2), skin(2);

  pose_root_local(bones, pose, now);
  skinning_matrices(now, bind.inv_bind, skin);
  Vec2 v = apply(skin[1], {10, 0});
  CHECK_THAT(v.x, WithinAbs(20, 1e-5));
  CHECK_THAT(v.y, WithinAbs(0, 1e-5));

  bones[1].no_scale = true;
  pose_root_local(bones, pose, now);
  skinning_matrices(now, bind.inv_bind, skin);
  v = apply(skin[1], {10, 0});
  CHECK_THAT(v.x, WithinAbs(10, 1e-5));
  CHECK_THAT(v.y, WithinAbs(0, 1e-5));

  // Parent also rotated +pi/2: (0,10) with noScale, (0,20) without.
  const std::vector<BoneLocal> turned{{0, 0, kPi / 2, 2, 2}, {10, 0, 0, 1, 1}};
  pose_root_local(bones, turned, now);
  skinning_matrices(now, bind.inv_bind, skin);
  v = apply(skin[1], {10, 0});
  CHECK_THAT(v.x, WithinAbs(0, 1e-5));
  CHECK_THAT(v.y, WithinAbs(10, 1e-5));
  bones[1].no_scale = false;
  pose_root_local(bones, turned, now);
  skinning_matrices(now, bind.inv_bind, skin);
  v = apply(skin[1], {10, 0});
  CHECK_THAT(v.x, WithinAbs(0, 1e-5));
  CHECK_THAT(v.y, WithinAbs(20, 1e-5));
}

TEST_CASE("skeleton: pose_order lists parents before children, a cycle broken where the walk breaks it", "[skin]") {
  // hand (2) before its parent arm (1); 3 and 4 parent each other; 5's parent is out of range.
  const std::vector<Bone> bones{{"root", -1, 0, 0, 0}, {"arm", 0, 10, 0, 0},  {"hand", 1, 5, 0, 0},
                                {"a", 4, 1, 0, 0},     {"b", 3, 2, 0, 0},     {"lost", 9, 3, 0, 0}};
  const std::vector<PoseStep> order = pose_order(bones);
  REQUIRE(order.size() == bones.size());
  std::vector<std::size_t> at(bones.size());
  for (std::size_t k = 0; k < order.size(); ++k) at[order[k].bone] = k;
  CHECK(order[at[0]].parent == -1);
  CHECK(order[at[1]].parent == 0);
  CHECK(order[at[2]].parent == 1);
  CHECK(at[0] < at[1]);
  CHECK(at[1] < at[2]);
  CHECK(order[at[5]].parent == -1);
  // The walk starts at bone 3, climbs to 4 and stops at the repeat: 4 is the root of the cycle.
  CHECK(order[at[4]].parent == -1);
  CHECK(order[at[3]].parent == 4);
}

TEST_CASE("skeleton: pose_root_local along pose_order gives the walk's bits", "[skin]") {
  std::uint32_t state = 99;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  auto real = [&](double scale) { return (static_cast<double>(next() % 200001) - 100000) / 100000 * scale; };
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 1 + next() % 40;
    std::vector<Bone> bones(n);
    std::vector<BoneLocal> locals(n);
    for (std::size_t i = 0; i < n; ++i) {
      // Parents anywhere (cycles, self links, out of range), some noScale.
      bones[i].parent = static_cast<std::int64_t>(next() % (n + 2)) - 1;
      bones[i].no_scale = next() % 4 == 0;
      locals[i] = {real(50), real(50), real(4), 0.5 + real(1) * real(1), 0.5 + real(1) * real(1)};
    }
    std::vector<Affine2> walked(n), ordered(n);
    pose_root_local(bones, locals, walked);
    pose_root_local(bones, pose_order(bones), locals, ordered);
    for (std::size_t i = 0; i < n; ++i) {
      const Affine2& a = walked[i];
      const Affine2& b = ordered[i];
      CHECK((a.a == b.a && a.b == b.b && a.c == b.c && a.d == b.d && a.e == b.e && a.f == b.f));
    }
  }
}
