// SPDX-License-Identifier: Apache-2.0
// The heat solve's fill-reducing ordering. Internal.
#pragma once

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

namespace rig2d::detail {

// Eigen's AMDOrdering without its A + A^T. SimplicialLDLT hands its ordering the system's full
// symmetric matrix (both triangles, made from one of them), whose pattern A + A^T only copies: the
// same column pointers and sorted row indices reach the same minimum-degree routine, so the
// permutation, and every weight solved with it, stay bit for bit, without the transpose, the zeroing
// pass and the sparse sum. A pattern whose rows are out of order (never from the solver) takes the
// transpose, which sorts them.
struct SymmetricAmdOrdering {
  using PermutationType = Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>;

  void operator()(const Eigen::SparseMatrix<double>& full, PermutationType& perm) const {
    Eigen::SparseMatrix<double> pattern;
    if (full.isCompressed() && rows_sorted(full)) {
      pattern = full;
    } else {
      pattern = full.transpose();
    }
    Eigen::internal::minimum_degree_ordering(pattern, perm);
  }

  static bool rows_sorted(const Eigen::SparseMatrix<double>& m) {
    const int* outer = m.outerIndexPtr();
    const int* inner = m.innerIndexPtr();
    for (Eigen::Index c = 0; c < m.outerSize(); ++c)
      for (int k = outer[c] + 1; k < outer[c + 1]; ++k)
        if (inner[k - 1] >= inner[k]) return false;
    return true;
  }
};

}  // namespace rig2d::detail
