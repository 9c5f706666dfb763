// SPDX-License-Identifier: Apache-2.0
// Fold relief (weights/fold_relief.h): a corner that follows a bend into its neighbour hands weight to
// the bent bone's parent, measured by the library's own deform check; what it must leave alone.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "heat_fixtures.h"
#include "rig2d/quality/deform_check.h"
#include "rig2d/weights/heat_weights.h"
#include "weights/fold_relief.h"

using namespace rig2d;
using namespace rig2d::test;

namespace {

constexpr double kSixty = 1.0471975511965976;

// A crotch: pelvis at the origin, the legs' joints at (-10, 10) and (10, 10). Corner a (0, 24) is
// the left leg's, b (8, 24) the right leg's, c (0, 12) the pelvis'; four more vertices give each bone
// a vertex of its own, away from the crotch.
struct Crotch {
  std::vector<Bone> bones{{"pelvis", -1, 0, 0, 0}, {"leg_l", 0, -10, 10, 0}, {"leg_r", 0, 10, 10, 0}};
  Mesh mesh;
  SkinWeights weights;
  Crotch() {
    mesh.verts = {{0, 24}, {8, 24}, {0, 12}, {-14, 30}, {14, 30}, {-4, 2}, {4, 2}};
    mesh.uvs.assign(mesh.verts.size(), {});
    mesh.tris = {0, 1, 2, 2, 5, 6};
    const std::vector<std::vector<std::pair<std::uint32_t, double>>> w = {
        {{1, 0.9}, {0, 0.1}}, {{2, 1.0}}, {{0, 1.0}}, {{1, 1.0}}, {{2, 1.0}}, {{0, 1.0}}, {{0, 1.0}}};
    weights.indices.assign(4 * w.size(), 0);
    weights.weights.assign(4 * w.size(), 0);
    for (std::size_t v = 0; v < w.size(); ++v)
      for (std::size_t k = 0; k < w[v].size(); ++k)
        weights.indices[4 * v + k] = w[v][k].first, weights.weights[4 * v + k] = w[v][k].second;
  }
  Rig rig() const {
    Rig r;
    r.bones = bones;
    Part p;
    p.mesh = mesh;
    p.skin_indices = weights.indices;
    p.skin_weights = weights.weights;
    r.parts.push_back(std::move(p));
    return r;
  }
};

}  // namespace

TEST_CASE("fold relief: crotch corners that follow their leg into the other hand weight to the pelvis",
          "[weights][fold]") {
  Crotch c;
  // The deform check folds the crotch triangle when the left leg bends -60 degrees and when the
  // right one bends +60 (hand-computed: signed area -96 px^2 at bind, +93.7 and +37.5 posed).
  REQUIRE(check_deformation(c.rig(), {}).stats.parts.at(0).flipped == 1);
  const Crotch before;
  const detail::FoldRelief r =
      detail::relieve_folds(c.mesh.verts, c.mesh.tris, c.bones, {}, 4, kSixty, c.weights);
  CHECK(r.folds_before == 2);
  CHECK(r.folds_after == 0);
  CHECK(r.relieved_vertices == 2);
  const DeformStats after = check_deformation(c.rig(), {}).stats;
  CHECK(after.flip_fraction == 0);
  CHECK(after.unused_bones.empty());  // each leg still dominates its crotch corner
  // Hand-computed posed areas of the crotch triangle (bind -96 px^2): a following the left leg's -60
  // with 0.9, 0.675, 0.45 of its weight: +93.7, +46.3, -1.2; b following the right leg's +60 with
  // 1, 0.75, 0.5: +37.5, +4.1, -29.3. So a hands over half its weight, and so does b.
  CHECK(weight_of(c.weights, 0, 1) == Approx(0.45).margin(1e-12));
  CHECK(weight_of(c.weights, 0, 0) == Approx(0.55).margin(1e-12));
  CHECK(weight_of(c.weights, 1, 2) == Approx(0.5).margin(1e-12));
  CHECK(weight_of(c.weights, 1, 0) == Approx(0.5).margin(1e-12));
  for (std::size_t v = 2; v < c.mesh.verts.size(); ++v) {  // no other vertex moves
    INFO("vertex " << v);
    for (std::size_t k = 0; k < 4; ++k) CHECK(c.weights.weights[4 * v + k] == before.weights.weights[4 * v + k]);
  }
  check_weights(c.weights, c.mesh.verts.size(), c.bones.size(), 4);
}

TEST_CASE("fold relief: no weight to a bone the part may not use, nothing without a fold or an angle",
          "[weights][fold]") {
  SECTION("the pelvis masked out") {
    Crotch c;
    const std::vector<std::uint8_t> allowed = {0, 1, 1};
    const detail::FoldRelief r = detail::relieve_folds(c.mesh.verts, c.mesh.tris, c.bones, allowed, 4, kSixty, c.weights);
    CHECK(r.folds_before == 2);
    CHECK(r.folds_after == 2);
    CHECK(c.weights.weights == Crotch().weights.weights);
  }
  SECTION("angle 0") {
    Crotch c;
    CHECK(detail::relieve_folds(c.mesh.verts, c.mesh.tris, c.bones, {}, 4, 0, c.weights).folds_before == 0);
    CHECK(c.weights.weights == Crotch().weights.weights);
  }
  SECTION("a bend that folds nothing") {
    Crotch c;
    CHECK(detail::relieve_folds(c.mesh.verts, c.mesh.tris, c.bones, {}, 4, 0.1, c.weights).folds_before == 0);
    CHECK(c.weights.weights == Crotch().weights.weights);
  }
}

TEST_CASE("fold relief: heat weights check its angle", "[weights][fold]") {
  const Mesh m = cdt_mesh(two_leg_outline(), 10);
  for (const double bad : {-0.1, 4.0, std::nan("")}) {
    HeatWeightsOptions o;
    o.fold_relief_angle = bad;
    auto r = compute_heat_weights(m, two_leg_bones(), o);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == "weights.heat.options");
  }
}
