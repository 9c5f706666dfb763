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
  // The box's cells with a border of empty ones around it (neighbours need no bounds test).
  enum Cell : std::uint8_t { kOff, kPart, kDark, kSeen };  // kSeen: a dark cell a blob has taken
  const std::size_t pw = static_cast<std::size_t>(w) + 2;
  std::vector<std::uint8_t> cell(pw * (static_cast<std::size_t>(h) + 2), kOff);
  std::vector<std::size_t> part;  // the part's cells, in scan order
  std::vector<double> lum;        // ... and their luminances
  part.reserve(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  lum.reserve(part.capacity());
  // hypot decides only near the rim; elsewhere the squared distance does, with room for its rounding.
  const double r2 = radius * radius;
  auto in_disc = [&](int x, int y) {
    const double dx = x + 0.5 - centre.x, dy = y + 0.5 - centre.y, q = dx * dx + dy * dy;
    if (q > r2 * (1 + 1e-9)) return false;
    if (q < r2 * (1 - 1e-9)) return true;
    return !(std::hypot(dx, dy) > radius);
  };
  // The part: covered pixels whose centres lie in the disc. Per row, the pixels well within the rim
  // (a pixel and a margin far above the rounding of the squared distances inside it) are in the
  // disc, those well beyond it are not; only the few between are tested.
  const double margin = 1e-7 * r2;
  for (int y = by0; y < by1; ++y) {
    const double dy = y + 0.5 - centre.y, inner = r2 * (1 - 1e-9) - dy * dy - margin,
                 outer = r2 * (1 + 1e-9) - dy * dy + margin;
    if (outer < 0) continue;
    const double reach_out = std::sqrt(outer), reach_in = inner > 0 ? std::sqrt(inner) : -1.0;
    auto column = [&](double at) { return static_cast<int>(std::clamp(std::floor(at), bx0 - 2.0, bx1 + 1.0)); };
    const int out_lo = std::max(bx0, column(centre.x - 0.5 - reach_out) - 1);
    const int out_hi = std::min(bx1 - 1, column(centre.x - 0.5 + reach_out) + 2);
    int in_lo = out_hi + 1, in_hi = out_hi;  // none well within
    if (reach_in > 2) in_lo = std::max(out_lo, column(centre.x - 0.5 - reach_in) + 2), in_hi = std::min(out_hi, column(centre.x - 0.5 + reach_in) - 1);
    const std::uint8_t* in = &shape.in[static_cast<std::size_t>(y) * static_cast<std::size_t>(shape.width)];
    const std::size_t row0 = static_cast<std::size_t>(y - by0 + 1) * pw + 1 - static_cast<std::size_t>(bx0);
    auto take = [&](int x) {
      cell[row0 + static_cast<std::size_t>(x)] = kPart;
      part.push_back(row0 + static_cast<std::size_t>(x));
      lum.push_back(spot_luminance(pixel(x, y)));
    };
    for (int x = out_lo; x <= out_hi; ++x) {
      if (!in[x]) continue;
      if (x >= in_lo && x <= in_hi) {
        take(x);
        continue;
      }
      const double dx = x + 0.5 - centre.x, dx2 = dx * dx;
      if (dx2 > outer || (dx2 >= inner && !in_disc(x, y))) continue;
      take(x);
    }
  }
  if (part.empty()) return std::nullopt;
  std::vector<double> order(lum);
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(order.size() / 2), order.end());
  const double dark = kSpotDark * order[order.size() / 2];
  std::vector<std::size_t> dark_cells;  // in scan order
  for (std::size_t k = 0; k < part.size(); ++k)
    if (lum[k] < dark) cell[part[k]] = kDark, dark_cells.push_back(part[k]);

  // Dark blobs, 8-connected, in scan order.
  std::vector<SpotBlob> blobs;
  std::vector<std::size_t> stack;
  const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(pw);
  const std::ptrdiff_t around[8] = {-row - 1, -row, -row + 1, -1, 1, row - 1, row, row + 1};
  for (std::size_t start : dark_cells) {
    if (cell[start] != kDark) continue;
    const int sx = bx0 + static_cast<int>(start % pw) - 1, sy = by0 + static_cast<int>(start / pw) - 1;
    SpotBlob b{0, 0, 0, sx, sy, sx, sy, false};
    cell[start] = kSeen;
    stack.assign(1, start);
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      const int cx = bx0 + static_cast<int>(i % pw) - 1, cy = by0 + static_cast<int>(i / pw) - 1;
      b.area += 1, b.sx += cx + 0.5, b.sy += cy + 0.5;
      b.x0 = std::min(b.x0, cx), b.y0 = std::min(b.y0, cy), b.x1 = std::max(b.x1, cx), b.y1 = std::max(b.y1, cy);
      b.rim = b.rim || cell[i - 1] == kOff || cell[i + 1] == kOff || cell[i - pw] == kOff || cell[i + pw] == kOff;
      for (const std::ptrdiff_t step : around) {
        const std::size_t j = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) + step);
        if (cell[j] != kDark) continue;
        cell[j] = kSeen;
        stack.push_back(j);
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
