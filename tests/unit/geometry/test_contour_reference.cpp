// SPDX-License-Identifier: Apache-2.0
// The contour tracer as it was before it scanned the lattice by sign bits (a dense float field per
// pass, every cell visited): kept verbatim as the reference the faster tracer must reproduce bit for
// bit, rings, grown mask and outline length, over many images, thresholds and margins.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/outline_stages.h"
#include "geometry/predicates.h"
#include "masks.h"
#include "rig2d/geometry/contour.h"

using rig2d::ContourOptions;
using rig2d::Image;
using rig2d::Ring;
using rig2d::Vec2;
namespace detail = rig2d::detail;

namespace {
namespace reference {

// A scalar field on the sample lattice x = x0 + i, y = y0 + j (i < nx, j < ny); inside where < 0.
struct Field {
  int nx = 0, ny = 0;
  double x0 = 0, y0 = 0;
  std::vector<float> g;
  float at(int i, int j) const { return g[static_cast<std::size_t>(j) * static_cast<std::size_t>(nx) + static_cast<std::size_t>(i)]; }
};

// Calls emit(p, q) for each contour segment, oriented with the inside on the right of p -> q (in the
// orient2d sense), so islands come out with negative shoelace sums. Also reports, for chaining, the
// lattice edge id of both ends: horizontal edge (i, j) -> 2 * (j * nx + i), vertical -> that + 1.
template <typename Emit>
void march(const Field& f, Emit&& emit) {
  auto crossing = [&](int i0, int j0, int i1, int j1) {
    const double g0 = f.at(i0, j0), g1 = f.at(i1, j1);
    const double t = g0 / (g0 - g1);
    return Vec2{f.x0 + i0 + t * (i1 - i0), f.y0 + j0 + t * (j1 - j0)};
  };
  for (int j = 0; j + 1 < f.ny; ++j) {
    for (int i = 0; i + 1 < f.nx; ++i) {
      const float tl = f.at(i, j), tr = f.at(i + 1, j), br = f.at(i + 1, j + 1), bl = f.at(i, j + 1);
      const int code = (tl < 0 ? 1 : 0) | (tr < 0 ? 2 : 0) | (br < 0 ? 4 : 0) | (bl < 0 ? 8 : 0);
      if (code == 0 || code == 15) continue;
      // Edges: 0 top (tl-tr), 1 right (tr-br), 2 bottom (bl-br), 3 left (tl-bl).
      const Vec2 corner[4] = {{f.x0 + i, f.y0 + j}, {f.x0 + i + 1, f.y0 + j}, {f.x0 + i + 1, f.y0 + j + 1}, {f.x0 + i, f.y0 + j + 1}};
      const bool in[4] = {tl < 0, tr < 0, br < 0, bl < 0};
      auto point = [&](int e) {
        switch (e) {
          case 0: return crossing(i, j, i + 1, j);
          case 1: return crossing(i + 1, j, i + 1, j + 1);
          case 2: return crossing(i, j + 1, i + 1, j + 1);
          default: return crossing(i, j, i, j + 1);
        }
      };
      auto edge_id = [&](int e) -> std::int64_t {
        const std::int64_t nx = f.nx;
        switch (e) {
          case 0: return 2 * (static_cast<std::int64_t>(j) * nx + i);
          case 1: return 2 * (static_cast<std::int64_t>(j) * nx + i + 1) + 1;
          case 2: return 2 * (static_cast<std::int64_t>(j + 1) * nx + i);
          default: return 2 * (static_cast<std::int64_t>(j) * nx + i) + 1;
        }
      };
      // Segment between edges e1, e2 with a reference corner whose side is known.
      auto segment = [&](int e1, int e2, int ref) {
        Vec2 p = point(e1), q = point(e2);
        std::int64_t ip = edge_id(e1), iq = edge_id(e2);
        const double o = detail::orient2d(p, q, corner[ref]);
        const bool want_negative = in[ref];  // inside on the right: orient2d(p, q, inside) < 0
        if ((o < 0) != want_negative) {
          std::swap(p, q);
          std::swap(ip, iq);
        }
        emit(p, q, ip, iq);
      };
      auto crosses = [&](int e) {
        static constexpr int a[4] = {0, 1, 3, 0}, b[4] = {1, 2, 2, 3};
        return in[a[e]] != in[b[e]];
      };
      if (code == 5 || code == 10) {
        const bool centre_in = (static_cast<double>(tl) + tr + br + bl) / 4 < 0;
        // Corners cut off by the two segments: the ones of the minority state at the centre.
        const bool cut_tl_br = (code == 5) != centre_in;  // code 5 = tl, br inside
        if (cut_tl_br) {
          segment(0, 3, 0);
          segment(1, 2, 2);
        } else {
          segment(0, 1, 1);
          segment(2, 3, 3);
        }
        continue;
      }
      int e[2], n = 0;
      for (int k = 0; k < 4 && n < 2; ++k)
        if (crosses(k)) e[n++] = k;
      int ref = 0;
      while (!in[ref]) ++ref;
      segment(e[0], e[1], ref);
    }
  }
}

// Chains oriented segments into closed rings (every crossing point has one successor).
std::vector<Ring> chain(std::vector<Vec2>& start_pts, std::vector<std::int64_t>& from, std::vector<std::int64_t>& to) {
  const std::size_t n = from.size();
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return from[a] < from[b]; });
  auto find = [&](std::int64_t id) -> std::size_t {
    auto it = std::lower_bound(order.begin(), order.end(), id, [&](std::size_t k, std::int64_t v) { return from[k] < v; });
    return it != order.end() && from[*it] == id ? *it : n;
  };
  std::vector<char> used(n, 0);
  std::vector<Ring> rings;
  for (std::size_t s = 0; s < n; ++s) {
    if (used[s]) continue;
    Ring ring;
    std::size_t k = s;
    while (k < n && !used[k]) {
      used[k] = 1;
      if (ring.empty() || !(ring.back() == start_pts[k])) ring.push_back(start_pts[k]);
      k = find(to[k]);
    }
    while (ring.size() > 1 && ring.front() == ring.back()) ring.pop_back();
    if (ring.size() >= 3) rings.push_back(std::move(ring));
  }
  return rings;
}

