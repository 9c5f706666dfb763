// SPDX-License-Identifier: Apache-2.0
// The engine's generateGridMesh (ENGINE-SPEC §3.1): a triangulated grid over the sprite rect,
// optionally culled by a UV-space coverage predicate, with the engine's exact vertex order, winding,
// UVs and compact re-indexing.
#pragma once

#include <functional>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

// UV-space coverage predicate: u right, v down, both in [0, 1] over the sprite.
using UvPredicate = std::function<bool(double u, double v)>;

struct GridMeshOptions {
  double width = 0;     // px, sprite width (texture-space extent)
  double height = 0;    // px, sprite height
  double cols = 1;      // cells across; floor()ed, at least 1 (2.9 -> 2, 0 -> 1); NaN -> empty mesh
  double rows = 1;      // cells down; same rule
  double pivot_x = 0.5; // pivot as a fraction of the width (0 left, 1 right)
  double pivot_y = 0.5; // pivot as a fraction of the height (0 top, 1 bottom)
};

// Vertex gi = r*(cols+1) + c, row-major top to bottom; vert = ((u - pivot_x)*width, (v - pivot_y)*height)
// with uv = (c/cols, r/rows). Each cell emits a,d,b, b,d,e (CCW in the +y-down frame). With `is_inside`
// set, a cell is kept when any of its 9 samples (corners, edge midpoints, centre) is inside; only
// vertices of kept cells are emitted, re-indexed in row-major order; no kept cell -> empty mesh.
// Errors: grid.too_large (more than kMaxVertices vertices or kMaxTriangleIndices indices, checked
// before allocating, including infinite cols/rows).
RIG2D_EXPORT Result<Mesh> generate_grid_mesh(const GridMeshOptions& options, const UvPredicate& is_inside = {});

}  // namespace rig2d
