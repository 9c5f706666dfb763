// SPDX-License-Identifier: Apache-2.0
// The kernels behind skin_vertices. Every kernel gives the same bits (the engine's scalar expression,
// stored as float32); skin_vertices picks the fastest the CPU runs. Tests force each one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rig2d/core/affine.h"

namespace rig2d::detail {

enum class SkinKernel {
  portable,  // one vertex at a time (SSE2 pairs where available, else scalar)
  avx512,    // 8 vertices per step, bone matrices picked by register permutes (<= 32 bones)
};

// Whether this CPU (and OS) can run `kernel`.
bool skin_kernel_available(SkinKernel kernel);

// The kernel skin_vertices uses: the fastest this machine runs.
SkinKernel best_skin_kernel();

// Skins vertices [0, n) with `kernel` (which must be available). Arrays as skin_vertices takes them:
// bind and out hold n vertices, idx and w 4 * n slots, skin `bones` matrices. `float32`: round the
// results as the engine's buffer stores them (skin_vertices); false keeps the doubles, which tests
// compare bit for bit (the rounding would hide a changed evaluation order).
void skin_with(SkinKernel kernel, const Vec2* bind, const std::uint32_t* idx, const double* w,
               const Affine2* skin, std::size_t bones, Vec2* out, std::size_t n, bool float32 = true);

// The AVX-512 kernel on the first n - n % 8 vertices; returns how many it skinned (0 beyond 32 bones).
std::size_t skin_avx512(const Vec2* bind, const std::uint32_t* idx, const double* w, const Affine2* skin,
                        std::size_t bones, Vec2* out, std::size_t n, bool float32);

}  // namespace rig2d::detail

namespace rig2d {
class SkinPlan;
}

namespace rig2d::detail {

// The kernels behind skin_vertices(SkinPlan): one vertex at a time, or two per step in AVX2.
enum class PlanKernel { portable, avx2 };

bool plan_kernel_available(PlanKernel kernel);

// Skins `plan` into out[0, out_size) with `kernel` (which must be available), as
// skin_vertices(plan, ...) does; `float32` as for skin_with. The AVX2 kernel needs
// bones >= plan.bones_needed() and out_size >= plan.vertex_count().
void skin_plan_with(PlanKernel kernel, const SkinPlan& plan, const Affine2* skin, std::size_t bones, Vec2* out,
                    std::size_t out_size, bool float32 = true);

// The AVX2 kernel on the plan's groups of 1..4 slots.
void skin_plan_avx2(const SkinPlan& plan, const Affine2* skin, Vec2* out, bool float32);

}  // namespace rig2d::detail
