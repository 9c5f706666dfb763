// SPDX-License-Identifier: Apache-2.0
// The heat solve's sparse system, assembled in place. Internal.
#pragma once

#include <Eigen/Sparse>
#include <span>
#include <vector>

#include "weights/mesh_graph.h"

namespace rig2d::detail {

// A = -L + diag(source): the cotangent stiffness of the solver mesh (g.triangles; each triangle's
// cotangents scaled down together when one exceeds max_cot) plus the heat-source term, and the
// lumped vertex masses (a third of each triangle's area). Assembled straight into Eigen's compressed
// columns over the mesh graph's pattern (each vertex and its edge neighbours), adding every term to
// its entry in the order Eigen's setFromTriplets would sum the same triplets (triangle by triangle,
// corner by corner: (i, j), (j, i), (i, i), (j, j); the sources last), so every entry has the same
// bits without the triplet list, its sort and its transposed copy.
class HeatSystem {
 public:
  HeatSystem(std::span<const Vec2> verts, const MeshGraph& g, double max_cot);
  const std::vector<double>& mass() const { return mass_; }
  // The system with `source` added to the diagonal; once.
  Eigen::SparseMatrix<double> with_sources(std::span<const double> source);

 private:
  int slot(std::uint32_t row, std::uint32_t col) const;

  std::vector<int> outer_, inner_;
  std::vector<double> values_, mass_;
  std::vector<int> diagonal_;  // per column: the slot of its diagonal entry
};

}  // namespace rig2d::detail
