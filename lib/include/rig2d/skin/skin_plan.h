// SPDX-License-Identifier: Apache-2.0
// Linear blend skinning prepared once per mesh, for meshes skinned many times (every frame of a
// clip, every bend of a deformation check). The slots the engine skips for a zero weight are
// dropped and vertices are grouped by how many slots remain, so a frame is skinned with no test per
// slot: the way ozz-animation partitions vertices by influence count. Vertices whose kept slots name
// the same bones (most of a mesh: neighbours share their bones) go four per step with each bone's
// matrix read once for all four; the rest two per step. Gives the same bits as skin_vertices
// (lbs.h) on the same inputs.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "rig2d/core/affine.h"
#include "rig2d/export.h"

namespace rig2d {

class RIG2D_EXPORT SkinPlan {
 public:
  // The other vertices that keep `slots` slots (0..4), two per step (an odd group repeats its last
  // vertex).
  struct Group {
    std::vector<std::uint32_t> vertices;  // 2 per step: the vertices' indices
    std::vector<double> positions;        // 8 per step: x x x' x' y y y' y'
    std::vector<double> weights;          // 4 per step and slot: w w w' w', slots in the engine's order
    // 2 per step and slot: where the two vertices' bone matrices start in the skin array, in bytes
    // (bone index * sizeof(Affine2), so a step does no index arithmetic)
    std::vector<std::uint64_t> offsets;
  };

  // Vertices that keep `slots` slots naming the same bones in the same order, four per step as two
  // pairs laid out like a Group's steps.
  struct SharedGroup {
    std::vector<std::uint32_t> vertices;  // 4 per step
    std::vector<double> positions;        // 16 per step: x0 x0 x1 x1 y0 y0 y1 y1, then x2 .. y3 alike
    std::vector<double> weights;          // 8 per step and slot: w0 w0 w1 w1 w2 w2 w3 w3, in the engine's order
    std::vector<std::uint64_t> offsets;   // 1 per step and slot: the shared bone's matrix, in bytes
  };

  SkinPlan() = default;
  // Arrays as skin_vertices takes them; min(bind.size(), skin_indices.size() / 4,
  // skin_weights.size() / 4) vertices.
  SkinPlan(std::span<const Vec2> bind, std::span<const std::uint32_t> skin_indices,
           std::span<const double> skin_weights);

  std::size_t vertex_count() const { return vertex_count_; }
  // One more than the largest bone index a kept slot uses (0 when none): with at least this many
  // matrices no slot is skipped for its index, and skinning takes the fastest path.
  std::size_t bones_needed() const { return bones_needed_; }
  const Group& group(int slots) const { return groups_.at(static_cast<std::size_t>(slots)); }
  const SharedGroup& shared_group(int slots) const { return shared_.at(static_cast<std::size_t>(slots)); }

 private:
  std::array<Group, 5> groups_;
  std::array<SharedGroup, 5> shared_;
  std::size_t vertex_count_ = 0;
  std::size_t bones_needed_ = 0;
};

// skin_vertices for a prepared mesh: out[v] for v < min(plan.vertex_count(), out.size()) as
// skin_vertices computes it (slots whose index is past `skin` skipped, float32-rounded); the rest of
// `out` is (0,0). Runs two or four vertices per step with AVX2 when the CPU has it; every path gives
// the same bits.
RIG2D_EXPORT void skin_vertices(const SkinPlan& plan, std::span<const Affine2> skin, std::span<Vec2> out);

}  // namespace rig2d
