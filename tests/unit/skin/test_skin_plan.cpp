// SPDX-License-Identifier: Apache-2.0
// SkinPlan: the grouping by kept slots (hand-checked), and every kernel giving skin_vertices' bits on
// random rigs (NaN and negative-zero weights, indices past the skin, any vertex and bone count).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "rig2d/anim/skin_rig.h"
#include "rig2d/preview/pose.h"
#include "rig2d/skin/skeleton.h"
#include "rig2d/skin/lbs.h"
#include "rig2d/skin/skin_plan.h"
#include "core/js_trig.h"
#include "skin/lbs_internal.h"

using namespace rig2d;

namespace {

struct PlanRig {
  std::vector<Affine2> mats;
  std::vector<Vec2> verts;
  std::vector<std::uint32_t> idx;
  std::vector<double> w;
};

// `valid`: every index names a bone (what the AVX2 kernel needs); else some are past the skin.
// `shared`: the vertices draw their bones and skipped slots from three rows, as neighbours in a mesh
// share their bones (and go four per step); else every vertex its own.
PlanRig random_plan_rig(std::size_t bones, std::size_t n, std::uint32_t seed, bool valid, bool shared = false) {
  std::uint32_t state = seed;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  auto real = [&](double scale) { return (static_cast<double>(next() % 200001) - 100000) / 100000 * scale; };
  PlanRig r;
  for (std::size_t b = 0; b < bones; ++b) r.mats.push_back({real(2), real(2), real(2), real(2), real(500), real(500)});
  for (std::size_t v = 0; v < n; ++v) {
    r.verts.push_back({real(2000), real(2000)});
    for (int k = 0; k < 4; ++k) {
      const bool past = !valid && next() % 8 == 0;
      r.idx.push_back(bones == 0 || past ? static_cast<std::uint32_t>(bones + next() % 3)
                                         : next() % static_cast<std::uint32_t>(bones));
      const std::uint32_t kind = next() % 6;  // a third of the slots skipped, as 2-4 influences are
      r.w.push_back(kind == 0 ? 0.0 : kind == 1 ? -0.0 : kind == 2 ? -real(1) : real(1));
    }
    if (next() % 40 == 0) r.w[4 * v + next() % 4] = std::nan("");
  }
  if (shared && n > 0) {
    for (std::size_t v = 0; v < n; ++v) {
      const std::size_t row = next() % std::min<std::size_t>(3, n);
      for (std::size_t k = 0; k < 4; ++k) {
        r.idx[4 * v + k] = r.idx[4 * row + k];
        const double template_w = r.w[4 * row + k];
        if (template_w == 0)
          r.w[4 * v + k] = template_w;  // 0 or -0, skipped alike
        else if (r.w[4 * v + k] == 0)
          r.w[4 * v + k] = real(1) + 2;  // kept alike
      }
    }
  }
  return r;
}

// out of skin_vertices(raw) for the same rig, into a buffer of `size`.
std::vector<Vec2> raw_skin(const PlanRig& r, std::size_t size) {
  std::vector<Vec2> out(size, Vec2{7, 7});
  skin_vertices(r.verts, r.idx, r.w, r.mats, out);
  return out;
}

bool same_bits(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec2)) == 0);
}

}  // namespace

TEST_CASE("skin plan: vertices grouped by kept slots, in pairs, in the engine's slot order", "[skin]") {
  // v0: slots 0 and 2 kept; v1: all four; v2: slots 1 and 3 (slot 0 is -0, which the engine skips).
  const std::vector<Vec2> verts{{1, 2}, {3, 4}, {5, 6}};
  const std::vector<std::uint32_t> idx{0, 9, 1, 9, 2, 3, 4, 5, 6, 7, 6, 1};
  const std::vector<double> w{0.25, 0, 0.75, 0, 0.1, 0.2, 0.3, 0.4, -0.0, 0.5, 0, 0.5};
  const SkinPlan plan(verts, idx, w);
  CHECK(plan.vertex_count() == 3);
  CHECK(plan.bones_needed() == 8);  // bone 7 is the largest kept; the 9s sit behind zero weights
  const SkinPlan::Group& two = plan.group(2);
  CHECK(two.vertices == std::vector<std::uint32_t>{0, 2});
  CHECK(two.positions == std::vector<double>{1, 1, 5, 5, 2, 2, 6, 6});
  CHECK(two.weights == std::vector<double>{0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 0.5, 0.5});
  CHECK(two.offsets == std::vector<std::uint64_t>{0, 7 * sizeof(Affine2), 1 * sizeof(Affine2), 1 * sizeof(Affine2)});
  const SkinPlan::Group& four = plan.group(4);
  CHECK(four.vertices == std::vector<std::uint32_t>{1, 1});  // a lone vertex pairs with itself
  CHECK(four.weights.size() == 16);
  CHECK(plan.group(0).vertices.empty());
  CHECK(plan.group(1).vertices.empty());
  CHECK(plan.group(3).vertices.empty());
}

