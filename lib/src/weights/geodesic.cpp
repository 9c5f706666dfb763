// SPDX-License-Identifier: Apache-2.0
#include "weights/geodesic.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rig2d::detail {
namespace {

constexpr std::uint32_t kNotQueued = std::numeric_limits<std::uint32_t>::max();

// A binary heap holding each reached vertex once, keyed by its current distance: a shorter path moves
// it up in place (no stale copies to push, pop and skip). The order is (distance, vertex), a strict
// total order on the queued vertices, so vertices settle in the same order as any priority queue on
// that pair would give them, and so does every distance.
class VertexHeap {
 public:
  VertexHeap(std::span<const double> key, GeodesicScratch& s) : key_(key), heap_(s.heap), place_(s.place) {}

  bool empty() const { return heap_.empty(); }
  // v's key was just lowered (or set, when v is not queued yet).
  void lowered(std::uint32_t v) {
    if (place_[v] == kNotQueued) {
      place_[v] = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back(v);
    }
    up(place_[v]);
  }
  std::uint32_t pop() {
    const std::uint32_t top = heap_.front();
    place_[top] = kNotQueued;
    const std::uint32_t last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_.front() = last;
      place_[last] = 0;
      down(0);
    }
    return top;
  }

 private:
  bool before(std::uint32_t a, std::uint32_t b) const {
    return key_[a] < key_[b] || (!(key_[b] < key_[a]) && a < b);
  }
  void set(std::size_t i, std::uint32_t v) {
    heap_[i] = v;
    place_[v] = static_cast<std::uint32_t>(i);
  }
  void up(std::size_t i) {
    const std::uint32_t v = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!before(v, heap_[parent])) break;
      set(i, heap_[parent]);
      i = parent;
    }
    set(i, v);
  }
  void down(std::size_t i) {
    const std::uint32_t v = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], v)) break;
      set(i, heap_[child]);
      i = child;
    }
    set(i, v);
  }

  std::span<const double> key_;
  std::vector<std::uint32_t>& heap_;
  std::vector<std::uint32_t>& place_;
};

}  // namespace

void geodesic_distances(const MeshGraph& g, std::span<const GeodesicSeed> seeds,
                        std::span<double> out, GeodesicScratch& scratch, std::span<const double> cutoff) {
  std::fill(out.begin(), out.end(), std::numeric_limits<double>::infinity());
  scratch.done.assign(g.vertex_count, 0);
  scratch.place.assign(g.vertex_count, kNotQueued);
  scratch.heap.clear();
  scratch.heap.reserve(g.vertex_count);  // each vertex is queued once at most: no growth mid-search
  VertexHeap heap(out, scratch);
  const bool bounded = !cutoff.empty();
  auto reach = [&](std::uint32_t v, double d) {
    if (d < out[v] && (!bounded || d <= cutoff[v])) {
      out[v] = d;
      heap.lowered(v);
    }
  };
  for (const GeodesicSeed& s : seeds) reach(s.vertex, s.distance);

  while (!heap.empty()) {
    const std::uint32_t u = heap.pop();
    const double du = out[u];
    scratch.done[u] = 1;
    for (std::uint32_t k = g.path_offsets[u]; k < g.path_offsets[u + 1]; ++k) {
      const std::uint32_t w = g.path_list[k];
      if (!scratch.done[w]) reach(w, du + g.path_length[k]);
    }
  }
}

}  // namespace rig2d::detail
