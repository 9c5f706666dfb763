// SPDX-License-Identifier: Apache-2.0
// suggestBones: ENGINE-SPEC §3.3, §5.5 #9-11 and the extra computed counts.
#include <catch2/catch.hpp>

#include "rig2d/skeleton/suggest_bones.h"
#include "rig2d/skin/skeleton.h"

using namespace rig2d;

namespace {

std::vector<Bone> suggest(double w, double h, std::optional<double> count = {}, BoneAxis axis = BoneAxis::Auto,
                          const std::function<bool(double, double)>& inside = {}) {
  SuggestBonesOptions o;
  o.width = w;
  o.height = h;
  o.count = count;
  o.axis = axis;
  return suggest_bones(o, inside);
}

void check_chain(const std::vector<Bone>& bones) {
  for (std::size_t i = 0; i < bones.size(); ++i) {
    CHECK(bones[i].parent == static_cast<std::int64_t>(i) - 1);
    CHECK(bones[i].name == (i == 0 ? std::string("root") : "bone" + std::to_string(i)));
    CHECK(bones[i].rot == 0);
  }
}

}  // namespace

TEST_CASE("suggest bones: vertical 32x192 (spec 5.5 #9)", "[skeleton][suggest]") {
  const auto bones = suggest(32, 192);
  REQUIRE(bones.size() == 3);
  check_chain(bones);
  for (const Bone& b : bones) CHECK(b.x == 0);
  CHECK(bones[0].y == -96);
  CHECK(bones[1].y == 96);
  CHECK(bones[2].y == 96);
  const auto joints = joint_positions(bones);
  CHECK(joints[0].y == -96);
  CHECK(joints[1].y == 0);
  CHECK(joints[2].y == 96);
}

TEST_CASE("suggest bones: horizontal 192x32 (spec 5.5 #10)", "[skeleton][suggest]") {
  const auto bones = suggest(192, 32);
  REQUIRE(bones.size() == 3);
  check_chain(bones);
  for (const Bone& b : bones) CHECK(b.y == 0);
  CHECK(bones[0].x == -96);
  CHECK(bones[1].x == 96);
  CHECK(bones[2].x == 96);
}

TEST_CASE("suggest bones: covered extent 32x300, v in [0.33, 0.66] (spec 5.5 #11)", "[skeleton][suggest]") {
  const auto bones = suggest(32, 300, {}, BoneAxis::Auto, [](double, double v) { return v >= 0.33 && v <= 0.66; });
  REQUIRE(bones.size() == 4);
  check_chain(bones);
  CHECK(bones[0].y == -46.875);
  CHECK(bones[1].y == 31.24999999999999);
  CHECK(bones[2].y == 31.24999999999999);
  CHECK(bones[3].y == 31.25000000000002);
  const auto joints = joint_positions(bones);
  CHECK(joints[0].y == -46.875);
  CHECK(joints[1].y == -15.62500000000001);
  CHECK(joints[2].y == 15.624999999999979);
  CHECK(joints[3].y == 46.875);
}

TEST_CASE("suggest bones: counts, clamping, axis choice (spec 5.5 extras)", "[skeleton][suggest]") {
  const auto square = suggest(64, 64);  // a square goes vertical
  REQUIRE(square.size() == 2);
  CHECK(square[0].x == 0);
  CHECK(square[0].y == -32);
  CHECK(square[1].y == 64);
  CHECK(suggest(100, 400).size() == 5);
  CHECK(suggest(100, 400, 9).size() == 6);
  CHECK(suggest(100, 400, 1).size() == 2);
  CHECK(suggest(100, 4000).size() == 6);

  const auto forced_x = suggest(64, 256, 3, BoneAxis::X);
  REQUIRE(forced_x.size() == 3);
  CHECK(forced_x[0].x == -32);
  CHECK(forced_x[1].x == 32);
  CHECK(forced_x[0].y == 0);
  const auto forced_y = suggest(256, 64, 2, BoneAxis::Y);
  CHECK(forced_y[0].y == -32);
  CHECK(forced_y[1].y == 64);
}

TEST_CASE("suggest bones: a single covered row or no coverage falls back to [0, 1]", "[skeleton][suggest]") {
  const auto single = suggest(32, 192, {}, BoneAxis::Auto, [](double, double v) { return v == 0.5; });
  const auto none = suggest(32, 192, {}, BoneAxis::Auto, [](double, double) { return false; });
  const auto full = suggest(32, 192);
  REQUIRE(single.size() == full.size());
  REQUIRE(none.size() == full.size());
  for (std::size_t i = 0; i < full.size(); ++i) {
    CHECK(single[i].y == full[i].y);
    CHECK(none[i].y == full[i].y);
  }
  // Horizontal sampling reads (u, v) = (a, b): coverage only in the right half moves the chain there.
  const auto right = suggest(192, 32, 2, BoneAxis::Auto, [](double u, double) { return u >= 0.5; });
  CHECK(right[0].x == 0);   // (0.5 - 0.5) * 192
  CHECK(right[1].x == 96);  // (1 - 0.5) * 192 - 0
}
