// SPDX-License-Identifier: Apache-2.0
#include "rig2d/anim/skin_rig.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string_view>

#include "rig2d/core/affine.h"
#include "rig2d/skin/lbs.h"
#include "rig2d/skin/skeleton.h"
#include "core/js_trig.h"
#include "skin/frame_math.h"
#include "skin/skinned_bones.h"

namespace rig2d {
namespace {

// nowByName: a later bone of the same name overwrites an earlier one, and every rig bone of that name
// skins with it.
std::vector<std::uint32_t> matrix_sources(const Rig& rig) {
  const std::size_t n = rig.bones.size();
  std::map<std::string_view, std::uint32_t> last_by_name;
  for (std::size_t i = 0; i < n; ++i) last_by_name[rig.bones[i].name] = static_cast<std::uint32_t>(i);
  std::vector<std::uint32_t> source(n);
  for (std::size_t i = 0; i < n; ++i) source[i] = last_by_name[rig.bones[i].name];
  return source;
}

// The steps of `order` those bones' pose matrices depend on: each bone read (through the last of its
// name) and every parent its step multiplies by, in the order's own sequence. A parent's step comes
// before its children's, so one backward pass collects them.
std::vector<PoseStep> steps_needed(std::span<const PoseStep> order, std::span<const std::uint32_t> matrix_of,
                                   std::span<const std::uint32_t> skinned, std::size_t bones) {
  std::vector<std::uint8_t> needed(bones, 0);
  for (const std::uint32_t b : skinned) needed[matrix_of[b]] = 1;
  for (std::size_t s = order.size(); s-- > 0;) {
    const PoseStep& step = order[s];
    if (needed[step.bone] && step.parent >= 0) needed[static_cast<std::size_t>(step.parent)] = 1;
  }
  std::vector<PoseStep> kept;
  for (const PoseStep& step : order)
    if (needed[step.bone]) kept.push_back(step);
  return kept;
}

// The pose's locals, one per rig bone: missing bones are at the origin, unrotated, scale 1.
std::span<const BoneLocal> all_locals(const Rig& rig, const RigPose& pose, RigSkinScratch& scratch) {
  const std::size_t n = rig.bones.size();
  if (pose.bones.size() >= n) return std::span<const BoneLocal>(pose.bones).first(n);
  scratch.locals.assign(pose.bones.begin(), pose.bones.end());
  scratch.locals.resize(n);
  return scratch.locals;
}

// skin = now * invBind for the bones the plan skins (a plan of another rig may name bones past the
// first n: those are left alone). The other matrices are never read: a slot naming them has weight 0.
void skin_from_poses(const RigSkinPlan& plan, std::size_t n, RigSkinScratch& scratch) {
  for (const std::uint32_t i : plan.skinned)
    if (i < n && plan.matrix_of[i] < n && i < plan.inv_bind.size())
      scratch.skin[i] = detail::frame_multiply(scratch.now[plan.matrix_of[i]], plan.inv_bind[i]);
}

// The pose's matrices through pose_root_local along the plan's steps, then skin_from_poses.
void skin_matrices(const Rig& rig, const RigPose& pose, const RigSkinPlan& plan, RigSkinScratch& scratch) {
  const std::size_t n = rig.bones.size();
  const std::span<const BoneLocal> locals = all_locals(rig, pose, scratch);
  scratch.now.resize(n);
  scratch.skin.resize(n);
  pose_root_local(rig.bones, plan.order, locals, scratch.now);
  skin_from_poses(plan, n, scratch);
}

// The cos and sin of every posed bone whose rotation's bits changed since the last frame, in a pass
// of their own: no bone's arithmetic there waits on another's, so several run at once.
void frame_turns(std::span<const RigSkinPlan::FrameStep> steps, std::span<const BoneLocal> locals,
                 RigSkinScratch::Turn* turns) {
  for (const RigSkinPlan::FrameStep& step : steps) {
    RigSkinScratch::Turn& turn = turns[step.bone];
    const double rot = locals[step.bone].rot;
    if (std::bit_cast<std::uint64_t>(rot) != std::bit_cast<std::uint64_t>(turn.rot)) {
      const SinCos t = js_sincos(rot);
      turn = {rot, t.cos, t.sin};
    }
  }
}

// A frame along plan.frame (a plan of this rig: every index checked when the plan was made): each
// bone placed under its parent as frame_place does, and a bone that skins with its own matrix gets
// its skinning matrix at once, while its pose matrix is in registers (skin_from_poses' product).
void frame_steps(std::span<const BoneLocal> locals, const RigSkinPlan& plan, RigSkinScratch& scratch) {
  const RigSkinScratch::Turn* turns = scratch.turns.data();
  Affine2* now = scratch.now.data();
  Affine2* skin = scratch.skin.data();
  for (const RigSkinPlan::FrameStep& step : plan.frame) {
    const std::size_t b = step.bone;
    const BoneLocal& l = locals[b];
    detail::FrameColumns m;
    if (step.parent < 0) {
      m = detail::frame_local_columns(l, turns[b].cos, turns[b].sin);
    } else if (step.no_scale) {
      m = detail::frame_columns(
          multiply(remove_scale(now[step.parent]), detail::frame_local(l, turns[b].cos, turns[b].sin)));
    } else {
      m = detail::frame_multiply_columns(detail::frame_columns(now[step.parent]),
                                         detail::frame_local(l, turns[b].cos, turns[b].sin));
    }
    detail::frame_store(now[b], m);
    if (step.skin) detail::frame_store(skin[b], detail::frame_multiply_columns(m, plan.inv_bind[b]));
  }
  for (const std::uint32_t i : plan.skinned_late)
    skin[i] = detail::frame_multiply(now[plan.matrix_of[i]], plan.inv_bind[i]);
}

// skin_matrices for a frame of a plan: pose_root_local along the plan's steps (the same expressions
// through skin/frame_math.h) with each bone's cos and sin kept in scratch.turns between frames.
void frame_matrices(const Rig& rig, const RigPose& pose, const RigSkinPlan& plan, RigSkinScratch& scratch) {
  const std::size_t n = rig.bones.size();
  const std::span<const BoneLocal> locals = all_locals(rig, pose, scratch);
  scratch.turns.resize(n);
  scratch.now.resize(n);
  scratch.skin.resize(n);
  if (plan.bones == n && plan.inv_bind.size() == n) {
    frame_turns(plan.frame, locals, scratch.turns.data());
    frame_steps(locals, plan, scratch);
    return;
  }
  // A plan of another rig: every index checked as the frame goes.
  Affine2* now = scratch.now.data();
  RigSkinScratch::Turn* turns = scratch.turns.data();
  for (const PoseStep& step : plan.order) {
    const std::size_t b = step.bone;
    if (b >= n) continue;
    RigSkinScratch::Turn& turn = turns[b];
    const double rot = locals[b].rot;
    if (std::bit_cast<std::uint64_t>(rot) != std::bit_cast<std::uint64_t>(turn.rot)) {
      const SinCos t = js_sincos(rot);
      turn = {rot, t.cos, t.sin};
    }
    detail::frame_place(step, rig.bones[b].no_scale, detail::frame_local(locals[b], turn.cos, turn.sin), now, n);
  }
  skin_from_poses(plan, n, scratch);
}

bool deforms(const RigPose& pose, std::size_t part) { return part < pose.deform.size() && !pose.deform[part].empty(); }

// The bind vertices of `part` with the deform offsets `off` added (missing offsets count as 0).
std::vector<Vec2> deformed_vertices(const Part& part, const std::vector<double>& off) {
  std::vector<Vec2> source = part.mesh.verts;
  for (std::size_t v = 0; v < source.size() && 2 * v + 1 < off.size(); ++v) {
    source[v] = {source[v].x + off[2 * v], source[v].y + off[2 * v + 1]};
  }
  return source;
}

// Every part skinned with `skin`: through its plan when it has one and the pose does not deform it.
void skin_parts(const Rig& rig, const RigPose& pose, const std::vector<Affine2>& skin, std::span<const SkinPlan> plans,
                std::vector<std::vector<Vec2>>& out) {
  out.resize(rig.parts.size());
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    const Part& part = rig.parts[p];
    if (!deforms(pose, p) && p < plans.size()) {
      out[p].resize(part.mesh.verts.size());  // the plan writes every vertex: past its own, (0,0)
      skin_vertices(plans[p], skin, out[p]);
      continue;
    }
    // Slots beyond the skin arrays (a malformed in-memory rig) stay at the origin, like 0 weights.
    out[p].assign(part.mesh.verts.size(), Vec2{});
    if (deforms(pose, p)) {
      skin_vertices(deformed_vertices(part, pose.deform[p]), part.skin_indices, part.skin_weights, skin, out[p]);
    } else {
      skin_vertices(part.mesh.verts, part.skin_indices, part.skin_weights, skin, out[p]);
    }
  }
}

// Every part's vertices one after another in one SkinPlan: each part's first
// min(vertices, indices / 4, weights / 4) vertices as the part has them, a slot naming no bone
// given weight 0 (the engine skips both alike), the rest of its vertices with no kept slot, so they
// come out (0, 0) as skin_vertices leaves them. `start` gets where each part begins, and the total.
SkinPlan whole_rig_plan(const Rig& rig, std::vector<std::size_t>& start) {
  std::vector<Vec2> bind;
  std::vector<std::uint32_t> indices;
  std::vector<double> weights;
  start.assign(1, 0);
  for (const Part& part : rig.parts) {
    const std::size_t verts = part.mesh.verts.size();
    const std::size_t skinned = std::min({verts, part.skin_indices.size() / 4, part.skin_weights.size() / 4});
    bind.insert(bind.end(), part.mesh.verts.begin(), part.mesh.verts.end());
    for (std::size_t k = 0; k < 4 * verts; ++k) {
      const bool slot = k < 4 * skinned && part.skin_indices[k] < rig.bones.size();
      indices.push_back(slot ? part.skin_indices[k] : 0);
      weights.push_back(slot ? part.skin_weights[k] : 0);
    }
    start.push_back(bind.size());
  }
  return SkinPlan(bind, indices, weights);
}

// plan.frame, skinned_late and bones from order, skinned and matrix_of, for a rig of these bones.
void resolve_frame(RigSkinPlan& plan, std::span<const Bone> bones) {
  const std::size_t n = bones.size();
  if (n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) return;  // no rig is this large; such a plan checks as it goes
  std::vector<std::uint8_t> own(n, 0);
  for (const std::uint32_t i : plan.skinned) {
    if (plan.matrix_of[i] == i)
      own[i] = 1;
    else
      plan.skinned_late.push_back(i);
  }
  for (const PoseStep& step : plan.order) {
    const bool root = step.parent < 0 || static_cast<std::size_t>(step.parent) >= n;
    plan.frame.push_back({step.bone, root ? -1 : static_cast<std::int32_t>(step.parent), own[step.bone] != 0,
                          !root && bones[step.bone].no_scale});
  }
  plan.bones = n;
}

// Everything of the plan but the skinning of its vertices.
RigSkinPlan plan_bones(const Rig& rig) {
  RigSkinPlan plan;
  plan.inv_bind = derive_bind_matrices(rig.bones).inv_bind;
  plan.matrix_of = matrix_sources(rig);
  const std::vector<std::uint8_t> read = detail::bones_read_by_skin(rig);
  for (std::size_t i = 0; i < read.size(); ++i)
    if (read[i]) plan.skinned.push_back(static_cast<std::uint32_t>(i));
  plan.order = steps_needed(pose_order(rig.bones), plan.matrix_of, plan.skinned, rig.bones.size());
  resolve_frame(plan, rig.bones);
  return plan;
}

}  // namespace

