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
// When both bounds pass, so does the yardstick of the mesh. The other way, every pixel centre at least
// kInnerSlack inside P and as far from every chord between two of its points (the triangles' shared
// sides, which two triangles round apart, and the needles the triangulation drops lie along them) is
// covered, so its transparent ones bound the border from below: when that is over, the mesh fails.
// Otherwise only the mesh can tell.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define RIG2D_HULL_AVX2 1
#define RIG2D_HULL_AVX2_FN __attribute__((target("avx2")))
#endif

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
      const int turn = tp;  // a structured binding is not captured by a lambda before clang 16
      if (std::all_of(q->begin(), q->end(), [&](Vec2 x) { return turn * orient2d(u, v, x) <= 0; })) return true;
    }
  }
  return false;
}

struct RingBox {
  double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;

  bool in_frame(int w, int h) const { return x0 >= 0 && y0 >= 0 && x1 <= w && y1 <= h; }  // NaN fails too
  bool apart_from(const RingBox& o) const { return x1 < o.x0 || o.x1 < x0 || y1 < o.y0 || o.y1 < y0; }
};

RingBox box_of(const Ring& r) {
  RingBox b;
  for (const Vec2& p : r) b = {std::min(b.x0, p.x), std::min(b.y0, p.y), std::max(b.x1, p.x), std::max(b.y1, p.y)};
  return b;
}

// Pixel (x, y)'s RGBA and those after it on its row.
const std::uint8_t* pixel_at(const Image& image, int y, int x) {
  return image.rgba.data() +
         4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x));
}

// Far above the rounding of the uv round trip and of the scanlines (under 1e-9 px up to kMaxSide), and
// above the height of a needle the triangulation drops (1e-12 of its longest side: under 2e-6 px).
constexpr double kInnerSlack = 1e-4;  // px

// The centres x0 <= x <= x1 (x0 > x1: none) of each pixel row y0 + i of a convex ring whose square of
// half side kInnerSlack around the centre, widened by as much again across the row, lies in the ring:
// between its slices at heights y + 0.5 -/+ kInnerSlack (a convex ring's slice bounds are convex and
// concave in the height, so those two heights bound the ones between). Walked edge by edge.
struct InnerRows {
  int y0 = 0;
  std::vector<int> x0, x1;
};

InnerRows inner_rows(const Ring& r, int y0, int y1, int w) {
  const auto rows = static_cast<std::size_t>(std::max(0, y1 - y0));
  std::vector<double> lo(2 * rows, HUGE_VAL), hi(2 * rows, -HUGE_VAL);
  for (std::size_t i = 0, n = r.size(); i < n; ++i) {
    Vec2 p = r[i], q = r[(i + 1) % n];
    if (q.y < p.y) std::swap(p, q);
    if (!(p.y < q.y)) continue;  // a level edge: its ends are on the edges next to it
    const int from = std::max(y0, static_cast<int>(std::ceil(p.y - 0.5 - kInnerSlack)));
    const int to = std::min(y1 - 1, static_cast<int>(std::floor(q.y - 0.5 + kInnerSlack)));
    for (int y = from; y <= to; ++y)
      for (int side = 0; side < 2; ++side) {
        const double t = y + 0.5 + (side == 0 ? -kInnerSlack : kInnerSlack);
        if (!(t >= p.y && t <= q.y)) continue;
        const double x =
            std::clamp(p.x + (t - p.y) * (q.x - p.x) / (q.y - p.y), std::min(p.x, q.x), std::max(p.x, q.x));
        const std::size_t k = 2 * static_cast<std::size_t>(y - y0) + static_cast<std::size_t>(side);
        lo[k] = std::min(lo[k], x);
        hi[k] = std::max(hi[k], x);
      }
  }
  InnerRows in;
  in.y0 = y0;
  in.x0.assign(rows, 1);
  in.x1.assign(rows, 0);
  for (std::size_t i = 0; i < rows; ++i) {
    const double left = std::max(lo[2 * i], lo[2 * i + 1]) + 2 * kInnerSlack;
    const double right = std::min(hi[2 * i], hi[2 * i + 1]) - 2 * kInnerSlack;
    if (!(left <= right)) continue;
    in.x0[i] = static_cast<int>(std::max(0.0, std::ceil(left - 0.5)));
    in.x1[i] = static_cast<int>(std::min(w - 1.0, std::floor(right - 0.5)));
  }
  return in;
}