// Squared distance from p to segment a-b (plain sqrt-free arithmetic: this runs per band sample).
double seg_dist2(Vec2 p, Vec2 a, Vec2 b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
  t = std::clamp(t, 0.0, 1.0);
  const double ex = p.x - (a.x + t * dx), ey = p.y - (a.y + t * dy);
  return ex * ex + ey * ey;
}

// Crossings beyond the image go onto its border, and so do those within kBorderSnap of it: such a
// point only ever lies on a lattice edge to the ring of samples outside the image, where the outline
// leaves the border, and moving it outward onto the border costs nothing in coverage but lets the run
// along the border end on the border (a frame point the simplifier keeps exact) without a stub.
constexpr double kBorderSnap = 1.0 / 16;  // px

double onto_image(double v, int size) {
  if (v < kBorderSnap) return 0;
  if (v > size - kBorderSnap) return size;
  return v;
}

// Marching squares chamfers the image's corners (one cell cut diagonally); when a ring runs from
// one image border to the adjacent one, put the corner itself back.
void restore_image_corners(Ring& ring, double w, double h) {
  Ring out;
  out.reserve(ring.size() + 4);
  for (std::size_t k = 0; k < ring.size(); ++k) {
    const Vec2 p = ring[k], q = ring[(k + 1) % ring.size()];
    out.push_back(p);
    auto on_x = [](Vec2 v, double x) { return v.x == x; };
    auto on_y = [](Vec2 v, double y) { return v.y == y; };
    for (const Vec2 c : {Vec2{0, 0}, Vec2{w, 0}, Vec2{w, h}, Vec2{0, h}}) {
      const bool pq = on_x(p, c.x) && on_y(q, c.y) && !on_y(p, c.y) && !on_x(q, c.x);
      const bool qp = on_y(p, c.y) && on_x(q, c.x) && !on_x(p, c.x) && !on_y(q, c.y);
      if ((pq || qp) && std::fabs(p.x - c.x) + std::fabs(p.y - c.y) <= 1.0 &&
          std::fabs(q.x - c.x) + std::fabs(q.y - c.y) <= 1.0)
        out.push_back(c);
    }
  }
  ring = std::move(out);
}

// Level minus alpha on the lattice of pixel centres plus one ring of transparent samples around the
// image, so the iso-line at 0 separates the centres with alpha > threshold from the rest.
Field alpha_field(const Image& image, int alpha_threshold, bool* any_inside) {
  const int w = image.width, h = image.height;
  Field alpha;
  alpha.nx = w + 2;
  alpha.ny = h + 2;
  alpha.x0 = -0.5;
  alpha.y0 = -0.5;
  const float level = static_cast<float>(alpha_threshold) + 0.5f;
  alpha.g.assign(static_cast<std::size_t>(alpha.nx) * static_cast<std::size_t>(alpha.ny), level);
  bool any = false;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float a = image.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) + 3];
      alpha.g[static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(alpha.nx) + static_cast<std::size_t>(x + 1)] = level - a;
      any = any || a > level;
    }
  if (any_inside) *any_inside = any;
  return alpha;
}

