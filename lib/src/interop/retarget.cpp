// SPDX-License-Identifier: Apache-2.0
// Motion onto a template's names: bone maps, BVH projected onto the sprite plane, Spine clips renamed.
#include "rig2d/interop/retarget.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "interop/bvh.h"
#include "json/json_util.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

using detail::Json;
constexpr double kRetargetPi = 3.14159265358979323846;

std::optional<std::size_t> template_bone_index(const SkeletonTemplate& tmpl, const std::string& name) {
  for (std::size_t b = 0; b < tmpl.bones.size(); ++b)
    if (tmpl.bones[b].name == name) return b;
  return std::nullopt;
}

// "mixamorig:LeftArm" -> "LeftArm": namespaces of exporters are not part of the joint's name.
std::string_view joint_bare_name(std::string_view name) {
  const auto colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

double wrap_angle(double a) {
  while (a > kRetargetPi) a -= 2 * kRetargetPi;
  while (a <= -kRetargetPi) a += 2 * kRetargetPi;
  return a;
}

// One mapped bone of a BVH import: its joint, where its segment ends, its rest angle on the plane.
struct BvhSegment {
  std::size_t bone = 0;              // template bone
  std::size_t joint = 0;             // BVH joint
  std::optional<std::size_t> child;  // the joint its segment runs to; nullopt: the joint's end site
  double rest = 0;                   // radians, image space
  std::vector<double> world;         // per frame: turn from rest (unwrapped)
  bool warned = false;               // bvh.degenerate said for it
};

bool bvh_in_subtree(const detail::BvhFile& f, std::size_t joint, std::size_t root) {
  for (std::int64_t j = static_cast<std::int64_t>(joint); j >= 0; j = f.joints[static_cast<std::size_t>(j)].parent)
    if (static_cast<std::size_t>(j) == root) return true;
  return false;
}

// The child joint a mapped bone's segment runs to: the one leading to its first mapped template child,
// else its only child, else (nullopt) its end site, else its first child.
std::optional<std::size_t> bvh_segment_child(const detail::BvhFile& f, const SkeletonTemplate& tmpl,
                                             const std::map<std::size_t, std::size_t>& joint_of, std::size_t bone,
                                             std::size_t joint) {
  const auto& children = f.joints[joint].children;
  for (std::size_t c = 0; c < tmpl.bones.size(); ++c) {
    if (tmpl.bones[c].parent != static_cast<std::int64_t>(bone) || !joint_of.count(c)) continue;
    for (std::size_t child : children)
      if (bvh_in_subtree(f, joint_of.at(c), child)) return child;
  }
  if (children.size() == 1 || (!children.empty() && !f.joints[joint].end_site)) return children.front();
  return std::nullopt;
}

struct ProjectedAngle {
  double angle = 0;
  bool degenerate = false;
};

ProjectedAngle project_segment(const detail::BvhVec& a, const detail::BvhVec& b, MotionPlane plane,
                               double min_projected) {
  const double dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  const double len = std::sqrt(dx * dx + dy * dy + dz * dz);
  const double ix = plane == MotionPlane::Front ? dx : dz, iy = -dy;  // image y points down
  const double plen = std::sqrt(ix * ix + iy * iy);
  if (len == 0 || plen < min_projected * len || plen == 0) return {0, true};
  return {std::atan2(iy, ix), false};
}

// Keys at every frame with central-difference tangents.
std::vector<Keyframe> bvh_frame_keys(const std::vector<double>& v, double dt) {
  std::vector<Keyframe> keys(v.size());
  for (std::size_t f = 0; f < v.size(); ++f) {
    keys[f].t = double(f) * dt;
    keys[f].v = v[f];
    const std::size_t a = f == 0 ? 0 : f - 1, b = f + 1 < v.size() ? f + 1 : f;
    const double slope = b > a ? (v[b] - v[a]) / (double(b - a) * dt) : 0;
    keys[f].in_tangent = keys[f].out_tangent = slope;
  }
  return keys;
}

void retarget_warn(std::vector<Diagnostic>* warnings, std::string code, std::string message, Location where) {
  if (warnings) warnings->push_back({Severity::Warning, std::move(code), std::move(message), std::move(where)});
}

}  // namespace

std::string template_name_path(const SkeletonTemplate& tmpl, std::size_t bone) {
  std::string path = tmpl.bones[bone].name;
  for (std::int64_t p = tmpl.bones[bone].parent; p >= 0; p = tmpl.bones[static_cast<std::size_t>(p)].parent)
    path = tmpl.bones[static_cast<std::size_t>(p)].name + "/" + path;
  return tmpl.ground.empty() ? path : tmpl.ground + "/" + path;  // rigs of the template stand on it
}

