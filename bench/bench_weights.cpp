// SPDX-License-Identifier: Apache-2.0
// Auto-weights: bone heat against the engine's joint scheme and against one plain Laplacian solve,
// on a 2k-vertex character mesh with 20 bones; plus the quality figures the tests bound (weight
// leaking between the legs of the two-leg shape, the largest step along a straight chain).
// Run: build with -DRIG2D_BUILD_BENCH=ON, then ./build/bench/bench_weights [repeats].
#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "rig2d/skin/skeleton.h"
#include "rig2d/weights/heat_weights.h"
#include "rig2d/weights/joint_weights.h"

using namespace rig2d;

namespace {

// Grid mesh over [-w/2, w/2] x [-h/2, h/2], cells kept when `inside` holds at their centre.
Mesh grid_mesh(double w, double h, double cell, const std::function<bool(double, double)>& inside) {
  const int cols = static_cast<int>(std::lround(w / cell));
  const int rows = static_cast<int>(std::lround(h / cell));
  std::vector<int> index(static_cast<std::size_t>((cols + 1) * (rows + 1)), -1);
  Mesh m;
  auto vertex = [&](int r, int c) {
    int& i = index[static_cast<std::size_t>(r * (cols + 1) + c)];
    if (i < 0) {
      i = static_cast<int>(m.verts.size());
      m.verts.push_back({-w / 2 + c * cell, -h / 2 + r * cell});
    }
    return static_cast<std::uint32_t>(i);
  };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      if (!inside(-w / 2 + (c + 0.5) * cell, -h / 2 + (r + 0.5) * cell)) continue;
      const auto a = vertex(r, c), b = vertex(r, c + 1), d = vertex(r + 1, c), e = vertex(r + 1, c + 1);
      m.tris.insert(m.tris.end(), {a, d, b, b, d, e});
    }
  m.uvs.assign(m.verts.size(), {});
  return m;
}

double segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  const double t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0) : 0.0;
  return std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}

// A 20-bone character: spine of 5 (pelvis..head), two arms of 4, two legs of 3, and a tail.
std::vector<Bone> character_bones() {
  return {
      {"pelvis", -1, 0, 40, 0},  {"spine1", 0, 0, -30, 0},   {"spine2", 1, 0, -30, 0},  {"neck", 2, 0, -30, 0},
      {"head", 3, 0, -20, 0},    {"shoulder_l", 2, -20, 0, 0}, {"arm_l", 5, -25, 0, 0},  {"fore_l", 6, -30, 0, 0},
      {"hand_l", 7, -25, 0, 0},  {"shoulder_r", 2, 20, 0, 0}, {"arm_r", 9, 25, 0, 0},    {"fore_r", 10, 30, 0, 0},
      {"hand_r", 11, 25, 0, 0},  {"thigh_l", 0, -18, 10, 0},  {"shin_l", 13, 0, 45, 0},  {"foot_l", 14, 0, 40, 0},
      {"thigh_r", 0, 18, 10, 0}, {"shin_r", 16, 0, 45, 0},    {"foot_r", 17, 0, 40, 0},  {"tail", 0, 0, 15, 0},
  };
}

// The character's silhouette: capsules of radius 13 px around every parent-child link, a head disk.
bool character_inside(const std::vector<Vec2>& joints, const std::vector<Bone>& bones, double x, double y) {
  const Vec2 p{x, y};
  for (std::size_t b = 0; b < bones.size(); ++b) {
    if (bones[b].parent < 0) continue;
    if (segment_distance(p, joints[static_cast<std::size_t>(bones[b].parent)], joints[b]) < 13) return true;
  }
  return std::hypot(x - joints[4].x, y - joints[4].y - (-12)) < 22;
}

// Best of `repeats` runs, seconds of CPU time: the machine is shared, and wall time would count the
// time other processes hold the core. (Single-threaded code: CPU time == the time it needs.)
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

template <typename F>
double best_time(int repeats, F&& run) {
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    const double t0 = cpu_seconds();
    run();
    best = std::min(best, cpu_seconds() - t0);
  }
  return best;
}

// One cotangent-Laplacian + mass factorization and a single solve: the floor any Laplacian-based
// weighting pays once.
double plain_laplacian_solve(const Mesh& m) {
  const auto n = static_cast<Eigen::Index>(m.verts.size());
  std::vector<Eigen::Triplet<double>> t;
  std::vector<double> mass(m.verts.size(), 0);
  for (std::size_t i = 0; i + 2 < m.tris.size(); i += 3) {
    const std::uint32_t v[3] = {m.tris[i], m.tris[i + 1], m.tris[i + 2]};
    const Vec2 p[3] = {m.verts[v[0]], m.verts[v[1]], m.verts[v[2]]};
    const double area2 = std::abs((p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x));
    for (int k = 0; k < 3; ++k) {
      const Vec2 a = p[k], b = p[(k + 1) % 3], c = p[(k + 2) % 3];
      const double cot = ((b.x - a.x) * (c.x - a.x) + (b.y - a.y) * (c.y - a.y)) / area2;
      const int i1 = static_cast<int>(v[(k + 1) % 3]), i2 = static_cast<int>(v[(k + 2) % 3]);
      t.emplace_back(i1, i2, -0.5 * cot);
      t.emplace_back(i2, i1, -0.5 * cot);
      t.emplace_back(i1, i1, 0.5 * cot);
      t.emplace_back(i2, i2, 0.5 * cot);
      mass[v[k]] += area2 / 6;
    }
  }
  for (Eigen::Index i = 0; i < n; ++i) t.emplace_back(static_cast<int>(i), static_cast<int>(i), mass[static_cast<std::size_t>(i)]);
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(a);
  const Eigen::VectorXd x = solver.solve(Eigen::VectorXd::Ones(n));
  return x[0];
}