std::vector<Ring> trace(const Image& image, const ContourOptions& options, std::vector<std::uint8_t>* grown_mask) {

  const int w = image.width, h = image.height;
  bool any = false;
  Field alpha = alpha_field(image, options.alpha_threshold, &any);
  if (grown_mask) grown_mask->assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  if (!any) return std::vector<Ring>{};

  // Distance from each sample to the iso-contour, within a band; beyond it the value is capped.
  const double band = options.margin + 2.0;
  std::vector<float> dist(alpha.g.size(), static_cast<float>(band * band));  // squared until used
  const int reach = static_cast<int>(std::ceil(band));
  // Per row, only the samples that can come within the band of the segment: any other sample's
  // distance exceeds the cap it already holds, so skipping it changes nothing. The padding keeps
  // rounding in the bounds from ever dropping a sample that could change.
  const double padded_band = band + 1e-6;
  march(alpha, [&](Vec2 p, Vec2 q, std::int64_t, std::int64_t) {
    const double x_lo = std::min(p.x, q.x), x_hi = std::max(p.x, q.x);
    const double y_lo = std::min(p.y, q.y), y_hi = std::max(p.y, q.y);
    const int i0 = std::max(0, static_cast<int>(std::floor(x_lo - alpha.x0)) - reach);
    const int i1 = std::min(alpha.nx - 1, static_cast<int>(std::ceil(x_hi - alpha.x0)) + reach);
    const int j0 = std::max(0, static_cast<int>(std::floor(y_lo - alpha.y0)) - reach);
    const int j1 = std::min(alpha.ny - 1, static_cast<int>(std::ceil(y_hi - alpha.y0)) + reach);
    for (int j = j0; j <= j1; ++j) {
      const double y = alpha.y0 + j;
      const double dy = std::max({0.0, y_lo - y, y - y_hi});
      if (dy >= padded_band) continue;
      const double half = std::sqrt(padded_band * padded_band - dy * dy);
      const int from = std::max(i0, static_cast<int>(std::floor(x_lo - half - alpha.x0)));
      const int to = std::min(i1, static_cast<int>(std::ceil(x_hi + half - alpha.x0)));
      for (int i = from; i <= to; ++i) {
        float& d = dist[static_cast<std::size_t>(j) * static_cast<std::size_t>(alpha.nx) + static_cast<std::size_t>(i)];
        d = std::min(d, static_cast<float>(seg_dist2({alpha.x0 + i, alpha.y0 + j}, p, q)));
      }
    }
  });

  // G = max(signed distance - margin, signed distance to the image rectangle); inside where < 0.
  // Values are kept off exact zero so no crossing lands on a sample (which would pinch rings).
  // Computed in place over the alpha field to keep the peak memory at two floats per pixel.
  Field& grown = alpha;
  const float capped = static_cast<float>(band * band);
  const double capped_d = std::sqrt(static_cast<double>(capped));  // most samples: no sqrt per sample
  for (int j = 0; j < grown.ny; ++j)
    for (int i = 0; i < grown.nx; ++i) {
      const std::size_t k = static_cast<std::size_t>(j) * static_cast<std::size_t>(grown.nx) + static_cast<std::size_t>(i);
      const double x = grown.x0 + i, y = grown.y0 + j;
      const double d = dist[k] == capped ? capped_d : std::sqrt(static_cast<double>(dist[k]));
      const double signed_d = alpha.g[k] < 0 ? -d : d;
      const double qx = std::fabs(x - w / 2.0) - w / 2.0, qy = std::fabs(y - h / 2.0) - h / 2.0;
      const double ox = std::max(qx, 0.0), oy = std::max(qy, 0.0);
      const double rect = qx <= 0 && qy <= 0 ? std::max(qx, qy) : std::sqrt(ox * ox + oy * oy);
      double g = std::max(signed_d - options.margin, rect);
      if (g >= 0 && g < 1e-4) g = 1e-4;
      grown.g[k] = static_cast<float>(g);
    }
  dist = {};
  if (grown_mask)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        (*grown_mask)[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] =
            grown.at(x + 1, y + 1) < 0;

  std::vector<Vec2> start;
  std::vector<std::int64_t> from, to;
  march(grown, [&](Vec2 p, Vec2, std::int64_t ip, std::int64_t iq) {
    start.push_back({onto_image(p.x, w), onto_image(p.y, h)});
    from.push_back(ip);
    to.push_back(iq);
  });
  std::vector<Ring> rings = chain(start, from, to);
  for (Ring& r : rings) restore_image_corners(r, w, h);
  return rings;
}

