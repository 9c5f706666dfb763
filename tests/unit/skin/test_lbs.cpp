// SPDX-License-Identifier: Apache-2.0
// LBS: ENGINE-SPEC §2.4, §5.1 #1, #2, #10, #12 and §5.5 #8 (build -> skin, computed exact positions).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "rig2d/skin/lbs.h"
#include "rig2d/skin/skeleton.h"
#include "skin/lbs_internal.h"
#include "support/test_math.h"

using namespace rig2d;
using Catch::Matchers::WithinAbs;

namespace {

struct R1 {
  std::vector<Bone> bones{{"root", -1, 0, 0, 0}, {"arm", 0, 10, 0, 0}};
  std::vector<Vec2> verts{{0, 0}, {10, 0}, {20, 0}, {20, 10}};
  std::vector<std::uint32_t> idx{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  std::vector<double> w{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};

  std::vector<Vec2> skin(const std::vector<BoneLocal>& pose) const {
    const BindMatrices bind = derive_bind_matrices(bones);
    std::vector<Affine2> now(bones.size()), mats(bones.size());
    pose_root_local(bones, pose, now);
    skinning_matrices(now, bind.inv_bind, mats);
    std::vector<Vec2> out(verts.size());
    skin_vertices(verts, idx, w, mats, out);
    return out;
  }
};
}  // namespace

TEST_CASE("lbs: R1 at bind is the bind mesh (spec 5.1 #1)", "[skin]") {
  const R1 r;
  const auto out = r.skin(bind_locals(r.bones));
  for (std::size_t i = 0; i < out.size(); ++i) {
    CHECK_THAT(out[i].x, WithinAbs(r.verts[i].x, 1e-5));
    CHECK_THAT(out[i].y, WithinAbs(r.verts[i].y, 1e-5));
  }
}

TEST_CASE("lbs: hand-computed 90 degree arm bend (spec 5.1 #2)", "[skin]") {
  const R1 r;
  const auto out = r.skin({{0, 0, 0}, {10, 0, kPi / 2}});
  // Arm pivots at (10,0): (20,0) -> (10,10), (20,10) -> (0,10); computed exact in float32.
  const double expected[8] = {0, 0, 10, 0, 10, 10, static_cast<float>(1.7763568394002505e-15), 10};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(out[i].x == expected[2 * i]);
    CHECK(out[i].y == expected[2 * i + 1]);
  }
}

TEST_CASE("lbs: two half weights blend two matrices (spec 5.1 #10)", "[skin]") {
  const std::uint32_t idx[4] = {0, 1, 0, 0};
  const double w[4] = {0.5, 0.5, 0, 0};
  const std::vector<Affine2> mats{Affine2{}, Affine2{1, 0, 0, 1, 0, 10}};
  const Vec2 p = skin_vertex({4, 0}, idx, w, mats);
  CHECK_THAT(p.x, WithinAbs(4, 1e-6));
  CHECK_THAT(p.y, WithinAbs(5, 1e-6));
}

TEST_CASE("lbs: no bones collapses every vertex to the origin (spec 2.4)", "[skin]") {
  const std::vector<Vec2> verts{{3, 4}, {-1, 2}};
  const std::vector<std::uint32_t> idx(8, 0);
  const std::vector<double> w{1, 0, 0, 0, 1, 0, 0, 0};
  std::vector<Vec2> out(2, Vec2{9, 9});
  skin_vertices(verts, idx, w, {}, out);
  CHECK(out[0] == Vec2{0, 0});
  CHECK(out[1] == Vec2{0, 0});
}

TEST_CASE("lbs: buildRig2D 32x96 rig posed with tip at pi/2 (spec 5.5 #8)", "[skin]") {
  // The rig spec 5.5 #7 gives (weights as the normalizing loader stores them: float32).
  const std::vector<Bone> bones{{"base", -1, 0, 40, 0}, {"tip", 0, 0, -80, 0}};
  const double y2 = 15.999999999999996;
  const std::vector<Vec2> verts{{-16, -48}, {16, -48}, {-16, -16}, {16, -16}, {-16, y2}, {16, y2}, {-16, 48}, {16, 48}};
  const double w0 = round_to_float(0.9615384504437873), w1 = round_to_float(0.03846154955621276);
  const double r0 = round_to_float(0.803030288682278), r1 = round_to_float(0.19696971131772195);
  const double s1 = round_to_float(0.19696971131772192);
  const std::vector<std::uint32_t> idx{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
                                       0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
  const std::vector<double> w{w0, w1, 0, 0, w0, w1, 0, 0, r0, r1, 0, 0, r0, r1, 0, 0,
                              r0, s1, 0, 0, r0, s1, 0, 0, w0, w1, 0, 0, w0, w1, 0, 0};
  const BindMatrices bind = derive_bind_matrices(bones);
  std::vector<Affine2> now(2), mats(2);
  pose_root_local(bones, std::vector<BoneLocal>{{0, 40, 0}, {0, -80, kPi / 2}}, now);
  skinning_matrices(now, bind.inv_bind, mats);
  std::vector<Vec2> out(verts.size());
  skin_vertices(verts, idx, w, mats, out);
  const double expected[16] = {7.076922416687012,  -55.69230651855469, 8.307692527770996,  -24.923076629638672,
                               -22.424243927001953, -48.121212005615234, -16.121212005615234, -22.424243927001953,
                               -23.8787899017334,   1.818180799484253,   1.818180799484253,   8.121212005615234,
                               -18.76923179626465,  43.999996185302734,  11.999998092651367,  45.23076629638672};
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK_THAT(out[i].x, WithinAbs(expected[2 * i], 1e-5));
    CHECK_THAT(out[i].y, WithinAbs(expected[2 * i + 1], 1e-5));
  }
}