TEST_CASE("skin plan: vertices sharing their bones go four per step, the rest pair up", "[skin]") {
  // v0, v1, v3, v4, v5: bones 2 then 5 (v4 keeps them in slots 1 and 3); v2: 5 then 2.
  const std::vector<Vec2> verts{{0, 10}, {1, 11}, {2, 12}, {3, 13}, {4, 14}, {5, 15}};
  const std::vector<std::uint32_t> idx{2, 5, 0, 0, 2, 5, 0, 0, 5, 2, 0, 0, 2, 5, 0, 0, 7, 2, 7, 5, 2, 5, 0, 0};
  const std::vector<double> w{0.5, 0.5, 0, 0, 0.25, 0.75, 0, 0,   0.5, 0.5, 0, 0,
                              0.1, 0.9, 0, 0, 0,    0.3,  0, 0.7, 0.6, 0.4, 0, 0};
  const SkinPlan plan(verts, idx, w);
  const SkinPlan::SharedGroup& shared = plan.shared_group(2);
  CHECK(shared.vertices == std::vector<std::uint32_t>{0, 1, 3, 4});  // the first four, in vertex order
  CHECK(shared.positions == std::vector<double>{0, 0, 1, 1, 10, 10, 11, 11, 3, 3, 4, 4, 13, 13, 14, 14});
  CHECK(shared.weights ==
        std::vector<double>{0.5, 0.5, 0.25, 0.25, 0.1, 0.1, 0.3, 0.3, 0.5, 0.5, 0.75, 0.75, 0.9, 0.9, 0.7, 0.7});
  CHECK(shared.offsets == std::vector<std::uint64_t>{2 * sizeof(Affine2), 5 * sizeof(Affine2)});
  const SkinPlan::Group& pairs = plan.group(2);  // v5 is left of its run; v2 names the bones the other way
  CHECK(pairs.vertices == std::vector<std::uint32_t>{5, 2});
  CHECK(pairs.offsets ==
        std::vector<std::uint64_t>{2 * sizeof(Affine2), 5 * sizeof(Affine2), 5 * sizeof(Affine2), 2 * sizeof(Affine2)});
  for (int k = 0; k <= 4; ++k) {
    if (k != 2) CHECK(plan.shared_group(k).vertices.empty());
  }
}

