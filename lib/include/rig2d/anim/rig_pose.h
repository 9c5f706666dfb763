// SPDX-License-Identifier: Apache-2.0
// A rig's animatable state, and binding a clip's tracks to it by name-path (ENGINE-SPEC §1.7, §1.8).
//
// The clip is applied to the subtree the editor builds for a rig: the root entity carries the
// SkinnedSprite2D (path ""), each bone is a child entity named after the bone, parented to its
// parent bone's entity (or to the root), in bone-index order. So a bone is addressed by the chain
// of bone names from a root bone down, e.g. "root/arm/hand". On duplicate sibling names the last
// bone wins, as the engine's entity index does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/core/error.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d {

// The SkinnedSprite2D fields a preview honours (defaults are the trait's defaults).
struct SpriteState {
  std::uint32_t color = 0xFFFFFF;  // tint, 0xRRGGBB
  double opacity = 1;              // used clamped to [0, 1]
  bool flip_x = false;             // mirror about the rig origin (render only)
  bool flip_y = false;
  bool visible = true;
};

struct RigPose {
  std::vector<BoneLocal> bones;              // one per rig bone: the bone entity's local Transform
  SpriteState sprite;
  std::vector<std::vector<double>> deform;   // per rig part: [dx0, dy0, ...] px, empty = none
};

// Each bone's parent in the editor's subtree: its parent bone, or -1 (the root entity) when the
// parent index is out of range or the link would close a cycle.
RIG2D_EXPORT std::vector<std::int64_t> subtree_parents(const std::vector<Bone>& bones);

// The bind pose: every bone at its bind x/y/rot with scale 1, default sprite state, no deform.
RIG2D_EXPORT RigPose bind_pose(const Rig& rig);

enum class BoneField { X, Y, Rot, ScaleX, ScaleY };
enum class SpriteField { Color, Opacity, FlipX, FlipY, Visible };

// Which track drives what; built once per (clip, rig) by bind_clip.
struct ClipBinding {
  struct BoneChannel {
    std::size_t track;  // index into Clip::tracks
    std::size_t bone;   // index into Rig::bones
    BoneField field;
  };
  struct SpriteChannel {
    std::size_t track;
    SpriteField field;
  };
  struct DeformChannel {
    std::size_t track;  // index into Clip::deform_tracks
    std::size_t part;   // index into Rig::parts
  };
  std::vector<BoneChannel> bones;
  std::vector<SpriteChannel> sprite;
  std::vector<DeformChannel> deform;
  // One note or warning per track that drives nothing in a preview, with its reason:
  // anim.track.empty (no keys), anim.track.path (no entity at the path), anim.track.trait (the
  // entity has no such trait), anim.track.field (field not used by skinning or unknown),
  // anim.track.enum (enum track on a field without options), anim.track.root (root Transform:
  // places the sprite in a scene, not in rig space), anim.deform.part / anim.deform.size.
  std::vector<Diagnostic> skipped;
};

// Resolves every track against the rig's bone subtree. `clip_path` labels the diagnostics.
RIG2D_EXPORT ClipBinding bind_clip(const Clip& clip, const Rig& rig, const std::string& clip_path = {});

// Writes the clip's values at `time` (seconds, not wrapped: use advance_clip_time first) into
// `pose`, coerced as the engine writes them (boolean -> 0/1, color -> int32). Fields no track
// drives keep their value. `pose` must come from bind_pose(rig) for the same rig.
RIG2D_EXPORT void apply_clip(const Clip& clip, const ClipBinding& binding, double time, RigPose& pose);

}  // namespace rig2d
