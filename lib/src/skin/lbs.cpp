// SPDX-License-Identifier: Apache-2.0
#include "rig2d/skin/lbs.h"

#include <algorithm>

namespace rig2d {

Vec2 skin_vertex(Vec2 p, const std::uint32_t* idx, const double* w, std::span<const Affine2> skin) {
  double ox = 0;
  double oy = 0;
  for (int k = 0; k < 4; ++k) {
    const double wk = w[k];
    if (wk == 0 || idx[k] >= skin.size()) continue;
    const Affine2& m = skin[idx[k]];
    ox += wk * (m.a * p.x + m.c * p.y + m.e);
    oy += wk * (m.b * p.x + m.d * p.y + m.f);
  }
  return {ox, oy};
}

void skin_vertices(std::span<const Vec2> bind, std::span<const std::uint32_t> skin_indices,
                   std::span<const double> skin_weights, std::span<const Affine2> skin, std::span<Vec2> out) {
  const std::size_t n =
      std::min({bind.size(), out.size(), skin_indices.size() / 4, skin_weights.size() / 4});
  for (std::size_t v = 0; v < n; ++v) {
    const Vec2 q = skin_vertex(bind[v], &skin_indices[4 * v], &skin_weights[4 * v], skin);
    out[v] = {round_to_float(q.x), round_to_float(q.y)};
  }
  for (std::size_t v = n; v < out.size(); ++v) out[v] = {};
}

}  // namespace rig2d
