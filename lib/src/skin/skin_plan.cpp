// SPDX-License-Identifier: Apache-2.0
#include "rig2d/skin/skin_plan.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "rig2d/skin/lbs.h"
#include "skin/lbs_internal.h"

namespace rig2d {
namespace {

struct KeptSlot {
  double weight;
  std::uint32_t bone;
};
using Slots = std::array<KeptSlot, 4>;

// A vertex's slots the engine does not skip, in its order; the slots past `count` are zero.
struct Kept {
  std::uint32_t vertex;
  int count;
  Slots slots;
};

// What a run of vertices sharing their matrices must agree on: how many slots, and their bones.
std::array<std::uint32_t, 5> bones_of(const Kept& k) {
  return {static_cast<std::uint32_t>(k.count), k.slots[0].bone, k.slots[1].bone, k.slots[2].bone, k.slots[3].bone};
}

std::uint64_t matrix_offset(std::uint32_t bone) { return std::uint64_t{bone} * sizeof(Affine2); }

// Appends one step of vertices v and u (a lone vertex pairs with itself) to `group`.
void add_step(SkinPlan::Group& group, const Vec2* bind, const Kept& v, const Kept& u) {
  group.vertices.insert(group.vertices.end(), {v.vertex, u.vertex});
  const Vec2 p = bind[v.vertex], q = bind[u.vertex];
  group.positions.insert(group.positions.end(), {p.x, p.x, q.x, q.x, p.y, p.y, q.y, q.y});
  for (std::size_t k = 0; k < static_cast<std::size_t>(v.count); ++k) {
    const double wv = v.slots[k].weight, wu = u.slots[k].weight;
    group.weights.insert(group.weights.end(), {wv, wv, wu, wu});
    group.offsets.insert(group.offsets.end(), {matrix_offset(v.slots[k].bone), matrix_offset(u.slots[k].bone)});
  }
}

// Appends one step of four vertices with the same bones to `group`.
void add_shared_step(SkinPlan::SharedGroup& group, const Vec2* bind, const Kept* four) {
  for (int i = 0; i < 4; ++i) group.vertices.push_back(four[i].vertex);
  for (int pair = 0; pair < 4; pair += 2) {
    const Vec2 p = bind[four[pair].vertex], q = bind[four[pair + 1].vertex];
    group.positions.insert(group.positions.end(), {p.x, p.x, q.x, q.x, p.y, p.y, q.y, q.y});
  }
  for (std::size_t k = 0; k < static_cast<std::size_t>(four[0].count); ++k) {
    for (int i = 0; i < 4; ++i) group.weights.insert(group.weights.end(), 2, four[i].slots[k].weight);
    group.offsets.push_back(matrix_offset(four[0].slots[k].bone));
  }
}

// skin_vertex on one vertex's kept slots gathered back into 4 (the rest weight 0, which the engine
// skips); a slot whose bone is past `bones` is skipped there too.
struct PortableVertex {
  const Affine2* skin;
  std::size_t bones;
  Vec2* out;
  std::size_t out_size;
  bool float32;

  template <typename Slot>
  void operator()(std::uint32_t v, Vec2 bind, int kept, Slot slot) const {
    if (v >= out_size) return;
    std::uint32_t idx[4] = {};
    double w[4] = {};
    for (int k = 0; k < kept; ++k) {
      const auto [offset, weight] = slot(std::size_t(k));
      idx[k] = static_cast<std::uint32_t>(offset / sizeof(Affine2));
      w[k] = weight;
    }
    const Vec2 p = skin_vertex(bind, idx, w, std::span<const Affine2>(skin, bones));
    out[v] = float32 ? Vec2{round_to_float(p.x), round_to_float(p.y)} : p;
  }
};

// One vertex at a time through skin_vertex.
void skin_portable(const SkinPlan& plan, const PortableVertex& skin_one) {
  for (int kept = 0; kept <= 4; ++kept) {
    const auto slots = static_cast<std::size_t>(kept);
    const SkinPlan::Group& g = plan.group(kept);
    for (std::size_t step = 0; 2 * step < g.vertices.size(); ++step) {
      for (std::size_t half = 0; half < 2; ++half) {
        const double* pos = &g.positions[8 * step + 2 * half];
        skin_one(g.vertices[2 * step + half], {pos[0], pos[4]}, kept, [&](std::size_t k) {
          const std::size_t slot = step * slots + k;
          return std::pair{g.offsets[2 * slot + half], g.weights[4 * slot + 2 * half]};
        });
      }
    }
    const SkinPlan::SharedGroup& s = plan.shared_group(kept);
    for (std::size_t step = 0; 4 * step < s.vertices.size(); ++step) {
      for (std::size_t i = 0; i < 4; ++i) {
        const double* pos = &s.positions[16 * step + 8 * (i / 2) + 2 * (i % 2)];
        skin_one(s.vertices[4 * step + i], {pos[0], pos[4]}, kept, [&](std::size_t k) {
          const std::size_t slot = step * slots + k;
          return std::pair{s.offsets[slot], s.weights[8 * slot + 2 * i]};
        });
      }
    }
  }
}

}  // namespace

SkinPlan::SkinPlan(std::span<const Vec2> bind, std::span<const std::uint32_t> skin_indices,
                   std::span<const double> skin_weights) {
  vertex_count_ = std::min({bind.size(), skin_indices.size() / 4, skin_weights.size() / 4});
  std::vector<Kept> kept(vertex_count_);
  for (std::size_t v = 0; v < vertex_count_; ++v) {
    Kept& vertex = kept[v];
    vertex = {static_cast<std::uint32_t>(v), 0, {}};
    for (std::size_t k = 0; k < 4; ++k) {
      const double w = skin_weights[4 * v + k];
      if (w == 0) continue;  // the engine's skip; NaN is kept, as it keeps it
      vertex.slots[static_cast<std::size_t>(vertex.count++)] = {w, skin_indices[4 * v + k]};
      bones_needed_ = std::max<std::size_t>(bones_needed_, std::size_t{skin_indices[4 * v + k]} + 1);
    }
  }
  // Runs of the same bones go four at a time; what is left of a run is paired with its neighbours.
  std::stable_sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) { return bones_of(a) < bones_of(b); });
  std::array<std::vector<Kept>, 5> rest;
  for (std::size_t run = 0, end = 0; run < kept.size(); run = end) {
    while (end < kept.size() && bones_of(kept[run]) == bones_of(kept[end])) ++end;
    const auto slots = static_cast<std::size_t>(kept[run].count);
    std::size_t v = run;
    for (; v + 4 <= end; v += 4) add_shared_step(shared_[slots], bind.data(), &kept[v]);
    rest[slots].insert(rest[slots].end(), kept.begin() + static_cast<std::ptrdiff_t>(v),
                       kept.begin() + static_cast<std::ptrdiff_t>(end));
  }
  for (std::size_t slots = 0; slots <= 4; ++slots) {
    const std::vector<Kept>& left = rest[slots];
    for (std::size_t i = 0; i < left.size(); i += 2)
      add_step(groups_[slots], bind.data(), left[i], left[std::min(i + 1, left.size() - 1)]);
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
  skin_portable(plan, {skin, bones, out, out_size, float32});
}

}  // namespace detail
}  // namespace rig2d
