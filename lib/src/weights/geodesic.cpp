// SPDX-License-Identifier: Apache-2.0
#include "weights/geodesic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace rig2d::detail {

void geodesic_distances(const MeshGraph& g, std::span<const GeodesicSeed> seeds,
                        std::span<double> out, GeodesicScratch& scratch, std::span<const double> cutoff) {
  std::fill(out.begin(), out.end(), std::numeric_limits<double>::infinity());
  scratch.done.assign(g.vertex_count, 0);
  auto& heap = scratch.heap;
  heap.clear();
  // Min-heap on (distance, vertex).
  const auto later = std::greater<std::pair<double, std::uint32_t>>();
  const bool bounded = !cutoff.empty();
  auto push = [&](std::uint32_t v, double d) {
    if (d < out[v] && (!bounded || d <= cutoff[v])) {
      out[v] = d;
      heap.emplace_back(d, v);
      std::push_heap(heap.begin(), heap.end(), later);
    }
  };
  for (const GeodesicSeed& s : seeds) push(s.vertex, s.distance);

  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const auto [du, u] = heap.back();
    heap.pop_back();
    if (scratch.done[u] || du > out[u]) continue;
    scratch.done[u] = 1;
    for (std::uint32_t k = g.path_offsets[u]; k < g.path_offsets[u + 1]; ++k) {
      const std::uint32_t w = g.path_list[k];
      if (!scratch.done[w]) push(w, du + g.path_length[k]);
    }
  }
}

}  // namespace rig2d::detail
