// SPDX-License-Identifier: Apache-2.0
// Name-path binding of clip tracks to a rig's bone subtree (ENGINE-SPEC §1.7, §1.8, §5.8 #1, #2,
// #6, #7, #9-#11) and the value coercion applied on write.
#include <catch2/catch.hpp>

#include "rig2d/anim/curve.h"
#include "rig2d/anim/rig_pose.h"

using namespace rig2d;
using Catch::Matchers::WithinAbs;

namespace {

Keyframe flat_key(double t, double v) { return Keyframe{t, v, 0, 0, std::nullopt, std::nullopt}; }

Track track(std::string path, std::string trait, std::string field, double v0, double v1,
            TrackType type = TrackType::Number) {
  return Track{std::move(path), std::move(trait), std::move(field), type, {flat_key(0, v0), flat_key(1, v1)}};
}

// body (root bone) -> hand, plus a second root bone "tail".
Rig hand_rig() {
  Rig rig;
  rig.bones = {{"body", -1, 0, 0, 0}, {"hand", 0, 10, 0, 0}, {"tail", -1, 0, 5, 0.5}};
  rig.parts.resize(1);
  rig.parts[0].name = "main";
  rig.parts[0].mesh.verts = {{0, 0}, {10, 0}};
  return rig;
}

}  // namespace

TEST_CASE("binding: tracks on several bones land (spec 5.8 #1)", "[anim]") {
  const Rig rig = hand_rig();
  Clip clip;
  clip.tracks = {track("body", "Transform", "x", 0, 100), track("body", "Transform", "rz", 0, 10),
                 track("body/hand", "Transform", "y", 0, 50)};
  const ClipBinding b = bind_clip(clip, rig);
  CHECK(b.bones.size() == 3);
  CHECK(b.skipped.empty());
  RigPose pose = bind_pose(rig);
  apply_clip(clip, b, 1, pose);
  CHECK_THAT(pose.bones[0].x, WithinAbs(100, 1e-9));
  CHECK_THAT(pose.bones[0].rot, WithinAbs(10, 1e-9));
  CHECK_THAT(pose.bones[1].y, WithinAbs(50, 1e-9));
  // Untouched fields keep the bind pose.
  CHECK(pose.bones[1].x == 10);
  CHECK(pose.bones[2].rot == 0.5);
  CHECK(pose.bones[2].sx == 1);
}

TEST_CASE("binding: three fields of one bone all land (spec 5.8 #2)", "[anim]") {
  const Rig rig = hand_rig();
  Clip clip;
  clip.tracks = {track("tail", "Transform", "x", 0, 100), track("tail", "Transform", "y", 0, 50),
                 track("/tail/", "Transform", "sx", 1, 2)};  // empty segments are skipped
  const ClipBinding b = bind_clip(clip, rig);
  CHECK(b.bones.size() == 3);
  RigPose pose = bind_pose(rig);
  apply_clip(clip, b, 1, pose);
  CHECK(pose.bones[2].x == 100);
  CHECK(pose.bones[2].y == 50);
  CHECK(pose.bones[2].sx == 2);
}

TEST_CASE("binding: missing paths, foreign traits, empty and enum tracks change nothing (spec 5.8 #6, #9, #10)",
          "[anim]") {
  const Rig rig = hand_rig();
  Clip clip;
  clip.tracks = {track("nope", "Transform", "x", 0, 100),        // no such entity
                 track("hand", "Transform", "x", 0, 100),        // hand is not a root bone
                 track("body", "Tint", "color", 0, 100),         // the bone has no Tint trait
                 Track{"body", "Transform", "x", TrackType::Number, {}},   // no keys
                 track("body", "Transform", "x", 0, 2, TrackType::Enum)};  // no options
  const ClipBinding b = bind_clip(clip, rig, "c.anim.json");
  CHECK(b.bones.empty());
  CHECK(b.sprite.empty());
  REQUIRE(b.skipped.size() == 5);
  CHECK(b.skipped[0].code == "anim.track.path");
  CHECK(b.skipped[0].where.file == "c.anim.json");
  CHECK(b.skipped[0].where.json_pointer == "/tracks/0/path");
  CHECK(b.skipped[1].code == "anim.track.path");
  CHECK(b.skipped[2].code == "anim.track.trait");
  CHECK(b.skipped[3].code == "anim.track.empty");
  CHECK(b.skipped[4].code == "anim.track.enum");
  RigPose pose = bind_pose(rig);
  apply_clip(clip, b, 1, pose);
  CHECK(pose.bones[0].x == 0);
  CHECK(pose.bones[1].x == 10);
}