TEST_CASE("lbs: skin_vertices equals the engine's scalar expression bit for bit", "[skin]") {
  // The engine's skinVertex2D written out in scalar double arithmetic, then stored as float32; the
  // library's packed loop must give exactly these bits (zero weights, out-of-range slots, negative
  // zero and NaN weights included).
  auto engine = [](Vec2 p, const std::uint32_t* idx, const double* w, const std::vector<Affine2>& skin) {
    double ox = 0, oy = 0;
    for (int k = 0; k < 4; ++k) {
      if (w[k] == 0 || idx[k] >= skin.size()) continue;
      const Affine2& m = skin[idx[k]];
      ox += w[k] * (m.a * p.x + m.c * p.y + m.e);
      oy += w[k] * (m.b * p.x + m.d * p.y + m.f);
    }
    return Vec2{round_to_float(ox), round_to_float(oy)};
  };
  std::vector<Affine2> mats;
  for (int i = 0; i < 7; ++i) {
    const double r = 0.37 * i + 0.1;
    mats.push_back({std::cos(r) * 1.3, std::sin(r), -std::sin(r) * 0.7, std::cos(r), 3.1 * i - 7.7, 1.0 / (i + 3)});
  }
  std::uint32_t state = 99;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  const std::size_t n = 500;
  std::vector<Vec2> verts(n);
  std::vector<std::uint32_t> idx(4 * n);
  std::vector<double> w(4 * n);
  for (std::size_t v = 0; v < n; ++v) {
    verts[v] = {(static_cast<double>(next() % 20000) - 10000) / 7.0, (static_cast<double>(next() % 20000) - 10000) / 3.0};
    for (std::size_t k = 0; k < 4; ++k) {
      idx[4 * v + k] = next() % 9;  // 7 and 8 are out of range
      const std::uint32_t kind = next() % 5;
      w[4 * v + k] = kind == 0 ? 0.0 : kind == 1 ? -0.0 : static_cast<double>(next() % 1000) / 997.0;
    }
  }
  idx[4 * 17 + 2] = 0;
  w[4 * 17 + 2] = std::nan("");  // a NaN weight poisons its vertex, as in the engine
  std::vector<Vec2> out(n);
  skin_vertices(verts, idx, w, mats, out);
  std::size_t same = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const Vec2 e = engine(verts[v], &idx[4 * v], &w[4 * v], mats);
    const bool bits_equal = std::memcmp(&e, &out[v], sizeof e) == 0;
    same += bits_equal ? 1 : 0;
    if (!bits_equal) {
      CAPTURE(v, e.x, e.y, out[v].x, out[v].y);
      CHECK(bits_equal);
    }
  }
  CHECK(same == n);
  CHECK(std::isnan(out[17].x));
  // skin_vertex (no float32 storage) agrees with the same expression before rounding.
  const Vec2 one = skin_vertex(verts[3], &idx[12], &w[12], mats);
  CHECK(Vec2{round_to_float(one.x), round_to_float(one.y)} == engine(verts[3], &idx[12], &w[12], mats));
}