TEST_CASE("skin plan: every kernel gives skin_vertices' bits on random rigs", "[skin]") {
  const bool avx2 = detail::plan_kernel_available(detail::PlanKernel::avx2);
  if (!avx2) WARN("this CPU has no AVX2: only the portable plan kernel is compared");
  std::uint32_t seed = 11;
  std::size_t compared = 0;
  for (const std::size_t bones : {0u, 1u, 3u, 20u, 40u}) {
    for (const std::size_t n : {0u, 1u, 2u, 3u, 7u, 64u, 301u}) {
      for (const auto& [valid, shared] : {std::pair{true, false}, {false, false}, {true, true}, {false, true}}) {
        CAPTURE(bones, n, valid, shared);
        const PlanRig r = random_plan_rig(bones, n, ++seed, valid, shared);
        const SkinPlan plan(r.verts, r.idx, r.w);
        REQUIRE(plan.vertex_count() == n);
        std::size_t four_per_step = 0;
        for (int k = 0; k <= 4; ++k) four_per_step += plan.shared_group(k).vertices.size();
        if (shared && n >= 64) CHECK(four_per_step >= n / 2);
        if (!shared && bones >= 20 && n >= 64) CHECK(four_per_step < n / 8);  // few rows alike by chance
        for (const bool float32 : {true, false}) {
          std::vector<Vec2> expected(n, Vec2{7, 7});
          detail::skin_with(detail::SkinKernel::portable, r.verts.data(), r.idx.data(), r.w.data(), r.mats.data(),
                            r.mats.size(), expected.data(), n, float32);
          std::vector<Vec2> out(n, Vec2{7, 7});
          detail::skin_plan_with(detail::PlanKernel::portable, plan, r.mats.data(), r.mats.size(), out.data(), n,
                                 float32);
          CHECK(same_bits(out, expected));
          if (avx2 && plan.bones_needed() <= r.mats.size()) {
            std::fill(out.begin(), out.end(), Vec2{7, 7});
            detail::skin_plan_with(detail::PlanKernel::avx2, plan, r.mats.data(), r.mats.size(), out.data(), n,
                                   float32);
            CHECK(same_bits(out, expected));
            ++compared;
          }
        }
        // The public entry: out as long, longer (the rest zeroed) or shorter than the mesh.
        for (const std::size_t size : {n, n + 3, n / 2}) {
          std::vector<Vec2> out(size, Vec2{7, 7});
          skin_vertices(plan, r.mats, out);
          CHECK(same_bits(out, raw_skin(r, size)));
        }
      }
    }
  }
  if (avx2) CHECK(compared >= 60);  // the valid rigs with bones, in both precisions
}

TEST_CASE("skin plan: skin_rig with plans gives skin_rig's bits, deformed parts included", "[skin]") {
  Rig rig;
  rig.bones = {{"root", -1, 10, 20, 0}, {"arm", 0, 30, 0, 0.3}, {"hand", 1, 20, 0, -0.2}};
  rig.layout = Layout::V2;
  const PlanRig a = random_plan_rig(3, 50, 5, true), b = random_plan_rig(3, 31, 6, false);
  for (const PlanRig* r : {&a, &b}) {
    Part part;
    part.mesh.verts = r->verts;
    part.skin_indices = r->idx;
    part.skin_weights = r->w;
    rig.parts.push_back(part);
  }
  const std::vector<SkinPlan> plans = plan_skin(rig);
  REQUIRE(plans.size() == 2);
  RigPose pose = bind_pose(rig);
  pose.bones[1].rot += 0.7;
  pose.bones[2].sx = 1.5;
  for (const bool deformed : {false, true}) {
    if (deformed) pose.deform = {{}, std::vector<double>(62, 1.25)};  // the second part moves
    const auto with = skin_rig(rig, pose, plans), without = skin_rig(rig, pose);
    REQUIRE(with.size() == 2);
    CHECK(same_bits(with[0], without[0]));
    CHECK(same_bits(with[1], without[1]));
  }
  CHECK(same_bits(skin_rig(rig, pose, std::span<const SkinPlan>(plans).first(1))[1], skin_rig(rig, pose)[1]));
}

namespace {

// skin_rig from the primitives, as the engine's skin2DSystem spells it out: pose matrices by the
// parent walk, bind matrices and the last bone of each name looked up afresh.
std::vector<std::vector<Vec2>> plan_test_reference_skin(const Rig& rig, const RigPose& pose) {
  const std::size_t n = rig.bones.size();
  std::vector<BoneLocal> locals = pose.bones;
  locals.resize(n);
  std::vector<Affine2> now(n), skin(n);
  pose_root_local(rig.bones, locals, now);
  const BindMatrices bind = derive_bind_matrices(rig.bones);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t last = i;
    for (std::size_t j = 0; j < n; ++j)
      if (rig.bones[j].name == rig.bones[i].name) last = j;
    skin[i] = multiply(now[last], bind.inv_bind[i]);
  }
  std::vector<std::vector<Vec2>> out;
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    const Part& part = rig.parts[p];
    std::vector<Vec2> source = part.mesh.verts;
    if (p < pose.deform.size())
      for (std::size_t v = 0; v < source.size() && 2 * v + 1 < pose.deform[p].size(); ++v)
        source[v] = {source[v].x + pose.deform[p][2 * v], source[v].y + pose.deform[p][2 * v + 1]};
    out.emplace_back(source.size());
    skin_vertices(source, part.skin_indices, part.skin_weights, skin, out.back());
  }
  return out;
}

}  // namespace

