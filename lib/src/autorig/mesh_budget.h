// SPDX-License-Identifier: Apache-2.0
// The vertex budget (--max-verts) as a hard limit: an outline mesh whose simplified outline alone has
// more points than the budget (a sheet of many sprites, a noisy edge) is retried with a coarser
// outline until it fits, with a warning saying so, or fails with autorig.budget. Never over budget.
#pragma once

#include <array>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/image/image.h"
#include "rig2d/rig/rig.h"
#include "rig2d/weights/skin_weights.h"

namespace rig2d::detail {

// outline_mesh(image, options); when that has more than options.max_vertices vertices, or its outline
// alone takes over half the budget so refinement stops short (slivers): an image of 4 or more islands
// is meshed as one convex hull per island within the budget (island_hulls; an
// autorig.budget.hulls warning), else, or when the hulls do not fit either, retried with the
// simplification tolerance doubled (1.5, 3, ... up to its limit of 64 px), adding an
// autorig.budget.coarsened warning to `warnings`. Errors: outline_mesh's, and autorig.budget when
// even the coarsest outline is over the budget.
// `hull.border` > 0 (a mesh one bone moves whole, which needs no vertex inside): the outline mesh that
// fits at the first try is replaced by the fewest-corner hulls of its islands (island_hulls, of the
// contour grown by `hull.margin` when that is less than the outline's) that keep the outline
// yardstick's alpha mass and opaque bounds with at most `hull.border` px of transparent border per px
// of outline, when they have fewer vertices.
struct HullLimits {
  double border = 0;  // px per px of outline; 0 = no hull
  double margin = 0;  // px
};
Result<Mesh> outline_mesh_within_budget(const Image& image, const OutlineMeshOptions& options,
                                        OutlineMeshStats* stats, std::vector<Diagnostic>& warnings,
                                        const HullLimits& hull = {});

// Once weighted: each island of `mesh` (triangles joined by shared vertices) whose every vertex is
// weighted wholly to one bone moves rigidly, so it needs no vertex inside and no outline detail. It
// is replaced by the fewest-corner hulls of its own pixels (those whose centre lies in its triangles,
// cut out of the image, traced at `hull.margin`) that keep the yardstick with at most `hull.border`
// px of transparent border per px of that island's outline, when they have fewer vertices than the
// island and overlap no other island's triangles; their vertices take the island's one bone. `options`
// gives the alpha threshold, speck area and pivot. Returns how many islands were replaced; `mesh` and
// `weights` are left alone when none is. An island whose hull cannot be made keeps its outline.
std::size_t rigid_island_hulls(const Image& image, const OutlineMeshOptions& options, const HullLimits& hull,
                               Mesh& mesh, SkinWeights& weights);

using PxTriangle = std::array<Vec2, 3>;  // image px

// The pixels of one island cut out of the image: a crop around its triangles, room to spare for a
// hull's corners, where only pixels whose centre lies in one of them keep their colour (each
// triangle's three side products, (b - a) x (centre - a), all >= 0 or all <= 0, in double).
struct IslandCrop {
  Image image;
  int x0 = 0, y0 = 0;  // the crop's corner in the image
};
IslandCrop crop_island(const Image& image, const std::vector<PxTriangle>& tris);

// autorig.budget when `mesh` has more than `max_vertices` vertices (the final guard for every mesh
// scheme: a rig over the budget is never written). `scheme` names the mesh in the message.
Result<void> check_vertex_budget(const Mesh& mesh, std::size_t max_vertices, const char* scheme);

}  // namespace rig2d::detail
