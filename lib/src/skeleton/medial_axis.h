// SPDX-License-Identifier: Apache-2.0
// Raster medial axis of a binary shape: hole filling, exact Euclidean distance transform and
// topology-preserving thinning. Internal to the skeleton module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
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
  struct Box {
    int x0, y0, x1, y1;  // inclusive
  };
  std::vector<Box> box;            // bounding box of each component's cells
};
Components label_components(const BinaryGrid& grid);

// Fills every hole (4-connected off region not touching the border) of at most max_area cells, so
// an eye or a speck of transparency does not split the skeleton. Returns the cells filled.
std::size_t fill_small_holes(BinaryGrid& grid, std::size_t max_area);
// The same, with the largest hole to fill asked for only when the grid has a hole, given the largest
// hole's area (the skeleton's bound needs the widest inscribed disc, which most pieces need not pay
// for, and a bound that holds the largest hole fills every hole without it).
std::size_t fill_small_holes(BinaryGrid& grid, const std::function<std::size_t(std::size_t largest_hole)>& max_area);

// The Euler number of the on cells: 8-connected components minus holes (4-connected off regions not
// touching the border), from one pass over the 2x2 windows (Gray's bit quads: windows with one on
// cell count +1, with three -1, with two on a diagonal -2, the sum over 4). A grid of one component
// has no hole exactly when this is 1, which says so without labelling the background.
std::ptrdiff_t euler_number(const BinaryGrid& grid);

// How the transform's first pass finds each cell's squared distance along its column: by counting to
// the nearest off cell up and down (exact while squares stay below 2^24, up to 4096 rows), or by the
// 1D lower envelope (any height). Both give the same bits; Auto counts where that is exact.
enum class ColumnPass { Auto, Envelope };

// Exact Euclidean distance from each on cell's centre to the nearest off cell's centre (cells
// outside the grid are off), in cells; 0 on off cells. Felzenszwalb & Huttenlocher's separable
// lower-envelope transform, O(cells).
std::vector<float> distance_transform(const BinaryGrid& grid, ColumnPass columns = ColumnPass::Auto);

// The same distances as distance_transform, at the cells asked for: the skeleton needs them only on
// its axis and their largest value. The squared distances along each column are counted once
// (O(cells)); a cell's squared distance is then the least dx^2 + column square over its row, scanned
// outward from the cell until dx^2 alone reaches the least so far (O(distance) per cell). Grids up to
// 4094 cells on a side, as the transform's counted pass (the squares stay exact in float).
class CellDistances {
 public:
  explicit CellDistances(const BinaryGrid& grid);
  float at(std::size_t cell) const;
  // The largest distance over the grid (the widest inscribed disc's radius); each cell's scan stops
  // as soon as it cannot beat the largest so far.
  float widest() const;
  // The distance at the cell farthest from an off cell along its column (the first in scan order): at
  // most widest(), found in one pass over the column squares.
  float deepest_in_column() const;
  // A field of the grid's size holding the distances at the on cells of `cells` (same size as the
  // grid) and 0 elsewhere.
  std::vector<float> at_cells(const BinaryGrid& cells) const;

 private:
  // The squared distance of cell x of row `row`, or some value <= floor once it cannot exceed floor.
  std::int32_t squared(const std::int32_t* row, int x, std::int32_t floor) const;
  int width_ = 0;
  std::size_t cells_ = 0;
  std::unique_ptr<std::int32_t[]> column_;  // squared distance along the column to the nearest off cell
};

// Thins the on cells to an 8-connected curve skeleton one cell wide (Zhang & Suen 1984), keeping
// every component and hole. Only cells next to the background are visited each pass.
void thin(BinaryGrid& grid);

// The pieces of thinning (its reference test builds the previous version on them).
// Zhang & Suen's tests for a cell whose 8 neighbours P2..P9 (clockwise from north) are the bits of
// `mask`: deletable in the first or second sub-iteration, and simple (removable, not an end).
bool thinning_deletable(unsigned mask, bool second);
bool thinning_simple(unsigned mask);

// The first x from `x` on, in a row of w 0/1 cells, whose cell is on (`on`) or off (!on), or w: eight
// cells a step across a run of the other kind, for the sparse rows of an axis or the long runs of a
// shape.
int next_cell(const std::uint8_t* row, int x, int w, bool on);

// Removes the redundant cells of two-cell-thick diagonal runs left by thinning, in scan order.
void remove_stair_steps(BinaryGrid& g);

}  // namespace rig2d::medial
