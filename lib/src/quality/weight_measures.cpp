// SPDX-License-Identifier: Apache-2.0
#include "quality/weight_measures.h"

#include <algorithm>
#include <cmath>

#include "rig2d/weights/bone_segments.h"

namespace rig2d::detail {
namespace {

// A path is sampled every half cell; a hostile far-away point costs at most this many samples.
constexpr double kMaxPathSamples = 1 << 14;

double slot_weight(const Part& part, std::size_t o) {
  const double w = o < part.skin_weights.size() ? part.skin_weights[o] : 0;
  return std::isfinite(w) && w > 0 ? w : 0;
}

Vec2 nearest_on_segment(Vec2 p, Vec2 a, Vec2 b) {
  const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  const double t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0) : 0.0;
  return {a.x + t * dx, a.y + t * dy};
}

// True when the path a -> b leaves the shape for more than `tolerance` px between two stretches
// on it. "On the shape" means within the rim of a solid cell (ShapeRaster::near), so a vertex on
// the outline margin or a corner cut diagonally is never a gap; a gap must be wider than the
// tolerance plus the rim on each side. Leading and trailing runs away from the shape do not
// count: a grid vertex out in the transparent margin, or a bone drawn outside the art, is no gap.
bool crosses_gap(const ShapeRaster& shape, Vec2 a, Vec2 b, double tolerance) {
  const double len = std::hypot(b.x - a.x, b.y - a.y);
  if (!(len > 0) || !std::isfinite(len)) return false;
  const double steps = std::min(kMaxPathSamples, std::ceil(len / (0.5 * shape.cell)));
  const double step_len = len / steps;
  bool entered = false;
  double outside = 0;
  for (double s = 0; s <= steps; ++s) {
    const Vec2 p{a.x + (b.x - a.x) * (s / steps), a.y + (b.y - a.y) * (s / steps)};
    if (shape.near_solid(p)) {
      if (entered && outside > tolerance) return true;
      entered = true;
      outside = 0;
    } else if (entered) {
      outside += step_len;
    }
  }
  return false;
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

void measure_leak(const Rig& rig, const Part& part, const ShapeRaster& shape, double gap_tolerance,
                  PartDeformStats& stats, std::vector<double>& leaked_by_bone) {
  std::vector<std::vector<BoneSegment>> segments(rig.bones.size());
  for (const BoneSegment& s : bone_segments(rig.bones, part.mesh, 0)) {
    if (s.bone < segments.size()) segments[s.bone].push_back(s);
  }
  for (std::size_t v = 0; v < part.mesh.verts.size(); ++v) {
    const Vec2 p = part.mesh.verts[v];
    for (std::size_t k = 0; k < kSlotsPerVertex; ++k) {
      const std::size_t o = kSlotsPerVertex * v + k;
      const double w = slot_weight(part, o);
      if (w == 0) continue;
      stats.total_weight += w;
      if (o >= part.skin_indices.size() || part.skin_indices[o] >= segments.size()) continue;
      const std::uint32_t bone = part.skin_indices[o];
      Vec2 nearest{};
      double best = HUGE_VAL;
      for (const BoneSegment& s : segments[bone]) {
        const Vec2 q = nearest_on_segment(p, s.a, s.b);
        const double d = std::hypot(q.x - p.x, q.y - p.y);
        if (d < best) best = d, nearest = q;
      }
      if (best == HUGE_VAL || !crosses_gap(shape, p, nearest, gap_tolerance)) continue;
      stats.leaked_weight += w;
      leaked_by_bone[bone] += w;
    }
  }
  stats.leak_fraction = stats.total_weight > 0 ? stats.leaked_weight / stats.total_weight : 0;
}

}  // namespace rig2d::detail
