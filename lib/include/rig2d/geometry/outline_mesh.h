// SPDX-License-Identifier: Apache-2.0
// Outline meshes: a sprite's alpha outline (geometry/contour.h), cleaned and simplified
// (geometry/simplify.h), tessellated by constrained Delaunay triangulation with quality refinement
// (geometry/triangulate.h). The mesh hugs the opaque region with far fewer vertices than a grid and
// has interior vertices where bones need them to bend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

struct OutlineMeshOptions {
  int alpha_threshold = 8;        // [Limit: 0..254] a pixel is covered when alpha > threshold
  double margin = 0.75;           // [Limit: 0..64] [Units: px] outward growth of the alpha outline
  double tolerance = 0.75;        // [Limit: 0..64] [Units: px] simplification tolerance (0 = none);
                                  // while it is <= margin nothing above the threshold is clipped
  double min_area = 4.0;          // [Limit: >= 0] [Units: px^2] islands/holes smaller are dropped
  double min_angle_deg = 20.0;    // [Limit: 0..34] [Units: degrees] quality bound (0 = no refinement)
  double max_edge = 64.0;         // [Limit: >= 0] [Units: px] longest triangle edge (0 = no bound)
  double min_refine_edge = 0.0;   // [Limit: 0..1e6] [Units: px] a triangle whose shortest edge is
                                  // shorter is not split for its angle (0 = every one is)
  std::size_t max_vertices = 4096;  // [Limit: 3..kMaxVertices] vertex budget of the refinement (the
                                    // simplified outline's own points are always kept)
  double pivot_x = 0.5;           // [Limit: 0..1] pivot as a fraction of the width
  double pivot_y = 0.5;           // [Limit: 0..1] pivot as a fraction of the height
  std::vector<Vec2> interior_points;  // [Units: px] vertices wanted inside (e.g. bend_points), added
                                      // before refinement; points outside the mesh are left out
  bool score_coverage = true;     // fill OutlineMeshStats::coverage and ::fit (two rasterizations of the
                                  // mesh; statistics only, the mesh is the same either way)
  bool angle_stats = true;        // fill OutlineMeshStats::min_angle_deg and ::skinny_triangles
                                  // (statistics only, the mesh is the same either way)
};

// How well a mesh covers the alpha mask, sampled at pixel centres: a pixel is in the mask when its
// alpha > threshold, and in the mesh when its centre lies in (or on) a triangle.
struct CoverageScore {
  std::size_t mask_pixels = 0, mesh_pixels = 0, both = 0;
  double iou = 0;     // both / (mask + mesh - both); 1 when both are empty
  double recall = 0;  // both / mask: 1 = no covered pixel clipped
};

// The outline yardstick (docs/outline.md). Alpha mass and opaque pixels are measured with the exact
// area of each pixel the mesh covers; the transparent border counts pixel centres, one pixel per px.
struct OutlineYardstick {
  double alpha_mass_inside = 1;         // sum(alpha * covered area) / sum(alpha): 1 = nothing lost
  std::size_t opaque_outside = 0;       // pixels with alpha >= 128 less than half inside the mesh
  double opaque_min_inside = 1;         // smallest covered share of a pixel with alpha >= 128
  std::size_t transparent_inside = 0;   // pixels with alpha <= threshold whose centre is in the mesh
  double outline_length = 0;            // px of the alpha outline off the image border (alpha_outline_length)
  double border_per_outline_px = 0;     // transparent_inside / outline_length (0 when nothing is inside)
};

inline constexpr double kYardstickMinAlphaMass = 0.9995;  // alpha mass inside the mesh, at least
inline constexpr int kYardstickOpaqueAlpha = 128;         // no pixel this opaque may lie outside
inline constexpr double kYardstickMaxBorder = 1.0;        // px of transparent border per px of outline

