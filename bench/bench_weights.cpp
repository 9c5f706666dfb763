// SPDX-License-Identifier: Apache-2.0
// Auto-weights: bone heat against the engine's joint scheme, one plain Laplacian solve and a lower
// bound on bounded biharmonic weights (BBW), on a 2k-vertex character mesh with 20 bones; plus the
// quality figures the tests bound (weight leaking between the legs of the two-leg shape, the largest
// step along a straight chain).
// Run: build with -DRIG2D_BUILD_BENCH=ON, then ./build/bench/bench_weights [repeats].
#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <span>
#include <vector>

#include "rig2d/skin/skeleton.h"
#include "rig2d/weights/bone_segments.h"
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

struct Timing {
  double best = 0;
  double median = 0;
};

template <typename F>
Timing time_runs(int repeats, F&& run) {
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    const double t0 = cpu_seconds();
    run();
    t.push_back(cpu_seconds() - t0);
  }
  std::sort(t.begin(), t.end());
  return {t.front(), t[t.size() / 2]};
}

template <typename F>
double best_time(int repeats, F&& run) {
  return time_runs(repeats, run).best;
}

// Cotangent Laplacian L (positive semi-definite: L = -Δ) as triplets, and the lumped barycentric
// mass of each vertex (a third of its triangles' area).
void cotangent_laplacian(const Mesh& m, std::vector<Eigen::Triplet<double>>& t, std::vector<double>& mass) {
  mass.assign(m.verts.size(), 0);
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
}

// One cotangent-Laplacian + mass factorization and a single solve: the floor any Laplacian-based
// weighting pays once.
double plain_laplacian_solve(const Mesh& m) {
  const auto n = static_cast<Eigen::Index>(m.verts.size());
  std::vector<Eigen::Triplet<double>> t;
  std::vector<double> mass;
  cotangent_laplacian(m, t, mass);
  for (Eigen::Index i = 0; i < n; ++i) t.emplace_back(static_cast<int>(i), static_cast<int>(i), mass[static_cast<std::size_t>(i)]);
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(a);
  const Eigen::VectorXd x = solver.solve(Eigen::VectorXd::Ones(n));
  return x[0];
}

// Handle vertices for bounded biharmonic weights: the vertex nearest to each point every `step` px
// along each bone segment (the segments heat weights use) belongs to that bone; a vertex two bones
// reach (a shared joint) stays with the first. -1 = free vertex.
std::vector<int> bone_handles(const Mesh& m, std::span<const Bone> bones, double step) {
  std::vector<int> owner(m.verts.size(), -1);
  for (const BoneSegment& s : bone_segments(bones, m)) {
    const int samples = 1 + static_cast<int>(std::ceil(std::hypot(s.b.x - s.a.x, s.b.y - s.a.y) / step));
    for (int k = 0; k <= samples; ++k) {
      const double f = static_cast<double>(k) / samples;
      const Vec2 q{s.a.x + f * (s.b.x - s.a.x), s.a.y + f * (s.b.y - s.a.y)};
      std::size_t best = 0;
      for (std::size_t v = 1; v < m.verts.size(); ++v)
        if (std::hypot(m.verts[v].x - q.x, m.verts[v].y - q.y) <
            std::hypot(m.verts[best].x - q.x, m.verts[best].y - q.y))
          best = v;
      if (owner[best] < 0) owner[best] = static_cast<int>(s.bone);
    }
  }
  return owner;
}

// The biharmonic energy matrix Q = L M^-1 L of bounded biharmonic weights (Jacobson et al. 2011).
Eigen::SparseMatrix<double> biharmonic_matrix(const Mesh& m) {
  const auto n = static_cast<Eigen::Index>(m.verts.size());
  std::vector<Eigen::Triplet<double>> t;
  std::vector<double> mass;
  cotangent_laplacian(m, t, mass);
  Eigen::SparseMatrix<double> l(n, n);
  l.setFromTriplets(t.begin(), t.end());
  Eigen::VectorXd inv_mass(n);
  for (Eigen::Index i = 0; i < n; ++i) inv_mass[i] = 1 / mass[static_cast<std::size_t>(i)];
  return l * inv_mass.asDiagonal() * l;
}

