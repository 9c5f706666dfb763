// SPDX-License-Identifier: Apache-2.0
// Motion from other tools onto a skeleton template's names, so it plays on every rig made from the
// template: BVH motion capture projected onto the sprite plane, and Spine animations through a bone
// map. Rotations only (the template rigs' proportions differ). See docs/convert.md, "Motion onto a
// template".
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"
#include "rig2d/skeleton/template.h"

namespace rig2d {

// Source bone (a BVH joint, a Spine bone) -> template bone, in file order.
struct BoneMap {
  std::string path;  // the map file ("" = built in)
  std::vector<std::pair<std::string, std::string>> bones;
};

// Reads {"bones": {"LeftUpLeg": "thigh_l", ...}} against `tmpl`. Errors (file, JSON pointer, line:col):
// json.*, bonemap.root (not an object), bonemap.key (a key other than $schema, description, bones),
// bonemap.type (`bones` not an object of strings, or empty), bonemap.bone (a template bone the
// template lacks, or one named by two source bones).
RIG2D_EXPORT Result<BoneMap> read_bone_map(std::string_view text, const std::string& path,
                                           const SkeletonTemplate& tmpl);
// read_file + read_bone_map.
RIG2D_EXPORT Result<BoneMap> load_bone_map(const std::string& path, const SkeletonTemplate& tmpl);
// The humanoid names of common motion-capture skeletons (CMU, Mixamo with or without "mixamorig:",
// and the like) for the bundled humanoid: Hips, Spine, Spine1/Chest, Neck, Head, LeftArm, LeftForeArm,
// LeftHand, LeftUpLeg, LeftLeg, LeftFoot, and the Right ones.
RIG2D_EXPORT BoneMap humanoid_mocap_bone_map();

enum class MotionPlane {
  Front,  // the figure faces the viewer: BVH x to screen right, y up (its left on the screen's right)
  Side,   // seen from its left: BVH z (its front) to screen right, y up
};

struct BvhImportOptions {
  MotionPlane plane = MotionPlane::Front;
  std::string clip_name = "Clip";
  std::string clip_id;
  // A bone whose segment leaves the plane so far that its projection is shorter than this fraction of
  // its length (it points at the viewer) keeps its previous frame's direction. [Limit: 0..1]
  double min_projected = 0.1;
};

// A BVH file's motion as a clip of the template's names: every frame's joint positions by forward
// kinematics (rotation channels applied in their listed order, degrees, offsets plus position
// channels), each mapped bone's segment (its joint to the child joint leading to its template child,
// else its only child or end site) projected onto the plane, and one `rz` key per frame: the
// segment's turn from its rest direction (all channels 0) minus the turn of its nearest mapped
// template ancestor, so each rig bone turns by what the mocap bone turned relative to its parent
// (positive = clockwise on screen). Tracks are name-paths from the template's root; keys at
// t = frame * frame time with central-difference tangents; duration = the last key's time; loop off.
// Root translation is not imported. Warnings: bvh.map.missing (a mapped joint the file lacks),
// bvh.degenerate (a segment that left the plane, with its first frame). Errors (line:col):
// bvh.syntax, bvh.channels (an unknown channel or count), bvh.frames (a frame count or time out of
// range, too few values), bvh.limits (over 1024 joints or 10^7 values), bvh.map (no mapped joint in
// the file).
RIG2D_EXPORT Result<Clip> import_bvh_clip(std::string_view bvh_text, const std::string& bvh_path, const BoneMap& map,
                                          const SkeletonTemplate& tmpl, const BvhImportOptions& options,
                                          std::vector<Diagnostic>* warnings = nullptr);

// An imported clip (interop's Spine import: tracks by the source rig's bone name-paths, `rz` the
// bone's bind rot plus its turn) onto the template: each `rz` track of a mapped bone gets the template
// bone's name-path and loses the source bone's bind rot, so it is the turn alone. Warnings:
// convert.map.unmapped (a track of a bone the map does not name; dropped), convert.map.field (an x, y
// or scale track of a mapped bone: rotations only; dropped).
RIG2D_EXPORT Clip map_clip_to_template(const Clip& clip, const Rig& source, const BoneMap& map,
                                       const SkeletonTemplate& tmpl, std::vector<Diagnostic>* warnings = nullptr);

// The template bone's name-path in a rig made from the template: from its root, after the template's
// ground bone when it has one ("root/hips/thigh_l/shin_l").
RIG2D_EXPORT std::string template_name_path(const SkeletonTemplate& tmpl, std::size_t bone);

}  // namespace rig2d