// True when the yardstick's three bounds hold.
inline bool passes(const OutlineYardstick& y) {
  return y.alpha_mass_inside >= kYardstickMinAlphaMass && y.opaque_outside == 0 &&
         y.border_per_outline_px <= kYardstickMaxBorder;
}

struct OutlineMeshStats {
  std::size_t contour_rings = 0, contour_points = 0;        // traced (after the margin)
  std::size_t simplified_rings = 0, simplified_points = 0;  // after specks and simplification
  double margin = 0, tolerance = 0;  // px the mesh was made with (the budget may have coarsened them):
                                     // the outline lies within tolerance of the contour grown by margin
  std::size_t interior_points = 0;   // of options.interior_points, the ones that became vertices
  std::size_t vertices = 0, triangles = 0;
  double min_angle_deg = 0;          // smallest angle in the mesh (0 without options.angle_stats)
  std::size_t skinny_triangles = 0;  // below min_angle_deg (only near sharper outline corners; 0
                                     // without options.angle_stats)
  bool budget_reached = false;       // refinement stopped at max_vertices
  CoverageScore coverage;            // mesh vs the alpha mask (alpha > threshold)
  CoverageScore fit;                 // mesh vs the mask grown by the margin: what the outline aims at,
                                     // so this isolates simplification and tessellation error
  OutlineYardstick yardstick;        // mesh vs the image's alpha (see outline_yardstick)
};

// How many vertices a default mesh spends (rig2d-autorig --detail). High is the sub-pixel outline of
// the options as given; Medium and Low let the outline tolerance grow with the sprite's size
// (detail_tolerance) and put interior vertices where bones bend (bend_points) instead of everywhere.
enum class MeshDetail { Low, Medium, High };

// The outline tolerance (and margin: the mesh keeps tolerance <= margin, so it never clips) of a
// width x height sprite at `detail`: High gives `asked`; Medium sqrt(L / 64) px clamped to 1..1.5 and
// Low 1.25 * sqrt(L / 64) clamped to 1.25..1.5, L the longer side; never below `asked`. 1.5 px is
// the most that keeps the transparent border within 2 px per px of outline on curved art.
RIG2D_EXPORT double detail_tolerance(MeshDetail detail, int width, int height, double asked);

// Range checks of every option (the limits above). Errors: outline.options naming the option.
RIG2D_EXPORT Result<void> check_outline_options(const OutlineMeshOptions& options);

// Outline mesh of a whole sprite in the engine's texture space, with the grid's conventions:
// vert = (u - pivot_x) * width, (v - pivot_y) * height with u = px / width, v = py / height; uvs =
// (u, v) in [0, 1]; triangles CCW in the +y-down frame. Deterministic. Errors: outline.options (an
// option out of its limit, naming it), outline.empty (no pixel with alpha > threshold), contour.image,
// geometry.* from the triangulation.
RIG2D_EXPORT Result<Mesh> outline_mesh(const Image& image, const OutlineMeshOptions& options = {},
                                       OutlineMeshStats* stats = nullptr);

// Scores any sprite mesh (outline or grid) by its uvs against the image's alpha mask.
RIG2D_EXPORT CoverageScore mesh_coverage(const Mesh& mesh, const Image& image, int alpha_threshold);
// Same against any w x h mask (row-major, nonzero = in).
RIG2D_EXPORT CoverageScore mesh_coverage(const Mesh& mesh, int width, int height, const std::vector<std::uint8_t>& mask);

// The outline yardstick of any sprite mesh (by its uvs) against the image's alpha. Triangles with
// bad indices or non-finite uvs are skipped; an empty or inconsistent image gives the default.
RIG2D_EXPORT OutlineYardstick outline_yardstick(const Mesh& mesh, const Image& image, int alpha_threshold);

// Exact share of each pixel's area inside the mesh (w * h values in 0..1, row-major), by the uvs.
RIG2D_EXPORT std::vector<double> mesh_pixel_area(const Mesh& mesh, int width, int height);

}  // namespace rig2d