// Minimises x^T Q x with the vertices of `fixed` held at given values: Q over the free vertices is
// factored once, then each solve(values) is Q_ff x_f = -Q_fb x_b.
class FixedSolve {
 public:
  FixedSolve(const Eigen::SparseMatrix<double>& q, const std::vector<bool>& fixed)
      : fixed_(fixed), slot_(fixed.size()) {
    Eigen::Index free_count = 0, fixed_count = 0;
    for (std::size_t v = 0; v < fixed.size(); ++v) slot_[v] = fixed[v] ? fixed_count++ : free_count++;
    std::vector<Eigen::Triplet<double>> ff, fb;
    for (Eigen::Index c = 0; c < q.outerSize(); ++c)
      for (Eigen::SparseMatrix<double>::InnerIterator it(q, c); it; ++it) {
        const auto r = static_cast<std::size_t>(it.row()), col = static_cast<std::size_t>(c);
        if (!fixed[r])
          (fixed[col] ? fb : ff).emplace_back(static_cast<int>(slot_[r]), static_cast<int>(slot_[col]), it.value());
      }
    Eigen::SparseMatrix<double> q_ff(free_count, free_count);
    q_ff.setFromTriplets(ff.begin(), ff.end());
    q_fb_.resize(free_count, fixed_count);
    q_fb_.setFromTriplets(fb.begin(), fb.end());
    solver_.compute(q_ff);
    if (solver_.info() != Eigen::Success) std::exit(1);
  }

  // `values` gives every vertex's value; only the fixed ones are read.
  Eigen::VectorXd solve(const Eigen::VectorXd& values) const {
    Eigen::VectorXd b(q_fb_.cols());
    for (std::size_t v = 0; v < fixed_.size(); ++v)
      if (fixed_[v]) b[slot_[v]] = values[static_cast<Eigen::Index>(v)];
    const Eigen::VectorXd x = solver_.solve(-(q_fb_ * b));
    Eigen::VectorXd out = values;
    for (std::size_t v = 0; v < fixed_.size(); ++v)
      if (!fixed_[v]) out[static_cast<Eigen::Index>(v)] = x[slot_[v]];
    return out;
  }

 private:
  std::vector<bool> fixed_;
  std::vector<Eigen::Index> slot_;
  Eigen::SparseMatrix<double> q_fb_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver_;
};

struct Bbw {
  Eigen::MatrixXd unconstrained;  // n x bones: the biharmonic weights, BBW's initial guess
  Eigen::MatrixXd bounded;        // after the active-set iterations
  int iterations = 0;             // active-set iterations over all bones (one factorization each)
  int most_iterations = 0;        // of one bone
};

