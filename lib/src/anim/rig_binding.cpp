// SPDX-License-Identifier: Apache-2.0
// Track -> rig binding over the editor's canonical rig subtree (buildRigSubtree), and the engine's
// write coercion (sampleClip's coerce + what skin2DSystem / the renderers read back).
#include <cmath>
#include <map>
#include <string_view>
#include <utility>

#include "anim/js_truthy.h"
#include "rig2d/anim/curve.h"
#include "rig2d/anim/rig_pose.h"

namespace rig2d {
namespace {

constexpr std::int64_t kRootNode = -1;

// The entity tree: bone i hangs under its parent bone unless that link is out of range or would
// close a cycle, in which case it hangs under the root (a validator reports such rigs).
class EntityTree {
 public:
  explicit EntityTree(const std::vector<Bone>& bones) {
    const std::vector<std::int64_t> parents = subtree_parents(bones);
    for (std::size_t i = 0; i < bones.size(); ++i) {
      // Spawn order is bone order, so a later duplicate sibling name overwrites an earlier one.
      children_[{parents[i], bones[i].name}] = static_cast<std::int64_t>(i);
    }
  }

  // The node a name-path leads to (kRootNode for the root), or nullopt. Empty segments are skipped.
  std::optional<std::int64_t> resolve(std::string_view path) const {
    std::int64_t node = kRootNode;
    std::size_t start = 0;
    while (start <= path.size()) {
      const std::size_t slash = std::min(path.find('/', start), path.size());
      const std::string_view segment = path.substr(start, slash - start);
      start = slash + 1;
      if (segment.empty()) continue;
      const auto it = children_.find({node, std::string(segment)});
      if (it == children_.end()) return std::nullopt;
      node = it->second;
    }
    return node;
  }

 private:
  std::map<std::pair<std::int64_t, std::string>, std::int64_t> children_;
};

std::optional<BoneField> bone_field(const std::string& field) {
  if (field == "x") return BoneField::X;
  if (field == "y") return BoneField::Y;
  if (field == "rz") return BoneField::Rot;
  if (field == "sx") return BoneField::ScaleX;
  if (field == "sy") return BoneField::ScaleY;
  return std::nullopt;
}

std::optional<SpriteField> sprite_field(const std::string& field) {
  if (field == "color") return SpriteField::Color;
  if (field == "opacity") return SpriteField::Opacity;
  if (field == "flipX") return SpriteField::FlipX;
  if (field == "flipY") return SpriteField::FlipY;
  if (field == "isVisible") return SpriteField::Visible;
  return std::nullopt;
}

// sampleClip's coerce(), seen through a numeric field: boolean -> 0/1, color -> int32.
double coerce(TrackType type, double v) {
  if (type == TrackType::Boolean) return v != 0 ? 1 : 0;
  if (type == TrackType::Color) return js_to_int32(v);
  return v;
}

// True when `target` is reachable from `from` by following parent links (bounded walk).
bool reaches(const std::vector<Bone>& bones, std::int64_t from, std::int64_t target) {
  const auto n = static_cast<std::int64_t>(bones.size());
  std::int64_t cur = from;
  for (std::int64_t steps = 0; steps <= n && cur >= 0 && cur < n; ++steps) {
    if (cur == target) return true;
    cur = bones[static_cast<std::size_t>(cur)].parent;
  }
  return false;
}

}  // namespace

std::vector<std::int64_t> subtree_parents(const std::vector<Bone>& bones) {
  const auto n = static_cast<std::int64_t>(bones.size());
  std::vector<std::int64_t> parents(bones.size(), kRootNode);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t p = bones[static_cast<std::size_t>(i)].parent;
    if (p >= 0 && p < n && !reaches(bones, p, i)) parents[static_cast<std::size_t>(i)] = p;
  }
  return parents;
}

RigPose bind_pose(const Rig& rig) {
  RigPose pose;
  pose.bones = bind_locals(rig.bones);
  pose.deform.resize(rig.parts.size());
  return pose;
}

namespace {

// Binds a clip's tracks one by one, collecting what it skips (with the clip's file and pointer).
struct Binder {
  const Clip& clip;
  const Rig& rig;
  const std::string& clip_path;
  const EntityTree tree;
  ClipBinding binding;

  void skip(Severity severity, const char* code, std::string message, std::string pointer) {
    binding.skipped.push_back({severity, code, std::move(message), Location{clip_path, std::move(pointer)}});
  }

  // A track on the SkinnedSprite2D root: sprite fields bind; the rest is reported.
  void bind_root_track(std::size_t i, const Track& track, const std::string& what, const std::string& pointer) {
    if (track.trait == "SkinnedSprite2D") {
      if (const auto f = sprite_field(track.field)) {
        binding.sprite.push_back({i, *f});
      } else {
        skip(Severity::Warning, "anim.track.field", what + ": not a field a preview shows", pointer + "/field");
      }
    } else if (track.trait == "Transform") {
      skip(Severity::Note, "anim.track.root",
           what + ": the root Transform places the sprite in a scene; the preview is in rig space", pointer);
    } else if (track.trait == "EntityAttributes") {
      skip(Severity::Note, "anim.track.field", what + ": does not affect rendering", pointer + "/field");
    } else {
      skip(Severity::Warning, "anim.track.trait", what + ": the rig root has no " + track.trait + " trait",
           pointer + "/trait");
    }
  }

