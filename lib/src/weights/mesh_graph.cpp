// SPDX-License-Identifier: Apache-2.0
#include "weights/mesh_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace rig2d::detail {
namespace {

std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];  // path halving
    v = parent[v];
  }
  return v;
}

struct EdgeUse {
  std::uint32_t lo, hi, opposite;  // an edge (lo < hi) of a triangle, and that triangle's third corner
};

// Every triangle edge, sorted by (lo, hi, opposite): the uses of one edge are adjacent. A counting
// sort on lo, then an insertion sort inside each (small) bucket: linear for a mesh.
std::vector<EdgeUse> sorted_edges(std::size_t n, const std::vector<std::array<std::uint32_t, 3>>& tris) {
  std::vector<std::uint32_t> start(n + 1, 0);
  for (const auto& t : tris)
    for (int k = 0; k < 3; ++k) ++start[std::min(t[k], t[(k + 1) % 3]) + 1];
  for (std::size_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<EdgeUse> edges(tris.size() * 3);
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (const auto& t : tris)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t p = t[k], q = t[(k + 1) % 3];
      edges[fill[std::min(p, q)]++] = {std::min(p, q), std::max(p, q), t[(k + 2) % 3]};
    }
  auto less = [](const EdgeUse& a, const EdgeUse& b) { return a.hi != b.hi ? a.hi < b.hi : a.opposite < b.opposite; };
  for (std::size_t v = 0; v < n; ++v) {
    for (std::uint32_t i = start[v] + 1; i < start[v + 1]; ++i) {
      const EdgeUse e = edges[i];
      std::uint32_t j = i;
      for (; j > start[v] && less(e, edges[j - 1]); --j) edges[j] = edges[j - 1];
      edges[j] = e;
    }
  }
  return edges;
}

bool same_edge(const EdgeUse& a, const EdgeUse& b) { return a.lo == b.lo && a.hi == b.hi; }

// True when edges[i] is the first of exactly two uses of an edge (an interior, manifold edge).
inline bool is_interior(const std::vector<EdgeUse>& edges, std::size_t i) {
  return i + 1 < edges.size() && same_edge(edges[i], edges[i + 1]) && (i == 0 || !same_edge(edges[i - 1], edges[i])) &&
         (i + 2 >= edges.size() || !same_edge(edges[i + 2], edges[i]));
}

