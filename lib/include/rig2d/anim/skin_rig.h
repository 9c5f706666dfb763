// SPDX-License-Identifier: Apache-2.0
// A whole rig skinned at a pose, exactly as the engine's skin2DSystem (ENGINE-SPEC §2): what previews
// draw, clips play and deformation checks measure.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/core/types.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"
#include "rig2d/skin/skeleton.h"
#include "rig2d/skin/skin_plan.h"

namespace rig2d {

// Skinned positions of every part (rig.parts order), rig space, float32 as the engine's skin buffer:
// pose matrices through pose_root_local (noScale honoured), skin = now * invBind (a rig bone uses
// the matrix of the LAST bone of its name, as nowByName does), deform offsets added to the bind
// vertices first (missing offsets count as 0), then 4-slot LBS.
RIG2D_EXPORT std::vector<std::vector<Vec2>> skin_rig(const Rig& rig, const RigPose& pose);

// For a rig skinned many times (every frame of a clip, every bend of a deformation check): one
// SkinPlan per part, made once; skin_rig with them gives the same bits. A part the pose deforms, or
// one past `plans`, is skinned as skin_rig does it without a plan.
RIG2D_EXPORT std::vector<SkinPlan> plan_skin(const Rig& rig);
RIG2D_EXPORT std::vector<std::vector<Vec2>> skin_rig(const Rig& rig, const RigPose& pose,
                                                     std::span<const SkinPlan> plans);

// Everything about skinning a rig that no pose changes, made once (a game's load time), so a frame
// only composes the bones' local transforms and skins: the order the hierarchy resolves in, cut to
// the bones a vertex depends on (a bone no kept slot names, nor any descendant of one, is not
// posed), the inverse bind matrices, which bone's pose matrix each bone skins with (the last of its
// name), and one SkinPlan of every part's vertices, part after part, so a rig of many small parts is
// skinned in one pass.
struct RigSkinPlan {
  std::vector<PoseStep> order;            // the steps of pose_order(rig.bones) the skinned bones depend on
  std::vector<Affine2> inv_bind;          // #bones
  std::vector<std::uint32_t> matrix_of;   // #bones: the bone whose pose matrix bone b skins with
  std::vector<std::uint32_t> skinned;     // ascending: the bones some part's slot with a weight not 0 names
  SkinPlan vertices;                      // every part's vertices, part p's from part_start[p]
  std::vector<std::size_t> part_start;    // #parts + 1

  // `order` resolved for a frame of a rig of `bones` bones: a parent outside the rig is -1 (a root),
  // and a bone skinned with its own pose matrix has its skinning matrix made in its step. The rest of
  // `skinned` (bones skinning with a later bone of their name) is `skinned_late`. A frame of a rig of
  // another bone count takes `order` and `skinned` as they are.
  struct FrameStep {
    std::uint32_t bone = 0;
    std::int32_t parent = -1;
    bool skin = false;      // skin[bone] = now[bone] * inv_bind[bone] right after now[bone]
    bool no_scale = false;  // the bone is noScale and has a parent: it takes the parent's matrix unscaled
  };
  std::vector<FrameStep> frame;
  std::vector<std::uint32_t> skinned_late;
  std::size_t bones = 0;
};
RIG2D_EXPORT RigSkinPlan plan_rig_skin(const Rig& rig);

// The per-frame matrices, kept between frames so a frame allocates nothing. Only the entries of the
// bones the plan poses and skins are written.
struct RigSkinScratch {
  // cos and sin of a posed bone's rotation, kept for the next frame: a bone whose rotation has the
  // same bits (at rest, or held by the clip) reuses them instead of calling cos and sin again, the
  // same results of the same input. A new entry holds rotation +0, whose cos and sin are exactly 1, 0.
  struct Turn {
    double rot = 0, cos = 1, sin = 0;
  };
  std::vector<BoneLocal> locals;
  std::vector<Affine2> now, skin;
  std::vector<Vec2> vertices;  // the whole rig's, part after part
  std::vector<Turn> turns;     // #bones
};

// skin_rig(rig, pose) with a plan of the same rig: the same bits, written into `out` (one buffer per
// part, resized to its vertex count: no allocation once they have their sizes, unless the pose
// deforms a part).
RIG2D_EXPORT void skin_rig(const Rig& rig, const RigPose& pose, const RigSkinPlan& plan, RigSkinScratch& scratch,
                           std::vector<std::vector<Vec2>>& out);

// Each bone's posed joint (translation of its root-local pose matrix), rig space.
RIG2D_EXPORT std::vector<Vec2> posed_joints(const Rig& rig, const RigPose& pose);

}  // namespace rig2d
