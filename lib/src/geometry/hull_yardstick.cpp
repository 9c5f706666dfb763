// SPDX-License-Identifier: Apache-2.0
// The yardstick of a hull search's candidates from their convex rings alone, without triangulating
// them. Any triangulation of a convex ring (no point added) covers the ring's polygon P exactly, up
// to rounding: its vertices move by the uv round trip (u = px / size, px = u * size: an ulp of the
// image's size) and its scanlines round their edge crossings (a few ulps of the size). Both stay
// under kSlack (1e-6 px) by orders of magnitude for any image side up to 1e6 px, so
// - every pixel centre the triangles can cover lies within kSlack of P's part near the centre's row,
//   and the transparent ones there bound the border from above;
// - every pixel whose square lies in P keeps a share of at least 1 - 1e-9 (its lost part is a strip
//   a few ulps wide), so those pixels' alpha bounds the alpha mass inside from below, and when every
//   opaque pixel is one of them, none is outside.
// When both bounds pass, so does the yardstick of the mesh; otherwise only the mesh can tell.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "geometry/outline_stages.h"
#include "geometry/predicates.h"
#include "image/alpha_runs.h"
#include "image/image_checks.h"

namespace rig2d::detail {
namespace {

constexpr double kSlack = 1e-6;   // px
constexpr double kMaxSide = 1e6;  // px: beyond it rounding is no longer far under kSlack

// A ring's extent at the heights t = y0 + k / 2: its slices at whole heights (even k), and at pixel
// centres' heights (odd k) the extent of its part within kSlack of that height. Walked edge by edge,
// as a scanline fill does.
struct HalfRowExtents {
  int y0 = 0;
  std::vector<double> lo, hi;  // lo > hi: nothing there

  void add(std::size_t k, double x0, double x1) {
    lo[k] = std::min(lo[k], x0);
    hi[k] = std::max(hi[k], x1);
  }
};

HalfRowExtents half_row_extents(const Ring& r, int y0, int y1) {
  HalfRowExtents e;
  e.y0 = y0;
  const std::size_t samples = 2 * static_cast<std::size_t>(y1 - y0) + 1;
  e.lo.assign(samples, HUGE_VAL);
  e.hi.assign(samples, -HUGE_VAL);
  const auto last = static_cast<double>(samples - 1);
  for (std::size_t i = 0, n = r.size(); i < n; ++i) {
    Vec2 p = r[i], q = r[(i + 1) % n];
    if (q.y < p.y) std::swap(p, q);
    // A centre's height within kSlack of an end: that end, widened by as far as the edge runs within
    // kSlack of the height (all of a level edge).
    const double slope = p.y == q.y ? 0 : (q.x - p.x) / (q.y - p.y);
    for (const Vec2 v : {p, q}) {
      const double c = std::floor(v.y - y0) + 0.5;  // the nearest centre's height, from y0
      if (!(std::fabs(c - (v.y - y0)) <= kSlack) || !(2 * c <= last)) continue;
      const auto k = static_cast<std::size_t>(2 * c);
      if (p.y == q.y) e.add(k, std::min(p.x, q.x), std::max(p.x, q.x));
      else e.add(k, v.x - std::fabs(slope) * kSlack, v.x + std::fabs(slope) * kSlack);
    }
    const double k_from = std::max(0.0, std::ceil(2 * (p.y - y0))), k_to = std::min(last, std::floor(2 * (q.y - y0)));
    for (double kd = k_from; kd <= k_to; ++kd) {
      const auto k = static_cast<std::size_t>(kd);
      const double t = y0 + 0.5 * kd;
      if (p.y == q.y) {
        e.add(k, std::min(p.x, q.x), std::max(p.x, q.x));
        continue;
      }
      const double x = std::clamp(t == p.y ? p.x : t == q.y ? q.x : p.x + (t - p.y) * slope, std::min(p.x, q.x),
                                  std::max(p.x, q.x));
      const double reach = k % 2 == 1 ? std::fabs(slope) * kSlack : 0;  // the edge within kSlack of a centre's height
      e.add(k, x - reach, x + reach);
    }
  }
  return e;
}

// The way a ring turns when it is a convex polygon with area (1 counter-clockwise with y up, -1
// clockwise), 0 when it is not: every corner turns the same way, and it winds once (its edges go up,
// then down: a star's corners turn the same way too, but it goes up and down more often).
int convex_turn(const Ring& r) {
  const std::size_t n = r.size();
  if (n < 3) return 0;
  double turn = 0;  // the sign every corner turns with (0: none seen yet)
  int first = 0, last = 0, changes = 0;  // signs of the first and last edges that are not level
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = r[i], b = r[(i + 1) % n], c = r[(i + 2) % n];
    const double o = orient2d(a, b, c);
    if (o != 0) {
      if (turn != 0 && (o > 0) != (turn > 0)) return 0;
      turn = o;
    }
    const int dir = (b.y > a.y) - (b.y < a.y);
    if (dir == 0) continue;
    if (first == 0) first = dir;
    changes += last != 0 && dir != last;
    last = dir;
  }
  changes += first != last;
  return turn == 0 || changes != 2 ? 0 : turn > 0 ? 1 : -1;
}

// Whether two convex rings (turning `ta` and `tb`) share no inside point: some edge of one has the
// other wholly on its outer side or on its line (exact orientations).
bool insides_apart(const Ring& a, int ta, const Ring& b, int tb) {
  for (const auto& [p, tp, q] : {std::tuple{&a, ta, &b}, std::tuple{&b, tb, &a}}) {
    for (std::size_t i = 0, n = p->size(); i < n; ++i) {
      const Vec2 u = (*p)[i], v = (*p)[(i + 1) % n];
      if (std::all_of(q->begin(), q->end(), [&](Vec2 x) { return tp * orient2d(u, v, x) <= 0; })) return true;
    }
  }
  return false;
}

struct RingBox {
  double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
};

}  // namespace