double weight_of(const SkinWeights& w, std::size_t v, std::uint32_t bone) {
  double s = 0;
  for (std::size_t k = 0; k < 4; ++k)
    if (w.indices[v * 4 + k] == bone && w.weights[v * 4 + k] > 0) s += w.weights[v * 4 + k];
  return s;
}

// Mean weight of left-leg bones (1..3) on right-leg vertices of the two-leg test shape.
double two_leg_leak(const Mesh& m, const SkinWeights& w) {
  double total = 0;
  int n = 0;
  for (std::size_t v = 0; v < m.verts.size(); ++v) {
    if (!(m.verts[v].x > 0 && m.verts[v].y > -20)) continue;
    ++n;
    for (std::uint32_t b = 1; b <= 3; ++b) total += weight_of(w, v, b);
  }
  return total / n;
}

// Largest change of any bone's weight between vertically adjacent vertices of a 32 x 192 bar.
double chain_max_step(const Mesh& m, const SkinWeights& w) {
  double worst = 0;
  for (std::size_t v = 0; v < m.verts.size(); ++v)
    for (std::size_t u = 0; u < m.verts.size(); ++u) {
      if (m.verts[u].x != m.verts[v].x || m.verts[u].y != m.verts[v].y - 4) continue;
      for (std::uint32_t b = 0; b < 3; ++b) worst = std::max(worst, std::abs(weight_of(w, v, b) - weight_of(w, u, b)));
    }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;

  const std::vector<Bone> bones = character_bones();
  const std::vector<Vec2> joints = joint_positions(bones);
  const Mesh mesh = grid_mesh(260, 300, 3, [&](double x, double y) { return character_inside(joints, bones, x, y); });
  std::printf("mesh: %zu vertices, %zu triangles, %zu bones (best CPU time of %d runs)\n", mesh.verts.size(),
              mesh.tris.size() / 3, bones.size(), repeats);

  double sink = 0;
  const double t_joint = best_time(repeats, [&] { sink += compute_joint_weights(mesh.verts, bones).weights[0]; });
  const double t_lap = best_time(repeats, [&] { sink += plain_laplacian_solve(mesh); });
  HeatWeightsStats stats;
  const double t_heat = best_time(repeats, [&] {
    auto r = compute_heat_weights(mesh, bones);
    if (!r) std::exit(1);
    stats = r->stats;
    sink += r->weights.weights[0];
  });
  HeatWeightsOptions smooth;
  smooth.smooth_passes = 4;
  const double t_smooth = best_time(repeats, [&] { sink += compute_heat_weights(mesh, bones, smooth)->weights.weights[0]; });

  std::printf("joint (engine)          %8.3f ms\n", t_joint * 1e3);
  std::printf("plain Laplacian solve   %8.3f ms  (factorize + 1 solve)\n", t_lap * 1e3);
  std::printf("heat                    %8.3f ms  = %.1fx joint, %.1fx one Laplacian solve (%zu bones solved)\n",
              t_heat * 1e3, t_heat / t_joint, t_heat / t_lap, stats.solved_bones);
  std::printf("heat, 4 smooth passes   %8.3f ms  = %.1fx joint\n", t_smooth * 1e3, t_smooth / t_joint);

  // Quality figures on the shapes the unit tests use.
  auto legs = [](double x, double y) {
    if (x < -40 || x > 40 || y < -60 || y > 60) return false;
    return y < -20 || std::abs(x) > 10;
  };
  const Mesh two_leg = grid_mesh(80, 120, 4, legs);
  const std::vector<Bone> leg_bones{{"pelvis", -1, 0, -45, 0}, {"hip_l", 0, -25, 20, 0}, {"knee_l", 1, 0, 40, 0},
                                    {"foot_l", 2, 0, 40, 0},   {"hip_r", 0, 25, 20, 0},  {"knee_r", 4, 0, 40, 0},
                                    {"foot_r", 5, 0, 40, 0}};
  std::printf("two-leg shape, left-leg bones on right-leg vertices: heat %.4f%%, joint %.4f%%\n",
              100 * two_leg_leak(two_leg, compute_heat_weights(two_leg, leg_bones)->weights),
              100 * two_leg_leak(two_leg, compute_joint_weights(two_leg.verts, leg_bones)));
  const Mesh bar = grid_mesh(32, 192, 4, [](double, double) { return true; });
  const std::vector<Bone> chain{{"root", -1, 0, -96, 0}, {"bone1", 0, 0, 96, 0}, {"bone2", 1, 0, 96, 0}};
  std::printf("3-bone chain, largest weight step between 4 px rows: heat %.3f, joint %.3f\n",
              chain_max_step(bar, compute_heat_weights(bar, chain)->weights),
              chain_max_step(bar, compute_joint_weights(bar.verts, chain)));
  return sink == 12345.678 ? 1 : 0;
}
