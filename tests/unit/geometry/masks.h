// SPDX-License-Identifier: Apache-2.0
// Test sprites made in code: alpha from a coverage function sampled 4x4 per pixel (antialiased
// edges, like exported art) or evaluated once at the pixel centre (hard edges).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rig2d/core/types.h"
#include "rig2d/image/image.h"

namespace rig2d::test {

inline Image make_sprite(int w, int h, const std::function<bool(double, double)>& inside, bool antialias = true) {
  Image im;
  im.width = w;
  im.height = h;
  im.rgba.assign(4ull * static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 200);
  const int n = antialias ? 4 : 1;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int hits = 0;
      for (int sy = 0; sy < n; ++sy)
        for (int sx = 0; sx < n; ++sx) hits += inside(x + (sx + 0.5) / n, y + (sy + 0.5) / n);
      im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) + 3] =
          static_cast<std::uint8_t>((hits * 255 + n * n / 2) / (n * n));
    }
  return im;
}

// A stroke of radius r from a to b (a disc when a == b): figures drawn as limbs, torsos and heads.
struct Capsule {
  Vec2 a, b;
  double r = 0;
  bool contains(double x, double y, double grow = 0) const {
    const double vx = b.x - a.x, vy = b.y - a.y;
    const double len2 = vx * vx + vy * vy;
    const double t = len2 > 0 ? std::clamp(((x - a.x) * vx + (y - a.y) * vy) / len2, 0.0, 1.0) : 0.0;
    return std::hypot(x - a.x - t * vx, y - a.y - t * vy) <= r + grow;
  }
};

// A w x h sprite of the union of the capsules, shifted by (dx, dy).
inline Image draw_capsules(int w, int h, const std::vector<Capsule>& parts, double dx = 0, double dy = 0) {
  return make_sprite(w, h, [&](double x, double y) {
    return std::any_of(parts.begin(), parts.end(), [&](const Capsule& c) { return c.contains(x - dx, y - dy); });
  });
}

struct NamedSprite {
  std::string name;
  Image image;
};

inline std::vector<NamedSprite> property_sprites() {
  std::vector<NamedSprite> s;
  s.push_back({"disk", make_sprite(96, 96, [](double x, double y) { return std::hypot(x - 48, y - 48) <= 40; })});
  s.push_back({"L shape", make_sprite(80, 120, [](double x, double y) {
                 return (x >= 4 && x <= 30 && y >= 4 && y <= 112) || (x >= 4 && x <= 74 && y >= 84 && y <= 112);
               })});
  s.push_back({"ring with hole", make_sprite(128, 128, [](double x, double y) {
                 const double d = std::hypot(x - 64, y - 64);
                 return d <= 58 && d >= 28;
               })});
  s.push_back({"two islands", make_sprite(140, 64, [](double x, double y) {
                 return std::hypot(x - 32, y - 32) <= 26 || std::hypot(x - 106, y - 32) <= 26;
               })});
  s.push_back({"1 px strip", make_sprite(48, 64, [](double x, double y) { return x >= 20 && x < 21 && y >= 6 && y < 58; },
                                         false)});
  s.push_back({"1x1", make_sprite(1, 1, [](double, double) { return true; }, false)});
  s.push_back({"all opaque", make_sprite(64, 256, [](double, double) { return true; }, false)});
  std::uint32_t state = 2463534242u;
  s.push_back({"checkerboard noise", make_sprite(48, 48, [&state](double x, double y) {
                 state ^= state << 13;
                 state ^= state >> 17;
                 state ^= state << 5;
                 const bool checker = ((static_cast<int>(x) + static_cast<int>(y)) & 1) != 0;
                 return checker != ((state & 7) == 0);  // a checkerboard with 1 in 8 pixels flipped
               }, false)});
  return s;
}

inline Image noise_sprite(int w, int h, std::uint32_t seed, int blur) {
  // Smoothed value noise: blobs with antialiased-looking ramps, holes, islands and border contact.
  std::vector<double> v(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  for (double& x : v) {
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    x = (seed % 1000) / 999.0;
  }
  for (int pass = 0; pass < blur; ++pass) {
    std::vector<double> s(v.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        double sum = 0;
        int n = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int xx = x + dx, yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
            sum += v[static_cast<std::size_t>(yy) * static_cast<std::size_t>(w) + static_cast<std::size_t>(xx)];
            ++n;
          }
        s[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] = sum / n;
      }
    v = std::move(s);
  }
  Image im;
  im.width = w;
  im.height = h;
  im.rgba.assign(4 * v.size(), 90);
  for (std::size_t k = 0; k < v.size(); ++k)
    im.rgba[4 * k + 3] = static_cast<std::uint8_t>(std::clamp((v[k] - 0.45) * 2550.0, 0.0, 255.0));
  return im;
}

}  // namespace rig2d::test