// Where a chord's line crosses the row of centres at height cy.
struct ChordLine {
  double ax, ay, slope;
  double x(double cy) const { return ax + (cy - ay) * slope; }
};

// Whether x is within `reach` of a centre's x (x - 0.5 an integer); x >= 0 (the ring is in the
// frame), so the cast rounds x - 0.5 to the nearest integer.
bool near_centre_x(double x, double reach) {
  return std::fabs(x - 0.5 - static_cast<double>(static_cast<std::int64_t>(x))) <= reach;
}

// The rows i of [from, to], centres at height cy0 + (i - from), whose crossing is near_centre_x, four
// rows at a time: their indices are appended to `rows` (the rounding down is the cast's for x >= 0).
#if defined(RIG2D_HULL_AVX2)
RIG2D_HULL_AVX2_FN void four_rows_near(const ChordLine& line, int from, int to, double cy0, double reach,
                                       std::vector<int>& rows) {
  const __m256d ax = _mm256_set1_pd(line.ax), ay = _mm256_set1_pd(line.ay), slope = _mm256_set1_pd(line.slope);
  const __m256d half = _mm256_set1_pd(0.5), bound = _mm256_set1_pd(reach), sign = _mm256_set1_pd(-0.0);
  __m256d cy = _mm256_add_pd(_mm256_set1_pd(cy0), _mm256_set_pd(3, 2, 1, 0));
  const __m256d four = _mm256_set1_pd(4);
  int i = from;
  for (; i + 3 <= to; i += 4, cy = _mm256_add_pd(cy, four)) {
    const __m256d x = _mm256_add_pd(ax, _mm256_mul_pd(_mm256_sub_pd(cy, ay), slope));
    const __m256d off = _mm256_sub_pd(_mm256_sub_pd(x, half), _mm256_floor_pd(x));
    const int hits = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_andnot_pd(sign, off), bound, _CMP_LE_OQ));
    if (hits == 0) continue;  // nearly always
    for (int k = 0; k < 4; ++k)
      if (hits & (1 << k)) rows.push_back(i + k);
  }
  for (double c = cy0 + (i - from); i <= to; ++i, ++c)
    if (near_centre_x(line.x(c), reach)) rows.push_back(i);
}
#endif

// The centres of `in` within reach of chord (a, b): those within 2 kInnerSlack (1 + |run / rise|) across
// the row of where its line crosses it (at least kInnerSlack of distance, the slope's stretch bounded
// by 1 + |slope|), on the rows within reach of its heights; calls near(y, x) for each. The rows whose
// crossing is not that near a centre's x are passed over first, four at a time where the CPU can.
template <typename Near>
void centres_near_chord(const InnerRows& in, Vec2 a, Vec2 b, std::vector<int>& rows, Near&& near) {
  if (b.y < a.y) std::swap(a, b);
  const int last = static_cast<int>(in.x0.size()) - 1;
  const int from = std::max(0, static_cast<int>(std::ceil(a.y - 0.5 - kInnerSlack)) - in.y0);
  const int to = std::min(last, static_cast<int>(std::floor(b.y - 0.5 + kInnerSlack)) - in.y0);
  if (from > to) return;
  const double rise = b.y - a.y;
  const ChordLine line{a.x, a.y, rise > 0 ? (b.x - a.x) / rise : 0};
  const double reach = rise > 0 ? 2 * kInnerSlack * (1 + std::fabs(line.slope)) : HUGE_VAL;  // level: all of it
  const double cy0 = in.y0 + from + 0.5;
  rows.clear();
  if (!(reach < 0.25)) {
    for (int i = from; i <= to; ++i) rows.push_back(i);
  } else {
#if defined(RIG2D_HULL_AVX2)
    if (__builtin_cpu_supports("avx2")) {
      four_rows_near(line, from, to, cy0, reach, rows);
    } else
#endif
    {
      for (int i = from; i <= to; ++i)
        if (near_centre_x(line.x(cy0 + (i - from)), reach)) rows.push_back(i);
    }
  }
  const double x_lo = std::min(a.x, b.x) - 2 * kInnerSlack, x_hi = std::max(a.x, b.x) + 2 * kInnerSlack;
  for (const int i : rows) {
    const double x = rise > 0 ? line.x(cy0 + (i - from)) : a.x;
    const auto row = static_cast<std::size_t>(i);
    const int x0 = std::max(in.x0[row], static_cast<int>(std::ceil(std::max(x_lo, x - reach) - 0.5)));
    const int x1 = std::min(in.x1[row], static_cast<int>(std::floor(std::min(x_hi, x + reach) - 0.5)));
    for (int c = x0; c <= x1; ++c) near(in.y0 + i, c);
  }
}

