// SPDX-License-Identifier: Apache-2.0
#include "skeleton/templates/spot_pair.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rig2d::detail {
namespace {

// A spot's pixels have a luminance under this fraction of the part's median (black eyes on skin;
// not a shadow's shading or a blush).
constexpr double kSpotDark = 0.45;
// A spot covers this fraction of the disc's area at least and at most (not a speck of stubble, not
// the hair), and its box is at most this many times longer than wide (not a brow, not a mouth).
constexpr double kSpotMinArea = 0.002, kSpotMaxArea = 0.06, kSpotElongation = 2;
// The two of a pair lie either side of the axis, at least kSpotApart of the disc's radius apart, the
// line between them within kSpotTilt degrees of square to the axis (the axis found from the outline
// may lean), its middle within kSpotMirror of the radius of the axis; the smaller spot has at least
// 1 / kSpotSizeRatio of the larger's area.
constexpr double kSpotApart = 0.2, kSpotTilt = 20, kSpotMirror = 0.25, kSpotSizeRatio = 2.5;

struct SpotBlob {
  double area = 0, sx = 0, sy = 0;
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool rim = false;  // touches the outline or the disc's rim
};

double spot_luminance(const std::uint8_t* p) { return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]; }

}  // namespace

std::optional<std::pair<Vec2, Vec2>> find_spot_pair(const Image& image, const ShapeAxis& shape, Vec2 centre,
                                                    double radius, Vec2 up) {
  if (!(radius >= 4) || image.width != shape.width || image.height != shape.height) return std::nullopt;
  const int bx0 = std::max(0, static_cast<int>(std::floor(centre.x - radius)));
  const int by0 = std::max(0, static_cast<int>(std::floor(centre.y - radius)));
  const int bx1 = std::min(image.width, static_cast<int>(std::ceil(centre.x + radius)) + 1);
  const int by1 = std::min(image.height, static_cast<int>(std::ceil(centre.y + radius)) + 1);
  if (bx1 <= bx0 || by1 <= by0) return std::nullopt;
  const int w = bx1 - bx0, h = by1 - by0;
  auto pixel = [&](int x, int y) {
    return &image.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x))];
  };
  // The part: covered pixels whose centres lie in the disc.
  std::vector<std::uint8_t> part(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  std::vector<double> lum;
  // hypot decides only near the rim; elsewhere the squared distance does, with room for its rounding.
  const double r2 = radius * radius;
  auto in_disc = [&](int x, int y) {
    const double dx = x + 0.5 - centre.x, dy = y + 0.5 - centre.y, q = dx * dx + dy * dy;
    if (q > r2 * (1 + 1e-9)) return false;
    if (q < r2 * (1 - 1e-9)) return true;
    return !(std::hypot(dx, dy) > radius);
  };
  for (int y = by0; y < by1; ++y)
    for (int x = bx0; x < bx1; ++x) {
      if (!shape.inside(x, y) || !in_disc(x, y)) continue;
      part[static_cast<std::size_t>(y - by0) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x - bx0)] = 1;
      lum.push_back(spot_luminance(pixel(x, y)));
    }
  if (lum.empty()) return std::nullopt;
  std::nth_element(lum.begin(), lum.begin() + static_cast<std::ptrdiff_t>(lum.size() / 2), lum.end());
  const double dark = kSpotDark * lum[lum.size() / 2];
  auto in_part = [&](int x, int y) {
    return x >= bx0 && y >= by0 && x < bx1 && y < by1 &&
           part[static_cast<std::size_t>(y - by0) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x - bx0)] != 0;
  };
  std::vector<std::uint8_t> dark_cell(part.size(), 0);
  for (int y = by0; y < by1; ++y)
    for (int x = bx0; x < bx1; ++x) {
      const std::size_t i = static_cast<std::size_t>(y - by0) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x - bx0);
      dark_cell[i] = part[i] && spot_luminance(pixel(x, y)) < dark;
    }
  auto is_dark = [&](int x, int y) {
    return x >= bx0 && y >= by0 && x < bx1 && y < by1 &&
           dark_cell[static_cast<std::size_t>(y - by0) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x - bx0)] != 0;
  };

  // Dark blobs, 8-connected, in scan order.
  std::vector<int> label(part.size(), -1);
  std::vector<SpotBlob> blobs;
  std::vector<std::pair<int, int>> stack;
  for (int y = by0; y < by1; ++y)
    for (int x = bx0; x < bx1; ++x) {
      const std::size_t i = static_cast<std::size_t>(y - by0) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x - bx0);
      if (label[i] >= 0 || !is_dark(x, y)) continue;
      SpotBlob b{0, 0, 0, x, y, x, y, false};
      const int id = static_cast<int>(blobs.size());
      label[i] = id;
      stack.assign(1, {x, y});
      while (!stack.empty()) {
        const auto [cx, cy] = stack.back();
        stack.pop_back();
        b.area += 1, b.sx += cx + 0.5, b.sy += cy + 0.5;
        b.x0 = std::min(b.x0, cx), b.y0 = std::min(b.y0, cy), b.x1 = std::max(b.x1, cx), b.y1 = std::max(b.y1, cy);
        b.rim = b.rim || !in_part(cx - 1, cy) || !in_part(cx + 1, cy) || !in_part(cx, cy - 1) || !in_part(cx, cy + 1);
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int nx = cx + dx, ny = cy + dy;
            if (!is_dark(nx, ny)) continue;
            const std::size_t j = static_cast<std::size_t>(ny - by0) * static_cast<std::size_t>(w) + static_cast<std::size_t>(nx - bx0);
            if (label[j] >= 0) continue;
            label[j] = id;
            stack.emplace_back(nx, ny);
          }
      }
      blobs.push_back(b);
    }

  const double disc = 3.14159265358979323846 * radius * radius;
  const Vec2 across{-up.y, up.x};
  struct Spot {
    Vec2 at;
    double area, off, height;  // off: signed distance from the axis; height: along it
  };
  std::vector<Spot> spots;
  for (const SpotBlob& b : blobs) {
    const double bw = b.x1 - b.x0 + 1, bh = b.y1 - b.y0 + 1;
    if (b.rim || b.area < kSpotMinArea * disc || b.area > kSpotMaxArea * disc) continue;
    if (std::max(bw, bh) > kSpotElongation * std::min(bw, bh)) continue;
    const Vec2 at{b.sx / b.area, b.sy / b.area};
    const Vec2 d{at.x - centre.x, at.y - centre.y};
    spots.push_back({at, b.area, d.x * across.x + d.y * across.y, d.x * up.x + d.y * up.y});
  }
  std::optional<std::pair<Vec2, Vec2>> best;
  double best_area = 0;
  for (std::size_t i = 0; i < spots.size(); ++i)
    for (std::size_t j = i + 1; j < spots.size(); ++j) {
      const Spot &a = spots[i], &b = spots[j];
      const double apart = std::hypot(a.off - b.off, a.height - b.height);
      if (a.off * b.off >= 0 || apart < kSpotApart * radius) continue;
      if (std::abs(a.height - b.height) > std::sin(kSpotTilt * 3.14159265358979323846 / 180) * apart) continue;
      if (std::abs(a.off + b.off) > 2 * kSpotMirror * radius) continue;
      const double small = std::min(a.area, b.area);
      if (small * kSpotSizeRatio < std::max(a.area, b.area) || small <= best_area) continue;
      best_area = small;
      best = std::pair{a.at, b.at};
    }
  return best;
}

}  // namespace rig2d::detail
