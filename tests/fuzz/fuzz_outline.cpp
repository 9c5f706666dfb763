// SPDX-License-Identifier: Apache-2.0
// Outline meshing from arbitrary bytes. Byte 0 picks the target and options:
//  - even: the bytes are rings of points on a small lattice (byte pairs; 0xFF ends a ring), so
//    duplicates, collinear runs, spikes and crossings are the norm -> triangulate_polygons;
//  - odd: a w x h alpha image (w, h from bytes 1-2, at most 48 x 48) -> outline_mesh.
// Always a valid mesh (or outline.empty for an image with nothing to mesh): indices in range, every
// triangle strictly CCW with y down (exact predicate), finite vertices; for outline meshes also uvs in
// [0, 1] and the grid's texture space.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "geometry/predicates.h"
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/geometry/triangulate.h"

namespace {

void check(const std::vector<rig2d::Vec2>& v, const std::vector<std::uint32_t>& tris) {
  if (tris.size() % 3 != 0) std::abort();
  for (const rig2d::Vec2& p : v)
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) std::abort();
  for (std::size_t t = 0; t < tris.size(); t += 3) {
    if (tris[t] >= v.size() || tris[t + 1] >= v.size() || tris[t + 2] >= v.size()) std::abort();
    if (!(rig2d::detail::orient2d(v[tris[t]], v[tris[t + 1]], v[tris[t + 2]]) < 0)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3 || size > 4096) return 0;
  const std::uint8_t knobs = data[0];
  if ((knobs & 1) == 0) {
    std::vector<rig2d::Ring> rings(1);
    const double scale = (knobs & 2) ? 1.0 : 1.0 / 7.0;  // integer lattice, or a non-representable step
    for (std::size_t i = 1; i + 1 < size; i += 2) {
      if (data[i] == 0xFF) {
        rings.emplace_back();
        --i;
        continue;
      }
      rings.back().push_back({(data[i] % 32) * scale, (data[i + 1] % 32) * scale});
    }
    rig2d::TriangulateOptions opt;
    opt.fill = (knobs & 4) ? rig2d::FillRule::OutlineMinusHoles : rig2d::FillRule::EvenOdd;
    opt.refine = (knobs & 8) != 0;
    opt.max_edge = (knobs & 16) ? 2.0 : 0.0;
    opt.max_vertices = 2000;
    auto mesh = rig2d::triangulate_polygons(rings, opt);
    if (!mesh) {
      // Lattice rings are finite and small: the only possible error is a recovery failure, a bug.
      std::abort();
    }
    check(mesh->vertices, mesh->triangles);
    return 0;
  }
  const int w = 1 + data[1] % 48, h = 1 + data[2] % 48;
  rig2d::Image im;
  im.width = w;
  im.height = h;
  im.rgba.assign(4ull * static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 255);
  for (std::size_t i = 0; i < static_cast<std::size_t>(w) * static_cast<std::size_t>(h); ++i)
    im.rgba[4 * i + 3] = 3 + i < size ? data[3 + i] : 0;
  rig2d::OutlineMeshOptions opt;
  opt.margin = (knobs & 2) ? 0.0 : 1.0 + (knobs >> 5);
  opt.tolerance = (knobs & 4) ? 0.0 : 0.5;
  opt.max_edge = (knobs & 8) ? 3.0 : 64.0;
  opt.min_angle_deg = (knobs & 16) ? 0.0 : 20.0;
  opt.max_vertices = 3000;
  auto mesh = rig2d::outline_mesh(im, opt);
  if (!mesh) {
    if (mesh.error().code != "outline.empty") std::abort();  // an image with nothing above the threshold
    return 0;
  }
  check(mesh->verts, mesh->tris);
  if (mesh->uvs.size() != mesh->verts.size()) std::abort();
  for (std::size_t k = 0; k < mesh->uvs.size(); ++k) {
    const rig2d::Vec2 uv = mesh->uvs[k];
    if (!(uv.x >= 0 && uv.x <= 1 && uv.y >= 0 && uv.y <= 1)) std::abort();
    if (mesh->verts[k].x != (uv.x - 0.5) * w || mesh->verts[k].y != (uv.y - 0.5) * h) std::abort();
  }
  return 0;
}