// Bounded biharmonic weights the way libigl's bbw computes them: Q; handles fixed to 1 for the bone,
// 0 for the others, one factorization and one solve per bone (the unconstrained weights); then per
// bone an active-set QP for 0 <= w <= 1, each iteration fixing the vertices that broke a bound to it,
// releasing those whose multiplier has the wrong sign, one factorization and one solve, until the
// weights stop changing. Partition of unity is not enforced (libigl normalizes afterwards).
// With max_iterations = 1 this is a lower bound on libigl's work: its active set runs at least one
// iteration for every bone (it only stops when an iteration changed nothing).
Bbw bounded_biharmonic(const Mesh& m, const std::vector<int>& owner, std::size_t bone_count, int max_iterations) {
  const auto n = static_cast<Eigen::Index>(m.verts.size());
  const Eigen::SparseMatrix<double> q = biharmonic_matrix(m);
  std::vector<bool> handle(owner.size());
  for (std::size_t v = 0; v < owner.size(); ++v) handle[v] = owner[v] >= 0;
  const FixedSolve first(q, handle);
  Bbw r;
  r.unconstrained.resize(n, static_cast<Eigen::Index>(bone_count));
  for (std::size_t b = 0; b < bone_count; ++b) {
    Eigen::VectorXd values = Eigen::VectorXd::Zero(n);
    for (std::size_t v = 0; v < owner.size(); ++v)
      values[static_cast<Eigen::Index>(v)] = owner[v] == static_cast<int>(b);
    r.unconstrained.col(static_cast<Eigen::Index>(b)) = first.solve(values);
  }
  r.bounded = r.unconstrained;
  for (Eigen::Index b = 0; b < r.bounded.cols(); ++b) {
    Eigen::VectorXd z = r.bounded.col(b), previous;
    std::vector<signed char> bound(owner.size(), 0);  // -1 held at 0, +1 held at 1
    int it = 0;
    for (; it < max_iterations; ++it) {
      for (Eigen::Index v = 0; v < n; ++v)
        if (z[v] < 0 || z[v] > 1) bound[static_cast<std::size_t>(v)] = z[v] < 0 ? -1 : 1;
      if (it > 0 && (z - previous).squaredNorm() < 1e-14) break;
      previous = z;
      std::vector<bool> fixed = handle;
      for (Eigen::Index v = 0; v < n; ++v) {
        const auto i = static_cast<std::size_t>(v);
        if (handle[i] || bound[i] == 0) continue;
        fixed[i] = true;
        z[v] = bound[i] < 0 ? 0 : 1;
      }
      z = FixedSolve(q, fixed).solve(z);
      // The multiplier of a held vertex: the bound holds it while the energy's gradient pushes into it.
      const Eigen::VectorXd gradient = q * z;
      for (Eigen::Index v = 0; v < n; ++v) {
        signed char& s = bound[static_cast<std::size_t>(v)];
        if ((s < 0 && gradient[v] < 0) || (s > 0 && gradient[v] > 0)) s = 0;
      }
    }
    r.bounded.col(b) = z;
    r.iterations += it;
    r.most_iterations = std::max(r.most_iterations, it);
  }
  return r;
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
  const Timing heat = time_runs(repeats, [&] {
    auto r = compute_heat_weights(mesh, bones);
    if (!r) std::exit(1);
    stats = r->stats;
    sink += r->weights.weights[0];
  });
  const double t_heat = heat.best;
  HeatWeightsOptions smooth;
  smooth.smooth_passes = 4;
  const double t_smooth = best_time(repeats, [&] { sink += compute_heat_weights(mesh, bones, smooth)->weights.weights[0]; });

  std::printf("joint (engine)          %8.3f ms\n", t_joint * 1e3);
  std::printf("plain Laplacian solve   %8.3f ms  (factorize + 1 solve)\n", t_lap * 1e3);
  std::printf("heat                    %8.3f ms  = %.1fx joint, %.1fx one Laplacian solve (%zu bones solved)\n",
              t_heat * 1e3, t_heat / t_joint, t_heat / t_lap, stats.solved_bones);
  std::printf("heat, 4 smooth passes   %8.3f ms  = %.1fx joint\n", t_smooth * 1e3, t_smooth / t_joint);

  // Bounded biharmonic weights on the same mesh and bones. The handles (every half cell along the
  // bones) are BBW's input, so not timed; every bone must get some.
  const std::vector<int> owner = bone_handles(mesh, bones, 1.5);
  for (std::size_t b = 0; b < bones.size(); ++b)
    if (std::find(owner.begin(), owner.end(), static_cast<int>(b)) == owner.end()) return 1;
  Bbw lower, full;
  const Timing t_lower = time_runs(repeats, [&] { lower = bounded_biharmonic(mesh, owner, bones.size(), 1); });
  const Timing t_full =
      time_runs(std::max(1, repeats / 4), [&] { full = bounded_biharmonic(mesh, owner, bones.size(), 100); });
  const Eigen::MatrixXd& w = lower.unconstrained;
  Eigen::Index outside = 0;
  for (Eigen::Index v = 0; v < w.rows(); ++v) outside += (w.row(v).array() < 0).any() || (w.row(v).array() > 1).any();
  const auto free_count = std::count(owner.begin(), owner.end(), -1);
  bool handles_exact = true;
  for (std::size_t v = 0; v < owner.size(); ++v)
    for (Eigen::Index b = 0; b < w.cols() && owner[v] >= 0; ++b)
      handles_exact = handles_exact && w(static_cast<Eigen::Index>(v), b) == (owner[v] == b ? 1.0 : 0.0);
  std::printf(
      "BBW lower bound         %8.3f ms  (median %.3f; Q = L M^-1 L, %td free vertices, %td handles; "
      "factorize + %zu solves, then 1 active-set iteration per bone: %d factorizations)\n",
      t_lower.best * 1e3, t_lower.median * 1e3, free_count, w.rows() - free_count, bones.size(), lower.iterations);
  std::printf(
      "  heat / BBW lower bound %.3f (best), %.3f (median): heat is >= %.1fx (best), %.1fx (median) faster than BBW\n",
      heat.best / t_lower.best, heat.median / t_lower.median, t_lower.best / heat.best, t_lower.median / heat.median);
  std::printf(
      "  unconstrained biharmonic weights: min %.4f, max %.4f, %td of %td vertices outside [0,1], "
      "|row sum - 1| <= %.1e, handles exactly 1/0: %s\n",
      w.minCoeff(), w.maxCoeff(), outside, w.rows(), (w.rowwise().sum().array() - 1).abs().maxCoeff(),
      handles_exact ? "yes" : "NO");
  std::printf(
      "BBW, active set run out %8.3f ms  (median %.3f; %d iterations, at most %d per bone) = %.1fx heat (an estimate, "
      "not a bound)\n",
      t_full.best * 1e3, t_full.median * 1e3, full.iterations, full.most_iterations, t_full.best / heat.best);
  std::printf("  bounded weights: min %.4f, max %.4f, row sums %.3f..%.3f before normalizing\n",
              full.bounded.minCoeff(), full.bounded.maxCoeff(), full.bounded.rowwise().sum().minCoeff(),
              full.bounded.rowwise().sum().maxCoeff());

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