TEST_CASE("binding: the last of duplicate sibling names wins (spec 5.8 #11)", "[anim]") {
  Rig rig;
  rig.bones = {{"dup", -1, 0, 0, 0}, {"dup", -1, 0, 0, 0}};
  Clip clip;
  clip.tracks = {track("dup", "Transform", "x", 0, 100)};
  const ClipBinding b = bind_clip(clip, rig);
  REQUIRE(b.bones.size() == 1);
  CHECK(b.bones[0].bone == 1);
}

TEST_CASE("binding: SkinnedSprite2D fields on the root, colors coerced (spec 5.8 #7)", "[anim]") {
  const Rig rig = hand_rig();
  Clip clip;
  clip.tracks = {track("", "SkinnedSprite2D", "color", 0x000000, 0xffffff, TrackType::Color),
                 track("", "SkinnedSprite2D", "opacity", 1, 0),
                 track("", "SkinnedSprite2D", "flipX", 0, 1, TrackType::Boolean),
                 track("", "Transform", "x", 0, 100)};  // root transform: scene placement only
  const ClipBinding b = bind_clip(clip, rig);
  CHECK(b.sprite.size() == 3);
  REQUIRE(b.skipped.size() == 1);
  CHECK(b.skipped[0].code == "anim.track.root");
  RigPose pose = bind_pose(rig);
  apply_clip(clip, b, 0.5, pose);
  CHECK(pose.sprite.color == 0x808080);
  CHECK(pose.sprite.opacity == 0.5);
  CHECK_FALSE(pose.sprite.flip_x);
  apply_clip(clip, b, 1, pose);
  CHECK(pose.sprite.flip_x);
}

TEST_CASE("binding: a boolean track on a bone field writes 0/1", "[anim]") {
  const Rig rig = hand_rig();
  Clip clip;
  clip.tracks = {track("body", "Transform", "sx", 0, 3, TrackType::Boolean)};
  RigPose pose = bind_pose(rig);
  apply_clip(clip, bind_clip(clip, rig), 1, pose);
  CHECK(pose.bones[0].sx == 1);
}

TEST_CASE("binding: fields skinning ignores are notes, a later track overrides an earlier one", "[anim]") {
  const Rig rig = hand_rig();
  Clip clip;
  clip.tracks = {track("body", "Transform", "rx", 0, 1), track("body", "Transform", "x", 0, 10),
                 track("body", "Transform", "x", 0, 20), track("body", "Transform", "wobble", 0, 1)};
  const ClipBinding b = bind_clip(clip, rig);
  REQUIRE(b.skipped.size() == 2);
  CHECK(b.skipped[0].severity == Severity::Note);
  CHECK(b.skipped[1].severity == Severity::Warning);
  RigPose pose = bind_pose(rig);
  apply_clip(clip, b, 1, pose);
  CHECK(pose.bones[0].x == 20);
}

TEST_CASE("binding: deform tracks bind to parts by name on the root", "[anim]") {
  const Rig rig = hand_rig();
  Clip clip;
  clip.deform_tracks = {{"", "main", {{0, {0, 0, 0, 0}}, {1, {10, -4, 2, 6}}}},
                        {"", "nopart", {{0, {1}}}},
                        {"body", "main", {{0, {1, 2, 3, 4}}}},
                        {"", "main", {{0, {1, 2}}}}};
  const ClipBinding b = bind_clip(clip, rig);
  REQUIRE(b.deform.size() == 2);
  CHECK(b.deform[0].part == 0);
  REQUIRE(b.skipped.size() == 3);
  CHECK(b.skipped[0].code == "anim.deform.part");
  CHECK(b.skipped[1].code == "anim.track.path");
  CHECK(b.skipped[2].code == "anim.deform.size");
  RigPose pose = bind_pose(rig);
  Clip first = clip;
  first.deform_tracks.resize(1);
  apply_clip(first, bind_clip(first, rig), 0.5, pose);
  CHECK(pose.deform[0] == std::vector<double>{5, -2, 1, 3});
}

TEST_CASE("binding: a parent cycle does not hang, cyclic bones hang under the root", "[anim]") {
  Rig rig;
  rig.bones = {{"a", 1, 0, 0, 0}, {"b", 0, 0, 0, 0}, {"c", 0, 0, 0, 0}};
  Clip clip;
  clip.tracks = {track("a/c", "Transform", "x", 0, 1), track("b", "Transform", "x", 0, 1)};
  const ClipBinding b = bind_clip(clip, rig);
  CHECK(b.bones.size() == 2);
}
