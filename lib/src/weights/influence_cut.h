// SPDX-License-Identifier: Apache-2.0
// Per-vertex influence limiting without creases: keeps the K largest weights, ramped so a bone
// fades out before it is cut instead of dropping from a finite weight to zero.
#pragma once


#include <cstdint>
#include <span>
#include <vector>

namespace rig2d::detail {

// The K+1 largest weights of each vertex, fed one bone at a time.
class TopWeights {
 public:
  TopWeights(std::size_t vertex_count, int keep);  // keeps `keep` (= K + 1) entries per vertex
  // Bones must be offered in ascending index order, so equal weights rank by bone index. Inline: it
  // runs once per vertex and bone.
  void offer(std::size_t vertex, std::uint32_t bone, double weight) {
    if (!(weight > 0)) return;
    const std::size_t base = vertex * static_cast<std::size_t>(keep_);
    const int n = count_[vertex];
    // Strict comparisons: an equal weight from a later (higher-index) bone ranks after.
    if (n == keep_ && !(weight > weight_[base + static_cast<std::size_t>(n - 1)])) return;
    int pos = n == keep_ ? n - 1 : n;
    while (pos > 0 && weight > weight_[base + static_cast<std::size_t>(pos - 1)]) {
      bone_[base + static_cast<std::size_t>(pos)] = bone_[base + static_cast<std::size_t>(pos - 1)];
      weight_[base + static_cast<std::size_t>(pos)] = weight_[base + static_cast<std::size_t>(pos - 1)];
      --pos;
    }
    bone_[base + static_cast<std::size_t>(pos)] = bone;
    weight_[base + static_cast<std::size_t>(pos)] = weight;
    if (n < keep_) count_[vertex] = static_cast<std::uint8_t>(n + 1);
  }
  std::span<const std::uint32_t> bones(std::size_t vertex) const;
  std::span<const double> weights(std::size_t vertex) const;  // descending

 private:
  int keep_;
  std::vector<std::uint32_t> bone_;
  std::vector<double> weight_;
  std::vector<std::uint8_t> count_;
};

// Writes one vertex's 4 slots from its ranked weights (descending, > 0). With tau = max((K+1)-th
// weight, min_weight * sum of the top K), each of the top K becomes w * (1 - (tau / w)^4) (0 at
// w <= tau) and the rest is renormalized: the K-th reaches zero exactly where it swaps rank with the
// (K+1)-th, and a weight fades to zero as it nears min_weight, so neither cut leaves a step. The
// fade is confined to w < ~1.5 tau: weights well above the cut keep their ratios. When nothing
// survives (all ranked weights equal) the plain top K is kept. Empty input writes slot 0 =
// (fallback_bone, 1).
void cut_influences(std::span<const std::uint32_t> bones, std::span<const double> weights, int max_influences,
                    double min_weight, std::uint32_t fallback_bone, std::uint32_t* out_index, double* out_weight);

}  // namespace rig2d::detail
