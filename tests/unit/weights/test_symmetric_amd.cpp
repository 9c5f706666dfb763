// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <cstdint>
#include <cstring>
#include <vector>

#include "weights/symmetric_amd.h"

namespace {

// A random symmetric matrix over n unknowns: a diagonal, a band (mesh-like neighbours) and scattered
// pairs, made as the heat solve makes its system (triplets for both triangles).
Eigen::SparseMatrix<double> symmetric_amd_random_system(int n, std::uint64_t seed) {
  auto next = [&seed] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  std::vector<Eigen::Triplet<double>> t;
  std::vector<double> row_sum(std::size_t(n), 1.0);  // a dominant diagonal: positive definite, as the heat system
  for (int i = 0; i < n; ++i) {
    const int links = 1 + static_cast<int>(next() % 4);
    for (int k = 0; k < links; ++k) {
      const bool near = next() % 4 != 0;
      const int j = near ? (i + 1 + static_cast<int>(next() % 12)) % n : static_cast<int>(next() % std::uint64_t(n));
      if (j == i) continue;
      const double w = -0.25 * static_cast<double>(1 + next() % 7);
      t.emplace_back(i, j, w);
      t.emplace_back(j, i, w);
      row_sum[std::size_t(i)] -= w;
      row_sum[std::size_t(j)] -= w;
    }
  }
  for (int i = 0; i < n; ++i) t.emplace_back(i, i, row_sum[std::size_t(i)]);
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  return a;
}

}  // namespace

TEST_CASE("heat ordering: the same permutation and factor as Eigen's AMD ordering", "[weights][heat]") {
  int compared = 0;
  for (const int n : {3, 17, 40, 200, 1000, 3000}) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const Eigen::SparseMatrix<double> a = symmetric_amd_random_system(n, seed * 0x9E3779B97F4A7C15ull + 7);
      // What SimplicialLDLT hands its ordering: the full matrix made from the lower triangle.
      Eigen::SparseMatrix<double> full;
      full = a.selfadjointView<Eigen::Lower>();
      REQUIRE(rig2d::detail::SymmetricAmdOrdering::rows_sorted(full));
      Eigen::AMDOrdering<int>::PermutationType want, got, got_unsorted;
      Eigen::AMDOrdering<int>()(full, want);
      rig2d::detail::SymmetricAmdOrdering()(full, got);
      CHECK(got.indices() == want.indices());
      // The transposing fallback gives the same permutation.
      Eigen::SparseMatrix<double> uncompressed = full;
      uncompressed.uncompress();
      rig2d::detail::SymmetricAmdOrdering()(uncompressed, got_unsorted);
      CHECK(got_unsorted.indices() == want.indices());
      // And through the solver, the factor's solution is bit for bit Eigen's.
      Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> eigen_solver(a);
      Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, rig2d::detail::SymmetricAmdOrdering> ours(a);
      Eigen::VectorXd rhs = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
      const Eigen::VectorXd x0 = eigen_solver.solve(rhs), x1 = ours.solve(rhs);
      CHECK(ours.info() == Eigen::Success);
      CAPTURE(n, seed);
      REQUIRE(eigen_solver.info() == Eigen::Success);
      CHECK(std::memcmp(x0.data(), x1.data(), sizeof(double) * std::size_t(n)) == 0);
      ++compared;
    }
  }
  CHECK(compared == 36);
}
