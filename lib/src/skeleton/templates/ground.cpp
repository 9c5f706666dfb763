// SPDX-License-Identifier: Apache-2.0
#include "skeleton/templates/ground.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace rig2d::detail {

Vec2 ground_point(const Image& image, int alpha_threshold, double under_x) {
  const auto covered = [&](int x, int y) {
    const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x);
    return image.rgba[4 * i + 3] > alpha_threshold;
  };
  int bottom = -1;
  for (int y = image.height - 1; y >= 0 && bottom < 0; --y)
    for (int x = 0; x < image.width && bottom < 0; ++x)
      if (covered(x, y)) bottom = y;
  bottom = std::max(bottom, 0);
  Vec2 ground{under_x, bottom + 0.5};
  double best = -1;
  for (int y = bottom; y >= 0; --y) {  // upwards only while a row can still be nearer
    const double dy = bottom - y;
    if (best >= 0 && dy * dy > best) break;
    for (int x = 0; x < image.width; ++x) {
      if (!covered(x, y)) continue;
      const double dx = x + 0.5 - under_x, d = dx * dx + dy * dy;
      if (best < 0 || d < best) best = d, ground = {x + 0.5, y + 0.5};
    }
  }
  return ground;
}

void stand_on(std::vector<Bone>& bones, Bone ground) {
  for (Bone& bone : bones) {
    if (bone.parent < 0) bone.x -= ground.x, bone.y -= ground.y;  // the root hangs from where it stands
    bone.parent += 1;
  }
  ground.parent = -1;
  bones.insert(bones.begin(), std::move(ground));
}

Bone step_off(std::vector<Bone>& bones) {
  Bone ground = std::move(bones.front());
  bones.erase(bones.begin());
  for (Bone& bone : bones) {
    bone.parent -= 1;
    if (bone.parent < 0) bone.x += ground.x, bone.y += ground.y;  // from the rig origin again
  }
  return ground;
}

}  // namespace rig2d::detail