TEST_CASE("skin plan: a RigSkinPlan frame gives the engine's bits, with names shared and bones missing", "[skin]") {
  Rig rig;
  // "arm" twice: both skin with the later one's pose matrix; "hand" lists its parent after itself.
  rig.bones = {{"root", -1, 10, 20, 0}, {"hand", 3, 20, 0, -0.2}, {"arm", 0, 30, 0, 0.3}, {"arm", 0, -30, 5, 1.1}};
  rig.bones[1].no_scale = true;
  rig.layout = Layout::V2;
  const PlanRig a = random_plan_rig(4, 50, 7, true, true), b = random_plan_rig(4, 31, 8, false);
  for (const PlanRig* r : {&a, &b}) {
    Part part;
    part.mesh.verts = r->verts;
    part.skin_indices = r->idx;
    part.skin_weights = r->w;
    rig.parts.push_back(part);
  }
  const RigSkinPlan plan = plan_rig_skin(rig);
  CHECK(plan.matrix_of == std::vector<std::uint32_t>{0, 1, 3, 3});
  RigSkinScratch scratch;
  std::vector<std::vector<Vec2>> out;
  RigPose pose = bind_pose(rig);
  for (int frame = 0; frame < 4; ++frame) {  // the same scratch and buffers every frame
    pose.bones[2].rot += 0.7;
    pose.bones[3].sx = 1.5 + frame;
    if (frame == 2) pose.deform = {{}, std::vector<double>(62, 1.25)};  // the second part moves
    if (frame == 3) pose.bones.resize(2);                              // the rest at the origin
    skin_rig(rig, pose, plan, scratch, out);
    const auto expected = plan_test_reference_skin(rig, pose);
    REQUIRE(out.size() == 2);
    CHECK(same_bits(out[0], expected[0]));
    CHECK(same_bits(out[1], expected[1]));
    CHECK(same_bits(skin_rig(rig, pose)[1], expected[1]));
  }
}

TEST_CASE("skin plan: a RigSkinPlan poses only the bones a vertex depends on", "[skin]") {
  Rig rig;
  // 0 root -> 1 spine -> 2 arm -> 3 hand; 4 tail under root; 5 "arm" again (a later bone of the name:
  // bone 2 skins with its matrix) under 4; 6 a lone root. 7's parent link would close a cycle (7 <-> 8).
  rig.bones = {{"root", -1, 10, 20, 0},  {"spine", 0, 0, -30, 0.1}, {"arm", 1, 20, 0, 0.4}, {"hand", 2, 15, 0, -0.3},
               {"tail", 0, -20, 5, 2.0}, {"arm", 4, -10, 0, 0.2},   {"lone", -1, 3, 4, 0},    {"c7", 8, 1, 0, 0.5},
               {"c8", 7, 0, 1, -0.5}};
  rig.layout = Layout::V2;
  Part part;
  part.mesh.verts = {{0, 0}, {10, -20}, {30, -30}, {-5, 7}};
  // Bones 2 and 8 carry weight; bone 3 and 6 are named only by slots of weight 0 (and -0); 40 is past
  // the skeleton.
  part.skin_indices = {2, 3, 0, 0, 2, 6, 0, 0, 8, 3, 40, 0, 8, 2, 0, 0};
  part.skin_weights = {0.75, 0, 0, 0, 1, -0.0, 0, 0, 1, 0, 0.5, 0, 0.5, 0.5, 0, 0};
  rig.parts.push_back(part);
  Part short_skin;  // three vertices, skin arrays for two: the third stays at (0, 0)
  short_skin.mesh.verts = {{1, 2}, {3, 4}, {5, 6}};
  short_skin.skin_indices = {8, 0, 0, 0, 2, 8, 0, 0, 2, 2};
  short_skin.skin_weights = {1, 0, 0, 0, 0.25, 0.75, 0, 0, 1, 1};
  rig.parts.push_back(short_skin);
  const RigSkinPlan plan = plan_rig_skin(rig);
  CHECK(plan.skinned == std::vector<std::uint32_t>{2, 8});
  CHECK(plan.part_start == std::vector<std::size_t>{0, 4, 7});
  // Bone 2 skins with bone 5's matrix: 5 and its parents 4 and 0. Bone 8 with its own: the walk from
  // 7 breaks 8's link back to 7, so 8 is a root. Spine, arm, hand, lone and 7 are not posed.
  std::vector<std::uint32_t> posed;
  for (const PoseStep& step : plan.order) posed.push_back(step.bone);
  std::sort(posed.begin(), posed.end());
  CHECK(posed == std::vector<std::uint32_t>{0, 4, 5, 8});
  std::vector<std::uint32_t> full;
  for (const PoseStep& step : pose_order(rig.bones))
    if (std::find(posed.begin(), posed.end(), step.bone) != posed.end()) full.push_back(step.bone);
  std::vector<std::uint32_t> kept;
  for (const PoseStep& step : plan.order) kept.push_back(step.bone);
  CHECK(kept == full);  // the full order's own sequence
  RigPose pose = bind_pose(rig);
  for (BoneLocal& b : pose.bones) b.rot += 0.25;
  pose.bones[1].sx = 2;  // the unposed bones may hold anything: nothing reads them
  pose.bones[6].rot = std::nan("");
  RigSkinScratch scratch;
  std::vector<std::vector<Vec2>> out;
  skin_rig(rig, pose, plan, scratch, out);
  REQUIRE(out.size() == 2);
  const auto expected = plan_test_reference_skin(rig, pose);
  CHECK(same_bits(out[0], expected[0]));
  CHECK(same_bits(out[1], expected[1]));
  CHECK(out[1][2].x == 0);
  CHECK(same_bits(skin_rig(rig, pose)[0], out[0]));
}