namespace {

// The engine's skinVertex2D in scalar doubles (ENGINE-SPEC 2.4), stored as float32 when `float32`.
Vec2 engine_skin(Vec2 p, const std::uint32_t* idx, const double* w, const std::vector<Affine2>& skin,
                 bool float32) {
  double ox = 0, oy = 0;
  for (int k = 0; k < 4; ++k) {
    if (w[k] == 0 || idx[k] >= skin.size()) continue;
    const Affine2& m = skin[idx[k]];
    ox += w[k] * (m.a * p.x + m.c * p.y + m.e);
    oy += w[k] * (m.b * p.x + m.d * p.y + m.f);
  }
  return float32 ? Vec2{round_to_float(ox), round_to_float(oy)} : Vec2{ox, oy};
}

struct RandomRig {
  std::vector<Affine2> mats;
  std::vector<Vec2> verts;
  std::vector<std::uint32_t> idx;
  std::vector<double> w;
};

// Bones and vertices of any count; slots with zero, negative-zero, NaN and ordinary weights, indices
// in range, just past it, 16, 33, 1000 and 2^32 - 1 (bone counts cover the AVX-512 table edges).
RandomRig random_rig(std::size_t bones, std::size_t n, std::uint32_t seed) {
  std::uint32_t state = seed;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  auto real = [&](double scale) { return (static_cast<double>(next() % 200001) - 100000) / 100000 * scale; };
  RandomRig r;
  for (std::size_t b = 0; b < bones; ++b) r.mats.push_back({real(2), real(2), real(2), real(2), real(500), real(500)});
  r.verts.resize(n);
  r.idx.resize(4 * n);
  r.w.resize(4 * n);
  const std::uint32_t far[4] = {16, 33, 1000, 0xffffffffu};
  for (std::size_t v = 0; v < n; ++v) {
    r.verts[v] = {real(2000), real(2000)};
    for (std::size_t k = 0; k < 4; ++k) {
      const std::uint32_t pick = next() % 16;
      r.idx[4 * v + k] = pick < 13 && bones > 0 ? next() % static_cast<std::uint32_t>(bones)
                         : pick == 13           ? static_cast<std::uint32_t>(bones)
                                                : far[next() % 4];
      const std::uint32_t kind = next() % 8;
      r.w[4 * v + k] = kind == 0 ? 0.0 : kind == 1 ? -0.0 : kind == 2 ? -real(1) : real(1);
    }
    if (next() % 50 == 0) r.w[4 * v + next() % 4] = std::nan("");  // one NaN source per vertex at most
  }
  return r;
}

std::size_t bit_mismatches(const RandomRig& r, const std::vector<Vec2>& out, bool float32) {
  std::size_t bad = 0;
  for (std::size_t v = 0; v < r.verts.size(); ++v) {
    const Vec2 e = engine_skin(r.verts[v], &r.idx[4 * v], &r.w[4 * v], r.mats, float32);
    if (std::memcmp(&e, &out[v], sizeof e) != 0) {
      CAPTURE(v, e.x, e.y, out[v].x, out[v].y);
      CHECK(false);
      ++bad;
    }
  }
  return bad;
}

}  // namespace

TEST_CASE("lbs: every kernel equals the engine's scalar expression bit for bit on random rigs", "[skin]") {
  // In double before the float32 store too: that rounding would hide most changes of evaluation order.
  const bool wide = detail::skin_kernel_available(detail::SkinKernel::avx512);
  if (!wide) WARN("this CPU has no AVX-512: only the portable kernel and skin_vertices are compared");
  std::vector<detail::SkinKernel> kernels{detail::SkinKernel::portable};
  if (wide) kernels.push_back(detail::SkinKernel::avx512);
  std::uint32_t seed = 7;
  std::size_t vertices = 0, nans = 0;
  for (const std::size_t bones : {0u, 1u, 5u, 8u, 9u, 16u, 17u, 20u, 24u, 25u, 31u, 32u, 33u, 40u}) {
    for (const std::size_t n : {0u, 1u, 7u, 8u, 9u, 63u, 300u}) {
      CAPTURE(bones, n);
      const RandomRig r = random_rig(bones, n, ++seed);
      std::vector<Vec2> out(n);
      for (const detail::SkinKernel kernel : kernels) {
        for (const bool float32 : {true, false}) {
          CAPTURE(static_cast<int>(kernel), float32);
          std::fill(out.begin(), out.end(), Vec2{7, 7});
          detail::skin_with(kernel, r.verts.data(), r.idx.data(), r.w.data(), r.mats.data(), r.mats.size(),
                            out.data(), n, float32);
          CHECK(bit_mismatches(r, out, float32) == 0);
        }
      }
      std::fill(out.begin(), out.end(), Vec2{7, 7});
      skin_vertices(r.verts, r.idx, r.w, r.mats, out);
      CHECK(bit_mismatches(r, out, true) == 0);
      vertices += n;
      for (const Vec2& p : out) nans += std::isnan(p.x) ? 1 : 0;
    }
  }
  CHECK(vertices == 14 * 388);
  CHECK(nans > 0);  // the NaN weights did reach the comparison
}

TEST_CASE("lbs: the dispatched kernel is AVX-512 exactly when the CPU has it", "[skin]") {
  const bool wide = detail::skin_kernel_available(detail::SkinKernel::avx512);
  CHECK(detail::best_skin_kernel() == (wide ? detail::SkinKernel::avx512 : detail::SkinKernel::portable));
  CHECK(detail::skin_kernel_available(detail::SkinKernel::portable));
}
