// SPDX-License-Identifier: Apache-2.0
// The rig model: mirrors a .rig2d.json asset field for field (see docs/rig-format.md).
//
// Texture space: origin at the sprite pivot, sprite pixels, +y down, radians. A v1 file has the
// sprite/mesh/skin arrays at the top level; the model holds them as the single part of a rig with
// `layout == Layout::V1` (its name is "main"). A v2 file has `parts[]` over the one shared skeleton.
// Optional members are the fields a file may omit; the writer omits them again when unset, so
// read -> write -> read is lossless.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rig2d/core/types.h"

namespace rig2d {

struct Bone {
  std::string name;
  std::int64_t parent = -1;  // index into Rig::bones, -1 = root (relative to the rig origin)
  double x = 0;              // bind pose, local to the parent: px
  double y = 0;              // px
  double rot = 0;            // radians
  bool no_scale = false;     // does not inherit the parent's scale at pose time
  friend bool operator==(const Bone&, const Bone&) = default;
};

struct Mesh {
  std::vector<Vec2> verts;            // texture-space bind positions, px
  std::vector<Vec2> uvs;              // 0..1 into the part's sprite, v down
  std::vector<std::uint32_t> tris;    // 3 indices per triangle, CCW in the +y-down frame
  friend bool operator==(const Mesh&, const Mesh&) = default;
};

struct Part {
  std::optional<std::string> name;    // v2; the engine fills "part"+index
  std::string sprite;                 // sprite GUID ("" = none)
  Mesh mesh;
  std::vector<std::uint32_t> skin_indices;  // 4 per vertex, into Rig::bones
  std::vector<double> skin_weights;         // 4 per vertex, summing to 1, unused slots 0
  std::optional<double> order;        // v2 draw order, lower = behind; defaults to the array index
  std::optional<bool> visible;        // v2; absent = visible
  friend bool operator==(const Part&, const Part&) = default;
};

enum class Layout { V1, V2 };

struct Rig {
  std::optional<std::string> id;      // the rig asset's GUID
  std::optional<double> version;      // informational: the engine never reads it
  std::vector<Bone> bones;
  Layout layout = Layout::V1;
  std::vector<Part> parts;            // V1: exactly one part
  friend bool operator==(const Rig&, const Rig&) = default;
};

inline constexpr int kSlotsPerVertex = 4;

}  // namespace rig2d
