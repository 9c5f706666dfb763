// SPDX-License-Identifier: Apache-2.0
// rig2d's software rasterizer against Mesa's llvmpipe (through OSMesa, legacy GL) drawing the same
// textured triangles into the same 1024x1024 RGBA8 frame: bilinear, clamp-to-edge, premultiplied
// source-over (GL_ONE, GL_ONE_MINUS_SRC_ALPHA), the frame cleared to transparent each time.
// Frames/s from the fastest frame's process CPU time (llvmpipe's worker threads included) and wall
// time; on a shared machine the CPU figure is the one to compare. The max channel difference between the two
// frames is printed to show that both draw the same picture. Built only with -DRIG2D_BUILD_BENCH=ON
// when OSMesa is found (Debian: libosmesa6-dev).
//
//   ./build/bench/bench/bench_gl [frames=20] [sprite.png]
#include <GL/osmesa.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "rig2d/image/png.h"
#include "rig2d/raster/canvas.h"
#include "rig2d/raster/draw.h"

using namespace rig2d;

namespace {

constexpr int kSide = 1024;

struct Scene {
  std::string name;
  Image image;
  std::vector<Vec2> pos, uv;
  std::vector<std::uint32_t> idx;
};

// cells x cells grid over [0, side]^2, interior vertices displaced as a posed mesh would be.
void make_grid(Scene& s, int cells, double side, double wave) {
  for (int r = 0; r <= cells; ++r) {
    for (int c = 0; c <= cells; ++c) {
      double x = side * c / cells, y = side * r / cells;
      if (c > 0 && c < cells && r > 0 && r < cells) {
        x += wave * side / cells * std::sin(r * 0.7);
        y += wave * side / cells * std::cos(c * 0.9);
      }
      s.pos.push_back({x, y});
      s.uv.push_back({double(c) / cells, double(r) / cells});
    }
  }
  for (int r = 0; r < cells; ++r) {
    for (int c = 0; c < cells; ++c) {
      const auto a = static_cast<std::uint32_t>(r * (cells + 1) + c);
      const std::uint32_t b = a + 1, d = a + static_cast<std::uint32_t>(cells) + 1, e = d + 1;
      s.idx.insert(s.idx.end(), {a, d, e, a, e, b});
    }
  }
}

Image synthetic_texture(int side) {
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

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Timing {
  double cpu_fps = 0, wall_fps = 0;
};

// fps from the fastest frame: on a shared machine the slower frames measure the neighbours.
Timing time_frames(int frames, const std::function<void()>& frame) {
  frame();  // warm-up: texture upload, shader compilation, page faults
  double best_cpu = 1e300, best_wall = 1e300;
  for (int i = 0; i < frames; ++i) {
    const double c0 = process_cpu_seconds();
    const auto w0 = std::chrono::steady_clock::now();
    frame();
    best_cpu = std::min(best_cpu, process_cpu_seconds() - c0);
    best_wall = std::min(best_wall, std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
  }
  return {1 / best_cpu, 1 / best_wall};
}

struct Gl {
  OSMesaContext ctx = nullptr;
  std::vector<std::uint8_t> frame = std::vector<std::uint8_t>(4ull * kSide * kSide);
  GLuint tex = 0;
};

bool gl_setup(Gl& gl, const Scene& s, const Texture& premultiplied) {
  gl.ctx = OSMesaCreateContextExt(OSMESA_RGBA, 0, 0, 0, nullptr);
  if (!gl.ctx || !OSMesaMakeCurrent(gl.ctx, gl.frame.data(), GL_UNSIGNED_BYTE, kSide, kSide)) return false;
  OSMesaPixelStore(OSMESA_Y_UP, 0);  // row 0 at the top, as rig2d's canvas
  glViewport(0, 0, kSide, kSide);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glOrtho(0, kSide, kSide, 0, -1, 1);  // pixel space, y down
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  glGenTextures(1, &gl.tex);
  glBindTexture(GL_TEXTURE_2D, gl.tex);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, premultiplied.width, premultiplied.height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               premultiplied.premultiplied.data());
  glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
  glEnable(GL_TEXTURE_2D);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_DEPTH_TEST);
  glClearColor(0, 0, 0, 0);
  (void)s;
  return true;
}

void run_scene(const Scene& s, int frames) {
  const Texture tex = make_texture(s.image);
  Canvas canvas = *make_canvas(kSide, kSide, {0, 0, 0, 0});
  const Paint white{255, 255, 255, 1};
  const Timing ours = time_frames(frames, [&] {
    std::fill(canvas.rgba.begin(), canvas.rgba.end(), std::uint8_t{0});
    draw_textured_triangles(canvas, s.pos, s.uv, s.idx, tex, white);
  });

  Gl gl;
  if (!gl_setup(gl, s, tex)) {
    std::fprintf(stderr, "bench_gl: OSMesa context failed\n");
    std::exit(1);
  }
  std::vector<float> pos, uv;
  for (std::size_t i = 0; i < s.pos.size(); ++i) {
    pos.insert(pos.end(), {static_cast<float>(s.pos[i].x), static_cast<float>(s.pos[i].y)});
    uv.insert(uv.end(), {static_cast<float>(s.uv[i].x), static_cast<float>(s.uv[i].y)});
  }
  const Timing mesa = time_frames(frames, [&] {
    glClear(GL_COLOR_BUFFER_BIT);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, pos.data());
    glTexCoordPointer(2, GL_FLOAT, 0, uv.data());
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(s.idx.size()), GL_UNSIGNED_INT, s.idx.data());
    glFinish();
  });
  int max_diff = 0;
  std::size_t over2 = 0;
  for (std::size_t i = 0; i < canvas.rgba.size(); ++i) {
    const int d = std::abs(int(canvas.rgba[i]) - int(gl.frame[i]));
    max_diff = std::max(max_diff, d);
    over2 += d > 2 ? 1 : 0;
  }
  OSMesaDestroyContext(gl.ctx);
  std::printf("%-34s %6zu tris  rig2d %7.1f fps cpu %7.1f wall | llvmpipe %7.1f cpu %7.1f wall | cpu ratio %.2fx"
              "  (max diff %d, %.3f%% channels > 2)\n",
              s.name.c_str(), s.idx.size() / 3, ours.cpu_fps, ours.wall_fps, mesa.cpu_fps, mesa.wall_fps,
              ours.cpu_fps / mesa.cpu_fps, max_diff, 100.0 * static_cast<double>(over2) / static_cast<double>(canvas.rgba.size()));
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::max(2, std::atoi(argv[1])) : 20;
  const std::string sprite = argc > 2 ? argv[2]
                                      : "/work/shared/data/real-sprites/kenney_animal-pack-redux_png_penguin.png";
  std::printf("rig2d vs Mesa llvmpipe (OSMesa), %dx%d frame, %d frames each; ratio > 1 means rig2d is faster\n",
              kSide, kSide, frames);
  Scene grid{"synthetic texture, full-frame grid"};
  grid.image = synthetic_texture(kSide);
  make_grid(grid, 64, kSide, 0.3);
  run_scene(grid, frames);

  if (auto img = load_png(sprite)) {
    Scene rig{"real sprite, 28x28-cell posed grid"};
    rig.image = std::move(*img);
    make_grid(rig, 28, kSide, 0.45);
    run_scene(rig, frames);
  } else {
    std::printf("(sprite %s not readable: real-sprite scene skipped)\n", sprite.c_str());
  }
  return 0;
}
