// SPDX-License-Identifier: Apache-2.0
#include "rig2d/skin/skin_plan.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "rig2d/skin/lbs.h"
#include "skin/lbs_internal.h"

namespace rig2d {
namespace {

struct KeptSlot {
  double weight;
  std::uint32_t bone;
};

// Appends one step of two vertices (a lone vertex pairs with itself) to `group`.
void add_step(SkinPlan::Group& group, const Vec2* bind, const std::uint32_t (&v)[2], const KeptSlot (*slots)[4],
              int kept) {
  group.vertices.insert(group.vertices.end(), {v[0], v[1]});
  const Vec2 p = bind[v[0]], q = bind[v[1]];
  group.positions.insert(group.positions.end(), {p.x, p.x, q.x, q.x, p.y, p.y, q.y, q.y});
  for (int k = 0; k < kept; ++k) {
    const double w = slots[0][k].weight, u = slots[1][k].weight;
    group.weights.insert(group.weights.end(), {w, w, u, u});
    group.offsets.insert(group.offsets.end(), {std::uint64_t{slots[0][k].bone} * sizeof(Affine2),
                                               std::uint64_t{slots[1][k].bone} * sizeof(Affine2)});
  }
}

// The engine's expression for one vertex, its slots already kept: acc += w * ((a*x + c*y) + e).
// Slots whose bone is past `bones` are skipped as skin_vertices skips them.
Vec2 skin_kept(double x, double y, const double* w, std::size_t w_stride, const std::uint64_t* offsets, int kept,
               const Affine2* skin, std::size_t bones) {
  double ox = 0, oy = 0;
  for (int k = 0; k < kept; ++k) {
    const std::uint64_t bone = offsets[2 * k] / sizeof(Affine2);
    if (bone >= bones) continue;
    const Affine2& m = skin[bone];
    const double wk = w[w_stride * static_cast<std::size_t>(k)];
    ox += wk * (m.a * x + m.c * y + m.e);
    oy += wk * (m.b * x + m.d * y + m.f);
  }
  return {ox, oy};
}

void skin_portable(const SkinPlan& plan, const Affine2* skin, std::size_t bones, Vec2* out, std::size_t out_size,
                   bool float32) {
  for (int kept = 0; kept <= 4; ++kept) {
    const SkinPlan::Group& g = plan.group(kept);
    for (std::size_t step = 0; 2 * step < g.vertices.size(); ++step) {
      for (std::size_t half = 0; half < 2; ++half) {
        const std::uint32_t v = g.vertices[2 * step + half];
        if (v >= out_size) continue;
        const double* pos = &g.positions[8 * step + 2 * half];
        const std::size_t slot0 = step * static_cast<std::size_t>(kept);
        const double* w = g.weights.empty() ? nullptr : &g.weights[4 * slot0 + 2 * half];
        const std::uint64_t* b = g.offsets.empty() ? nullptr : &g.offsets[2 * slot0 + half];
        const Vec2 p = skin_kept(pos[0], pos[4], w, 4, b, kept, skin, bones);
        out[v] = float32 ? Vec2{round_to_float(p.x), round_to_float(p.y)} : p;
      }
    }
  }
}

}  // namespace

SkinPlan::SkinPlan(std::span<const Vec2> bind, std::span<const std::uint32_t> skin_indices,
                   std::span<const double> skin_weights) {
  vertex_count_ = std::min({bind.size(), skin_indices.size() / 4, skin_weights.size() / 4});
  // Per group, the vertex waiting for a partner.
  std::array<std::optional<std::pair<std::uint32_t, std::array<KeptSlot, 4>>>, 5> waiting;
  for (std::size_t v = 0; v < vertex_count_; ++v) {
    std::array<KeptSlot, 4> slots{};
    int kept = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const double w = skin_weights[4 * v + k];
      if (w == 0) continue;  // the engine's skip; NaN is kept, as it keeps it
      slots[static_cast<std::size_t>(kept++)] = {w, skin_indices[4 * v + k]};
      bones_needed_ = std::max<std::size_t>(bones_needed_, std::size_t{skin_indices[4 * v + k]} + 1);
    }
    auto& partner = waiting[static_cast<std::size_t>(kept)];
    if (!partner) {
      partner.emplace(static_cast<std::uint32_t>(v), slots);
      continue;
    }
    const std::uint32_t ids[2] = {partner->first, static_cast<std::uint32_t>(v)};
    const KeptSlot both[2][4] = {{partner->second[0], partner->second[1], partner->second[2], partner->second[3]},
                                 {slots[0], slots[1], slots[2], slots[3]}};
    add_step(groups_[static_cast<std::size_t>(kept)], bind.data(), ids, both, kept);
    partner.reset();
  }
  for (int kept = 0; kept <= 4; ++kept) {
    const auto& lone = waiting[static_cast<std::size_t>(kept)];
    if (!lone) continue;
    const std::uint32_t ids[2] = {lone->first, lone->first};
    const KeptSlot both[2][4] = {{lone->second[0], lone->second[1], lone->second[2], lone->second[3]},
                                 {lone->second[0], lone->second[1], lone->second[2], lone->second[3]}};
    add_step(groups_[static_cast<std::size_t>(kept)], bind.data(), ids, both, kept);
  }
}

void skin_vertices(const SkinPlan& plan, std::span<const Affine2> skin, std::span<Vec2> out) {
  static const detail::PlanKernel fastest =
      detail::plan_kernel_available(detail::PlanKernel::avx2) ? detail::PlanKernel::avx2 : detail::PlanKernel::portable;
  const bool complete = skin.size() >= plan.bones_needed() && out.size() >= plan.vertex_count();
  detail::skin_plan_with(complete ? fastest : detail::PlanKernel::portable, plan, skin.data(), skin.size(), out.data(),
                         out.size());
  for (std::size_t v = plan.vertex_count(); v < out.size(); ++v) out[v] = {};
}

namespace detail {

bool plan_kernel_available(PlanKernel kernel) {
  if (kernel == PlanKernel::portable) return true;
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
#else
  return false;
#endif
}

void skin_plan_with(PlanKernel kernel, const SkinPlan& plan, const Affine2* skin, std::size_t bones, Vec2* out,
                    std::size_t out_size, bool float32) {
  if (kernel == PlanKernel::avx2) {
    skin_plan_avx2(plan, skin, out, float32);
    return;
  }
  skin_portable(plan, skin, bones, out, out_size, float32);
}

}  // namespace detail
}  // namespace rig2d
