// SPDX-License-Identifier: Apache-2.0
#include "quality/weight_measures.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>

#include "rig2d/weights/bone_segments.h"

namespace rig2d::detail {
namespace {

double slot_weight(const Part& part, std::size_t o) {
  const double w = o < part.skin_weights.size() ? part.skin_weights[o] : 0;
  return std::isfinite(w) && w > 0 ? w : 0;
}

// The cells a bone's segments pass through that are on the shape (near a solid one), sampled
// every half cell, with the sample points: a bone drawn across a transparent gap (between two
// legs, say) only counts where it lies on the art.
struct BoneOnShape {
  std::vector<std::size_t> cells;
  std::vector<Vec2> points;
};
BoneOnShape bone_on_shape(const ShapeRaster& shape, const std::vector<BoneSegment>& segments) {
  BoneOnShape out;
  for (const BoneSegment& s : segments) {
    const double len = std::hypot(s.b.x - s.a.x, s.b.y - s.a.y);
    const double n = std::isfinite(len) ? std::clamp(std::ceil(2 * len / shape.cell), 1.0, 1e5) : 1.0;
    for (double k = 0; k <= n; ++k) {
      const Vec2 p{s.a.x + (s.b.x - s.a.x) * (k / n), s.a.y + (s.b.y - s.a.y) * (k / n)};
      const Vec2 f = shape.cell_at(p);
      if (!shape.has_cell(f.x, f.y)) continue;
      const std::size_t c = shape.cell_index(f.x, f.y);
      if (!shape.near[c]) continue;
      out.cells.push_back(c);
      out.points.push_back(p);
    }
  }
  return out;
}

}  // namespace

// The point nearest p and its distance, min over points of std::hypot(q - p). Squared distances pick
// the candidates and hypot decides among those within rounding of the least, so the distance is the
// plain loop's to the bit at a fraction of the hypot calls.
NearestPoint nearest_point(const std::vector<Vec2>& points, Vec2 p) {
  double least_squared = HUGE_VAL;
  for (const Vec2 q : points) {
    const double dx = q.x - p.x, dy = q.y - p.y;
    least_squared = std::min(least_squared, dx * dx + dy * dy);
  }
  const double cut = least_squared * (1 + 1e-9);  // squares are within a few ulps of the true ones
  NearestPoint nearest;
  for (const Vec2 q : points) {
    const double dx = q.x - p.x, dy = q.y - p.y;
    if (!(dx * dx + dy * dy <= cut)) continue;
    if (const double d = std::hypot(dx, dy); d < nearest.distance) nearest = {d, q};
  }
  return nearest;
}

// Whether a straight run of shape cells joins q's cell to p's, no longer than `allowed` with room
// to spare: the way around from q to p is then at most that run, so a slot allowed that much
// cannot leak, whatever the search would find. (The search's float sums exceed a run's exact
// length by at most 2^-24 a step; the 1e-3 margin covers runs across a 4096-cell raster.)
bool clearly_within(const ShapeRaster& shape, Vec2 p, Vec2 q, double allowed) {
  const Vec2 pc = shape.cell_at(p), qc = shape.cell_at(q);
  if (!shape.has_cell(pc.x, pc.y) || !shape.has_cell(qc.x, qc.y)) return false;
  const double ax = std::fabs(pc.x - qc.x), ay = std::fabs(pc.y - qc.y);
  const double run = shape.cell * (std::max(ax, ay) + (std::sqrt(2.0) - 1) * std::min(ax, ay));
  if (!(run * (1 + 1e-3) + 1e-3 * shape.cell <= allowed)) return false;
  // Bresenham from q to p: one cell per step along the longer axis, each a neighbour of the last.
  const auto x1 = static_cast<std::int64_t>(pc.x), y1 = static_cast<std::int64_t>(pc.y);
  std::int64_t x = static_cast<std::int64_t>(qc.x), y = static_cast<std::int64_t>(qc.y);
  const std::int64_t dx = std::abs(x1 - x), dy = -std::abs(y1 - y), sx = x < x1 ? 1 : -1, sy = y < y1 ? 1 : -1;
  for (std::int64_t err = dx + dy;;) {
    if (!shape.near[shape.cell_index(static_cast<double>(x), static_cast<double>(y))]) return false;
    if (x == x1 && y == y1) return true;
    const std::int64_t e2 = 2 * err;
    if (e2 >= dy) err += dy, x += sx;
    if (e2 <= dx) err += dx, y += sy;
  }
}

// Distance in px from `sources` to every cell within `reach` of them, moving only through cells on
// the shape: shortest paths over the 8-connected cell grid (steps of 1 and sqrt 2 cells), which
// overestimate a straight run by at most 8%. Farther cells hold their distance or more. Cells are
// settled in buckets one cell wide (Dial's algorithm): a step is at least a cell, so a bucket only
// feeds the next two and a ring of four serves the whole search, in O(1) per cell. Each distance is
// the least float sum of steps over the paths to its cell, whatever order the cells are taken in (a
// step never lowers a distance), so the values are a priority queue's to the bit.
std::vector<float> distances_through_shape(const ShapeRaster& shape, const std::vector<std::size_t>& sources,
                                           double reach) {
  // On a copy of the shape framed by one cell off it, a cell's 8 neighbours are fixed offsets.
  const std::size_t w = static_cast<std::size_t>(shape.width), h = static_cast<std::size_t>(shape.height);
  const std::size_t pw = w + 2;
  std::vector<std::uint8_t> near((w + 2) * (h + 2), 0);
  for (std::size_t y = 0; y < h; ++y) std::copy_n(shape.near.data() + y * w, w, near.data() + (y + 1) * pw + 1);
  std::vector<float> padded(near.size(), std::numeric_limits<float>::infinity());
  struct Item {
    float d;
    std::uint32_t cell;
  };
  std::array<std::vector<Item>, 4> ring;
  for (const std::size_t c : sources) {
    const std::size_t p = (c / w + 1) * pw + c % w + 1;
    if (padded[p] != 0) ring[0].push_back({padded[p] = 0, static_cast<std::uint32_t>(p)});
  }
  const float straight = static_cast<float>(shape.cell), diagonal = static_cast<float>(shape.cell * std::sqrt(2.0));
  const auto row = static_cast<std::ptrdiff_t>(pw);
  const std::array<std::ptrdiff_t, 8> offset{-row - 1, -row, -row + 1, -1, 1, row - 1, row, row + 1};
  const std::array<float, 8> step{diagonal, straight, diagonal, straight, straight, diagonal, straight, diagonal};
  std::size_t pending = ring[0].size();
  for (std::size_t bucket = 0; pending > 0; ++bucket) {
    // Every item still waiting is at least a bucket short of this one's start: past the reach, the
    // cells within it are all final (the rest hold their final distance or more).
    if (static_cast<double>(bucket) * straight > reach * (1 + 1e-6) + 2.0 * straight) break;
    std::vector<Item>& items = ring[bucket % ring.size()];
    for (std::size_t i = 0; i < items.size(); ++i) {  // items may grow while it runs
      const auto [d, c] = items[i];
      --pending;
      if (d > padded[c]) continue;  // reached again more cheaply since
      for (std::size_t k = 0; k < offset.size(); ++k) {
        const auto n = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + offset[k]);
        const float nd = d + step[k];
        if (!near[n] || !(nd < padded[n])) continue;
        padded[n] = nd;
        // floor(nd / cell) is bucket + 1 or + 2 but for rounding; never behind the current one.
        const std::size_t ahead = std::clamp<std::size_t>(static_cast<std::size_t>(nd / straight), bucket, bucket + 2);
        ring[ahead % ring.size()].push_back({nd, static_cast<std::uint32_t>(n)});
        ++pending;
      }
    }
    items.clear();
  }
  std::vector<float> dist(w * h);
  for (std::size_t y = 0; y < h; ++y) std::copy_n(padded.data() + (y + 1) * pw + 1, w, dist.data() + y * w);
  return dist;
}

