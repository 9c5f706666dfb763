// SPDX-License-Identifier: Apache-2.0
#include "rig2d/skin/skeleton.h"

#include "skin/frame_math.h"

#include <algorithm>
#include <cstdint>

namespace rig2d {
namespace {

// Resolves root-local matrices through parent links in any bone order, breaking a cycle at its first
// repeat exactly as the engine's recursive resolve(i, seen) does. Iterative, so a deep chain cannot
// overflow the stack: the chain from i upward is collected first, then multiplied top-down.
// `combine(parent_matrix, bone)` returns the bone's matrix given its resolved parent.
template <typename Local, typename Combine>
void resolve_hierarchy(std::span<const Bone> bones, Local local, Combine combine, std::span<Affine2> out) {
  const std::size_t n = bones.size();
  std::vector<std::uint8_t> done(n, 0);
  std::vector<std::size_t> chain;
  std::vector<std::uint8_t> in_chain(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (done[i]) continue;
    // Walk up while the parent is valid, unresolved and not already on this chain (the `seen` set).
    chain.clear();
    std::size_t cur = i;
    for (;;) {
      chain.push_back(cur);
      in_chain[cur] = 1;
      const std::int64_t p = bones[cur].parent;
      if (p < 0 || p >= static_cast<std::int64_t>(n)) break;
      const auto up = static_cast<std::size_t>(p);
      if (in_chain[up] || done[up]) break;
      cur = up;
    }
    // The topmost bone is a root (or its parent is already resolved).
    for (std::size_t k = chain.size(); k-- > 0;) {
      const std::size_t b = chain[k];
      const std::int64_t p = bones[b].parent;
      const bool has_parent = p >= 0 && p < static_cast<std::int64_t>(n) &&
                              (k + 1 < chain.size() ? static_cast<std::size_t>(p) == chain[k + 1]
                                                    : done[static_cast<std::size_t>(p)] != 0);
      out[b] = has_parent ? combine(out[static_cast<std::size_t>(p)], b) : local(b);
    }
    for (const std::size_t b : chain) {
      in_chain[b] = 0;
      done[b] = 1;
    }
  }
}

}  // namespace

BindMatrices derive_bind_matrices(std::span<const Bone> bones) {
  BindMatrices m;
  m.root_local.resize(bones.size());
  m.inv_bind.resize(bones.size());
  auto local = [&](std::size_t i) { return compose(bones[i].x, bones[i].y, bones[i].rot, 1, 1); };
  resolve_hierarchy(
      bones, local, [&](const Affine2& parent, std::size_t i) { return multiply(parent, local(i)); }, m.root_local);
  for (std::size_t i = 0; i < bones.size(); ++i) m.inv_bind[i] = invert(m.root_local[i]);
  return m;
}

std::vector<Vec2> joint_positions(std::span<const Bone> bones) {
  const BindMatrices m = derive_bind_matrices(bones);
  std::vector<Vec2> joints(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) joints[i] = {m.root_local[i].e, m.root_local[i].f};
  return joints;
}

std::vector<BoneLocal> bind_locals(std::span<const Bone> bones) {
  std::vector<BoneLocal> locals(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) locals[i] = {bones[i].x, bones[i].y, bones[i].rot, 1, 1};
  return locals;
}

void pose_root_local(std::span<const Bone> bones, std::span<const BoneLocal> locals, std::span<Affine2> out) {
  const std::size_t n = std::min({bones.size(), locals.size(), out.size()});
  auto local = [&](std::size_t i) {
    const BoneLocal& l = locals[i];
    return compose(l.x, l.y, l.rot, l.sx, l.sy);
  };
  resolve_hierarchy(
      bones.first(n), local,
      [&](const Affine2& parent, std::size_t i) {
        return multiply(bones[i].no_scale ? remove_scale(parent) : parent, local(i));
      },
      out.first(n));
}

std::vector<PoseStep> pose_order(std::span<const Bone> bones) {
  std::vector<PoseStep> order;
  order.reserve(bones.size());
  std::vector<Affine2> unused(bones.size());
  // The same walk as every pose, recording which matrix each step multiplies by.
  resolve_hierarchy(
      bones,
      [&](std::size_t i) {
        order.push_back({static_cast<std::uint32_t>(i), -1});
        return Affine2{};
      },
      [&](const Affine2& parent, std::size_t i) {
        order.push_back({static_cast<std::uint32_t>(i), bones[i].parent});
        return parent;
      },
      unused);
  return order;
}

void pose_root_local(std::span<const Bone> bones, std::span<const PoseStep> order, std::span<const BoneLocal> locals,
                     std::span<Affine2> out) {
  const std::size_t n = std::min({bones.size(), locals.size(), out.size()});
  for (const PoseStep& step : order) {
    const std::size_t b = step.bone;
    if (b >= n) continue;
    detail::frame_place(step, bones[b].no_scale, detail::frame_compose(locals[b]), out.data(), n);
  }
}

void skinning_matrices(std::span<const Affine2> root_local_now, std::span<const Affine2> inv_bind,
                       std::span<Affine2> out) {
  const std::size_t n = std::min({root_local_now.size(), inv_bind.size(), out.size()});
  for (std::size_t i = 0; i < n; ++i) out[i] = detail::frame_multiply(root_local_now[i], inv_bind[i]);
}

}  // namespace rig2d