std::vector<std::vector<Vec2>> skin_rig(const Rig& rig, const RigPose& pose) { return skin_rig(rig, pose, {}); }

std::vector<SkinPlan> plan_skin(const Rig& rig) {
  std::vector<SkinPlan> plans;
  plans.reserve(rig.parts.size());
  for (const Part& part : rig.parts) plans.emplace_back(part.mesh.verts, part.skin_indices, part.skin_weights);
  return plans;
}

RigSkinPlan plan_rig_skin(const Rig& rig) {
  RigSkinPlan plan = plan_bones(rig);
  plan.vertices = whole_rig_plan(rig, plan.part_start);
  return plan;
}

void skin_rig(const Rig& rig, const RigPose& pose, const RigSkinPlan& plan, RigSkinScratch& scratch,
              std::vector<std::vector<Vec2>>& out) {
  frame_matrices(rig, pose, plan, scratch);
  const std::size_t verts = plan.vertices.vertex_count();
  if (rig.parts.size() == 1 && !deforms(pose, 0) && rig.parts[0].mesh.verts.size() == verts &&
      plan.part_start.size() == 2 && plan.part_start[1] == verts) {  // one part: skinned in place
    out.resize(1);
    out[0].resize(verts);
    skin_vertices(plan.vertices, scratch.skin, out[0]);
    return;
  }
  // The whole rig in one pass, then each part's run copied out; a part the pose deforms is skinned
  // again from its deformed vertices.
  scratch.vertices.resize(plan.vertices.vertex_count());
  skin_vertices(plan.vertices, scratch.skin, scratch.vertices);
  out.resize(rig.parts.size());
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    const Part& part = rig.parts[p];
    out[p].resize(part.mesh.verts.size());
    if (deforms(pose, p)) {
      skin_vertices(deformed_vertices(part, pose.deform[p]), part.skin_indices, part.skin_weights, scratch.skin, out[p]);
    } else if (p + 1 < plan.part_start.size() && plan.part_start[p + 1] - plan.part_start[p] == out[p].size()) {
      std::copy_n(scratch.vertices.begin() + static_cast<std::ptrdiff_t>(plan.part_start[p]), out[p].size(),
                  out[p].begin());
    } else {  // a plan of another rig
      skin_vertices(part.mesh.verts, part.skin_indices, part.skin_weights, scratch.skin, out[p]);
    }
  }
}

std::vector<std::vector<Vec2>> skin_rig(const Rig& rig, const RigPose& pose, std::span<const SkinPlan> plans) {
  const RigSkinPlan plan = plan_bones(rig);
  RigSkinScratch scratch;
  skin_matrices(rig, pose, plan, scratch);
  std::vector<std::vector<Vec2>> out;
  skin_parts(rig, pose, scratch.skin, plans, out);
  return out;
}

std::vector<Vec2> posed_joints(const Rig& rig, const RigPose& pose) {
  std::vector<BoneLocal> locals = pose.bones;
  locals.resize(rig.bones.size());
  std::vector<Affine2> now(rig.bones.size());
  pose_root_local(rig.bones, locals, now);
  std::vector<Vec2> joints(now.size());
  for (std::size_t i = 0; i < now.size(); ++i) joints[i] = {now[i].e, now[i].f};
  return joints;
}

}  // namespace rig2d
