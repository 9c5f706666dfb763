// SPDX-License-Identifier: Apache-2.0
#include "rig2d/anim/range_of_motion.h"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/asset/guid.h"

namespace rig2d {
namespace {

// The clip name-path of each bone: the names from its topmost ancestor down, over the editor's
// subtree (a bone whose parent link is broken hangs under the root there).
std::vector<std::string> name_paths(const Rig& rig) {
  const std::vector<std::int64_t> parents = subtree_parents(rig.bones);
  std::vector<std::string> paths(rig.bones.size());
  for (std::size_t i = 0; i < rig.bones.size(); ++i) {
    std::string path = rig.bones[i].name;
    for (std::int64_t p = parents[i]; p >= 0; p = parents[static_cast<std::size_t>(p)])
      path = rig.bones[static_cast<std::size_t>(p)].name + "/" + path;
    paths[i] = std::move(path);
  }
  return paths;
}

// The bones to swing: the chosen ones, else every bone with a parent, else every bone.
Result<std::vector<std::size_t>> chosen_bones(const Rig& rig, const std::vector<std::size_t>& chosen) {
  for (const std::size_t b : chosen)
    if (b >= rig.bones.size())
      return make_error("pose.rom", "bone index " + std::to_string(b) + " is past the rig's " +
                                        std::to_string(rig.bones.size()) + " bones");
  if (!chosen.empty()) return chosen;
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < rig.bones.size(); ++i)
    if (rig.bones[i].parent >= 0) out.push_back(i);
  if (out.empty())
    for (std::size_t i = 0; i < rig.bones.size(); ++i) out.push_back(i);
  return out;
}

Track swing_track(const std::string& path, double bind_rot, double swing, double t0, double slot) {
  Track track;
  track.path = path;
  track.trait = "Transform";
  track.field = "rz";
  // Flat tangents: each key is a turning point, so the bone eases into and out of it.
  track.keys = {{t0, bind_rot, 0, 0, {}, {}},
                {t0 + 0.25 * slot, bind_rot + swing, 0, 0, {}, {}},
                {t0 + 0.75 * slot, bind_rot - swing, 0, 0, {}, {}},
                {t0 + slot, bind_rot, 0, 0, {}, {}}};
  return track;
}

}  // namespace

Result<RangeOfMotion> range_of_motion_clip(const Rig& rig, const RangeOfMotionOptions& o) {
  if (!(o.angle_deg > 0 && o.angle_deg <= kMaxRangeOfMotionDeg))
    return make_error("pose.rom", "the swing angle must be within (0, 180] degrees");
  if (!(o.seconds_per_bone > 0 && o.seconds_per_bone <= kMaxRangeOfMotionSecondsPerBone))
    return make_error("pose.rom", "the seconds per bone must be within (0, 60]");
  auto chosen = chosen_bones(rig, o.bones);
  if (!chosen) return Unexpected{chosen.error()};
  if (chosen->empty()) return make_error("pose.rom.none", "the rig has no bones to swing");

  RangeOfMotion out;
  const std::vector<std::string> paths = name_paths(rig);
  // A track binds to whatever its path resolves to; a shadowed or unaddressable bone would swing some
  // other bone, so it is left out and said. One binding pass over a track per chosen bone finds them.
  Clip probe;
  for (const std::size_t b : *chosen) probe.tracks.push_back(swing_track(paths[b], 0, 0, 0, 1));
  std::vector<bool> reached(chosen->size(), false);
  for (const ClipBinding::BoneChannel& c : bind_clip(probe, rig).bones) reached[c.track] = c.bone == (*chosen)[c.track];
  const double swing = o.angle_deg * std::numbers::pi / 180;
  for (std::size_t k = 0; k < chosen->size(); ++k) {
    const std::size_t b = (*chosen)[k];
    if (!reached[k]) {
      out.skipped.push_back({Severity::Warning,
                             "pose.rom.path",
                             "bone \"" + rig.bones[b].name + "\" cannot be swung: its name-path \"" + paths[b] +
                                 "\" leads to another bone or none (a later sibling has the same name, or the name "
                                 "holds a '/')",
                             {}});
      continue;
    }
    const double t0 = static_cast<double>(out.bones.size()) * o.seconds_per_bone;
    out.clip.tracks.push_back(swing_track(paths[b], rig.bones[b].rot, swing, t0, o.seconds_per_bone));
    out.bones.push_back(b);
  }
  if (out.bones.empty()) return make_error("pose.rom.none", "none of the chosen bones can be addressed by a clip");

  char figures[64];
  std::snprintf(figures, sizeof figures, "%.17g/%.17g", o.angle_deg, o.seconds_per_bone);
  std::string seed = "range-of-motion:" + rig.id.value_or("") + ":" + figures;
  for (const std::size_t b : out.bones) seed += ":" + paths[b];
  out.clip.id = derive_guid(seed);
  out.clip.name = "Range of motion";
  out.clip.duration = static_cast<double>(out.bones.size()) * o.seconds_per_bone;
  out.clip.loop = true;
  return out;
}

}  // namespace rig2d