namespace {

// Labels the 8-connected pieces of the shape (cells near a solid one) 1, 2, ...; 0 = off the shape.
std::vector<std::uint32_t> label_pieces(const ShapeRaster& shape) {
  const std::size_t w = static_cast<std::size_t>(shape.width), h = static_cast<std::size_t>(shape.height);
  std::vector<std::uint32_t> label(w * h, 0);
  std::uint32_t next = 0;
  std::vector<std::size_t> stack;
  for (std::size_t start = 0; start < label.size(); ++start) {
    if (!shape.near[start] || label[start]) continue;
    label[start] = ++next;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t c = stack.back();
      stack.pop_back();
      const std::size_t x = c % w, y = c / w;
      for (std::size_t ny = y > 0 ? y - 1 : y; ny <= y + 1 && ny < h; ++ny) {
        for (std::size_t nx = x > 0 ? x - 1 : x; nx <= x + 1 && nx < w; ++nx) {
          const std::size_t n = ny * w + nx;
          if (shape.near[n] && !label[n]) label[n] = next, stack.push_back(n);
        }
      }
    }
  }
  return label;
}

// The piece a point lies on: its cell's label, else the first labelled one of its 8 neighbours.
std::uint32_t piece_at(const ShapeRaster& shape, const std::vector<std::uint32_t>& label, Vec2 p) {
  const Vec2 f = shape.cell_at(p);
  for (const auto& [dx, dy] : {std::pair{0, 0}, {-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}) {
    const double x = f.x + dx, y = f.y + dy;
    if (!shape.has_cell(x, y)) continue;
    if (const std::uint32_t l = label[shape.cell_index(x, y)]) return l;
  }
  return 0;
}

// The through-shape distance at p: its cell's, else the best of its 8 neighbours' plus the step.
double distance_at(const ShapeRaster& shape, const std::vector<float>& dist, Vec2 p) {
  const Vec2 f = shape.cell_at(p);
  double best = HUGE_VAL;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const double x = f.x + dx, y = f.y + dy;
      if (!shape.has_cell(x, y)) continue;
      const double d = dist[shape.cell_index(x, y)];
      best = std::min(best, d + (dx != 0 || dy != 0 ? std::hypot(dx, dy) * shape.cell : 0.0));
    }
  }
  return best;
}

}  // namespace

