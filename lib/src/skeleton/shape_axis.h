// SPDX-License-Identifier: Apache-2.0
// The shape skeleton's view of a sprite, for the template embedding: the coverage, and the main
// piece's pruned medial-axis tree (inscribed radii at its nodes). Internal to the skeleton module.
#pragma once

#include <cstdint>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/core/types.h"
#include "rig2d/image/image.h"
#include "skeleton/axis_tree.h"
#include "skeleton/medial_axis.h"

namespace rig2d::detail {

// One piece's pruned medial axis.
struct PieceAxis {
  medial::BinaryGrid grid;         // the piece on the working grid (small holes filled)
  medial::AxisTree tree;           // its pruned medial axis, rooted at the central junction
  double ox = 0, oy = 0;           // image px of the grid's top-left corner
};

struct ShapeAxis {
  int width = 0, height = 0;       // image px
  std::vector<std::uint8_t> in;    // per pixel: alpha > threshold (a baked drop shadow left out)
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // bounding box of `in`, [x0, x1) x [y0, y1)
  std::vector<PieceAxis> pieces;   // the largest piece first, then every other with at least 2 % of
                                   // its area (a detached head, floating hands), largest first
  int cell = 1;                    // px per cell

  bool inside(int x, int y) const {
    return x >= 0 && y >= 0 && x < width && y < height && in[static_cast<std::size_t>(y) * width + x] != 0;
  }
  Vec2 cell_px(const PieceAxis& p, std::size_t c) const {
    return {p.ox + (static_cast<double>(c % p.grid.width) + 0.5) * cell, p.oy + (static_cast<double>(c / p.grid.width) + 0.5) * cell};
  }
};

// As shape_skeleton builds it for each piece, with the same options. Errors: skeleton.empty,
// coverage.image, skeleton.options.
Result<ShapeAxis> shape_axis(const Image& image, int alpha_threshold, bool skip_drop_shadow, double min_branch,
                             double branch_ratio);

}  // namespace rig2d::detail
