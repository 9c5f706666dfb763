// SPDX-License-Identifier: Apache-2.0
#include "rig2d/geometry/grid_mesh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "rig2d/core/limits.h"

namespace rig2d {

Result<Mesh> generate_grid_mesh(const GridMeshOptions& options, const UvPredicate& is_inside) {
  // Math.max(1, Math.floor(x)): NaN stays NaN, and the engine's loops then run zero times.
  const double cols_d = std::floor(options.cols);
  const double rows_d = std::floor(options.rows);
  if (std::isnan(cols_d) || std::isnan(rows_d)) return Mesh{};
  const double cols_f = std::max(1.0, cols_d);
  const double rows_f = std::max(1.0, rows_d);
  const double vert_count = (cols_f + 1) * (rows_f + 1);
  const double index_count = 6 * cols_f * rows_f;
  if (!(vert_count <= static_cast<double>(kMaxVertices)) ||
      !(index_count <= static_cast<double>(kMaxTriangleIndices))) {
    return make_error("grid.too_large", "a " + std::to_string(cols_f) + " x " + std::to_string(rows_f) +
                                            " grid exceeds the mesh limits (" + std::to_string(kMaxVertices) +
                                            " vertices, " + std::to_string(kMaxTriangleIndices) + " indices)");
  }
  const auto cols = static_cast<std::uint32_t>(cols_f);
  const auto rows = static_cast<std::uint32_t>(rows_f);
  const double px = options.pivot_x;
  const double py = options.pivot_y;

  std::vector<std::uint8_t> keep(std::size_t(cols) * rows, 1);
  if (is_inside) {
    for (std::uint32_t r = 0; r < rows; ++r) {
      for (std::uint32_t c = 0; c < cols; ++c) {
        const double us[3] = {c / cols_f, (c + 1) / cols_f, (c + 0.5) / cols_f};
        const double vs[3] = {r / rows_f, (r + 1) / rows_f, (r + 0.5) / rows_f};
        bool hit = false;
        for (int i = 0; i < 3 && !hit; ++i) {
          for (int j = 0; j < 3 && !hit; ++j) hit = is_inside(us[i], vs[j]);
        }
        keep[std::size_t(r) * cols + c] = hit ? 1 : 0;
      }
    }
  }

  const std::uint32_t stride = cols + 1;
  std::vector<std::uint8_t> used(std::size_t(stride) * (rows + 1), 0);
  for (std::uint32_t r = 0; r < rows; ++r) {
    for (std::uint32_t c = 0; c < cols; ++c) {
      if (!keep[std::size_t(r) * cols + c]) continue;
      used[std::size_t(r) * stride + c] = used[std::size_t(r) * stride + c + 1] = 1;
      used[std::size_t(r + 1) * stride + c] = used[std::size_t(r + 1) * stride + c + 1] = 1;
    }
  }

  Mesh mesh;
  std::vector<std::uint32_t> remap(used.size(), 0);
  for (std::uint32_t r = 0; r <= rows; ++r) {
    for (std::uint32_t c = 0; c <= cols; ++c) {
      const std::size_t gi = std::size_t(r) * stride + c;
      if (!used[gi]) continue;
      remap[gi] = static_cast<std::uint32_t>(mesh.verts.size());
      const double u = c / cols_f;
      const double v = r / rows_f;
      mesh.verts.push_back({(u - px) * options.width, (v - py) * options.height});
      mesh.uvs.push_back({u, v});
    }
  }
  for (std::uint32_t r = 0; r < rows; ++r) {
    for (std::uint32_t c = 0; c < cols; ++c) {
      if (!keep[std::size_t(r) * cols + c]) continue;
      const std::uint32_t a = remap[std::size_t(r) * stride + c];
      const std::uint32_t b = remap[std::size_t(r) * stride + c + 1];
      const std::uint32_t d = remap[std::size_t(r + 1) * stride + c];
      const std::uint32_t e = remap[std::size_t(r + 1) * stride + c + 1];
      mesh.tris.insert(mesh.tris.end(), {a, d, b, b, d, e});
    }
  }
  return mesh;
}

}  // namespace rig2d
