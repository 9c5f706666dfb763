// SPDX-License-Identifier: Apache-2.0
// Generated sheets and layered figures for the sheet, slice and layout tests.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "rig2d/image/image.h"
#include "rig2d/autorig/autorig.h"

namespace rig2d::test {

inline Image blank(int w, int h) {
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.assign(std::size_t(w) * std::size_t(h) * 4, 0);
  return img;
}

inline void put(Image& img, int x, int y, std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a = 255) {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  std::uint8_t* p = &img.rgba[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4];
  p[0] = r, p[1] = g, p[2] = b, p[3] = a;
}

inline std::uint8_t alpha_at(const Image& img, int x, int y) {
  return img.rgba[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4 + 3];
}

// A star with `spikes` points centred at (cx, cy), radius between r_in and r_out: a jagged outline
// that needs many vertices.
inline void star(Image& img, double cx, double cy, double r_in, double r_out, int spikes, std::uint8_t r,
                 std::uint8_t g, std::uint8_t b) {
  for (int y = int(cy - r_out) - 1; y <= int(cy + r_out) + 1; ++y) {
    for (int x = int(cx - r_out) - 1; x <= int(cx + r_out) + 1; ++x) {
      const double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
      const double a = std::atan2(dy, dx);
      const double t = 0.5 + 0.5 * std::cos(a * spikes);  // 1 at a spike, 0 between
      if (std::hypot(dx, dy) <= r_in + (r_out - r_in) * t) put(img, x, y, r, g, b);
    }
  }
}

// An axis-aligned filled rectangle [x0, x1) x [y0, y1).
inline void rect(Image& img, int x0, int y0, int x1, int y1, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) put(img, x, y, r, g, b);
}

// A thick line segment (a capsule) of radius `rad` from (x0, y0) to (x1, y1).
inline void capsule(Image& img, double x0, double y0, double x1, double y1, double rad, std::uint8_t r,
                    std::uint8_t g, std::uint8_t b) {
  const int lx = int(std::min(x0, x1) - rad) - 1, hx = int(std::max(x0, x1) + rad) + 1;
  const int ly = int(std::min(y0, y1) - rad) - 1, hy = int(std::max(y0, y1) + rad) + 1;
  const double vx = x1 - x0, vy = y1 - y0, len2 = vx * vx + vy * vy;
  for (int y = ly; y <= hy; ++y) {
    for (int x = lx; x <= hx; ++x) {
      const double px = x + 0.5 - x0, py = y + 0.5 - y0;
      const double t = len2 > 0 ? std::clamp((px * vx + py * vy) / len2, 0.0, 1.0) : 0.0;
      if (std::hypot(px - t * vx, py - t * vy) <= rad) put(img, x, y, r, g, b);
    }
  }
}

// rig2d-autorig's defaults: outline mesh, shape skeleton, heat weights.
inline AutorigOptions cli_defaults() {
  AutorigOptions o;
  o.mesh = MeshMode::Outline;
  o.skeleton = SkeletonMode::Shape;
  o.weights = WeightsMode::Heat;
  return o;
}

struct Sandbox {
  std::filesystem::path dir;
  explicit Sandbox(const std::string& name) : dir(std::filesystem::temp_directory_path() / ("rig2d_test_sheets_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Sandbox() { std::filesystem::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  void write(const std::string& name, const std::string& bytes) const {
    std::filesystem::create_directories((dir / name).parent_path());
    std::ofstream(dir / name, std::ios::binary) << bytes;
  }
};

}  // namespace rig2d::test
