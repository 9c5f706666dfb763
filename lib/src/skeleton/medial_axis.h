// SPDX-License-Identifier: Apache-2.0
// Raster medial axis of a binary shape: hole filling, exact Euclidean distance transform and
// topology-preserving thinning. Internal to the skeleton module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rig2d::medial {

// Row-major binary grid, top-left origin; on[y * width + x] is 1 inside the shape.
struct BinaryGrid {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> on;

  bool at(int x, int y) const {
    return x >= 0 && y >= 0 && x < width && y < height && on[static_cast<std::size_t>(y) * width + x] != 0;
  }
};

// 8-connected components of the on cells: label[i] = component index (0..count-1) or -1 off.
struct Components {
  std::vector<int> label;
  std::vector<std::size_t> area;   // cells per component
  std::vector<std::size_t> first;  // lowest cell index of each component (scan order)
};
Components label_components(const BinaryGrid& grid);

// Fills every hole (4-connected off region not touching the border) of at most max_area cells, so
// an eye or a speck of transparency does not split the skeleton. Returns the cells filled.
std::size_t fill_small_holes(BinaryGrid& grid, std::size_t max_area);

// How the transform's first pass finds each cell's squared distance along its column: by counting to
// the nearest off cell up and down (exact while squares stay below 2^24, up to 4096 rows), or by the
// 1D lower envelope (any height). Both give the same bits; Auto counts where that is exact.
enum class ColumnPass { Auto, Envelope };

// Exact Euclidean distance from each on cell's centre to the nearest off cell's centre (cells
// outside the grid are off), in cells; 0 on off cells. Felzenszwalb & Huttenlocher's separable
// lower-envelope transform, O(cells).
std::vector<float> distance_transform(const BinaryGrid& grid, ColumnPass columns = ColumnPass::Auto);

// Thins the on cells to an 8-connected curve skeleton one cell wide (Zhang & Suen 1984), keeping
// every component and hole. Only cells next to the background are visited each pass.
void thin(BinaryGrid& grid);

// The pieces of thinning (its reference test builds the previous version on them).
// Zhang & Suen's tests for a cell whose 8 neighbours P2..P9 (clockwise from north) are the bits of
// `mask`: deletable in the first or second sub-iteration, and simple (removable, not an end).
bool thinning_deletable(unsigned mask, bool second);
bool thinning_simple(unsigned mask);
// Removes the redundant cells of two-cell-thick diagonal runs left by thinning, in scan order.
void remove_stair_steps(BinaryGrid& g);

}  // namespace rig2d::medial
