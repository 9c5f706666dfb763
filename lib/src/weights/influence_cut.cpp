// SPDX-License-Identifier: Apache-2.0
#include "weights/influence_cut.h"

#include <algorithm>

namespace rig2d::detail {

TopWeights::TopWeights(std::size_t vertex_count, int keep)
    : keep_(keep),
      bone_(vertex_count * static_cast<std::size_t>(keep), 0),
      weight_(vertex_count * static_cast<std::size_t>(keep), 0),
      count_(vertex_count, 0) {}

std::span<const std::uint32_t> TopWeights::bones(std::size_t vertex) const {
  return {bone_.data() + vertex * static_cast<std::size_t>(keep_), count_[vertex]};
}

std::span<const double> TopWeights::weights(std::size_t vertex) const {
  return {weight_.data() + vertex * static_cast<std::size_t>(keep_), count_[vertex]};
}

void cut_influences(std::span<const std::uint32_t> bones, std::span<const double> weights, int max_influences,
                    double min_weight, std::uint32_t fallback_bone, std::uint32_t* out_index, double* out_weight) {
  for (int k = 0; k < 4; ++k) {
    out_index[k] = 0;
    out_weight[k] = 0;
  }
  if (weights.empty()) {
    out_index[0] = fallback_bone;
    out_weight[0] = 1;
    return;
  }
  const std::size_t kept = std::min(weights.size(), static_cast<std::size_t>(max_influences));
  double top_sum = 0;
  for (std::size_t k = 0; k < kept; ++k) top_sum += weights[k];
  const double next = weights.size() > kept ? weights[kept] : 0.0;
  const double tau = std::max(next, min_weight * top_sum);

  // Why a fourth-power fade and not w - tau: far from a long chain five or more bones carry similar
  // weights, and subtracting the 5th from all of them sharpened those broad blends into narrow ones,
  // which fold when every joint bends (a 6-bone chain at +-60 degrees flipped 2% of a round body's
  // triangles instead of 1%). The fade only touches weights within ~1.5 tau of the cut.
  double ramped[4] = {0, 0, 0, 0};
  double sum = 0;
  for (std::size_t k = 0; k < kept; ++k) {
    if (weights[k] > tau) {
      const double r2 = (tau / weights[k]) * (tau / weights[k]);
      ramped[k] = weights[k] * (1 - r2 * r2);
    }
    sum += ramped[k];
  }
  if (!(sum > 0)) {  // every ranked weight equal: no order to ramp by, keep the plain top K
    for (std::size_t k = 0; k < kept; ++k) ramped[k] = weights[k];
    sum = top_sum;
  }
  int slot = 0;
  for (std::size_t k = 0; k < kept; ++k) {
    if (!(ramped[k] > 0)) continue;
    out_index[slot] = bones[k];
    out_weight[slot] = ramped[k] / sum;
    ++slot;
  }
}

}  // namespace rig2d::detail