namespace {

// Bit for bit, except that any two NaNs match: IEEE 754 leaves a NaN result's sign open, and
// compilers differ in it (a negation may flip it or not), so a NaN rotation's matrices and vertices
// only have to be NaN in the same places.
bool plan_test_same_value(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof(double)) == 0;
}
bool plan_test_same_matrix(const Affine2& a, const Affine2& b) {
  return plan_test_same_value(a.a, b.a) && plan_test_same_value(a.b, b.b) && plan_test_same_value(a.c, b.c) &&
         plan_test_same_value(a.d, b.d) && plan_test_same_value(a.e, b.e) && plan_test_same_value(a.f, b.f);
}
bool plan_test_same_points(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!plan_test_same_value(a[i].x, b[i].x) || !plan_test_same_value(a[i].y, b[i].y)) return false;
  return true;
}

// A frame's matrices against the parent walk (pose_root_local, which calls cos and sin afresh) and
// the vertices against plan_test_reference_skin, bit for bit.
void plan_test_check_frame(const Rig& rig, const RigPose& pose, const RigSkinPlan& plan, RigSkinScratch& scratch) {
  std::vector<std::vector<Vec2>> out;
  skin_rig(rig, pose, plan, scratch, out);
  std::vector<BoneLocal> locals = pose.bones;
  locals.resize(rig.bones.size());
  std::vector<Affine2> now(rig.bones.size());
  pose_root_local(rig.bones, locals, now);
  for (const PoseStep& step : plan.order) CHECK(plan_test_same_matrix(scratch.now[step.bone], now[step.bone]));
  for (const std::uint32_t b : plan.skinned)
    CHECK(plan_test_same_matrix(scratch.skin[b], multiply(now[plan.matrix_of[b]], plan.inv_bind[b])));
  const auto expected = plan_test_reference_skin(rig, pose);
  REQUIRE(out.size() == expected.size());
  for (std::size_t p = 0; p < out.size(); ++p) CHECK(plan_test_same_points(out[p], expected[p]));
}

}  // namespace