// Symmetric adjacency (pairs v -> w, both directions given) to sorted, duplicate-free CSR lists,
// by counting, then a small insertion sort per vertex.
void csr_from_pairs(std::size_t n, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
                    std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& flat) {
  std::vector<std::uint32_t> start(n + 1, 0);
  for (const auto& pr : pairs) ++start[pr.first + 1];
  for (std::size_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<std::uint32_t> all(pairs.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (const auto& pr : pairs) all[fill[pr.first]++] = pr.second;
  offsets.assign(n + 1, 0);
  flat.clear();
  flat.reserve(pairs.size());
  for (std::size_t v = 0; v < n; ++v) {
    const auto begin = all.begin() + start[v], end = all.begin() + start[v + 1];
    for (auto i = begin; i != end; ++i)
      for (auto j = i; j != begin && *j < *(j - 1); --j) std::iter_swap(j, j - 1);
    for (auto i = begin; i != end; ++i)
      if (i == begin || *i != *(i - 1)) flat.push_back(*i);
    offsets[v + 1] = static_cast<std::uint32_t>(flat.size());
  }
}

double cot_at(Vec2 corner, Vec2 a, Vec2 b) {
  const double ax = a.x - corner.x, ay = a.y - corner.y, bx = b.x - corner.x, by = b.y - corner.y;
  return (ax * bx + ay * by) / std::abs(ax * by - ay * bx);
}

// Lawson edge flips to the constrained Delaunay triangulation of the same vertices (boundary and
// non-manifold edges stay). The cotangent Laplacian of a Delaunay mesh has no negative edge weights,
// so heat weights obey the maximum principle even on an outline mesh full of slivers, and the flips
// change only the solver's view of the shape, never the mesh that is written. Edges whose quad is
// cocircular (every grid cell) are left alone: both diagonals give the same Laplacian, and a margin
// keeps rounding from deciding. Triangles are made counter-clockwise (y-up sense) first.
// `edges` receives sorted_edges of the result when no edge was flipped (it is left empty otherwise).
std::size_t make_delaunay(std::span<const Vec2> verts, std::vector<std::array<std::uint32_t, 3>>& tris,
                          std::vector<EdgeUse>& edges) {
  for (auto& t : tris)
    if (cross2(verts[t[0]], verts[t[1]], verts[t[2]]) < 0) std::swap(t[1], t[2]);
  // Grids and refined outline meshes are Delaunay already: check before building the flip structures.
  {
    edges = sorted_edges(verts.size(), tris);
    bool any = false;
    for (std::size_t i = 0; i < edges.size() && !any; ++i) {
      if (!is_interior(edges, i)) continue;
      const Vec2 vp = verts[edges[i].lo], vq = verts[edges[i].hi];
      any = cot_at(verts[edges[i].opposite], vp, vq) + cot_at(verts[edges[i + 1].opposite], vp, vq) < -1e-9;
    }
    if (!any) return 0;
    edges.clear();
  }
  // Edge (lo, hi) -> the triangles using it; more than two marks it non-manifold.
  std::map<std::uint64_t, std::vector<std::uint32_t>> edge_tris;
  auto key = [](std::uint32_t a, std::uint32_t b) {
    return (static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b);
  };
  for (std::uint32_t t = 0; t < tris.size(); ++t)
    for (int k = 0; k < 3; ++k) edge_tris[key(tris[t][k], tris[t][(k + 1) % 3])].push_back(t);
  std::vector<std::uint64_t> stack;
  for (const auto& [edge, users] : edge_tris)
    if (users.size() == 2) stack.push_back(edge);
  std::reverse(stack.begin(), stack.end());  // pop in ascending edge order

  auto replace = [&](std::uint64_t edge, std::uint32_t from, std::uint32_t to) {
    for (auto& t : edge_tris[edge])
      if (t == from) t = to;
  };
  // Lawson's flips terminate; the cap only guards against a pathological input.
  const std::size_t max_flips = 64 * tris.size() + 64;
  std::size_t flips = 0;
  while (!stack.empty() && flips < max_flips) {
    const std::uint64_t edge = stack.back();
    stack.pop_back();
    const auto found = edge_tris.find(edge);
    if (found == edge_tris.end() || found->second.size() != 2) continue;
    const std::uint32_t t1 = found->second[0], t2 = found->second[1];
    const auto p = static_cast<std::uint32_t>(edge >> 32), q = static_cast<std::uint32_t>(edge & 0xffffffffu);
    auto opposite = [&](std::uint32_t t) {
      for (int k = 0; k < 3; ++k)
        if (tris[t][k] != p && tris[t][k] != q) return tris[t][k];
      return p;
    };
    const std::uint32_t r = opposite(t1), s = opposite(t2);
    if (r == s || r == p || s == p) continue;
    const Vec2 vp = verts[p], vq = verts[q], vr = verts[r], vs = verts[s];
    if (!(cot_at(vr, vp, vq) + cot_at(vs, vp, vq) < -1e-9)) continue;  // locally Delaunay (or cocircular)
    // Strictly convex quad: r and s on either side of pq, p and q on either side of rs.
    if (!(cross2(vp, vq, vr) * cross2(vp, vq, vs) < 0 && cross2(vr, vs, vp) * cross2(vr, vs, vq) < 0)) continue;
    if (edge_tris.count(key(r, s))) continue;  // the other diagonal already exists elsewhere
    // New triangles share the diagonal r-s; orientation fixed up below.
    std::array<std::uint32_t, 3> n1{p, s, r}, n2{s, q, r};
    if (cross2(verts[n1[0]], verts[n1[1]], verts[n1[2]]) < 0) std::swap(n1[1], n1[2]);
    if (cross2(verts[n2[0]], verts[n2[1]], verts[n2[2]]) < 0) std::swap(n2[1], n2[2]);
    edge_tris.erase(found);
    // Edge p-s moves from t2 to t1; edge q-r moves from t1 to t2.
    replace(key(p, s), t2, t1);
    replace(key(q, r), t1, t2);
    tris[t1] = n1;
    tris[t2] = n2;
    edge_tris[key(r, s)] = {t1, t2};
    for (const std::uint64_t e : {key(p, s), key(s, q), key(q, r), key(r, p)})
      if (edge_tris[e].size() == 2) stack.push_back(e);
    ++flips;
  }
  return flips;
}

// The diagonal of the vertices' bounding box (1 when it is zero or not finite): the mesh's size.
double mesh_scale(std::span<const Vec2> verts) {
  if (verts.empty()) return 1;
  double min_x = verts[0].x, max_x = verts[0].x, min_y = verts[0].y, max_y = verts[0].y;
  for (const Vec2& p : verts) {
    min_x = std::min(min_x, p.x);
    max_x = std::max(max_x, p.x);
    min_y = std::min(min_y, p.y);
    max_y = std::max(max_y, p.y);
  }
  const double diag = std::hypot(max_x - min_x, max_y - min_y);
  return diag > 0 && std::isfinite(diag) ? diag : 1;
}

// The triangles with three distinct corners and an area that is not numerically zero.
void keep_usable_triangles(std::span<const Vec2> verts, std::span<const std::uint32_t> tris, MeshGraph& g) {
  const std::size_t tri_count = tris.size() / 3;
  g.triangles.reserve(tri_count);
  for (std::size_t t = 0; t < tri_count; ++t) {
    const std::array<std::uint32_t, 3> tri{tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]};
    const Vec2 a = verts[tri[0]], b = verts[tri[1]], c = verts[tri[2]];
    const double longest = std::max({dist2(a, b), dist2(b, c), dist2(c, a)});
    // Relative test, so the verdict does not depend on the sprite's scale or placement.
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || !(std::abs(cross2(a, b, c)) > 1e-12 * longest)) {
      ++g.degenerate_triangles;
      continue;
    }
    g.triangles.push_back(tri);
  }
}

