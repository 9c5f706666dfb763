// SPDX-License-Identifier: Apache-2.0
// Triangle-mesh connectivity and planar geometry helpers for the shape-aware weights.
#pragma once


#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "rig2d/core/types.h"

namespace rig2d::detail {

struct MeshGraph {
  std::size_t vertex_count = 0;
  std::vector<std::array<std::uint32_t, 3>> triangles;  // usable triangles, Delaunay-flipped, CCW (y-up)
  std::size_t degenerate_triangles = 0;
  std::size_t flipped_edges = 0;  // edges flipped to make the solver's triangulation Delaunay
  std::vector<std::uint32_t> island;  // per vertex: its connected piece; an isolated vertex is its own
  std::uint32_t island_count = 0;
  std::vector<std::uint8_t> isolated;  // per vertex: 1 if it is in no usable triangle
  // CSR lists: each vertex's edge neighbours (sorted).
  std::vector<std::uint32_t> nbr_offsets, nbr_list;
  // The edge neighbours plus, across every edge shared by two triangles forming a convex quad, the
  // opposite corner: those straight links stay inside the mesh and cut the grid-metric error of
  // shortest paths from ~15% to a few percent.
  std::vector<std::uint32_t> path_offsets, path_list;
  std::vector<double> path_length;  // px, per path_list entry
  double scale = 1;  // bounding-box diagonal of the vertices (1 if it is 0): the tolerance unit
};

// Preconditions (checked by the caller): tris.size() % 3 == 0, every index < verts.size(), all
// coordinates finite. A triangle is unusable when its doubled area is <= 1e-12 * (longest edge)^2.
// The usable triangles are then flipped to the constrained Delaunay triangulation of the same
// vertices (see make_delaunay in the .cpp); `triangles` is that solver mesh, not the input's.
MeshGraph build_mesh_graph(std::span<const Vec2> verts, std::span<const std::uint32_t> tris);

// Doubled signed area of (a, b, c): positive when counter-clockwise in a y-up frame.
inline double cross2(Vec2 a, Vec2 b, Vec2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }
inline double dist2(Vec2 a, Vec2 b) {
  const double dx = a.x - b.x;
  const double dy = a.y - b.y;
  return dx * dx + dy * dy;
}

// Closest point to p on segment [a, b] (a == b allowed).
Vec2 closest_on_segment(Vec2 p, Vec2 a, Vec2 b);

// The part of segment p(t) = a + t (b - a), t in [0, 1], inside triangle (t0, t1, t2) grown by
// `tol` px. Returns false when they do not meet; otherwise [*lo, *hi] is the parameter range.
bool clip_segment_to_triangle(Vec2 a, Vec2 b, const std::array<Vec2, 3>& tri, double tol, double* lo, double* hi);

// Nearest point of the (closed) triangle to segment [a, b] when they do not intersect, and the gap.
Vec2 nearest_point_on_triangle(Vec2 a, Vec2 b, const std::array<Vec2, 3>& tri, double* gap);

}  // namespace rig2d::detail