TEST_CASE("skin plan: a bone whose rotation keeps its bits reuses its cos and sin, any other recomputes them",
          "[skin]") {
  Rig rig;
  rig.bones = {{"root", -1, 10, 20, 0}, {"arm", 0, 30, 0, 0.3}, {"hand", 1, 20, 0, -0.2}, {"tail", 0, -9, 4, 2.5}};
  rig.layout = Layout::V2;
  const PlanRig a = random_plan_rig(4, 40, 11, true, true);
  Part part;
  part.mesh.verts = a.verts;
  part.skin_indices = a.idx;
  part.skin_weights = a.w;
  rig.parts.push_back(part);
  const RigSkinPlan plan = plan_rig_skin(rig);
  REQUIRE(plan.order.size() == 4);
  RigSkinScratch scratch;
  // Held, changed, back to an earlier value, +0 and -0 (sin(-0) is -0), a NaN, huge angles.
  const std::vector<std::vector<double>> frames{
      {0, 0.3, -0.2, 2.5},     {0, 0.3, -0.2, 2.5},  {-0.0, 0.3, -0.2, 2.5}, {0.0, 0.7, -0.2, 2.5},
      {0.0, 0.3, -0.2, 1e22},  {std::nan(""), 0.3, -0.2, 1e22}, {std::nan(""), 0.3, -0.2, -1e22},
      {0.1, 0.3, -0.2, 2.5},   {0.1, 0.3, -0.2, 2.5}};
  RigPose pose = bind_pose(rig);
  for (const std::vector<double>& rots : frames) {
    for (std::size_t b = 0; b < rots.size(); ++b) pose.bones[b].rot = rots[b];
    pose.bones[2].sx = 1 + rots[1];
    plan_test_check_frame(rig, pose, plan, scratch);
    REQUIRE(scratch.turns.size() == rig.bones.size());
    for (std::size_t b = 0; b < rots.size(); ++b) {
      const RigSkinScratch::Turn& turn = scratch.turns[b];
      CHECK(std::memcmp(&turn.rot, &rots[b], sizeof(double)) == 0);
      const double c = js_cos(rots[b]), s = js_sin(rots[b]);
      CHECK(std::memcmp(&turn.cos, &c, sizeof(double)) == 0);
      CHECK(std::memcmp(&turn.sin, &s, sizeof(double)) == 0);
    }
  }
  // The same scratch on a rig with more bones: the entries it keeps are still cos and sin of their
  // rotations, and the new ones start at rotation +0.
  Rig longer = rig;
  longer.bones.push_back({"finger", 2, 5, 0, 0.0});
  longer.parts[0].skin_indices[0] = 4;
  longer.parts[0].skin_weights[0] = 0.5;
  const RigSkinPlan longer_plan = plan_rig_skin(longer);
  RigPose longer_pose = bind_pose(longer);
  plan_test_check_frame(longer, longer_pose, longer_plan, scratch);
  longer_pose.bones[4].rot = -0.0;
  plan_test_check_frame(longer, longer_pose, longer_plan, scratch);
}

TEST_CASE("skin plan: a frame's steps are resolved once, parents outside the rig as roots", "[skin]") {
  Rig rig;
  // 1's parent is past the rig, 2's is negative: both roots. "arm" twice: bone 3 skins with bone 4's matrix.
  rig.bones = {{"root", -1, 10, 20, 0}, {"far", 9, 1, 2, 0.5}, {"neg", -3, 3, 4, 0.2}, {"arm", 0, 30, 0, 0.3},
               {"arm", 0, -30, 5, 1.1}};
  rig.layout = Layout::V2;
  Part part;
  part.mesh.verts = {{0, 0}, {1, 1}};
  part.skin_indices = {1, 2, 3, 0, 4, 0, 0, 0};
  part.skin_weights = {0.25, 0.25, 0.5, 0, 1, 0, 0, 0};
  rig.parts.push_back(part);
  rig.bones[1].no_scale = true;  // a root: its parent's scale is nothing to remove
  rig.bones[4].no_scale = true;
  const RigSkinPlan plan = plan_rig_skin(rig);
  CHECK(plan.bones == 5);
  CHECK(plan.skinned == std::vector<std::uint32_t>{1, 2, 3, 4});
  CHECK(plan.skinned_late == std::vector<std::uint32_t>{3});
  REQUIRE(plan.frame.size() == plan.order.size());
  for (std::size_t k = 0; k < plan.frame.size(); ++k) {
    const std::uint32_t b = plan.frame[k].bone;
    CHECK(b == plan.order[k].bone);
    CHECK(plan.frame[k].parent == (b == 4 ? 0 : -1));  // root itself, far, neg: roots
    CHECK(plan.frame[k].skin == (b == 1 || b == 2 || b == 4));
    CHECK(plan.frame[k].no_scale == (b == 4));
  }
}

