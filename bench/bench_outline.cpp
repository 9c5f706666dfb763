// SPDX-License-Identifier: Apache-2.0
// Outline meshing of synthetic sprites (256^2, 1024^2, 2048^2) timed against decoding the same sprite
// from PNG, so the figures compare across machines as ratios. Default OutlineMeshOptions, plus a
// stage split (contour, specks + simplification, triangulation); best of N runs. Not part of ctest.
//
//   cmake -S . -B build -DRIG2D_BUILD_BENCH=ON && cmake --build build --target bench_outline -j2
//   ./build/bench/bench_outline [repeats]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "rig2d/geometry/contour.h"
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/geometry/simplify.h"
#include "rig2d/geometry/triangulate.h"
#include "rig2d/image/png.h"

using namespace rig2d;

namespace {

// A creature-like sprite scaled to `side`: body, head, four limbs, a hole, an island, antialiased
// with 2x2 supersampling and a soft colour gradient (so PNG decode does real work).
Image make_sprite(int side) {
  Image im;
  im.width = im.height = side;
  im.rgba.assign(4ull * static_cast<std::size_t>(side) * static_cast<std::size_t>(side), 0);
  const double s = side / 256.0;
  auto inside = [s](double x, double y) {
    x /= s;
    y /= s;
    const bool body = std::pow((x - 128) / 70, 2) + std::pow((y - 140) / 50, 2) <= 1;
    const bool head = std::hypot(x - 128, y - 62) <= 34;
    const bool hole = std::hypot(x - 140, y - 150) <= 14;
    const bool limbs = (std::fabs(x - 70 - (y - 160) * 0.4) <= 9 && y >= 160 && y <= 240) ||
                       (std::fabs(x - 186 + (y - 160) * 0.4) <= 9 && y >= 160 && y <= 240) ||
                       (std::fabs(y - 120 + (x - 60) * 0.3) <= 7 && x >= 10 && x <= 60) ||
                       (std::fabs(y - 120 - (x - 196) * 0.3) <= 7 && x >= 196 && x <= 246);
    const bool island = std::hypot(x - 30, y - 30) <= 16;
    return ((body && !hole) || head || limbs || island);
  };
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      int hits = 0;
      for (int k = 0; k < 4; ++k) hits += inside(x + 0.25 + 0.5 * (k & 1), y + 0.25 + 0.5 * (k >> 1));
      const std::size_t o = 4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(side) + static_cast<std::size_t>(x));
      im.rgba[o] = static_cast<std::uint8_t>(x * 255 / side);
      im.rgba[o + 1] = static_cast<std::uint8_t>(y * 255 / side);
      im.rgba[o + 2] = static_cast<std::uint8_t>((x ^ y) & 255);
      im.rgba[o + 3] = static_cast<std::uint8_t>(hits * 255 / 4);
    }
  return im;
}

// Best of `repeats`: on a shared machine the minimum is the figure least disturbed by other load.
double best_ms(int repeats, const std::function<void()>& fn) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return *std::min_element(t.begin(), t.end());
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  std::printf("%-6s %9s %9s %7s | %9s %9s %9s | %6s %6s %6s %7s\n", "side", "decode", "outline", "ratio", "contour",
              "simplify", "cdt", "verts", "tris", "minang", "iou");
  for (int side : {256, 1024, 2048}) {
    const Image im = make_sprite(side);
    const auto png = encode_png(im);
    if (!png) return 1;
    const double decode = best_ms(repeats, [&] { (void)decode_png(*png, "bench.png"); });
    OutlineMeshStats st;
    const OutlineMeshOptions opt;
    const double outline = best_ms(repeats, [&] { (void)outline_mesh(im, opt, &st); });

    std::vector<Ring> traced, simplified;
    const double contour = best_ms(repeats, [&] { traced = *trace_alpha_contours(im, {opt.alpha_threshold, opt.margin}); });
    const double simplify = best_ms(repeats, [&] {
      simplified = simplify_rings(drop_small_rings(traced, opt.min_area), opt.tolerance);
    });
    TriangulateOptions to;
    to.refine = true;
    to.min_angle_deg = opt.min_angle_deg;
    to.max_edge = opt.max_edge;
    to.max_vertices = opt.max_vertices;
    const double cdt = best_ms(repeats, [&] { (void)triangulate_polygons(simplified, to); });
    std::printf("%-6d %7.2fms %7.2fms %6.2fx | %7.2fms %7.2fms %7.2fms | %6zu %6zu %6.1f %7.4f\n", side, decode, outline,
                outline / decode, contour, simplify, cdt, st.vertices, st.triangles, st.min_angle_deg, st.coverage.iou);
  }
  return 0;
}
