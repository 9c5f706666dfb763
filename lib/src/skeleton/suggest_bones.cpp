// SPDX-License-Identifier: Apache-2.0
#include "rig2d/skeleton/suggest_bones.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "rig2d/core/affine.h"

namespace rig2d {
namespace {

constexpr int kAlongSamples = 32;  // rows a = i/32, i = 0..32
constexpr int kAcrossSamples = 8;  // b = j/8, j = 0..8

}  // namespace

std::vector<Bone> suggest_bones(const SuggestBonesOptions& options,
                                const std::function<bool(double u, double v)>& is_inside) {
  const bool vertical =
      options.axis == BoneAxis::Y ? true : options.axis == BoneAxis::X ? false : options.height >= options.width;
  const double length = vertical ? options.height : options.width;
  // max(2, min(6, count ?? max(2, round(L/96) + 1))) with JS NaN propagation.
  const double wanted = options.count ? *options.count : std::max(2.0, js_round(length / 96) + 1);
  const double count = std::isnan(wanted) ? wanted : std::max(2.0, std::min(6.0, wanted));

  double lo = 0;
  double hi = 1;
  if (is_inside) {
    bool any = false;
    double min_a = 0;
    double max_a = 0;
    for (int i = 0; i <= kAlongSamples; ++i) {
      const double a = static_cast<double>(i) / kAlongSamples;
      bool covered = false;
      for (int j = 0; j <= kAcrossSamples && !covered; ++j) {
        const double b = static_cast<double>(j) / kAcrossSamples;
        covered = vertical ? is_inside(b, a) : is_inside(a, b);
      }
      if (!covered) continue;
      if (!any) min_a = max_a = a;
      min_a = std::min(min_a, a);
      max_a = std::max(max_a, a);
      any = true;
    }
    if (any && max_a > min_a) {
      lo = min_a;
      hi = max_a;
    }
  }

  const double pivot = vertical ? options.pivot_y : options.pivot_x;
  std::vector<Bone> bones;
  double previous_joint = 0;
  for (int k = 0; k < count; ++k) {  // NaN count: no iteration, as in the engine
    const double t = lo + (hi - lo) * (k / (count - 1));
    const double joint = (t - pivot) * length;
    const double along = k == 0 ? joint : joint - previous_joint;
    previous_joint = joint;
    Bone bone;
    bone.name = k == 0 ? "root" : "bone" + std::to_string(k);
    bone.parent = k - 1;
    bone.x = vertical ? 0 : along;
    bone.y = vertical ? along : 0;
    bone.rot = 0;
    bones.push_back(std::move(bone));
  }
  return bones;
}

}  // namespace rig2d