namespace {

// A random skeleton: names drawn from three (shared names skin with the last bone of theirs),
// parents anywhere, before or after, negative or past the rig (roots), cycles (broken by the walk),
// a quarter of the bones noScale.
std::vector<Bone> plan_test_random_bones(std::size_t n, std::uint32_t& state) {
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  auto real = [&](double scale) { return (static_cast<double>(next() % 200001) - 100000) / 100000 * scale; };
  std::vector<Bone> bones;
  for (std::size_t b = 0; b < n; ++b) {
    const std::uint32_t kind = next() % 8;
    const std::int64_t parent = kind == 0 ? -1 : kind == 1 ? -4 : kind == 2 ? static_cast<std::int64_t>(n + next() % 3)
                                                                            : static_cast<std::int64_t>(next() % n);
    bones.push_back({"b" + std::to_string(next() % 3 == 0 ? 0 : b), parent, real(50), real(50), real(3)});
    bones.back().no_scale = next() % 4 == 0;
  }
  return bones;
}

// A rotation as a clip or a game may hand it over: any angle, held from the last frame, +-0, NaN,
// infinite, huge (Payne-Hanek), near multiples of pi/2 (where the reduction cancels).
double plan_test_random_rot(double last, std::uint32_t& state) {
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  const double u = static_cast<double>(next() % 2000001) / 1000000 - 1;  // [-1, 1]
  switch (next() % 12) {
    case 0: return last;
    case 1: return next() % 2 ? 0.0 : -0.0;
    case 2: return std::nan("");
    case 3: return next() % 2 ? INFINITY : -INFINITY;
    case 4: return u * 1e22;
    case 5: return u * 1e300;
    case 6: return static_cast<double>(static_cast<int>(next() % 80) - 40) * 1.5707963267948966;
    case 7: return u * 60;
    case 8: return u * 1e-9;
    default: return u * 4;
  }
}

}  // namespace

TEST_CASE("skin plan: the planned bone step gives the parent walk's bits on random skeletons and poses", "[skin]") {
  std::uint32_t state = 2024;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  std::size_t frames = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 1 + next() % 12;
    Rig rig;
    rig.layout = Layout::V2;
    rig.bones = plan_test_random_bones(n, state);
    const std::size_t parts = 1 + next() % 2;  // one part is skinned in place, two through the copy
    for (std::size_t p = 0; p < parts; ++p) {
      const PlanRig r = random_plan_rig(n, 3 + next() % 40, next(), next() % 2 == 0, next() % 2 == 0);
      Part part;
      part.mesh.verts = r.verts;
      part.skin_indices = r.idx;
      part.skin_weights = r.w;
      rig.parts.push_back(part);
    }
    const RigSkinPlan plan = plan_rig_skin(rig);
    REQUIRE(plan.frame.size() == plan.order.size());
    RigSkinScratch scratch;
    RigPose pose = bind_pose(rig);
    for (int frame = 0; frame < 8; ++frame) {
      for (BoneLocal& l : pose.bones) {
        l.rot = plan_test_random_rot(l.rot, state);
        if (next() % 3 == 0) l.sx = (static_cast<double>(next() % 5) - 2) * 0.75;  // 0, negative, mirrored
        if (next() % 3 == 0) l.sy = static_cast<double>(next() % 7) * 0.5 - 1;
        if (next() % 40 == 0) l.x = std::nan("");
      }
      pose.deform.clear();
      if (next() % 4 == 0) pose.deform = {std::vector<double>(2 * rig.parts[0].mesh.verts.size(), 0.5)};
      if (next() % 8 == 0) pose.bones.resize(next() % (n + 1));  // the rest at the origin
      plan_test_check_frame(rig, pose, plan, scratch);
      pose.bones.resize(n);
      ++frames;
    }
  }
  CHECK(frames == 480);
}
