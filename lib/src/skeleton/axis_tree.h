// SPDX-License-Identifier: Apache-2.0
// The medial axis as a tree: shortest paths from the root over the thinned cells (a cycle around a
// large hole is cut where its two paths meet), spurs pruned, then split into chains between
// junctions and tips. Internal to the skeleton module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "skeleton/medial_axis.h"

namespace rig2d::medial {

struct AxisTree {
  int width = 0;                    // grid width, to turn cells into (x, y)
  std::vector<std::size_t> cell;    // grid cell of each node
  std::vector<int> parent;          // node index, -1 for the root
  std::vector<double> depth;        // path length from the root, cells
  std::vector<float> radius;        // inscribed radius at the node, cells
  std::vector<std::uint8_t> end;    // the cell has one axis neighbour: a true tip, not a cut cycle
  std::vector<std::uint8_t> alive;  // cleared by pruning
  std::vector<std::pair<int, int>> cross;  // axis links the tree left out, (earlier node, later node):
                                           // each closes a cycle (cycle_nodes)
  int root = -1;
};

// Shortest-path tree over the 8-connected on cells of `axis` reachable from root_cell (which must be
// on); `radius` holds the distance transform of the shape (cells) at least at the axis cells.
AxisTree axis_tree(const BinaryGrid& axis, const std::vector<float>& radius, std::size_t root_cell);

// Removes, smallest first, every branch from a junction (or the root) to a tip whose reach beyond the
// junction's inscribed disc, length + tip radius - junction radius, is below
// max(min_length, ratio * junction radius). Returns the branches removed.
std::size_t prune_spurs(AxisTree& tree, double min_length, double ratio);

// The alive node with three or more alive neighbours (a junction) whose inscribed disc comes nearest
// the point (cx, cy) in cells: least distance minus radius, ties to the first node. -1 if none.
int central_junction(const AxisTree& tree, double cx, double cy);

// The nodes that lie on a cycle of the axis (a ring, the rim of a lens) at least `min_cycle` nodes
// long, from the tree's cross links: the tree cut each such cycle once, where its two paths from the
// root met, and the chains on either side of that cut cannot bend apart. Pruned nodes count (a spur
// pruned by the cut still closed the cycle); shorter cycles (the few cells where lines cross) do not.
std::vector<std::uint8_t> cycle_nodes(const AxisTree& tree, std::size_t min_cycle);

// A run of nodes from a junction or the root (nodes[0]) to a tip or the next junction.
struct AxisChain {
  std::vector<int> nodes;
  int parent = -1;  // chain ending where this one starts; -1 for chains leaving the root
  bool tip = false; // ends in a tip (no alive child)
};

// The alive tree as chains, parents before children.
std::vector<AxisChain> axis_chains(const AxisTree& tree);

}  // namespace rig2d::medial