// Islands: union-find over the usable triangles; the representative is renumbered in vertex order
// so island ids are deterministic.
void label_islands(MeshGraph& g) {
  const std::size_t n = g.vertex_count;
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  g.isolated.assign(n, 1);
  for (const auto& tri : g.triangles) {
    for (int k = 0; k < 3; ++k) g.isolated[tri[k]] = 0;
    for (int k = 1; k < 3; ++k) {
      const std::uint32_t r0 = find_root(parent, tri[0]);
      const std::uint32_t rk = find_root(parent, tri[k]);
      if (r0 != rk) parent[std::max(r0, rk)] = std::min(r0, rk);
    }
  }
  g.island.assign(n, 0);
  std::vector<std::uint32_t> id_of_root(n, std::numeric_limits<std::uint32_t>::max());
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint32_t r = find_root(parent, v);
    if (id_of_root[r] == std::numeric_limits<std::uint32_t>::max()) id_of_root[r] = g.island_count++;
    g.island[v] = id_of_root[r];
  }
}

// Vertex -> edge neighbours (sorted, unique), and for shortest paths also the straight link across
// each interior edge's two triangles when it stays inside them (the quad is convex), with lengths.
// The edges come sorted by (lo, hi), so one sweep hands every vertex its smaller neighbours in
// ascending order and a second its larger ones: the lists need no sort. A vertex's path list is its
// neighbours merged with its few cross links (sorted, duplicates dropped).
void link_vertices(std::span<const Vec2> verts, const std::vector<EdgeUse>& edges, MeshGraph& g) {
  const std::size_t n = g.vertex_count;
  std::vector<std::uint32_t> below(n, 0), above(n, 0);  // neighbours smaller / larger than the vertex
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (i > 0 && same_edge(edges[i - 1], edges[i])) continue;
    ++below[edges[i].hi];
    ++above[edges[i].lo];
  }
  g.nbr_offsets.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) g.nbr_offsets[v + 1] = g.nbr_offsets[v] + below[v] + above[v];
  g.nbr_list.resize(g.nbr_offsets[n]);
  for (std::size_t v = 0; v < n; ++v) above[v] = g.nbr_offsets[v] + below[v], below[v] = g.nbr_offsets[v];
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const EdgeUse& e = edges[i];
    if (i > 0 && same_edge(edges[i - 1], e)) continue;
    g.nbr_list[below[e.hi]++] = e.lo;
    g.nbr_list[above[e.lo]++] = e.hi;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
  links.reserve(edges.size());  // two links at most per interior edge, which has two uses
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!is_interior(edges, i)) continue;
    const EdgeUse& e = edges[i];
    const EdgeUse& f = edges[i + 1];
    const Vec2 p = verts[e.lo], q = verts[e.hi], r = verts[e.opposite], s = verts[f.opposite];
    // r-s is inside the two triangles when it crosses p-q strictly (the quad p r q s is convex).
    const double side_r = cross2(p, q, r), side_s = cross2(p, q, s);
    const double side_p = cross2(r, s, p), side_q = cross2(r, s, q);
    if (side_r * side_s < 0 && side_p * side_q < 0) {
      links.emplace_back(e.opposite, f.opposite);
      links.emplace_back(f.opposite, e.opposite);
    }
  }
  std::vector<std::uint32_t> link_offsets, link_list;
  csr_from_pairs(n, links, link_offsets, link_list);
  g.path_offsets.assign(n + 1, 0);
  g.path_list.clear();
  g.path_list.reserve(g.nbr_list.size() + link_list.size());
  for (std::size_t v = 0; v < n; ++v) {
    const auto* a = g.nbr_list.data() + g.nbr_offsets[v];
    const auto* a_end = g.nbr_list.data() + g.nbr_offsets[v + 1];
    const auto* b = link_list.data() + link_offsets[v];
    const auto* b_end = link_list.data() + link_offsets[v + 1];
    while (a != a_end || b != b_end) {
      const std::uint32_t next = b == b_end || (a != a_end && *a <= *b) ? *a : *b;
      if (a != a_end && *a == next) ++a;
      if (b != b_end && *b == next) ++b;
      g.path_list.push_back(next);
    }
    g.path_offsets[v + 1] = static_cast<std::uint32_t>(g.path_list.size());
  }
  g.path_length.resize(g.path_list.size());
  for (std::size_t v = 0; v < n; ++v)
    for (std::uint32_t k = g.path_offsets[v]; k < g.path_offsets[v + 1]; ++k)
      g.path_length[k] = std::sqrt(dist2(verts[v], verts[g.path_list[k]]));
}

}  // namespace

