// SPDX-License-Identifier: Apache-2.0
// Bind and pose matrices of a bone hierarchy, exactly as the engine derives them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rig2d/core/affine.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

struct BindMatrices {
  std::vector<Affine2> root_local;  // #bones: bind-pose bone -> rig space
  std::vector<Affine2> inv_bind;    // #bones: invert(root_local)
};

// The engine's deriveBindMatrices: local = compose(x, y, rot); root_local resolved through parents in
// any bone order; a parent out of range, or one that would close a cycle, makes the bone a root.
RIG2D_EXPORT BindMatrices derive_bind_matrices(std::span<const Bone> bones);

// A bone's joint position in rig space: the translation of its bind root-local matrix.
RIG2D_EXPORT std::vector<Vec2> joint_positions(std::span<const Bone> bones);

// A bone's LOCAL transform at pose time (what the engine reads off the Bone2D entity's Transform).
struct BoneLocal {
  double x = 0, y = 0, rot = 0, sx = 1, sy = 1;
};

// The bind pose as locals (scale 1).
RIG2D_EXPORT std::vector<BoneLocal> bind_locals(std::span<const Bone> bones);

// Root-local matrices for a pose: out[i] = P * compose(local[i]) with P = the parent's matrix
// (scale removed when bone i is noScale), or compose(local[i]) alone for a root. Parents are
// resolved in any order, cycle-guarded like derive_bind_matrices.
// Sizes: locals.size() == out.size() == bones.size().
RIG2D_EXPORT void pose_root_local(std::span<const Bone> bones, std::span<const BoneLocal> locals,
                                  std::span<Affine2> out);

// The order pose_root_local resolves a hierarchy in, made once for a skeleton posed every frame: each
// step computes bone `bone` from the matrix of `parent` (already computed), or alone when `parent` is
// -1 (a root, a parent out of range, or the link that would close a cycle).
struct PoseStep {
  std::uint32_t bone = 0;
  std::int64_t parent = -1;
};
RIG2D_EXPORT std::vector<PoseStep> pose_order(std::span<const Bone> bones);

// pose_root_local along a pose_order of the same bones: the same bits when locals and out have one
// entry per bone, with no allocation and no walk up the parents per frame. Steps naming a bone past
// locals or out are skipped.
RIG2D_EXPORT void pose_root_local(std::span<const Bone> bones, std::span<const PoseStep> order,
                                  std::span<const BoneLocal> locals, std::span<Affine2> out);

// skin[b] = root_local_now[b] * inv_bind[b]; the identity (up to rounding) at the bind pose.
RIG2D_EXPORT void skinning_matrices(std::span<const Affine2> root_local_now,
                                    std::span<const Affine2> inv_bind, std::span<Affine2> out);

}  // namespace rig2d
