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
using Slots = std::array<KeptSlot, 4>;

// Appends one step of vertices v and u (a lone vertex pairs with itself) to `group`.
void add_step(SkinPlan::Group& group, const Vec2* bind, std::uint32_t v, const Slots& v_slots, std::uint32_t u,
              const Slots& u_slots, int kept) {
  group.vertices.insert(group.vertices.end(), {v, u});
  const Vec2 p = bind[v], q = bind[u];
  group.positions.insert(group.positions.end(), {p.x, p.x, q.x, q.x, p.y, p.y, q.y, q.y});
  for (std::size_t k = 0; k < static_cast<std::size_t>(kept); ++k) {
    group.weights.insert(group.weights.end(),
                         {v_slots[k].weight, v_slots[k].weight, u_slots[k].weight, u_slots[k].weight});
    group.offsets.insert(group.offsets.end(), {std::uint64_t{v_slots[k].bone} * sizeof(Affine2),
                                               std::uint64_t{u_slots[k].bone} * sizeof(Affine2)});
  }
}

// One vertex at a time through skin_vertex, its kept slots gathered back into 4 (the rest weight 0,
// which the engine skips); a slot whose bone is past `bones` is skipped there too.
void skin_portable(const SkinPlan& plan, const Affine2* skin, std::size_t bones, Vec2* out, std::size_t out_size,
                   bool float32) {
  for (int kept = 0; kept <= 4; ++kept) {
    const SkinPlan::Group& g = plan.group(kept);
    for (std::size_t step = 0; 2 * step < g.vertices.size(); ++step) {
      for (std::size_t half = 0; half < 2; ++half) {
        const std::uint32_t v = g.vertices[2 * step + half];
        if (v >= out_size) continue;
        std::uint32_t idx[4] = {};
        double w[4] = {};
        for (std::size_t k = 0; k < static_cast<std::size_t>(kept); ++k) {
          const std::size_t slot = step * static_cast<std::size_t>(kept) + k;
          idx[k] = static_cast<std::uint32_t>(g.offsets[2 * slot + half] / sizeof(Affine2));
          w[k] = g.weights[4 * slot + 2 * half];
        }
        const double* pos = &g.positions[8 * step + 2 * half];
        const Vec2 p = skin_vertex({pos[0], pos[4]}, idx, w, std::span<const Affine2>(skin, bones));
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
  std::array<std::optional<std::pair<std::uint32_t, Slots>>, 5> waiting;
  for (std::size_t v = 0; v < vertex_count_; ++v) {
    Slots slots{};
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
    add_step(groups_[static_cast<std::size_t>(kept)], bind.data(), partner->first, partner->second,
             static_cast<std::uint32_t>(v), slots, kept);
    partner.reset();
  }
  for (int kept = 0; kept <= 4; ++kept) {
    const auto& lone = waiting[static_cast<std::size_t>(kept)];
    if (lone)
      add_step(groups_[static_cast<std::size_t>(kept)], bind.data(), lone->first, lone->second, lone->first,
               lone->second, kept);
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
