// SPDX-License-Identifier: Apache-2.0
// Constrained Delaunay triangulation of polygons with holes, with optional quality refinement
// (Ruppert's algorithm with Shewchuk's concentric-shell segment splitting).
//
// Input: rings of points (each ring is closed implicitly: the last point joins the first). By default
// the filled region is the even-odd interior of all rings together, so rings may come in any
// orientation, holes may be given as plain rings, edges traversed twice cancel, and self-intersecting
// or touching rings are triangulated by inserting their crossing points. Output triangles are wound
// counter-clockwise as seen in the +y-down frame (the engine's grid winding; the shoelace sum of each
// one is negative). Needle triangles (area under 1e-12 of their longest edge squared) are left out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/core/types.h"
#include "rig2d/export.h"

namespace rig2d {

using Ring = std::vector<Vec2>;

// Coordinates beyond this magnitude are rejected (keeps the exact predicates free of overflow).
inline constexpr double kMaxPolygonCoordinate = 1e30;

enum class FillRule {
  EvenOdd,            // inside an odd number of rings
  OutlineMinusHoles,  // inside ring 0 (even-odd of its own edges) and not inside the others
                      // (even-odd of theirs): earcut's reading, where a "hole" outside the outline
                      // removes nothing and adds nothing
};

struct TriangulateOptions {
  FillRule fill = FillRule::EvenOdd;
  bool refine = false;            // add Steiner points until the quality and size bounds below hold
  double min_angle_deg = 20.0;    // [Limit: 0..34] [Units: degrees] smallest angle sought when refining
  double max_edge = 0.0;          // [Limit: >= 0] [Units: input units] longest edge allowed; 0 = no bound
  double min_refine_edge = 0.0;   // [Limit: >= 0] [Units: input units] a triangle whose shortest edge is
                                  // shorter is not split for its angle (0 = every one is); see outline.md
  std::size_t max_vertices = 0;   // vertex budget for refinement; 0 = kMaxVertices. Refinement stops
                                  // when it is reached (the mesh stays valid, the bounds may not hold)
  std::vector<Vec2> interior_points;  // vertices wanted inside (e.g. where a rig bends), added before
                                      // refinement within the budget; points outside the filled region,
                                      // on a ring or on another point are left out
  bool angle_stats = true;        // fill TriangulateStats::min_angle_deg and ::skinny_triangles (an
                                  // acos per corner of each output triangle; the mesh is the same)
};

struct TriangleMesh {
  std::vector<Vec2> vertices;
  std::vector<std::uint32_t> triangles;  // 3 indices per triangle, CCW in the +y-down frame
};

struct TriangulateStats {
  std::size_t input_points = 0;         // points given, duplicates included
  std::size_t crossing_points = 0;      // vertices added where rings cross each other
  std::size_t interior_points = 0;      // of options.interior_points, the ones added
  std::size_t steiner_points = 0;       // vertices added by refinement
  std::size_t vertices = 0;             // output vertices
  std::size_t triangles = 0;            // output triangles
  double min_angle_deg = 0.0;           // smallest angle over the output triangles (0 if none or
                                        // without options.angle_stats)
  std::size_t skinny_triangles = 0;     // triangles more than 1e-6 degrees below min_angle_deg (0
                                        // without options.angle_stats)
  bool budget_reached = false;          // refinement stopped at max_vertices
};

// Triangulates the even-odd interior of `rings`. Errors: geometry.polygon.nonfinite (NaN/Inf or a
// coordinate over kMaxPolygonCoordinate), geometry.polygon.too_large (more than kMaxVertices points),
// geometry.triangulate.degenerate (the input defeated the bounded segment recovery: a bug).
// Deterministic: the same rings give the same bytes. An input without area gives an empty mesh.
RIG2D_EXPORT Result<TriangleMesh> triangulate_polygons(const std::vector<Ring>& rings,
                                                       const TriangulateOptions& options = {},
                                                       TriangulateStats* stats = nullptr);

// Smallest interior angle of triangle (a, b, c) in degrees (0 for a degenerate triangle).
RIG2D_EXPORT double triangle_min_angle_deg(Vec2 a, Vec2 b, Vec2 c);

}  // namespace rig2d
