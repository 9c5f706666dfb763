// SPDX-License-Identifier: Apache-2.0
// layout_skeleton: per-part shape skeletons joined where the parts overlap.
//
// Why not one skeleton over the union of the layers: the union of a chubby layered figure is one
// round blob, whose medial axis has no limbs, so most parts got no bone of their own (8 parts, 5
// bones). Each layer's own silhouette still shows its limb.
#include "autorig/layout_skeleton.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <string>

#include "rig2d/skeleton/shape_skeleton.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d::detail {
namespace {

bool opaque(const PlacedPart& p, int cx, int cy, int threshold) {
  const int x = cx - p.x, y = cy - p.y;
  if (x < 0 || y < 0 || x >= p.image.width || y >= p.image.height) return false;
  return p.image.rgba[(std::size_t(y) * std::size_t(p.image.width) + std::size_t(x)) * 4 + 3] > threshold;
}

// The part alone on a canvas-sized image (alpha only matters).
Image on_canvas(const PlacedPart& p, int width, int height) {
  Image img;
  img.width = width;
  img.height = height;
  img.rgba.assign(std::size_t(width) * std::size_t(height) * 4, 0);
  for (int y = std::max(0, p.y); y < std::min(height, p.y + p.image.height); ++y)
    for (int x = std::max(0, p.x); x < std::min(width, p.x + p.image.width); ++x)
      img.rgba[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4 + 3] =
          p.image.rgba[(std::size_t(y - p.y) * std::size_t(p.image.width) + std::size_t(x - p.x)) * 4 + 3];
  return img;
}

struct Overlap {
  std::size_t pixels = 0, area = 0;
  Vec2 centre;  // canvas px, of the overlap (or of the part when it overlaps nothing)
};

// Where part `p` overlaps the parts already rigged (`done`).
Overlap overlap_with(const std::vector<PlacedPart>& parts, std::size_t p, const std::vector<std::size_t>& done,
                     int threshold) {
  const PlacedPart& part = parts[p];
  Overlap o;
  double ox = 0, oy = 0, ax = 0, ay = 0;
  for (int y = part.y; y < part.y + part.image.height; ++y) {
    for (int x = part.x; x < part.x + part.image.width; ++x) {
      if (!opaque(part, x, y, threshold)) continue;
      ++o.area, ax += x + 0.5, ay += y + 0.5;
      const bool under = std::any_of(done.begin(), done.end(), [&](std::size_t q) { return opaque(parts[q], x, y, threshold); });
      if (under) ++o.pixels, ox += x + 0.5, oy += y + 0.5;
    }
  }
  o.centre = o.pixels ? Vec2{ox / double(o.pixels), oy / double(o.pixels)} : Vec2{ax / double(o.area), ay / double(o.area)};
  return o;
}

std::size_t nearest_joint(const std::vector<Vec2>& joints, Vec2 p) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < joints.size(); ++i)
    if (std::hypot(joints[i].x - p.x, joints[i].y - p.y) < std::hypot(joints[best].x - p.x, joints[best].y - p.y)) best = i;
  return best;
}

}  // namespace

Result<std::vector<Bone>> layout_skeleton(const std::vector<PlacedPart>& parts, int width, int height,
                                          const AutorigOptions& options) {
  const int threshold = options.alpha_threshold;
  std::vector<std::size_t> area(parts.size());
  std::size_t total = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    area[p] = overlap_with(parts, p, {}, threshold).area;
    total += area[p];
  }
  std::vector<std::size_t> order(parts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return area[a] > area[b]; });

  const Vec2 origin{options.pivot_x * width, options.pivot_y * height};
  std::vector<Bone> bones;
  std::vector<Vec2> joints;  // canvas px
  std::set<std::string> names;
  std::vector<std::size_t> done;
  int left = options.shape.max_bones;
  for (const std::size_t p : order) {
    const int share = int(std::lround(double(options.shape.max_bones) * double(area[p]) / double(std::max<std::size_t>(total, 1))));
    const int budget = std::min(left, std::max(2, share));
    if (budget < 2 || area[p] == 0) continue;
    ShapeSkeletonOptions shape = options.shape;
    shape.alpha_threshold = threshold;
    shape.pivot_x = options.pivot_x;
    shape.pivot_y = options.pivot_y;
    shape.max_bones = budget;
    if (!done.empty()) shape.root_near = overlap_with(parts, p, done, threshold).centre;
    auto own = shape_skeleton(on_canvas(parts[p], width, height), shape);
    if (!own) return Unexpected{own.error()};
    std::vector<Vec2> own_joints = joint_positions(*own);
    const auto offset = static_cast<std::int64_t>(bones.size());
    for (std::size_t b = 0; b < own->size(); ++b) {
      Bone bone = (*own)[b];
      const Vec2 j{own_joints[b].x + origin.x, own_joints[b].y + origin.y};
      if (bone.parent >= 0) {
        bone.parent += offset;
      } else if (!joints.empty()) {  // a part's root hangs from the nearest bone already placed
        const std::size_t at = nearest_joint(joints, j);
        bone.parent = std::int64_t(at);
        bone.x = j.x - joints[at].x;
        bone.y = j.y - joints[at].y;
      }
      if (!done.empty()) bone.name = parts[p].name + "_" + bone.name;
      const std::string base = bone.name;
      for (int k = 2; names.count(bone.name); ++k) bone.name = base + "_" + std::to_string(k);
      names.insert(bone.name);
      bones.push_back(std::move(bone));
      joints.push_back(j);
    }
    left -= static_cast<int>(own->size());
    done.push_back(p);
  }
  return bones;
}

}  // namespace rig2d::detail
