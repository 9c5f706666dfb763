// SPDX-License-Identifier: Apache-2.0
#include "weights/heat_system.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace rig2d::detail {

// Column c holds rows c and its edge neighbours, ascending. -0.0 starts every entry: it is the exact
// identity of addition (-0 + x == x for every x, +0 and -0 included), so an entry's first term is
// kept as setFromTriplets keeps it.
HeatSystem::HeatSystem(std::span<const Vec2> verts, const MeshGraph& g, double max_cot)
    : mass_(g.vertex_count, 0) {
  const std::size_t n = g.vertex_count;
  outer_.resize(n + 1);
  inner_.reserve(g.nbr_list.size() + n);
  diagonal_.resize(n);
  for (std::size_t c = 0; c < n; ++c) {
    outer_[c] = static_cast<int>(inner_.size());
    const auto begin = g.nbr_list.begin() + g.nbr_offsets[c], end = g.nbr_list.begin() + g.nbr_offsets[c + 1];
    const auto at = std::lower_bound(begin, end, static_cast<std::uint32_t>(c));
    for (auto it = begin; it != at; ++it) inner_.push_back(static_cast<int>(*it));
    diagonal_[c] = static_cast<int>(inner_.size());
    inner_.push_back(static_cast<int>(c));
    for (auto it = at; it != end; ++it) inner_.push_back(static_cast<int>(*it));
  }
  outer_[n] = static_cast<int>(inner_.size());
  values_.assign(inner_.size(), -0.0);

  for (const auto& t : g.triangles) {
    const std::array<Vec2, 3> p{verts[t[0]], verts[t[1]], verts[t[2]]};
    const double area2 = std::abs(cross2(p[0], p[1], p[2]));
    std::array<double, 3> cot{};
    double largest = 0;
    for (int k = 0; k < 3; ++k) {  // cotangent of the angle at corner k
      const Vec2 e1{p[(k + 1) % 3].x - p[k].x, p[(k + 1) % 3].y - p[k].y};
      const Vec2 e2{p[(k + 2) % 3].x - p[k].x, p[(k + 2) % 3].y - p[k].y};
      cot[static_cast<std::size_t>(k)] = (e1.x * e2.x + e1.y * e2.y) / area2;
      largest = std::max(largest, std::abs(cot[static_cast<std::size_t>(k)]));
    }
    const double shrink = largest > max_cot ? max_cot / largest : 1.0;
    for (int k = 0; k < 3; ++k) {
      const double w = 0.5 * cot[static_cast<std::size_t>(k)] * shrink;
      const std::uint32_t i = t[(k + 1) % 3], j = t[(k + 2) % 3];
      values_[std::size_t(slot(i, j))] += -w;
      values_[std::size_t(slot(j, i))] += -w;
      values_[std::size_t(diagonal_[i])] += w;
      values_[std::size_t(diagonal_[j])] += w;
    }
    for (int k = 0; k < 3; ++k) mass_[t[k]] += area2 / 6;  // a third of the triangle's area
  }
}

int HeatSystem::slot(std::uint32_t row, std::uint32_t col) const {
  const int* begin = inner_.data() + outer_[col];
  const int* end = inner_.data() + outer_[col + 1];
  return static_cast<int>(std::find(begin, end, static_cast<int>(row)) - inner_.data());
}

Eigen::SparseMatrix<double> HeatSystem::with_sources(std::span<const double> source) {
  for (std::size_t v = 0; v < source.size(); ++v) values_[std::size_t(diagonal_[v])] += source[v];
  const auto n = static_cast<Eigen::Index>(mass_.size());
  Eigen::SparseMatrix<double> a(n, n);
  a.resizeNonZeros(static_cast<Eigen::Index>(values_.size()));
  std::copy(outer_.begin(), outer_.end(), a.outerIndexPtr());
  std::copy(inner_.begin(), inner_.end(), a.innerIndexPtr());
  std::copy(values_.begin(), values_.end(), a.valuePtr());
  return a;
}

}  // namespace rig2d::detail