MeshGraph build_mesh_graph(std::span<const Vec2> verts, std::span<const std::uint32_t> tris) {
  MeshGraph g;
  g.vertex_count = verts.size();
  g.scale = mesh_scale(verts);
  keep_usable_triangles(verts, tris, g);
  std::vector<EdgeUse> edges;
  g.flipped_edges = make_delaunay(verts, g.triangles, edges);
  label_islands(g);
  if (g.flipped_edges > 0 || (edges.empty() && !g.triangles.empty())) edges = sorted_edges(g.vertex_count, g.triangles);
  link_vertices(verts, edges, g);
  return g;
}

Vec2 closest_on_segment(Vec2 p, Vec2 a, Vec2 b) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double len2 = dx * dx + dy * dy;
  if (!(len2 > 0)) return a;
  const double t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0);
  return {a.x + t * dx, a.y + t * dy};
}

bool clip_segment_to_triangle(Vec2 a, Vec2 b, const std::array<Vec2, 3>& tri, double tol, double* lo, double* hi) {
  const double orient = cross2(tri[0], tri[1], tri[2]) > 0 ? 1.0 : -1.0;
  double t_lo = 0;
  double t_hi = 1;
  for (int k = 0; k < 3; ++k) {
    const Vec2 p = tri[k];
    const Vec2 q = tri[(k + 1) % 3];
    const double slack = tol * std::sqrt(dist2(p, q));
    // Inside edge (p, q) means orient * cross(p, q, x) >= -slack; linear in t along the segment.
    const double fa = orient * cross2(p, q, a) + slack;
    const double fb = orient * cross2(p, q, b) + slack;
    if (fa < 0 && fb < 0) return false;
    if (fa < 0) {
      t_lo = std::max(t_lo, fa / (fa - fb));
    } else if (fb < 0) {
      t_hi = std::min(t_hi, fa / (fa - fb));
    }
    if (t_lo > t_hi) return false;
  }
  *lo = t_lo;
  *hi = t_hi;
  return true;
}

Vec2 nearest_point_on_triangle(Vec2 a, Vec2 b, const std::array<Vec2, 3>& tri, double* gap) {
  // Disjoint segment and triangle: the closest pair lies on a triangle edge and is found among the
  // segment endpoints against each edge and each triangle corner against the segment.
  double best = std::numeric_limits<double>::infinity();
  Vec2 best_point = tri[0];
  auto consider = [&](Vec2 on_triangle, Vec2 on_segment) {
    const double d = dist2(on_triangle, on_segment);
    if (d < best) {
      best = d;
      best_point = on_triangle;
    }
  };
  for (int k = 0; k < 3; ++k) {
    const Vec2 p = tri[k];
    const Vec2 q = tri[(k + 1) % 3];
    consider(closest_on_segment(a, p, q), a);
    consider(closest_on_segment(b, p, q), b);
    consider(p, closest_on_segment(p, a, b));
  }
  *gap = std::sqrt(best);
  return best_point;
}

}  // namespace rig2d::detail
