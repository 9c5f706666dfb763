// SPDX-License-Identifier: Apache-2.0
// island_hulls as it was before its convex hulls were made once per search (uncut_island_hulls, then
// cut_island_hulls per corner count) and before a cut recomputed only the four edges it moved: kept
// verbatim as the reference the faster hulls must reproduce corner for corner, over traced outlines
// of many images and hundreds of star islands, at several corner counts and frames.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "geometry/island_hull_steps.h"
#include "geometry/predicates.h"
#include "masks.h"
#include "rig2d/geometry/contour.h"
#include "rig2d/geometry/island_hulls.h"

using rig2d::ClipFrame;
using rig2d::Image;
using rig2d::Ring;
using rig2d::Vec2;

namespace {
namespace hulls_reference {

double shoelace(const Ring& r) {
  double s = 0;
  for (std::size_t i = 0, n = r.size(); i < n; ++i) s += r[i].x * r[(i + 1) % n].y - r[(i + 1) % n].x * r[i].y;
  return s;
}

// Andrew's monotone chain with exact orientations: corners counter-clockwise with y up (a positive
// shoelace sum), collinear points dropped.
Ring convex_hull(std::vector<Vec2> pts) {
  std::sort(pts.begin(), pts.end(), [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  pts.erase(std::unique(pts.begin(), pts.end(), [](Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }), pts.end());
  if (pts.size() < 3) return pts;
  Ring hull(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && rig2d::detail::orient2d(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && rig2d::detail::orient2d(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k - 1);
  return hull;
}

bool inside_frame(Vec2 p, const ClipFrame& frame) {
  return p.x >= 0 && p.y >= 0 && p.x <= frame.width && p.y <= frame.height;
}

// Removing edge (b, c) of the convex polygon ... a, b, c, d ...: lines (a, b) and (d, c) meet at p
// beyond the edge when they converge; the triangle (b, p, c) is the area added. False when they do
// not converge (parallel or diverging).
bool meet(Vec2 a, Vec2 b, Vec2 c, Vec2 d, Vec2& p, double& added) {
  const Vec2 u{b.x - a.x, b.y - a.y}, v{c.x - d.x, c.y - d.y};
  const double den = u.x * v.y - u.y * v.x;
  if (!(std::fabs(den) > 1e-12 * (std::hypot(u.x, u.y) * std::hypot(v.x, v.y)))) return false;
  const double t = ((c.x - b.x) * v.y - (c.y - b.y) * v.x) / den;  // p = b + t u
  if (!(t > 0) || !std::isfinite(t)) return false;
  p = {b.x + t * u.x, b.y + t * u.y};
  if (!(rig2d::detail::orient2d(b, c, p) < 0)) return false;  // p must lie outside the edge (b, c)
  added = 0.5 * std::fabs((p.x - b.x) * (c.y - b.y) - (p.y - b.y) * (c.x - b.x));
  return std::isfinite(added);
}

struct Box {
  double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
};

Box box_of(const Ring& r) {
  Box b;
  for (const Vec2& p : r) b = {std::min(b.x0, p.x), std::min(b.y0, p.y), std::max(b.x1, p.x), std::max(b.y1, p.y)};
  return b;
}

bool boxes_meet(const Box& a, const Box& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

// Separating axis test for two convex polygons (any winding): false when an edge of either separates
// them, touching included.
bool overlap(const Ring& p, const Ring& q) {
  for (const Ring* r : {&p, &q}) {
    for (std::size_t i = 0, n = r->size(); i < n; ++i) {
      const Vec2 a = (*r)[i], b = (*r)[(i + 1) % n];
      const Vec2 axis{a.y - b.y, b.x - a.x};
      double pmin = HUGE_VAL, pmax = -HUGE_VAL, qmin = HUGE_VAL, qmax = -HUGE_VAL;
      for (const Vec2& v : p) {
        const double s = v.x * axis.x + v.y * axis.y;
        pmin = std::min(pmin, s);
        pmax = std::max(pmax, s);
      }
      for (const Vec2& v : q) {
        const double s = v.x * axis.x + v.y * axis.y;
        qmin = std::min(qmin, s);
        qmax = std::max(qmax, s);
      }
      if (pmax <= qmin || qmax <= pmin) return false;
    }
  }
  return true;
}

// Cuts hull `self` (counter-clockwise with y up, convex) down to `max_corners` by enclosing edge
// removals, never onto another hull: the triangle a cut adds may not overlap any of `others`.
void cut_corners(std::vector<Ring>& hulls, std::vector<Box>& boxes, std::size_t self, std::size_t max_corners,
                 const ClipFrame& frame) {
  Ring& hull = hulls[self];
  while (hull.size() > max_corners && hull.size() > 3) {
    const std::size_t n = hull.size();
    std::size_t best = n;
    double best_added = std::numeric_limits<double>::infinity();
    Vec2 best_p{};
    for (std::size_t i = 0; i < n; ++i) {  // edge (hull[i], hull[i + 1])
      const Vec2 a = hull[(i + n - 1) % n], b = hull[i], c = hull[(i + 1) % n], d = hull[(i + 2) % n];
      Vec2 p;
      double added = 0;
      if (!meet(a, b, c, d, p, added) || !inside_frame(p, frame) || !(added < best_added)) continue;
      const Ring cut{b, p, c};
      const Box cut_box = box_of(cut);
      bool clear = true;
      for (std::size_t k = 0; k < hulls.size() && clear; ++k)
        clear = k == self || hulls[k].size() < 3 || !boxes_meet(cut_box, boxes[k]) || !overlap(cut, hulls[k]);
      if (!clear) continue;
      best = i;
      best_added = added;
      best_p = p;
    }
    if (best == n) break;
    hull[best] = best_p;
    hull.erase(hull.begin() + static_cast<std::ptrdiff_t>((best + 1) % n));
  }
  boxes[self] = box_of(hull);
}

std::vector<Ring> island_hulls(const std::vector<Ring>& rings, std::size_t max_corners, const ClipFrame& frame) {
  max_corners = std::max<std::size_t>(3, max_corners);
  // Each hull keeps the points it was made from, so a merge takes the hull of both islands' points.
  std::vector<std::vector<Vec2>> sources;
  for (const Ring& r : rings)
    if (r.size() >= 3 && shoelace(r) < 0) sources.push_back(r);
  std::vector<Ring> hulls;
  for (const auto& s : sources) hulls.push_back(convex_hull(s));
  // Islands whose own hulls overlap share one (each merge removes one, so this ends).
  for (bool merged = true; merged;) {
    merged = false;
    for (std::size_t i = 0; i < hulls.size() && !merged; ++i)
      for (std::size_t j = i + 1; j < hulls.size() && !merged; ++j) {
        if (hulls[i].size() < 3 || hulls[j].size() < 3 || !overlap(hulls[i], hulls[j])) continue;
        sources[i].insert(sources[i].end(), sources[j].begin(), sources[j].end());
        sources.erase(sources.begin() + static_cast<std::ptrdiff_t>(j));
        hulls.erase(hulls.begin() + static_cast<std::ptrdiff_t>(j));
        hulls[i] = convex_hull(sources[i]);
        merged = true;
      }
  }
  // Then each loses corners, in order, onto no other hull.
  std::vector<Box> boxes;
  for (const Ring& h : hulls) boxes.push_back(box_of(h));
  for (std::size_t i = 0; i < hulls.size(); ++i) cut_corners(hulls, boxes, i, max_corners, frame);
  for (Ring& h : hulls) std::reverse(h.begin(), h.end());  // wound as an island (negative shoelace)
  return hulls;
}

}  // namespace hulls_reference

std::vector<Ring> hulls_reference_stars(double cell, int side) {
  std::vector<Ring> stars;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      Ring s;
      const int spikes = 3 + (r * side + c) % 9;
      const Vec2 centre{(c + 0.5) * cell, (r + 0.5) * cell};
      for (int k = 0; k < 2 * spikes; ++k) {
        const double a = 3.14159265358979 * k / spikes + 0.1 * c, rad = k % 2 ? 6 : 19.5;
        s.push_back({centre.x + rad * std::cos(a), centre.y - rad * std::sin(a)});
      }
      stars.push_back(s);
    }
  return stars;
}

}  // namespace

TEST_CASE("island_hulls: the same corners as the reference, cut from hulls made once", "[outline][hulls]") {
  std::vector<std::pair<std::vector<Ring>, ClipFrame>> inputs;
  std::vector<Image> images;
  for (const auto& s : rig2d::test::property_sprites()) images.push_back(s.image);
  for (std::uint32_t seed = 1; seed <= 6; ++seed)
    images.push_back(rig2d::test::noise_sprite(60 + 13 * static_cast<int>(seed), 70, seed * 2654435761u, 3));
  for (const Image& im : images)
    for (const double margin : {0.0, 0.75, 3.0}) {
      auto traced = rig2d::trace_alpha_contours(im, {8, margin});
      REQUIRE(traced);
      inputs.push_back({*traced, ClipFrame{static_cast<double>(im.width), static_cast<double>(im.height)}});
    }
  for (const double cell : {100.0, 40.0, 30.0})
    inputs.push_back({hulls_reference_stars(cell, 8), ClipFrame{8 * cell, 8 * cell}});
  std::size_t corners_compared = 0, cut = 0;
  for (const auto& [rings, frame] : inputs) {
    const std::vector<Ring> uncut = rig2d::detail::uncut_island_hulls(rings);
    for (const std::size_t corners : {0, 3, 4, 5, 7, 12, 40, 1000}) {
      INFO(rings.size() << " rings in " << frame.width << "x" << frame.height << ", " << corners << " corners");
      const std::vector<Ring> want = hulls_reference::island_hulls(rings, corners, frame);
      CHECK(rig2d::island_hulls(rings, corners, frame) == want);
      CHECK(rig2d::detail::cut_island_hulls(uncut, corners, frame) == want);
      for (std::size_t i = 0; i < want.size() && i < uncut.size(); ++i) cut += want[i].size() < uncut[i].size();
      for (const Ring& h : want) corners_compared += h.size();
    }
  }
  CHECK(corners_compared > 5000);
  CHECK(cut > 500);  // the hulls were cut, not only compared whole
}

TEST_CASE("island_hulls: a hull's points sorted by column give the reference hull", "[outline][hulls]") {
  // One island each: a ring of many points, most of them on a few columns (vertical sides traced
  // down a pixel column, repeated points, quarter-pixel steps), a random scatter, and rings spread
  // over far more columns than points (sorted the plain way). The hull must be the reference's, bit
  // for bit.
  std::uint32_t state = 99;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  std::size_t compared = 0;
  for (int round = 0; round < 200; ++round) {
    const int n = 3 + static_cast<int>(next() % 300);
    const double spread = round % 5 == 4 ? 1000.0 * n : 0.5 + (next() % 40);
    std::vector<Vec2> pts;
    for (int k = 0; k < n; ++k) {
      const int kind = static_cast<int>(next() % 4);
      const double x = kind == 0 ? 7.5 : kind == 1 ? 7.5 + spread : 7.5 + (next() % 4096) / 4096.0 * spread;
      const double y = (next() % 256) / 4.0;
      pts.push_back({x, y});
      if (next() % 9 == 0) pts.push_back({x, y});  // a repeated point
    }
    // Wound as an island (negative shoelace): around the centroid, clockwise with y up.
    double cx = 0, cy = 0;
    for (const Vec2& p : pts) cx += p.x, cy += p.y;
    cx /= static_cast<double>(pts.size()), cy /= static_cast<double>(pts.size());
    std::stable_sort(pts.begin(), pts.end(), [&](Vec2 a, Vec2 b) {
      return std::atan2(a.y - cy, a.x - cx) > std::atan2(b.y - cy, b.x - cx);
    });
    if (hulls_reference::shoelace(pts) >= 0) continue;
    Ring want = hulls_reference::convex_hull(pts);
    std::reverse(want.begin(), want.end());  // as uncut_island_hulls winds it
    const std::vector<Ring> got = rig2d::detail::uncut_island_hulls({pts});
    CAPTURE(round, n, spread);
    REQUIRE(got.size() == 1);
    CHECK(got[0] == want);
    for (std::size_t i = 0; i < want.size() && i < got[0].size(); ++i)
      CHECK((std::signbit(got[0][i].x) == std::signbit(want[i].x) && std::signbit(got[0][i].y) == std::signbit(want[i].y)));
    ++compared;
  }
  CHECK(compared > 150);
}
