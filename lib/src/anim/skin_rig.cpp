// SPDX-License-Identifier: Apache-2.0
#include "rig2d/anim/skin_rig.h"

#include <map>
#include <string>

#include "rig2d/core/affine.h"
#include "rig2d/skin/lbs.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d {
namespace {

// skin = now * invBind per rig bone, the pose's matrices through pose_root_local.
std::vector<Affine2> skin_matrices(const Rig& rig, const RigPose& pose) {
  const std::size_t n = rig.bones.size();
  std::vector<BoneLocal> locals = pose.bones;
  locals.resize(n);
  const BindMatrices bind = derive_bind_matrices(rig.bones);
  std::vector<Affine2> now(n), skin(n);
  pose_root_local(rig.bones, locals, now);
  // nowByName: a later bone of the same name overwrites an earlier one, and every rig bone of that
  // name skins with it.
  std::map<std::string, std::size_t> last_by_name;
  for (std::size_t i = 0; i < n; ++i) last_by_name[rig.bones[i].name] = i;
  for (std::size_t i = 0; i < n; ++i) skin[i] = multiply(now[last_by_name[rig.bones[i].name]], bind.inv_bind[i]);
  return skin;
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

}  // namespace

std::vector<std::vector<Vec2>> skin_rig(const Rig& rig, const RigPose& pose) { return skin_rig(rig, pose, {}); }

std::vector<SkinPlan> plan_skin(const Rig& rig) {
  std::vector<SkinPlan> plans;
  plans.reserve(rig.parts.size());
  for (const Part& part : rig.parts) plans.emplace_back(part.mesh.verts, part.skin_indices, part.skin_weights);
  return plans;
}

std::vector<std::vector<Vec2>> skin_rig(const Rig& rig, const RigPose& pose, std::span<const SkinPlan> plans) {
  const std::vector<Affine2> skin = skin_matrices(rig, pose);
  std::vector<std::vector<Vec2>> out(rig.parts.size());
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    const Part& part = rig.parts[p];
    out[p].resize(part.mesh.verts.size());
    // Slots beyond the skin arrays (a malformed in-memory rig) stay at the origin, like 0 weights.
    if (deforms(pose, p)) {
      skin_vertices(deformed_vertices(part, pose.deform[p]), part.skin_indices, part.skin_weights, skin, out[p]);
    } else if (p < plans.size()) {
      skin_vertices(plans[p], skin, out[p]);
    } else {
      skin_vertices(part.mesh.verts, part.skin_indices, part.skin_weights, skin, out[p]);
    }
  }
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