Result<BoneMap> read_bone_map(std::string_view text, const std::string& path, const SkeletonTemplate& tmpl) {
  auto parsed = detail::parse_json(text, path);
  if (!parsed) return Unexpected{parsed.error()};
  const auto fail = [&](std::string code, std::string message, std::string pointer) {
    return detail::located_error(std::move(code), std::move(message), text, path, std::move(pointer));
  };
  if (!parsed->is_object())
    return fail("bonemap.root", "a bone map is an object {\"bones\": {SOURCE: TEMPLATE_BONE}}", "");
  for (const auto& [key, value] : parsed->items())
    if (key != "bones" && key != "$schema" && key != "description")
      return fail("bonemap.key", "unknown key \"" + key + "\" (known: $schema, description, bones)",
                  "/" + detail::pointer_token(key));
  const auto bones = parsed->find("bones");
  if (bones == parsed->end() || !bones->is_object() || bones->empty())
    return fail("bonemap.type", "\"bones\" must be an object of source bone names to template bone names",
                bones == parsed->end() ? "" : "/bones");
  BoneMap map;
  map.path = path;
  std::map<std::string, std::string> taken;  // template bone -> source
  for (const auto& [source, target] : bones->items()) {
    const std::string at = "/bones/" + detail::pointer_token(source);
    if (!target.is_string()) return fail("bonemap.type", "must name a template bone (a string)", at);
    const std::string name = target.get<std::string>();
    if (!template_bone_index(tmpl, name))
      return fail("bonemap.bone", "template \"" + tmpl.name + "\" has no bone \"" + name + "\"", at);
    if (const auto [it, fresh] = taken.emplace(name, source); !fresh)
      return fail("bonemap.bone", "\"" + name + "\" is already the bone of \"" + it->second + "\"", at);
    map.bones.emplace_back(source, name);
  }
  return map;
}

Result<BoneMap> load_bone_map(const std::string& path, const SkeletonTemplate& tmpl) {
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return Unexpected{text.error()};
  return read_bone_map(*text, path, tmpl);
}

BoneMap humanoid_mocap_bone_map() {
  BoneMap map;
  map.bones = {{"Hips", "hips"},        {"Spine", "spine"},          {"Spine1", "chest"},
               {"Chest", "chest"},      {"Spine2", "chest"},         {"Neck", "neck"},
               {"Head", "head"},        {"LeftArm", "upper_arm_l"},  {"LeftForeArm", "lower_arm_l"},
               {"LeftHand", "hand_l"},  {"RightArm", "upper_arm_r"}, {"RightForeArm", "lower_arm_r"},
               {"RightHand", "hand_r"}, {"LeftUpLeg", "thigh_l"},    {"LeftLeg", "shin_l"},
               {"LeftFoot", "foot_l"},  {"RightUpLeg", "thigh_r"},   {"RightLeg", "shin_r"},
               {"RightFoot", "foot_r"}};
  return map;
}