std::vector<std::int64_t> dominant_bones(const Part& part, std::size_t bone_count) {
  std::vector<std::int64_t> out(part.mesh.verts.size(), -1);
  for (std::size_t v = 0; v < out.size(); ++v) {
    double best = 0;
    for (std::size_t k = 0; k < kSlotsPerVertex; ++k) {
      const std::size_t o = kSlotsPerVertex * v + k;
      const double w = slot_weight(part, o);
      if (w > best && o < part.skin_indices.size() && part.skin_indices[o] < bone_count) {
        best = w;
        out[v] = part.skin_indices[o];
      }
    }
  }
  return out;
}

void measure_rigid(const Part& part, double rigid_weight, PartDeformStats& stats) {
  const std::size_t n = part.mesh.verts.size();
  std::vector<std::int64_t> bound(n, -1);
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t k = 0; k < kSlotsPerVertex && bound[v] < 0; ++k) {
      const std::size_t o = kSlotsPerVertex * v + k;
      if (o >= part.skin_indices.size()) break;
      double sum = 0;  // a bone may fill several slots
      for (std::size_t k2 = 0; k2 < kSlotsPerVertex; ++k2) {
        const std::size_t o2 = kSlotsPerVertex * v + k2;
        if (o2 < part.skin_indices.size() && part.skin_indices[o2] == part.skin_indices[o]) sum += slot_weight(part, o2);
      }
      if (sum >= rigid_weight) bound[v] = part.skin_indices[o];
    }
  }
  double rigid = 0, total = 0;
  const auto& tris = part.mesh.tris;
  for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
    if (tris[t] >= n || tris[t + 1] >= n || tris[t + 2] >= n) continue;
    const Vec2 a = part.mesh.verts[tris[t]], b = part.mesh.verts[tris[t + 1]], c = part.mesh.verts[tris[t + 2]];
    const double area = 0.5 * std::abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
    if (!std::isfinite(area)) continue;
    total += area;
    const std::int64_t bone = bound[tris[t]];
    if (bone >= 0 && bound[tris[t + 1]] == bone && bound[tris[t + 2]] == bone) rigid += area;
  }
  stats.rigid_fraction = total > 0 ? rigid / total : 0;
}