double outline_length(const Image& image, int alpha_threshold) {
  const double w = image.width, h = image.height;
  auto clip = [&](Vec2 p) { return Vec2{std::clamp(p.x, 0.0, w), std::clamp(p.y, 0.0, h)}; };
  double length = 0;
  march(alpha_field(image, alpha_threshold, nullptr), [&](Vec2 p, Vec2 q, std::int64_t, std::int64_t) {
    p = clip(p);
    q = clip(q);
    const bool on_border = (p.x == 0 && q.x == 0) || (p.y == 0 && q.y == 0) || (p.x == w && q.x == w) || (p.y == h && q.y == h);
    if (!on_border) length += std::hypot(q.x - p.x, q.y - p.y);
  });
  return length;
}

}  // namespace reference

void check_same(const Image& im, int threshold, double margin) {
  INFO(im.width << "x" << im.height << ", threshold " << threshold << ", margin " << margin);
  std::vector<std::uint8_t> mask, ref_mask;
  auto rings = rig2d::trace_alpha_contours(im, {threshold, margin}, &mask);
  REQUIRE(rings);
  const std::vector<Ring> ref = reference::trace(im, {threshold, margin}, &ref_mask);
  CHECK(*rings == ref);  // bit for bit: == on doubles (no value here is a NaN)
  CHECK(mask == ref_mask);
  CHECK(rig2d::alpha_outline_length(im, threshold) == reference::outline_length(im, threshold));
}

}  // namespace

TEST_CASE("contour: the sign-scanning tracer reproduces the dense reference bit for bit", "[geometry][contour]") {
  std::vector<Image> images;
  for (const auto& s : rig2d::test::property_sprites()) images.push_back(s.image);
  // Widths around the 64-sample word boundary (the lattice is 2 samples wider than the image).
  for (const int w : {1, 2, 61, 62, 63, 64, 65, 66, 126, 127, 130, 200})
    images.push_back(rig2d::test::noise_sprite(w, 37, 1234567u + static_cast<std::uint32_t>(w), 3));
  for (std::uint32_t seed = 1; seed <= 6; ++seed) images.push_back(rig2d::test::noise_sprite(90, 70, seed * 2654435761u, 1 + seed % 4));
  std::size_t rings = 0;
  for (std::size_t n = 0; n < images.size(); ++n)
    for (const int threshold : {0, 8, 127, 254})
      for (const double margin : {0.0, 0.3, 0.75, 1.0, 2.5, 7.0, 20.0, 64.0}) {
        if (margin > 7 && n % 4 != 0) continue;  // wide bands are slow in the reference
        check_same(images[n], threshold, margin);
        rings += rig2d::trace_alpha_contours(images[n], {threshold, margin})->size();
      }
  CHECK(rings > 1000);  // the images do produce outlines to compare
}

TEST_CASE("contour: one distance band traces every margin as tracing each alone would", "[geometry][contour]") {
  std::vector<Image> images;
  for (const auto& s : rig2d::test::property_sprites()) images.push_back(s.image);
  for (std::uint32_t seed = 1; seed <= 4; ++seed) images.push_back(rig2d::test::noise_sprite(90, 70, seed * 40503u, 1 + seed % 4));
  const double margins[] = {1.5, 0.0, 0.75, 1.0, 0.3};  // the widest first: the band is made for it
  std::size_t rings = 0;
  for (const Image& im : images)
    for (const int threshold : {0, 8, 127}) {
      INFO(im.width << "x" << im.height << ", threshold " << threshold);
      double length = -1;
      auto together = detail::trace_alpha_contours_at(im, threshold, margins, true, &length);
      REQUIRE(together);
      REQUIRE(together->size() == std::size(margins));
      CHECK(length == rig2d::alpha_outline_length(im, threshold));  // the same segments, summed in order
      for (std::size_t m = 0; m < std::size(margins); ++m) {
        INFO("margin " << margins[m]);
        std::vector<std::uint8_t> mask;
        auto alone = rig2d::trace_alpha_contours(im, {threshold, margins[m]}, &mask);
        REQUIRE(alone);
        CHECK((*together)[m].rings == *alone);  // bit for bit
        CHECK((*together)[m].grown == mask);
        rings += alone->size();
      }
    }
  CHECK(rings > 100);
  // Without a margin to trace, the length is still measured.
  double length = -1;
  REQUIRE(detail::trace_alpha_contours_at(images[0], 8, {}, false, &length));
  CHECK(length == rig2d::alpha_outline_length(images[0], 8));
  CHECK(length > 0);
}
