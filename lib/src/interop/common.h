// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the importers and exporters (private to the library).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json_util.h"
#include "rig2d/anim/clip.h"
#include "rig2d/core/error.h"
#include "rig2d/interop/interop.h"
#include "rig2d/rig/rig.h"

namespace rig2d::interop {

inline constexpr double kPi = 3.14159265358979323846;
inline double deg_to_rad(double d) { return d * (kPi / 180.0); }
inline double rad_to_deg(double r) { return r * (180.0 / kPi); }

// Thrown inside an importer, caught at its public entry point and returned as the Result's error.
struct ConvertFailure {
  Error error;
};

// Errors and warnings located in a JSON source by pointer, with the value's line:col.
struct JsonSource {
  std::string_view text;
  std::string path;
  Location at(const std::string& pointer) const;
  Unexpected fail(std::string code, std::string message, const std::string& pointer) const;
};

void warn(std::vector<Diagnostic>& out, std::string code, std::string message, Location where);

// One vertex's influences, any count, appended as 4 slots: repeated bones merged, in the given order;
// over 4, the 4 largest are kept (ties: the earlier first); renormalized to sum 1; padded with zero
// weights on bone 0. A vertex with no positive weight is bound to `fallback` alone.
struct Influence {
  std::uint32_t bone = 0;
  double weight = 0;
};
struct WeightStats {
  std::size_t vertices_trimmed = 0;  // vertices that had more than 4 influences
  double largest_dropped = 0;        // the largest weight dropped from any of them
  std::size_t zero_sum = 0;          // vertices whose weights summed to 0 (bound to `fallback`)
  std::size_t renormalized = 0;      // vertices whose kept weights did not sum to 1 (|sum-1| > 1e-6)
};
void append_weights(std::vector<Influence> influences, std::uint32_t fallback, Part& part, WeightStats& stats);

// Makes every triangle counter-clockwise in the +y-down frame (negative shoelace sum), as rig2d
// meshes are wound. Returns how many were flipped.
std::size_t fix_winding(Mesh& mesh);

// Clamps every uv of `part` into 0..1, the sprite region rig uvs address (NaN becomes 0). Returns how
// many vertices moved.
std::size_t clamp_uvs(Part& part);

// True when `path`, read from a file and relative to a folder (a Godot res:// path is relative to
// the project folder), names something inside that folder: not absolute (/x, \\x, C:x, another URL
// scheme) and no ".." climbing above where it starts. Paths that fail would make an importer read,
// and its caller write a sidecar, anywhere on the disk.
bool stays_inside(std::string_view path);

// The name-path of each bone ("root/arm/hand"), as clip tracks address bones.
std::vector<std::string> bone_paths(const Rig& rig);

// A deterministic GUID from a namespace GUID and a name (uuid v5).
std::string name_guid(std::string_view namespace_guid, std::string_view name);

// The GUID of a texture met without a sidecar: name_guid(kRigIdNamespace, "texture:" + its name in
// options.texture_names, else `image`).
std::string texture_guid_for(const ImportOptions& options, const std::string& image);

// A piecewise-linear curve with jumps, as keys: breakpoints in time order; `left` is the value just
// before the time (the limit from the left), `right` the value from the time on. Becomes linear
// keys, with a stepped key wherever a segment is constant and ends in a jump (Spine's stepped
// curves), and a pair of keys at one time for any other jump.
struct Breakpoint {
  double t = 0;
  double left = 0;
  double right = 0;
};
std::vector<Keyframe> keys_from_breakpoints(const std::vector<Breakpoint>& points);

// Bone world matrices of a rig's bind pose (rigid: rig2d bones carry no scale). Fails on a parent
// cycle or an out-of-range parent.
struct RigidPose {
  double x = 0, y = 0, rot = 0;  // world position (px, +y down) and rotation (radians)
};
Result<std::vector<RigidPose>> rig_world_pose(const Rig& rig);

// The first number of `rig` or `clips` that is not finite (a value that overflowed to infinity, or
// NaN), named as the field it would be written to ("/bones/2/x", "clip \"walk\" /tracks/0/keys/3/v"),
// or nullopt. JSON has no infinity: the writer would put null there, a file no reader takes. Each
// importer and exporter checks its result with it before returning, so an overflow is an error.
std::optional<std::string> first_non_finite(const Rig& rig, const std::vector<Clip>& clips = {});

// The pointer of the first number in `doc` that is not finite, or nullopt: an exporter's last check
// before it writes a document whose numbers it computed (the JSON writer would put null there).
std::optional<std::string> first_non_finite_json(const detail::Json& doc);

// Bones in an order where every parent comes before its children (stable otherwise).
std::vector<std::size_t> parents_first(const Rig& rig);

}  // namespace rig2d::interop
