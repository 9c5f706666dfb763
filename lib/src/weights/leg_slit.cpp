// SPDX-License-Identifier: Apache-2.0
// Legs drawn touching share triangles in one outline mesh. A walk swings them toward each other in
// the picture plane, so a triangle with corners on both legs is squeezed between two bones turning
// opposite ways and turns inside out, however its weights blend. An animator draws each leg on its
// own mesh; the slit does the same inside one mesh: it cuts along the triangle edges where the left
// leg's triangles meet the right leg's, from the feet up to the crotch, and the two sides no longer
// share a vertex there (the heat weights then see them as apart, so neither side is pulled by the
// other leg). Where the legs overlap in a pose, they just overlap.
#include "weights/leg_slit.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

#include "rig2d/weights/bone_segments.h"
#include "weights/mesh_graph.h"

namespace rig2d::detail {
namespace {

// Per triangle: 2 * pair + side (0 left, 1 right) of the leg whose bone is nearest to its centroid,
// or -1 when the nearest bone is no leg's.
std::vector<int> leg_labels(const Mesh& mesh, std::span<const Bone> bones, std::span<const LegPair> legs) {
  const std::vector<BoneSegment> segments = bone_segments(bones, mesh);
  std::vector<int> bone_label(bones.size(), -1);
  for (std::size_t p = 0; p < legs.size(); ++p)
    for (std::size_t b = 0; b < bones.size(); ++b) {
      if (bone_label[b] >= 0) continue;
      if (b < legs[p].left.size() && legs[p].left[b]) bone_label[b] = static_cast<int>(2 * p);
      else if (b < legs[p].right.size() && legs[p].right[b]) bone_label[b] = static_cast<int>(2 * p + 1);
    }
  const std::size_t nt = mesh.tris.size() / 3;
  std::vector<int> labels(nt, -1);
  for (std::size_t t = 0; t < nt; ++t) {
    Vec2 c{0, 0};
    for (int k = 0; k < 3; ++k) {
      c.x += mesh.verts[mesh.tris[3 * t + k]].x / 3;
      c.y += mesh.verts[mesh.tris[3 * t + k]].y / 3;
    }
    double best = std::numeric_limits<double>::infinity();
    std::uint32_t nearest = 0;
    for (const BoneSegment& s : segments) {  // ties: the earlier segment (bone order)
      const double d = dist2(c, closest_on_segment(c, s.a, s.b));
      if (d < best) best = d, nearest = s.bone;
    }
    if (std::isfinite(best) && nearest < bone_label.size()) labels[t] = bone_label[nearest];
  }
  return labels;
}

}  // namespace

std::size_t slit_between_legs(Mesh& mesh, std::span<const Bone> bones, std::span<const LegPair> legs,
                              std::size_t max_vertices) {
  if (legs.empty() || bones.empty() || mesh.tris.empty()) return 0;
  const std::vector<int> labels = leg_labels(mesh, bones, legs);
  // Per vertex: the least and greatest label of its triangles, and whether one is no leg's.
  const std::size_t nv = mesh.verts.size();
  std::vector<int> lo(nv, INT_MAX), hi(nv, -1);
  std::vector<std::uint8_t> body(nv, 0);
  for (std::size_t t = 0; t < labels.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = mesh.tris[3 * t + k];
      if (labels[t] < 0) body[v] = 1;
      lo[v] = std::min(lo[v], labels[t]);
      hi[v] = std::max(hi[v], labels[t]);
    }
  // A vertex only the two legs of one pair share gets a copy for the right leg's triangles.
  std::vector<std::uint32_t> copy(nv, UINT32_MAX);
  std::size_t added = 0;
  for (std::size_t v = 0; v < nv; ++v)
    if (!body[v] && lo[v] >= 0 && lo[v] % 2 == 0 && hi[v] == lo[v] + 1) copy[v] = static_cast<std::uint32_t>(nv + added++);
  if (added == 0 || nv + added > max_vertices) return 0;
  for (std::size_t v = 0; v < nv; ++v) {
    if (copy[v] == UINT32_MAX) continue;
    mesh.verts.push_back(mesh.verts[v]);
    if (v < mesh.uvs.size()) mesh.uvs.push_back(mesh.uvs[v]);
  }
  for (std::size_t t = 0; t < labels.size(); ++t) {
    if (labels[t] < 0 || labels[t] % 2 == 0) continue;
    for (int k = 0; k < 3; ++k) {
      std::uint32_t& v = mesh.tris[3 * t + k];
      if (copy[v] != UINT32_MAX) v = copy[v];
    }
  }
  return added;
}

}  // namespace rig2d::detail
