// SPDX-License-Identifier: Apache-2.0
// The constrained Delaunay triangulation behind triangulate_polygons (private).
//
// Triangles live in one array with explicit adjacency: triangle t has vertices v[0..2] in
// counter-clockwise order (y-up sense, orient2d > 0), and edge i is the edge opposite v[i], i.e.
// (v[i+1], v[i+2]), shared with neighbour n[i]. Each edge side carries the number of input segments
// covering it (cnt); an edge is a constraint while cnt > 0. A large enclosing triangle (vertices 0..2)
// keeps every real vertex interior, so point location and rotation never fall off the mesh.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rig2d/core/types.h"

namespace rig2d::detail {

class Cdt {
 public:
  enum class Kind : std::uint8_t { Super, Input, Crossing, SegmentSplit, Free };

  struct Tri {
    std::array<int, 3> v{};
    std::array<int, 3> n{-1, -1, -1};
    // Input segments covering edge i, two tallies packed: class A in the low 32 bits, class B in the
    // high 32 (see insert_segment). The edge is a constraint while cnt != 0.
    std::array<std::int64_t, 3> cnt{};
    std::array<int, 3> seg{-1, -1, -1};  // one input segment covering edge i (for shell splitting)
    bool alive = true;
    bool inside = false;
  };

  struct Segment {
    int a = -1, b = -1;  // the input segment's original endpoints (vertex ids)
  };

  struct RefineOptions {
    double min_angle_deg = 20.0;
    double max_edge = 0.0;           // 0 = none
    double min_edge = 0.0;           // a triangle whose shortest edge is shorter is not split for its angle
    std::size_t max_vertices = 0;    // real vertices, 0 = none
  };

  // `bounds_min`/`bounds_max` enclose every point that will be inserted.
  Cdt(Vec2 bounds_min, Vec2 bounds_max);

  // Room for `points` input points and their triangles (2 per point and the enclosing one), so the
  // insertions do not grow the arrays step by step.
  void reserve(std::size_t points);
  // Inserts a point, or returns the existing vertex at exactly the same position.
  int insert_point(Vec2 p, Kind kind);
  static constexpr std::int64_t kClassA = 1;
  static constexpr std::int64_t kClassB = std::int64_t{1} << 32;
  enum class Rule { EvenOdd, AMinusB };

  // Adds input segment (a, b) (vertex ids) of class kClassA or kClassB: after this the segment is a
  // union of triangulation edges, with crossings of earlier segments split by new vertices. Returns
  // false if recovery gave up.
  bool insert_segment(int a, int b, std::int64_t klass = kClassA);
  // Marks triangles inside: EvenOdd = odd parity of class A crossings; AMinusB = inside class A by
  // parity and outside class B by parity. Needle triangles (area under ~1e-12 of their longest edge
  // squared, numerically meaningless) are left out. Only edges between inside and outside stay
  // constraints; the Delaunay property is then restored across every other edge.
  void classify_and_clean(Rule rule);
  // After classify_and_clean: adds p as a free vertex when it lies inside an inside triangle or on an
  // unconstrained edge between two; returns false (nothing added) anywhere else, on a vertex included.
  bool insert_interior(Vec2 p);
  // Ruppert refinement of the inside triangles. Returns the number of vertices added.
  std::size_t refine(const RefineOptions& options, bool& budget_reached);

  const std::vector<Vec2>& points() const { return pts_; }
  const std::vector<Tri>& triangles() const { return tris_; }
  std::size_t crossing_points() const { return crossings_; }
  std::size_t real_vertex_count() const { return pts_.size() - 3; }

 private:
  friend class Refiner;          // refine's state and steps (cdt.cpp)
  friend class SegmentRecovery;  // insert_segment's

  int locate(Vec2 p, int start) const;
  int new_tri();
  void set_neighbor(int t, int old_nb, int new_nb);
  // Position of x in a triangle's vertex or neighbour array, 3 when absent.
  static int slot(const std::array<int, 3>& a, int x) { return a[0] == x ? 0 : a[1] == x ? 1 : a[2] == x ? 2 : 3; }
  int edge_index(int t, int a, int b) const;  // index i of edge (a,b) (either direction), -1 if none
  void set_edge_count(int t, int i, std::int64_t cnt, int seg);
  bool find_edge(int a, int b, int& t, int& i) const;
  int split_triangle(int t, Vec2 p, Kind kind);
  int split_edge(int t, int i, Vec2 p, Kind kind);
  bool split_edge_valid(int t, int i, Vec2 p) const;
  // u or v when it lies within rounding of segment (a, b)'s interior (the nearer to its line), else -1.
  int vertex_on_segment(Vec2 a, Vec2 b, int u, int v) const;
  // Edge i of t is unconstrained and not locally Delaunay (the far apex is inside t's circle); with
  // `same_region`, both triangles must also be on the same side of the interior.
  bool should_flip(int t, int i, bool same_region) const;
  void legalize(int t, int i);
  void flip(int t, int i);
  void legalize_all();
  void collect_fan(int vtx, std::vector<int>& out) const;
  bool retriangulate_cavity(const std::vector<int>& removed, int a, int end, const std::vector<int>& left,
                            const std::vector<int>& right, std::int64_t weight, int seg_id);

  std::vector<Vec2> pts_;
  std::vector<Kind> kind_;
  std::vector<int> vtri_;  // one alive triangle incident to each vertex
  std::vector<Tri> tris_;
  std::vector<int> free_;
  std::vector<Segment> segs_;
  std::vector<std::pair<int, int>> flip_stack_;
  mutable std::uint32_t walk_seed_ = 0x9E3779B9u;
  std::size_t crossings_ = 0;
  int last_tri_ = 0;
};

}  // namespace rig2d::detail
