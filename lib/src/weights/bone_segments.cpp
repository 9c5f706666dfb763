// SPDX-License-Identifier: Apache-2.0
#include "rig2d/weights/bone_segments.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "rig2d/skin/skeleton.h"
#include "weights/bone_geometry.h"

namespace rig2d {
namespace detail {
namespace {


// How far the mesh continues from `from` along the unit direction `dir`, px: the union of the ray's
// spans inside triangles, followed from the start while it has no gap. 0 when `from` is not inside.
double extent_through_mesh(Vec2 from, Vec2 dir, std::span<const Vec2> verts, const MeshGraph& graph) {
  const double tol = 1e-9 * graph.scale;
  double reach = graph.scale;
  for (const Vec2& v : verts) reach = std::max(reach, std::sqrt(dist2(v, from)));
  reach *= 2;  // past every vertex, so the ray leaves the mesh before it ends
  const Vec2 to{from.x + dir.x * reach, from.y + dir.y * reach};
  std::vector<std::pair<double, double>> spans;
  for (const auto& tri : graph.triangles) {
    const std::array<Vec2, 3> p{verts[tri[0]], verts[tri[1]], verts[tri[2]]};
    // Cheap rejection: all corners on one side of the ray's line, or all behind its start.
    double side[3], along[3];
    for (int k = 0; k < 3; ++k) {
      side[k] = dir.x * (p[k].y - from.y) - dir.y * (p[k].x - from.x);
      along[k] = dir.x * (p[k].x - from.x) + dir.y * (p[k].y - from.y);
    }
    if ((side[0] > tol && side[1] > tol && side[2] > tol) || (side[0] < -tol && side[1] < -tol && side[2] < -tol) ||
        (along[0] < -tol && along[1] < -tol && along[2] < -tol))
      continue;
    double lo = 0;
    double hi = 0;
    if (clip_segment_to_triangle(from, to, p, tol, &lo, &hi)) spans.emplace_back(lo * reach, hi * reach);
  }
  std::sort(spans.begin(), spans.end());
  double covered = 0;
  bool started = false;
  for (const auto& [lo, hi] : spans) {
    if (lo > covered + tol) break;
    started = true;
    covered = std::max(covered, hi);
  }
  return started ? covered : 0;
}

}  // namespace

std::vector<BoneSegment> bone_segments_on(std::span<const Bone> bones, std::span<const Vec2> joints,
                                          std::span<const Vec2> verts, const MeshGraph& graph,
                                          double default_leaf_length) {
  const std::size_t n = bones.size();
  const BindMatrices bind = derive_bind_matrices(bones);
  // Children lists in bone order; a self-parent is no child link.
  std::vector<std::vector<std::uint32_t>> children(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::int64_t p = bones[i].parent;
    if (p >= 0 && p < static_cast<std::int64_t>(n) && p != static_cast<std::int64_t>(i))
      children[static_cast<std::size_t>(p)].push_back(i);
  }
  const double same_point = 1e-9 * graph.scale;
  std::vector<BoneSegment> out;
  out.reserve(n);  // one a bone, more only at forks
  for (std::uint32_t i = 0; i < n; ++i) {
    const Vec2 joint = joints[i];
    if (!is_finite(joint)) continue;
    bool has_segment = false;
    for (const std::uint32_t c : children[i]) {
      const Vec2 end = joints[c];
      if (!is_finite(end) || std::sqrt(dist2(joint, end)) <= same_point) continue;
      out.push_back({i, joint, end, false});
      has_segment = true;
    }
    if (has_segment) continue;

    // Leaf: continue the parent's direction; a root (or a bone on its parent's joint) uses its +x axis.
    Vec2 dir{bind.root_local[i].a, bind.root_local[i].b};
    const std::int64_t p = bones[i].parent;
    if (p >= 0 && p < static_cast<std::int64_t>(n) && p != static_cast<std::int64_t>(i)) {
      const Vec2 from = joints[static_cast<std::size_t>(p)];
      if (is_finite(from) && std::sqrt(dist2(from, joint)) > same_point) dir = {joint.x - from.x, joint.y - from.y};
    }
    const double len = std::sqrt(dir.x * dir.x + dir.y * dir.y);
    if (!(len > 0) || !std::isfinite(len)) {
      out.push_back({i, joint, joint, true});
      continue;
    }
    dir = {dir.x / len, dir.y / len};
    double length = extent_through_mesh(joint, dir, verts, graph);
    if (!(length > 1e-6 * graph.scale)) length = default_leaf_length;
    out.push_back({i, joint, {joint.x + dir.x * length, joint.y + dir.y * length}, true});
  }
  return out;
}

}  // namespace detail

std::vector<BoneSegment> bone_segments(std::span<const Bone> bones, const Mesh& mesh, double default_leaf_length) {
  // Keep only triangles the graph can use: whole, in range, with finite corners.
  std::vector<std::uint32_t> tris;
  const std::size_t n = mesh.verts.size();
  for (std::size_t t = 0; t + 2 < mesh.tris.size(); t += 3) {
    bool ok = true;
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t v = mesh.tris[t + k];
      ok = ok && v < n && is_finite(mesh.verts[v]);
    }
    if (ok) tris.insert(tris.end(), mesh.tris.begin() + static_cast<std::ptrdiff_t>(t),
                        mesh.tris.begin() + static_cast<std::ptrdiff_t>(t + 3));
  }
  std::vector<Vec2> verts;
  verts.reserve(n);
  for (const Vec2& v : mesh.verts) verts.push_back(is_finite(v) ? v : Vec2{});
  const detail::MeshGraph graph = detail::build_mesh_graph(verts, tris);
  if (!std::isfinite(default_leaf_length) || default_leaf_length < 0) default_leaf_length = 0;
  return detail::bone_segments_on(bones, joint_positions(bones), verts, graph, default_leaf_length);
}

}  // namespace rig2d
