// SPDX-License-Identifier: Apache-2.0
// Private: a part's mesh rasterized in rig space (where is the shape solid?) and in texture space
// (which texels does the mesh cover?).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rig2d/quality/deform_check.h"
#include "rig2d/rig/rig.h"

namespace rig2d::detail {

// Cells of `cell` px over the mesh's bind bounds; a cell is solid when its centre lies in a
// triangle and, with alpha, the texel under it (through the triangle's UVs) has alpha > gap_alpha.
struct ShapeRaster {
  double x0 = 0, y0 = 0, cell = 1;
  int width = 0, height = 0;
  std::vector<std::uint8_t> solid;
  std::vector<std::uint8_t> near;  // solid dilated by the rim (see dilate_rim); empty before
  bool solid_at(Vec2 p) const;
  // A cell within the rim of a solid cell: how a path tells the shape's rim from a gap.
  bool near_solid(Vec2 p) const;
  // The (column, row) of the cell under p, floored and not range-checked (NaN for a NaN point).
  Vec2 cell_at(Vec2 p) const { return {std::floor((p.x - x0) / cell), std::floor((p.y - y0) / cell)}; }
  // Whether cell (x, y) of cell_at, or a neighbour of it, lies in the raster (false for NaN).
  bool has_cell(double x, double y) const { return x >= 0 && y >= 0 && x < width && y < height; }
  // The index into solid and near of a cell in the raster.
  std::size_t cell_index(double x, double y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  }
};

// Fills `near`: every cell within `rim` px (square neighbourhood, whole cells) of a solid cell.
void dilate_rim(ShapeRaster& shape, double rim);

// The cell size grows past 1 px only to keep the raster under kMaxShapeCells.
inline constexpr double kMaxShapeCells = 1e6;
inline constexpr double kMaxShapeSide = 4096;
ShapeRaster rasterize_shape(const Mesh& mesh, const AlphaMap* alpha, int gap_alpha);

// Texels of `alpha` with alpha > visible_alpha, and those whose centre no triangle covers (mesh
// mapped to texels through its UVs). Fills the coverage fields of `stats`.
void measure_coverage(const Mesh& mesh, const AlphaMap& alpha, int visible_alpha, PartDeformStats& stats);

}  // namespace rig2d::detail