  // A track on a bone entity: the 2D Transform fields bind; the rest is reported.
  void bind_bone_track(std::size_t i, std::size_t bone, const Track& track, const std::string& what,
                       const std::string& pointer) {
    if (track.trait == "Transform") {
      if (const auto f = bone_field(track.field)) {
        binding.bones.push_back({i, bone, *f});
      } else if (track.field == "z" || track.field == "rx" || track.field == "ry" || track.field == "sz") {
        skip(Severity::Note, "anim.track.field", what + ": ignored by 2D skinning", pointer + "/field");
      } else {
        skip(Severity::Warning, "anim.track.field", what + ": Transform has no such field", pointer + "/field");
      }
    } else if (track.trait == "Bone2D" || track.trait == "EntityAttributes") {
      skip(Severity::Note, "anim.track.field", what + ": does not affect rendering", pointer + "/field");
    } else {
      skip(Severity::Warning, "anim.track.trait", what + ": a bone entity has no " + track.trait + " trait",
           pointer + "/trait");
    }
  }

  void bind_track(std::size_t i) {
    const Track& track = clip.tracks[i];
    const std::string pointer = "/tracks/" + std::to_string(i);
    const std::string what = "track \"" + track.path + "\" " + track.trait + "." + track.field;
    if (track.keys.empty()) {
      skip(Severity::Note, "anim.track.empty", what + " has no keys", pointer);
      return;
    }
    const auto node = tree.resolve(track.path);
    if (!node) {
      skip(Severity::Warning, "anim.track.path", what + ": no bone at that name-path in this rig", pointer + "/path");
      return;
    }
    if (track.type == TrackType::Enum) {
      skip(Severity::Warning, "anim.track.enum", what + ": enum track on a field without options", pointer + "/type");
      return;
    }
    if (*node == kRootNode) {
      bind_root_track(i, track, what, pointer);
    } else {
      bind_bone_track(i, static_cast<std::size_t>(*node), track, what, pointer);
    }
  }

  // A deform track binds to every part of its name; keys with too few offsets are reported.
  void bind_deform_track(std::size_t i) {
    const DeformTrack& track = clip.deform_tracks[i];
    const std::string pointer = "/deformTracks/" + std::to_string(i);
    const std::string what = "deform track \"" + track.path + "\" part \"" + track.part + "\"";
    const auto node = tree.resolve(track.path);
    if (!node || *node != kRootNode) {
      skip(Severity::Warning, "anim.track.path", what + ": the path does not lead to the SkinnedSprite2D root",
           pointer + "/path");
      return;
    }
    bool found = false;
    for (std::size_t p = 0; p < rig.parts.size(); ++p) {
      const std::string name = rig.parts[p].name.value_or("part" + std::to_string(p));
      if (name != track.part) continue;
      found = true;
      binding.deform.push_back({i, p});
      check_deform_sizes(track, 2 * rig.parts[p].mesh.verts.size(), what, pointer);
    }
    if (!found) skip(Severity::Warning, "anim.deform.part", what + ": the rig has no part of that name", pointer + "/part");
  }

  void check_deform_sizes(const DeformTrack& track, std::size_t need, const std::string& what,
                          const std::string& pointer) {
    for (std::size_t k = 0; k < track.keys.size(); ++k) {
      if (track.keys[k].offsets.size() < need) {
        skip(Severity::Warning, "anim.deform.size",
             what + ": key has " + std::to_string(track.keys[k].offsets.size()) + " offsets, the part needs " +
                 std::to_string(need) + " (the engine skins NaN there; the preview uses 0)",
             pointer + "/keys/" + std::to_string(k) + "/offsets");
      }
    }
  }
};

}  // namespace

ClipBinding bind_clip(const Clip& clip, const Rig& rig, const std::string& clip_path) {
  Binder binder{clip, rig, clip_path, EntityTree(rig.bones), {}};
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) binder.bind_track(i);
  for (std::size_t i = 0; i < clip.deform_tracks.size(); ++i) binder.bind_deform_track(i);
  return std::move(binder.binding);
}

void apply_clip(const Clip& clip, const ClipBinding& binding, double time, RigPose& pose) {
  for (const auto& ch : binding.bones) {
    if (ch.track >= clip.tracks.size() || ch.bone >= pose.bones.size()) continue;
    const Track& track = clip.tracks[ch.track];
    const double v = coerce(track.type, eval_track(track, time));
    BoneLocal& local = pose.bones[ch.bone];
    switch (ch.field) {
      case BoneField::X: local.x = v; break;
      case BoneField::Y: local.y = v; break;
      case BoneField::Rot: local.rot = v; break;
      case BoneField::ScaleX: local.sx = v; break;
      case BoneField::ScaleY: local.sy = v; break;
    }
  }
  for (const auto& ch : binding.sprite) {
    if (ch.track >= clip.tracks.size()) continue;
    const Track& track = clip.tracks[ch.track];
    const double v = coerce(track.type, eval_track(track, time));
    switch (ch.field) {
      // The renderers read `color & 0xffffff`.
      case SpriteField::Color: pose.sprite.color = static_cast<std::uint32_t>(js_to_int32(v)) & 0xffffffu; break;
      case SpriteField::Opacity: pose.sprite.opacity = v; break;
      case SpriteField::FlipX:
        pose.sprite.flip_x = detail::js_number_truthy(v);
        break;
      case SpriteField::FlipY:
        pose.sprite.flip_y = detail::js_number_truthy(v);
        break;
      case SpriteField::Visible:
        pose.sprite.visible = detail::js_number_truthy(v);
        break;
    }
  }
  for (const auto& ch : binding.deform) {
    if (ch.track >= clip.deform_tracks.size() || ch.part >= pose.deform.size()) continue;
    if (auto offsets = eval_deform_track(clip.deform_tracks[ch.track], time)) pose.deform[ch.part] = std::move(*offsets);
  }
}

}  // namespace rig2d