// The transparent centres (alpha at most `threshold`) that every mesh of the convex rings covers, at
// least (rings in the frame, convex, their boxes given and apart: the triangles inside each have
// its own points for corners).
std::uint64_t surely_covered_transparent(const Image& image, int threshold, const std::uint8_t* all_flagged,
                                         const std::vector<Ring>& rings, const std::vector<RingBox>& boxes) {
  const int w = image.width;
  std::uint64_t count = 0, near = 0;
  std::vector<int> near_rows;
  for (std::size_t r = 0; r < rings.size(); ++r) {
    const InnerRows in = inner_rows(rings[r], static_cast<int>(std::floor(boxes[r].y0)),
                                    std::min(image.height, static_cast<int>(std::ceil(boxes[r].y1))), w);
    for (std::size_t i = 0; i < in.x0.size(); ++i)
      if (in.x0[i] <= in.x1[i])
        count += flagged_at_most(pixel_at(image, in.y0 + static_cast<int>(i), in.x0[i]), all_flagged,
                                 static_cast<std::size_t>(in.x1[i] - in.x0[i] + 1), threshold);
    // Each chord's transparent centres taken off, one chord at a time (a centre near two is taken twice:
    // the bound only gets lower).
    const Ring& p = rings[r];
    for (std::size_t i = 0; i < p.size(); ++i)
      for (std::size_t j = i + 2; j < p.size() && !(i == 0 && j + 1 == p.size()); ++j)
        centres_near_chord(in, p[i], p[j], near_rows, [&](int y, int x) { near += pixel_at(image, y, x)[3] <= threshold; });
  }
  return count > near ? count - near : 0;
}

// Beyond when the transparent centres every mesh of the rings covers are already over the border.
HullVerdict beyond_border(const Image& image, int threshold, const std::uint8_t* all_flagged, double outline_length,
                          double max_border, const std::vector<Ring>& rings, const std::vector<RingBox>& boxes) {
  // Each chord is walked over its rows: worth it while that costs less than a mesh and its yardstick
  // over the image (a hull of many corners has chords by the hundred).
  double chord_rows = 0;
  for (std::size_t i = 0; i < rings.size(); ++i) {
    const auto n = static_cast<double>(rings[i].size());
    chord_rows += 0.5 * n * std::max(0.0, n - 3) * (boxes[i].y1 - boxes[i].y0 + 1);
  }
  if (!(chord_rows <= 4.0 * image.width * image.height)) return HullVerdict::Unsure;
  const std::uint64_t covered = surely_covered_transparent(image, threshold, all_flagged, rings, boxes);
  return border_per_outline(covered, outline_length) <= max_border ? HullVerdict::Unsure : HullVerdict::Beyond;
}

}  // namespace

HullYardstick::HullYardstick(const Image& image, int alpha_threshold, double outline_length, double max_border)
    : image_(image), threshold_(alpha_threshold), outline_length_(outline_length), max_border_(max_border) {
  usable_ = image_well_formed(image) && image.width <= kMaxSide && image.height <= kMaxSide;
  if (usable_) all_flagged_.assign(static_cast<std::size_t>(image.width), 1);
}

bool HullYardstick::surely_within(const std::vector<Ring>& rings) { return judge(rings) == HullVerdict::Within; }

