// SPDX-License-Identifier: Apache-2.0
// computeAutoWeights: ENGINE-SPEC §3.2, §5.5 #3-6, §5.12 (five-bone tie case).
#include <catch2/catch.hpp>

#include <cmath>

#include "rig2d/weights/joint_weights.h"

using namespace rig2d;
using Catch::Matchers::WithinAbs;

namespace {

// Joints (0,40) and (0,-40).
const std::vector<Bone> kBaseTip{{"base", -1, 0, 40, 0}, {"tip", 0, 0, -80, 0}};

}  // namespace

TEST_CASE("joint weights: maxInfluences 2, exact engine numbers (spec 5.5 #3, #4)", "[weights][joint]") {
  const std::vector<Vec2> verts{{0, -40}, {0, 0}, {0, 40}, {16, -40}};
  JointWeightOptions o;
  o.max_influences = 2;
  const SkinWeights w = compute_joint_weights(verts, kBaseTip, o);
  CHECK(w.indices == std::vector<std::uint32_t>{1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0});
  CHECK(w.weights == std::vector<double>{0.9999999843750004, 1.5624999511718764e-8, 0, 0,  //
                                         0.5, 0.5, 0, 0,                                   //
                                         0.9999999843750004, 1.5624999511718764e-8, 0, 0,  //
                                         0.9629629495670443, 0.03703705043295571, 0, 0});
  for (std::size_t v = 0; v < verts.size(); ++v) {
    const double sum = w.weights[v * 4] + w.weights[v * 4 + 1] + w.weights[v * 4 + 2] + w.weights[v * 4 + 3];
    CHECK_THAT(sum, WithinAbs(1, 5e-7));
  }
  // (0,-40) sits on the tip joint: tip dominates.
  CHECK(w.indices[0] == 1);
  CHECK(w.weights[0] > w.weights[1]);
}

TEST_CASE("joint weights: bounded radius and the nearest-bone fallback (spec 5.5 #5, #6)", "[weights][joint]") {
  JointWeightOptions o;
  o.radius = 50;
  const SkinWeights w = compute_joint_weights(std::vector<Vec2>{{0, 40}, {0, -40}}, kBaseTip, o);
  CHECK(w.indices == std::vector<std::uint32_t>{0, 0, 0, 0, 1, 0, 0, 0});
  CHECK(w.weights == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0});

  // 160 and 240 px away: outside both radii, so the nearest bone (base) takes it all.
  const SkinWeights far = compute_joint_weights(std::vector<Vec2>{{0, 200}}, kBaseTip, o);
  CHECK(far.indices == std::vector<std::uint32_t>{0, 0, 0, 0});
  CHECK(far.weights == std::vector<double>{1, 0, 0, 0});
  const SkinWeights far_up = compute_joint_weights(std::vector<Vec2>{{0, -300}}, kBaseTip, o);
  CHECK(far_up.indices[0] == 1);
  CHECK(far_up.weights[0] == 1);
}

TEST_CASE("joint weights: five bones, ties keep index order (spec 5.12)", "[weights][joint]") {
  std::vector<Bone> bones;
  for (int i = 0; i < 5; ++i) bones.push_back({"b" + std::to_string(i), -1, 10.0 * i, 0, 0});
  const SkinWeights w = compute_joint_weights(std::vector<Vec2>{{15, 0}}, bones);
  CHECK(w.indices == std::vector<std::uint32_t>{1, 2, 0, 3});
  CHECK(w.weights ==
        std::vector<double>{0.449999840000128, 0.449999840000128, 0.05000015999987201, 0.05000015999987201});
}

TEST_CASE("joint weights: joints come from the bind hierarchy, not the local offsets", "[weights][joint]") {
  // Chained: joints at (0,0), (10,0), (20,0); a vertex on the last joint is dominated by it.
  const std::vector<Bone> chain{{"a", -1, 0, 0, 0}, {"b", 0, 10, 0, 0}, {"c", 1, 10, 0, 0}};
  const SkinWeights w = compute_joint_weights(std::vector<Vec2>{{20, 0}}, chain);
  CHECK(w.indices[0] == 2);
  CHECK(w.weights[0] > 0.999);
}

TEST_CASE("joint weights: degenerate options and inputs", "[weights][joint]") {
  const std::vector<Vec2> verts{{0, 10}, {0, -10}};
  JointWeightOptions nan;
  nan.max_influences = std::nan("");  // keeps nothing: every vertex takes its nearest bone
  const SkinWeights wn = compute_joint_weights(verts, kBaseTip, nan);
  CHECK(wn.indices == std::vector<std::uint32_t>{0, 0, 0, 0, 1, 0, 0, 0});
  CHECK(wn.weights == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0});

  JointWeightOptions many;
  many.max_influences = 9;  // clamped to 4; only 2 bones exist
  const SkinWeights wm = compute_joint_weights(verts, kBaseTip, many);
  CHECK(wm.weights[2] == 0);
  CHECK(wm.weights[3] == 0);
  CHECK(wm.weights[0] + wm.weights[1] == 1);

  const SkinWeights none = compute_joint_weights(verts, std::vector<Bone>{});
  CHECK(none.indices == std::vector<std::uint32_t>(8, 0));
  CHECK(none.weights == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0});

  CHECK(compute_joint_weights(std::vector<Vec2>{}, kBaseTip).weights.empty());
}