HullYardstick::HullYardstick(const Image& image, int alpha_threshold, double outline_length, double max_border)
    : image_(image), threshold_(alpha_threshold), outline_length_(outline_length), max_border_(max_border) {
  usable_ = image_well_formed(image) && image.width <= kMaxSide && image.height <= kMaxSide;
  if (usable_) all_flagged_.assign(static_cast<std::size_t>(image.width), 1);
}

bool HullYardstick::surely_within(const std::vector<Ring>& rings) {
  if (!usable_) return false;
  const int w = image_.width, h = image_.height;
  // Each ring a convex polygon in the frame, no two sharing an inside point (so no pixel's square
  // lies in two, and the triangulation's even-odd fill is each one's inside).
  std::vector<RingBox> boxes;
  std::vector<int> turns;
  for (std::size_t i = 0; i < rings.size(); ++i) {
    RingBox b;
    for (const Vec2& p : rings[i]) b = {std::min(b.x0, p.x), std::min(b.y0, p.y), std::max(b.x1, p.x), std::max(b.y1, p.y)};
    if (!(b.x0 >= 0 && b.y0 >= 0 && b.x1 <= w && b.y1 <= h)) return false;  // NaN fails too
    const int turn = convex_turn(rings[i]);
    if (turn == 0) return false;
    for (std::size_t k = 0; k < i; ++k) {
      const RingBox& o = boxes[k];
      const bool boxes_apart = b.x1 < o.x0 || o.x1 < b.x0 || b.y1 < o.y0 || o.y1 < b.y0;
      if (!boxes_apart && !insides_apart(rings[i], turn, rings[k], turns[k])) return false;
    }
    boxes.push_back(b);
    turns.push_back(turn);
  }
  std::vector<HalfRowExtents> extents;
  for (std::size_t i = 0; i < rings.size(); ++i)
    extents.push_back(half_row_extents(rings[i], static_cast<int>(std::floor(boxes[i].y0)),
                                       static_cast<int>(std::ceil(boxes[i].y1))));
  const std::uint8_t* rgba = image_.rgba.data();
  const auto row_at = [&](int y, int x) {
    return rgba + 4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x));
  };
  // The border first: the transparent centres the triangles may cover, x + 0.5 within kSlack of P's
  // part near the centre's height.
  std::uint64_t transparent = 0;
  for (const HalfRowExtents& e : extents) {
    for (std::size_t k = 1; k < e.lo.size(); k += 2) {
      const int y = e.y0 + static_cast<int>(k / 2);
      if (!(e.lo[k] <= e.hi[k]) || y >= h) continue;
      const int x0 = static_cast<int>(std::max(0.0, std::ceil(e.lo[k] - kSlack - 0.5)));
      const int x1 = static_cast<int>(std::min(w - 1.0, std::floor(e.hi[k] + kSlack - 0.5)));
      if (x0 > x1) continue;
      transparent += flagged_at_most(row_at(y, x0), all_flagged_.data(), static_cast<std::size_t>(x1 - x0 + 1), threshold_);
      // The count only grows: once over the border, the rest of the rows cannot bring it back.
      if (!(border_per_outline(transparent, outline_length_) <= max_border_)) return false;
    }
  }
  // Then the pixels whose square lies in P: in the convex P when its column lies in P's slices at
  // both its edges.
  std::uint64_t kept_mass = 0, kept_opaque = 0;
  for (const HalfRowExtents& e : extents) {
    for (std::size_t k = 0; k + 2 < e.lo.size(); k += 2) {
      const int y = e.y0 + static_cast<int>(k / 2);
      const double lo = std::max(e.lo[k], e.lo[k + 2]), hi = std::min(e.hi[k], e.hi[k + 2]);
      const int x0 = static_cast<int>(std::max(0.0, std::ceil(lo)));
      const int x1 = static_cast<int>(std::min(static_cast<double>(w), std::floor(hi)));
      if (!(lo <= hi) || x0 >= x1 || y >= h) continue;
      alpha_sum_and_high_count(row_at(y, x0), static_cast<std::size_t>(x1 - x0), kept_mass, kept_opaque);
    }
  }
  static_assert(kYardstickOpaqueAlpha == 128, "alpha_sum_and_high_count counts alpha >= 128");
  if (!summed_) {  // the image's totals, once a candidate gets this far
    alpha_sum_and_high_count(rgba, static_cast<std::size_t>(w) * static_cast<std::size_t>(h), mass_, opaque_);
    summed_ = true;
  }
  if (kept_opaque != opaque_) return false;
  // alpha_mass_within's test, with the kept pixels' mass for its sum of shares.
  return alpha_mass_surely_kept(static_cast<double>(kept_mass) * (1 - 1e-6), mass_, w, h);
}

}  // namespace rig2d::detail