bool HullYardstick::surely_beyond_inside(const std::vector<Ring>& rings, double factor) {
  if (!usable_) return false;
  const int w = image_.width, h = image_.height;
  std::vector<RingBox> boxes;
  std::vector<std::size_t> order;
  for (std::size_t r = 0; r < rings.size(); ++r) {
    boxes.push_back(box_of(rings[r]));
    if (boxes[r].in_frame(w, h) && convex_turn(rings[r]) != 0) order.push_back(r);
  }
  const auto box_area = [&](std::size_t r) { return (boxes[r].x1 - boxes[r].x0) * (boxes[r].y1 - boxes[r].y0); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return box_area(a) > box_area(b); });
  // The largest rings whose boxes are apart, so no centre is counted twice; the others are left out,
  // which only lowers the count.
  std::vector<std::size_t> kept;
  for (const std::size_t r : order) {
    if (std::all_of(kept.begin(), kept.end(), [&](std::size_t k) { return boxes[r].apart_from(boxes[k]); }))
      kept.push_back(r);
  }
  std::uint64_t transparent = 0;
  for (const std::size_t r : kept) {
    const InnerRows in = inner_rows(rings[r], static_cast<int>(std::floor(boxes[r].y0)),
                                    std::min(h, static_cast<int>(std::ceil(boxes[r].y1))), w);
    for (std::size_t i = 0; i < in.x0.size(); ++i) {
      if (in.x0[i] > in.x1[i]) continue;
      transparent += flagged_at_most(pixel_at(image_, in.y0 + static_cast<int>(i), in.x0[i]), all_flagged_.data(),
                                     static_cast<std::size_t>(in.x1[i] - in.x0[i] + 1), threshold_);
      if (!(border_per_outline(transparent, outline_length_) <= factor * max_border_)) return true;
    }
  }
  return false;
}

HullVerdict HullYardstick::judge(const std::vector<Ring>& rings) {
  if (!usable_) return HullVerdict::Unsure;
  const int w = image_.width, h = image_.height;
  // Each ring a convex polygon in the frame, no two sharing an inside point (so no pixel's square
  // lies in two, and the triangulation's even-odd fill is each one's inside).
  std::vector<RingBox> boxes;
  std::vector<int> turns;
  bool apart = true;  // every two rings' boxes apart: no ring's point lies on another's side
  for (std::size_t i = 0; i < rings.size(); ++i) {
    const RingBox b = box_of(rings[i]);
    if (!b.in_frame(w, h)) return HullVerdict::Unsure;
    const int turn = convex_turn(rings[i]);
    if (turn == 0) return HullVerdict::Unsure;
    for (std::size_t k = 0; k < i; ++k) {
      const bool boxes_apart = b.apart_from(boxes[k]);
      if (!boxes_apart && !insides_apart(rings[i], turn, rings[k], turns[k])) return HullVerdict::Unsure;
      apart = apart && boxes_apart;
    }
    boxes.push_back(b);
    turns.push_back(turn);
  }
  std::vector<HalfRowExtents> extents;
  for (std::size_t i = 0; i < rings.size(); ++i)
    extents.push_back(half_row_extents(rings[i], static_cast<int>(std::floor(boxes[i].y0)),
                                       static_cast<int>(std::ceil(boxes[i].y1))));
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
      transparent += flagged_at_most(pixel_at(image_, y, x0), all_flagged_.data(), static_cast<std::size_t>(x1 - x0 + 1), threshold_);
      // The count only grows: once over the border, the rest of the rows cannot bring it back.
      // Rings that touch may split each other's sides, and their triangles then have corners of both.
      if (!(border_per_outline(transparent, outline_length_) <= max_border_))
        return apart ? beyond_border(image_, threshold_, all_flagged_.data(), outline_length_, max_border_, rings, boxes)
                     : HullVerdict::Unsure;
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
      alpha_sum_and_high_count(pixel_at(image_, y, x0), static_cast<std::size_t>(x1 - x0), kept_mass, kept_opaque);
    }
  }
  static_assert(kYardstickOpaqueAlpha == 128, "alpha_sum_and_high_count counts alpha >= 128");
  if (!summed_) {  // the image's totals, once a candidate gets this far
    alpha_sum_and_high_count(image_.rgba.data(), static_cast<std::size_t>(w) * static_cast<std::size_t>(h), mass_, opaque_);
    summed_ = true;
  }
  if (kept_opaque != opaque_) return HullVerdict::Unsure;
  // alpha_mass_within's test, with the kept pixels' mass for its sum of shares.
  return alpha_mass_surely_kept(static_cast<double>(kept_mass) * (1 - 1e-6), mass_, w, h) ? HullVerdict::Within
                                                                                         : HullVerdict::Unsure;
}

}  // namespace rig2d::detail
