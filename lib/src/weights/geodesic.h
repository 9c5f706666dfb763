// SPDX-License-Identifier: Apache-2.0
// Distances measured through a triangle mesh: shortest paths that stay inside the shape.
#pragma once


#include <cstdint>
#include <span>
#include <vector>

#include "weights/mesh_graph.h"

namespace rig2d::detail {

struct GeodesicSeed {
  std::uint32_t vertex = 0;
  double distance = 0;  // px from the source to this vertex, already known
};

// Reusable buffers, so repeated calls (one per bone) do not reallocate.
struct GeodesicScratch {
  std::vector<std::uint8_t> done;
  std::vector<std::uint32_t> heap;  // the vertices reached and not yet settled, a binary heap on (distance, vertex)
  std::vector<std::uint32_t> place;  // per vertex: its index in `heap`, or none
};

// out[v] = shortest distance from the seeds to v through the mesh (+inf where no seed reaches):
// Dijkstra over g.path_list, straight links that never leave the mesh, so a path cannot cut across a
// gap in the shape. A path sum of Euclidean lengths, so the result does not depend on the sprite's
// position or rotation and not on tie order (fast-marching updates do, through their
// accept/reject tests). Over-estimates the true geodesic by a few percent on grids.
// out.size() == g.vertex_count.
void geodesic_distances(const MeshGraph& g, std::span<const GeodesicSeed> seeds, std::span<double> out,
                                     GeodesicScratch& scratch, std::span<const double> cutoff = {});

}  // namespace rig2d::detail
