// SPDX-License-Identifier: Apache-2.0
#include "rig2d/weights/joint_weights.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "rig2d/core/affine.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d {
namespace {

constexpr double kEps = 1e-4;

// Math.pow(x, y). V8 (fdlibm) returns x*x exactly for y == 2; say so explicitly rather than trusting
// the libm to special-case it.
double js_pow(double x, double y) { return y == 2 ? x * x : std::pow(x, y); }

struct Scored {
  std::uint32_t bone;
  double w;
};

}  // namespace

SkinWeights compute_joint_weights(std::span<const Vec2> verts, std::span<const Bone> bones,
                                  const JointWeightOptions& options) {
  const std::vector<Vec2> joints = joint_positions(bones);
  const double falloff = options.falloff;
  const double radius =
      options.radius > 0 ? options.radius : std::numeric_limits<double>::infinity();  // NaN -> unbounded
  const bool bounded = radius != std::numeric_limits<double>::infinity();
  // max(1, min(4, floor(x))) with JS NaN propagation; slice(0, NaN) keeps nothing.
  const double max_inf_d = std::floor(options.max_influences);
  const std::size_t max_inf =
      std::isnan(max_inf_d) ? 0 : static_cast<std::size_t>(std::max(1.0, std::min(4.0, max_inf_d)));

  SkinWeights out;
  out.indices.assign(verts.size() * kSlotsPerVertex, 0);
  out.weights.assign(verts.size() * kSlotsPerVertex, 0);
  std::vector<Scored> scored;
  scored.reserve(joints.size());
  for (std::size_t v = 0; v < verts.size(); ++v) {
    const Vec2 p = verts[v];
    scored.clear();
    std::uint32_t nearest = 0;
    double nearest_d = std::numeric_limits<double>::infinity();
    for (std::size_t b = 0; b < joints.size(); ++b) {
      const double d = js_hypot(p.x - joints[b].x, p.y - joints[b].y);
      if (d < nearest_d) {
        nearest_d = d;
        nearest = static_cast<std::uint32_t>(b);
      }
      const double w = bounded ? (d >= radius ? 0 : js_pow(1 - d / radius, falloff)) : 1 / (js_pow(d, falloff) + kEps);
      if (w > 0) scored.push_back({static_cast<std::uint32_t>(b), w});
    }
    std::stable_sort(scored.begin(), scored.end(), [](const Scored& l, const Scored& r) { return l.w > r.w; });
    const std::size_t count = std::min(max_inf, scored.size());
    double sum = 0;
    for (std::size_t i = 0; i < count; ++i) sum += scored[i].w;
    const std::size_t o = v * kSlotsPerVertex;
    if (!(sum > 0)) {
      out.indices[o] = nearest;
      out.weights[o] = 1;
      continue;
    }
    for (std::size_t i = 0; i < count; ++i) {
      out.indices[o + i] = scored[i].bone;
      out.weights[o + i] = scored[i].w / sum;
    }
  }
  return out;
}

}  // namespace rig2d