void measure_leak(const Rig& rig, const Part& part, const ShapeRaster& shape, const LeakOptions& options,
                  PartDeformStats& stats, std::vector<double>& leaked_by_bone) {
  std::vector<std::vector<BoneSegment>> segments(rig.bones.size());
  for (const BoneSegment& s : bone_segments(rig.bones, part.mesh, 0)) {
    if (s.bone < segments.size()) segments[s.bone].push_back(s);
  }
  const std::size_t n = part.mesh.verts.size();
  for (std::size_t o = 0; o < kSlotsPerVertex * n; ++o) stats.total_weight += slot_weight(part, o);
  if (shape.near.empty()) return;
  const std::vector<std::uint32_t> label = label_pieces(shape);
  std::vector<BoneOnShape> on_shape(segments.size());
  std::vector<bool> piece_has_bone(label.empty() ? 1 : *std::max_element(label.begin(), label.end()) + 1u, false);
  for (std::size_t b = 0; b < segments.size(); ++b) {
    on_shape[b] = bone_on_shape(shape, segments[b]);
    for (const std::size_t c : on_shape[b].cells) piece_has_bone[label[c]] = true;
  }
  for (std::size_t bone = 0; bone < segments.size(); ++bone) {
    std::vector<std::size_t> slots;  // this bone's weighted slots on pieces that hold a bone
    for (std::size_t o = 0; o < kSlotsPerVertex * n && o < part.skin_indices.size(); ++o) {
      if (part.skin_indices[o] != bone || slot_weight(part, o) == 0) continue;
      // A piece no bone touches (a detached speck) can only be weighted across a gap: not a defect
      // of the weights.
      if (piece_has_bone[piece_at(shape, label, part.mesh.verts[o / kSlotsPerVertex])]) slots.push_back(o);
    }
    if (slots.empty() || on_shape[bone].cells.empty()) continue;
    // A slot leaks when the way around is longer than `allowed`. Most slots see their bone across
    // the shape and are settled without a search; the search only reaches as far as the others allow.
    std::vector<std::pair<std::size_t, double>> open;  // slot, allowed
    double reach = 0;
    for (const std::size_t o : slots) {
      const Vec2 p = part.mesh.verts[o / kSlotsPerVertex];
      const NearestPoint q = nearest_point(on_shape[bone].points, p);
      const double allowed = options.detour * q.distance + options.tolerance;
      if (clearly_within(shape, p, q.point, allowed)) continue;
      open.emplace_back(o, allowed);
      reach = std::max(reach, allowed);
    }
    if (open.empty()) continue;
    const std::vector<float> dist = distances_through_shape(shape, on_shape[bone].cells, reach);
    for (const auto& [o, allowed] : open) {
      if (!(distance_at(shape, dist, part.mesh.verts[o / kSlotsPerVertex]) > allowed)) continue;
      stats.leaked_weight += slot_weight(part, o);
      leaked_by_bone[bone] += slot_weight(part, o);
    }
  }
  stats.leak_fraction = stats.total_weight > 0 ? stats.leaked_weight / stats.total_weight : 0;
}

}  // namespace rig2d::detail
