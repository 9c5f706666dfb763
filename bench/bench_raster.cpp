// SPDX-License-Identifier: Apache-2.0
// Software rasterizer throughput on a 1024x1024 canvas: megapixels/s and triangles/s for textured,
// flat and overlay draws, and a whole posed-rig render, each also given as a ratio to a plain
// 1024x1024 RGBA copy (memcpy) so the figures compare across machines. Not part of ctest.
//
//   cmake -S . -B build -DRIG2D_BUILD_BENCH=ON && cmake --build build --target bench_raster -j2
//   ./build/bench/bench_raster [repeats]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "rig2d/preview/pose.h"
#include "rig2d/raster/canvas.h"
#include "rig2d/raster/draw.h"

using namespace rig2d;

namespace {

constexpr int kSide = 1024;

double best_ms(int repeats, const std::function<void()>& fn) {
  double best = 1e300;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

struct Grid {
  std::vector<Vec2> pos, uv;
  std::vector<std::uint32_t> idx;
};

// cells x cells grid over [0, side]^2 with slightly wavy interior vertices (not axis-aligned).
Grid grid(int cells, double side) {
  Grid g;
  for (int r = 0; r <= cells; ++r) {
    for (int c = 0; c <= cells; ++c) {
      double x = side * c / cells, y = side * r / cells;
      if (c > 0 && c < cells && r > 0 && r < cells) {
        x += 0.3 * side / cells * std::sin(r * 0.7);
        y += 0.3 * side / cells * std::cos(c * 0.9);
      }
      g.pos.push_back({x, y});
      g.uv.push_back({double(c) / cells, double(r) / cells});
    }
  }
  for (int r = 0; r < cells; ++r) {
    for (int c = 0; c < cells; ++c) {
      const auto a = static_cast<std::uint32_t>(r * (cells + 1) + c);
      const std::uint32_t b = a + 1, d = a + static_cast<std::uint32_t>(cells) + 1, e = d + 1;
      g.idx.insert(g.idx.end(), {a, d, e, a, e, b});
    }
  }
  return g;
}

Image texture_image(int side) {
  Image img;
  img.width = img.height = side;
  img.rgba.resize(4ull * static_cast<std::size_t>(side) * static_cast<std::size_t>(side));
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      std::uint8_t* p = &img.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(side) + static_cast<std::size_t>(x))];
      p[0] = static_cast<std::uint8_t>(x * 255 / side);
      p[1] = static_cast<std::uint8_t>(y * 255 / side);
      p[2] = static_cast<std::uint8_t>(((x / 16 + y / 16) & 1) * 200);
      p[3] = static_cast<std::uint8_t>(128 + ((x ^ y) & 127));
    }
  }
  return img;
}

void report(const char* name, double ms, double pixels, double tris, double copy_ms) {
  std::printf("%-44s %8.2f ms  %8.1f Mpx/s  %10.0f tris/s  %6.1fx memcpy\n", name, ms, pixels / ms / 1e3,
              tris / ms * 1e3, ms / copy_ms);
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const Texture tex = make_texture(texture_image(kSide));
  Canvas canvas = *make_canvas(kSide, kSide, {0, 0, 0, 0});
  const std::vector<std::uint8_t> source(canvas.rgba.size(), 7);
  const double copy_ms = best_ms(repeats * 4, [&] { std::memcpy(canvas.rgba.data(), source.data(), source.size()); });
  std::printf("rig2d raster bench, %dx%d canvas, best of %d; baseline memcpy of the canvas: %.3f ms\n", kSide, kSide,
              repeats, copy_ms);

  for (const int cells : {16, 64, 256}) {
    const Grid g = grid(cells, kSide);
    const double tris = static_cast<double>(g.idx.size() / 3);
    RasterStats st;
    const double ms = best_ms(repeats, [&] {
      st = {};
      draw_textured_triangles(canvas, g.pos, g.uv, g.idx, tex, {255, 255, 255, 1}, &st);
    });
    char name[64];
    std::snprintf(name, sizeof name, "textured, bilinear, %d tris", static_cast<int>(tris));
    report(name, ms, static_cast<double>(st.pixels), tris, copy_ms);
  }
  {
    const Grid g = grid(64, kSide);
    const Paint flat{200, 100, 50, 0.5};
    RasterStats st;
    const double ms = best_ms(repeats, [&] {
      st = {};
      fill_triangles(canvas, g.pos, g.idx, std::span<const Paint>(&flat, 1), &st);
    });
    report("flat fill, 8192 tris", ms, static_cast<double>(st.pixels), 8192, copy_ms);
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(kSide) * kSide);
    const double cov = best_ms(repeats, [&] { accumulate_coverage(counts, kSide, kSide, g.pos, g.idx); });
    report("coverage count only, 8192 tris", cov, double(kSide) * kSide, 8192, copy_ms);
    std::vector<Segment> edges;
    for (std::size_t t = 0; t < g.idx.size(); t += 3) {
      for (int k = 0; k < 3; ++k) edges.push_back({g.pos[g.idx[t + k]], g.pos[g.idx[t + (k + 1) % 3]]});
    }
    const double wire = best_ms(repeats, [&] { stroke_segments(canvas, edges, 1, {255, 64, 180, 0.85}); });
    report("wireframe stroke, 24576 edges", wire, double(kSide) * kSide, 8192, copy_ms);
  }
  {
    // A whole rig: a 64x64-cell bar of 3 bones, posed, skinned and rendered at 1024x1024 with overlays.
    Rig rig;
    rig.bones = {{"base", -1, 0, 200, 0}, {"mid", 0, 0, -200, 0}, {"tip", 1, 0, -150, 0}};
    Part part;
    const Grid g = grid(64, 400);
    for (std::size_t v = 0; v < g.pos.size(); ++v) {
      const Vec2 p{g.pos[v].x - 200, g.pos[v].y - 200};
      part.mesh.verts.push_back(p);
      const double t = std::clamp((p.y + 200) / 400, 0.0, 1.0);
      part.skin_indices.insert(part.skin_indices.end(), {2, 1, 0, 0});
      part.skin_weights.insert(part.skin_weights.end(), {std::max(0.0, 1 - 2 * t), 1 - std::fabs(1 - 2 * t), std::max(0.0, 2 * t - 1), 0});
    }
    part.mesh.uvs = g.uv;
    part.mesh.tris = g.idx;
    rig.parts = {part};
    RigPose pose = bind_pose(rig);
    pose.bones[1].rot = 0.6;
    pose.bones[2].rot = -0.4;
    const PartTexture textures[] = {{std::make_shared<const Texture>(tex), std::nullopt}};
    RenderOptions opt;
    opt.view = {kSide, kSide, 2.2, 512, 560};
    RenderStats st;
    double ms = best_ms(repeats, [&] {
      st = {};
      const auto skinned = skin_rig(rig, pose);
      (void)render_pose(rig, textures, pose, skinned, opt, &st);
    });
    report("posed rig: skin + render", ms, static_cast<double>(st.raster.pixels), double(st.raster.triangles), copy_ms);
    opt.overlays.wireframe = opt.overlays.bones = true;
    opt.overlays.weights_bone = 1;
    ms = best_ms(repeats, [&] {
      st = {};
      const auto skinned = skin_rig(rig, pose);
      (void)render_pose(rig, textures, pose, skinned, opt, &st);
    });
    report("posed rig + heatmap, wireframe, bones", ms, static_cast<double>(st.raster.pixels), double(st.raster.triangles),
           copy_ms);
  }
  return 0;
}