Result<Clip> import_bvh_clip(std::string_view bvh_text, const std::string& bvh_path, const BoneMap& map,
                             const SkeletonTemplate& tmpl, const BvhImportOptions& options,
                             std::vector<Diagnostic>* warnings) {
  if (!(options.min_projected >= 0 && options.min_projected <= 1))
    return make_error("bvh.options", "min_projected must be 0..1");
  auto file = detail::read_bvh(bvh_text, bvh_path);
  if (!file) return Unexpected{file.error()};
  const detail::BvhFile& f = *file;
  // Template bone -> BVH joint; the first source present wins (the built-in map lists alternatives).
  std::map<std::size_t, std::size_t> joint_of;
  for (const auto& [source, target] : map.bones) {
    const auto bone = template_bone_index(tmpl, target);
    if (!bone || joint_of.count(*bone)) continue;
    std::optional<std::size_t> joint;
    for (std::size_t j = 0; j < f.joints.size() && !joint; ++j)
      if (f.joints[j].name == source || joint_bare_name(f.joints[j].name) == source) joint = j;
    if (joint) {
      joint_of[*bone] = *joint;
    } else if (!map.path.empty()) {
      retarget_warn(warnings, "bvh.map.missing", "the BVH has no joint \"" + source + "\" (mapped to " + target + ")",
                    {map.path, "/bones/" + source});
    }
  }
  if (joint_of.empty())
    return make_error("bvh.map",
                      "no joint of the BVH is named in the bone map" +
                          (map.path.empty() ? std::string(" (the built-in humanoid names; give --bone-map)") : ""),
                      {bvh_path});
  const detail::BvhPose rest = detail::bvh_pose(f, SIZE_MAX);
  std::vector<BvhSegment> segments;
  for (const auto& [bone, joint] : joint_of) {
    BvhSegment s{bone, joint, bvh_segment_child(f, tmpl, joint_of, bone, joint), 0, {}, false};
    const auto end = s.child ? std::optional<detail::BvhVec>(rest.joints[*s.child]) : rest.end_sites[joint];
    const ProjectedAngle p =
        end ? project_segment(rest.joints[joint], *end, options.plane, options.min_projected) : ProjectedAngle{0, true};
    if (p.degenerate) {
      retarget_warn(warnings, "bvh.degenerate",
                    "joint \"" + f.joints[joint].name + "\" (" + tmpl.bones[bone].name +
                        ") has no segment on the plane at rest; its bone is not animated",
                    {bvh_path});
      continue;
    }
    s.rest = p.angle;
    segments.push_back(std::move(s));
  }
  for (std::size_t fr = 0; fr < f.frames; ++fr) {
    const detail::BvhPose pose = detail::bvh_pose(f, fr);
    for (BvhSegment& s : segments) {
      const auto end = s.child ? std::optional<detail::BvhVec>(pose.joints[*s.child]) : pose.end_sites[s.joint];
      const ProjectedAngle p = project_segment(pose.joints[s.joint], *end, options.plane, options.min_projected);
      const double previous = s.world.empty() ? 0 : s.world.back();
      if (p.degenerate) {
        if (!s.warned)
          retarget_warn(warnings, "bvh.degenerate",
                        "joint \"" + f.joints[s.joint].name + "\" points out of the plane from frame " +
                            std::to_string(fr) + " on; it keeps its last direction there",
                        {bvh_path});
        s.warned = true;
        s.world.push_back(previous);
        continue;
      }
      s.world.push_back(previous + wrap_angle(wrap_angle(p.angle - s.rest) - previous));
    }
  }
  Clip clip;
  clip.id = options.clip_id;
  clip.name = options.clip_name;
  clip.loop = false;
  clip.frame_rate = 1 / f.frame_time;
  clip.duration = f.frames > 1 ? double(f.frames - 1) * f.frame_time : f.frame_time;
  std::sort(segments.begin(), segments.end(), [](const BvhSegment& a, const BvhSegment& b) { return a.bone < b.bone; });
  for (const BvhSegment& s : segments) {
    // The nearest template ancestor with a track: what this bone inherits on the rig.
    const BvhSegment* ancestor = nullptr;
    for (std::int64_t p = tmpl.bones[s.bone].parent; p >= 0 && !ancestor;
         p = tmpl.bones[static_cast<std::size_t>(p)].parent)
      for (const BvhSegment& o : segments)
        if (o.bone == static_cast<std::size_t>(p)) ancestor = &o;
    std::vector<double> rz(s.world);
    if (ancestor)
      for (std::size_t fr = 0; fr < rz.size(); ++fr) rz[fr] -= ancestor->world[fr];
    clip.tracks.push_back(
        {template_name_path(tmpl, s.bone), "Transform", "rz", TrackType::Number, bvh_frame_keys(rz, f.frame_time)});
  }
  return clip;
}

Clip map_clip_to_template(const Clip& clip, const Rig& source, const BoneMap& map, const SkeletonTemplate& tmpl,
                          std::vector<Diagnostic>* warnings) {
  Clip out = clip;
  out.tracks.clear();
  out.deform_tracks.clear();
  if (!clip.deform_tracks.empty())
    retarget_warn(warnings, "convert.map.field",
                  "clip \"" + clip.name + "\": deform tracks do not carry onto a template; dropped", {map.path});
  std::vector<std::string> unmapped;
  for (const Track& track : clip.tracks) {
    const std::string bone =
        track.path.substr(track.path.rfind('/') == std::string::npos ? 0 : track.path.rfind('/') + 1);
    const auto it = std::find_if(map.bones.begin(), map.bones.end(), [&](const auto& p) { return p.first == bone; });
    const auto target = it == map.bones.end() ? std::nullopt : template_bone_index(tmpl, it->second);
    if (!target) {
      if (std::find(unmapped.begin(), unmapped.end(), bone) == unmapped.end()) {
        unmapped.push_back(bone);
        retarget_warn(
            warnings, "convert.map.unmapped",
            "clip \"" + clip.name + "\": bone \"" + bone + "\" is not in the bone map; its tracks are dropped",
            {map.path});
      }
      continue;
    }
    if (track.trait != "Transform" || track.field != "rz") {
      retarget_warn(warnings, "convert.map.field",
                    "clip \"" + clip.name + "\": the " + track.field + " track of \"" + bone +
                        "\" is dropped (a template's clips turn bones only, so they fit any proportions)",
                    {map.path});
      continue;
    }
    double bind = 0;
    for (const Bone& b : source.bones)
      if (b.name == bone) bind = b.rot;
    Track t = track;
    t.path = template_name_path(tmpl, *target);
    for (Keyframe& k : t.keys) k.v -= bind;
    out.tracks.push_back(std::move(t));
  }
  return out;
}

}  // namespace rig2d
