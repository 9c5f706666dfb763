// SPDX-License-Identifier: Apache-2.0
// Bones over the body (HeatWeightsOptions::over_body): an arm drawn against the torso, its hand
// against the thigh. As an ordinary bone the hand's leaf runs on down through the leg and takes the
// leg from the thigh and the shin; over the body it keeps to the vertices near the arm, and the arm
// still carries the art on it.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "heat_fixtures.h"
#include "rig2d/weights/heat_weights.h"

using namespace rig2d;
using namespace rig2d::test;

namespace {

// A torso 40 px wide over y -60..0, two legs 12 px wide below it (x 8..20 and -20..-8, down to 60).
bool over_body_inside(double x, double y) {
  if (y < -60 || y > 60 || std::abs(x) > 20) return false;
  return y < 0 || (std::abs(x) >= 8 && std::abs(x) <= 20);
}

// hips (0,0) -> spine (0,-30) -> chest (0,-55) -> upper_arm (14,-55) -> lower_arm (14,-30) ->
// hand (14,-5), the arm lying over the torso's side; thigh_l (14,5) -> shin_l (14,30) ->
// foot_l (14,55) right under it, and the right leg.
std::vector<Bone> over_body_bones() {
  return {{"hips", -1, 0, 0, 0},       {"spine", 0, 0, -30, 0},    {"chest", 1, 0, -25, 0},
          {"upper_arm", 2, 14, 0, 0},  {"lower_arm", 3, 0, 25, 0}, {"hand", 4, 0, 25, 0},
          {"thigh_l", 0, 14, 5, 0},    {"shin_l", 6, 0, 25, 0},    {"foot_l", 7, 0, 25, 0},
          {"thigh_r", 0, -14, 5, 0},   {"shin_r", 9, 0, 25, 0},    {"foot_r", 10, 0, 25, 0}};
}

double over_body_arm_weight(const SkinWeights& w, std::size_t v) {
  return weight_of(w, v, 3) + weight_of(w, v, 4) + weight_of(w, v, 5);
}

}  // namespace

TEST_CASE("a hand over the body takes none of the leg under it, the arm still carries the art on it",
          "[weights][heat]") {
  const Mesh mesh = grid_mesh(40, 120, 4, over_body_inside);
  const std::vector<Bone> bones = over_body_bones();
  HeatWeightsOptions plain;
  HeatWeightsOptions layered;
  layered.over_body = {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0};
  auto a = compute_heat_weights(mesh, bones, plain);
  auto b = compute_heat_weights(mesh, bones, layered);
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  check_weights(b->weights, mesh.verts.size(), bones.size(), 4);

  std::size_t plain_owned = 0, layered_owned = 0;  // leg vertices whose largest weight is the arm's
  double plain_leg = 0, layered_leg = 0;            // the arm's largest weight there, 20 px below the hand
  double on_arm = 1;                                // the arm's smallest weight on its own segments
  for (std::size_t v = 0; v < mesh.verts.size(); ++v) {
    const Vec2 p = mesh.verts[v];
    if (p.x > 0 && p.y >= 15) {
      plain_leg = std::max(plain_leg, over_body_arm_weight(a->weights, v));
      layered_leg = std::max(layered_leg, over_body_arm_weight(b->weights, v));
      plain_owned += a->weights.indices[4 * v] >= 3 && a->weights.indices[4 * v] <= 5;
      layered_owned += b->weights.indices[4 * v] >= 3 && b->weights.indices[4 * v] <= 5;
    }
    if (std::abs(p.x - 14) < 1e-9 && p.y >= -52 && p.y <= -8) on_arm = std::min(on_arm, over_body_arm_weight(b->weights, v));
  }
  // The plain hand runs on down the leg to the foot: the leg's vertices there are half the hand's.
  CHECK(plain_owned > 0);
  CHECK(plain_leg > 0.3);
  // Over the body it keeps to the arm: no leg vertex 20 px below it is the arm's, and the arm keeps
  // every vertex on its own bones.
  CHECK(layered_owned == 0);
  CHECK(layered_leg < 0.02);
  CHECK(on_arm > 0.5);
}

TEST_CASE("over_body: all zero is the plain weighting, a wrong size is an options error", "[weights][heat]") {
  const Mesh mesh = grid_mesh(40, 120, 4, over_body_inside);
  const std::vector<Bone> bones = over_body_bones();
  HeatWeightsOptions zeros;
  zeros.over_body.assign(bones.size(), 0);
  auto plain = compute_heat_weights(mesh, bones, {});
  auto zero = compute_heat_weights(mesh, bones, zeros);
  REQUIRE(plain.has_value());
  REQUIRE(zero.has_value());
  CHECK(plain->weights.indices == zero->weights.indices);
  CHECK(plain->weights.weights == zero->weights.weights);
  // Every bone over the body: nothing to lie over, so again the plain weighting.
  HeatWeightsOptions all;
  all.over_body.assign(bones.size(), 1);
  auto every = compute_heat_weights(mesh, bones, all);
  REQUIRE(every.has_value());
  CHECK(plain->weights.weights == every->weights.weights);

  HeatWeightsOptions wrong;
  wrong.over_body = {1, 0};
  auto bad = compute_heat_weights(mesh, bones, wrong);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().code == "weights.heat.options");
}
