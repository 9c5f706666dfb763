// SPDX-License-Identifier: Apache-2.0
// `--template auto`'s second look at a fit that scores well: does the shape have the parts the
// template's kind is made of where the fit put them? A wrong template is worse than none: a clip for
// a fish swimming a bush, or a walk cycle swinging a bunny's ears as arms, is a broken rig.
#include "skeleton/templates/template_auto.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace rig2d::detail {
namespace {

// A head is at least this fraction of the body's width (a chibi's is wider than its body; an
// adult's about half its torso with the arms at its sides). Narrower, the part is an ear, a horn
// or a wing tip.
constexpr double kHeadWidth = 0.3;
// A fish's tail fin is at least this much taller (across the body's axis) than the narrowest
// place between it and the body, and so is the body: the tail narrows behind the body and fans out
// into a fin.
constexpr double kFinFlare = 1.4;
// ... that narrowest place is looked for between these fractions of the way from the body to the fin.
constexpr double kFinFrom = 0.3, kFinTo = 0.85;
// A quadruped's legs stand at least this many body depths apart (the body is horizontal).
constexpr double kQuadrupedLength = 1.0;
// A snake is at least this many times as long as it is wide.
constexpr double kSnakeLength = 3.0;
// A tree's trunk is at most this fraction of its crown's width.
constexpr double kTrunkWidth = 0.7;
// ... and its crown overhangs it: somewhere on the way up, the shape widens by at least this many
// times the height climbed (its outline leaving the trunk's line at 27 degrees or more on each side),
// over a climb of the trunk's width. A limb part (a sleeved arm) widens gradually towards its top.
constexpr double kCrownOverhang = 1.0;

double dist(Vec2 a, Vec2 b) { return std::hypot(a.x - b.x, a.y - b.y); }

std::string px(double v) {
  char text[24];
  std::snprintf(text, sizeof text, "%.0f px", v);
  return text;
}
std::string ratio(double v) {
  char text[24];
  std::snprintf(text, sizeof text, "%.2f", v);
  return text;
}

using How = FitPlacement::How;

struct Look {
  const SkeletonTemplate& t;
  const FitPlacement& p;
  const ShapeAxis& shape;
  const HalfWidthField& field;

  std::optional<std::size_t> bone(std::string_view name) const {
    for (std::size_t b = 0; b < t.bones.size(); ++b)
      if (t.bones[b].name == name && p.how[b] != How::Omitted) return b;
    return std::nullopt;
  }
  std::optional<std::size_t> partner(std::size_t b) const {
    for (const auto& [l, r] : t.symmetry) {
      if (l == b) return r;
      if (r == b) return l;
    }
    return std::nullopt;
  }
  // Where a tip bone's part ends: its matched extremity, else its joint.
  Vec2 end_of(std::size_t b) const { return p.tip_found[b] ? p.tip_end[b] : p.at[b]; }
  // The body's half-width: the widest of the joints from b's parent up to the root (narrow joints,
  // a neck, left out).
  double body_width(std::size_t b) const {
    double w = 0;
    for (std::int64_t k = t.bones[b].parent; k >= 0; k = t.bones[static_cast<std::size_t>(k)].parent)
      if (!t.bones[static_cast<std::size_t>(k)].narrow) w = std::max(w, field.at(p.at[static_cast<std::size_t>(k)]));
    return w;
  }

  std::string forced() const {
    std::string names;
    for (std::size_t b = 0; b < t.bones.size(); ++b)
      if (p.how[b] == How::Forced) names += (names.empty() ? "" : ", ") + t.bones[b].name;
    return names.empty() ? names : "the shape shows nothing of " + names + " (placed from the proportions alone)";
  }

  // A rigid prop is for a shape without limbs; one with extremities gets bones that bend them.
  std::string rigid() const {
    if (t.bones.size() != 1 || p.shape_ends == 0) return {};
    return "the shape has " + std::to_string(p.shape_ends) + (p.shape_ends == 1 ? " extremity" : " extremities") +
           " to bend, a rigid prop none";
  }

  std::string head() const {
    const auto h = bone("head");
    if (!h || t.bones[*h].parent < 0 || p.how[*h] != How::Shape) return {};
    const double head = field.widest(p.at[*h], end_of(*h)), body = body_width(*h);
    if (body <= 0 || head >= kHeadWidth * body) return {};
    return "its head is " + ratio(head / body) + " of its body's width (under " + ratio(kHeadWidth) +
           "): an ear, a horn or a wing, not a head";
  }

  // Paired required extremities (feet) are limbs of their own: of each pair at least one ends the
  // shape (the other may be drawn against it, or kicking), rather than both being places on the
  // body's outline.
  std::string feet() const {
    for (std::size_t b = 0; b < t.bones.size(); ++b) {
      const TemplateBone& bone = t.bones[b];
      const auto m = partner(b);
      if (!bone.tip || bone.optional || bone.over_body || !m || p.how[b] != How::Shape || p.tip_at_end[b]) continue;
      if (p.how[*m] == How::Shape && p.tip_found[*m] && p.tip_at_end[*m]) continue;
      return bone.name + " is no extremity of the shape, nor is its pair's: no limb leaves the body there";
    }
    return {};
  }

  // A fish's tail fans out into a fin behind a narrow stalk.
  std::string fin() const {
    const auto body = bone("body"), fin = bone("tail_fin");
    if (!body || !fin) return {};
    const Vec2 from = p.at[*body], to = end_of(*fin);
    const double len = dist(from, to);
    if (len < 2) return "its tail is no longer than 2 px";
    const Vec2 d{(to.x - from.x) / len, (to.y - from.y) / len};
    const double reach = shape.width + shape.height;
    auto across = [&](double s) { return field.across({from.x + d.x * s, from.y + d.y * s}, d, reach); };
    double stalk = 1e300, stalk_at = kFinFrom * len;
    for (double s = kFinFrom * len; s <= kFinTo * len; s += 0.5)
      if (const double a = across(s); a < stalk) stalk = a, stalk_at = s;
    double flare = 0;
    for (double s = stalk_at; s <= len; s += 0.5) flare = std::max(flare, across(s));
    if (flare < kFinFlare * stalk)
      return "no tail fin: the tail is " + px(flare) + " across at its widest behind a " + px(stalk) +
             " stalk (a fin is at least " + ratio(kFinFlare) + " times as wide)";
    if (const double trunk = across(0); trunk < kFinFlare * stalk)
      return "no body before the tail: " + px(trunk) + " across where the tail is " + px(stalk) + " (a body is at least " +
             ratio(kFinFlare) + " times as wide)";
    return {};
  }

  std::string horizontal_body() const {
    const auto front = bone("front_leg_l"), back = bone("back_leg_l");
    if (!front || !back || p.how[*front] != How::Shape || p.how[*back] != How::Shape) return {};
    const double depth = 2 * std::max(body_width(*front), body_width(*back)), apart = dist(p.at[*front], p.at[*back]);
    if (apart >= kQuadrupedLength * depth) return {};
    return "its legs stand " + px(apart) + " apart under a body " + px(depth) +
           " deep: a quadruped's body is longer than deep";
  }

  std::string long_and_thin() const {
    if (t.name != "snake") return {};
    double length = 0, width = 0;
    for (std::size_t b = 0; b < t.bones.size(); ++b) {
      if (p.how[b] == How::Omitted) continue;
      width = std::max(width, 2 * field.at(p.at[b]));
      if (t.bones[b].parent >= 0) length += dist(p.at[b], p.at[static_cast<std::size_t>(t.bones[b].parent)]);
      if (t.bones[b].tip && p.tip_found[b]) length += dist(p.at[b], p.tip_end[b]);
    }
    if (width <= 0 || length >= kSnakeLength * width) return {};
    return "it is " + px(length) + " long and " + px(width) + " wide: a snake is long and thin";
  }

  std::string trunk() const {
    const auto stem = bone("trunk_1"), up = bone("trunk_2"), crown = bone("crown");
    if (!stem || !up || !crown || p.how[*stem] != How::Shape) return {};
    const double trunk = field.at(p.at[*stem]), top = field.widest(p.at[*up], end_of(*crown));
    if (top > 0 && trunk > kTrunkWidth * top)
      return "no trunk: it is " + ratio(trunk / top) + " of the crown's width there (at most " + ratio(kTrunkWidth) + ")";
    return overhang(*crown);
  }

  // The shape's width across the chain from the root up to `top`'s end, every half pixel; then the
  // most it widens over a climb of its width at the root (per pixel climbed).
  std::string overhang(std::size_t top) const {
    std::vector<Vec2> way{end_of(top)};
    for (std::int64_t b = static_cast<std::int64_t>(top); b >= 0; b = t.bones[static_cast<std::size_t>(b)].parent) {
      if (p.how[static_cast<std::size_t>(b)] != How::Shape) return {};
      way.push_back(p.at[static_cast<std::size_t>(b)]);
    }
    const double reach = shape.width + shape.height;
    // Each width is compared with the one a climb below it as soon as it is measured: the first
    // overhang found settles it (a crown), so the rest of the chain need not be measured.
    std::vector<double> across;
    double base = 0, most = 0;
    std::size_t climb = 1;
    for (std::size_t i = way.size() - 1; i > 0; --i) {  // from the root up
      const Vec2 a = way[i], b = way[i - 1];
      const double len = dist(a, b);
      if (len < 1e-9) continue;
      const Vec2 d{(b.x - a.x) / len, (b.y - a.y) / len};
      for (double s = 0; s < len; s += 0.5) {
        across.push_back(field.across({a.x + d.x * s, a.y + d.y * s}, d, reach));
        if (across.size() == 1) {
          if (across.front() <= 0) return {};
          base = across.front();
          climb = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(2 * base)));
        }
        if (across.size() <= climb) continue;
        const std::size_t k = across.size() - 1 - climb;
        most = std::max(most, (across[k + climb] - across[k]) / base);
        if (most >= kCrownOverhang) return {};
      }
    }
    if (across.empty()) return {};
    return "no crown over its trunk: the shape widens at most " + ratio(most) + " times the height it climbs (a crown overhangs its trunk by " +
           ratio(kCrownOverhang) + " or more): a limb widening towards its top";
  }
};

}  // namespace

namespace {

// v[i] = min(v[i], v[i - step] + 1) along a row, in order. The test is a branch rather than a min so
// that each cell need not wait for the one before it (the left neighbour rarely wins).
void running_min(float* v, int n, std::ptrdiff_t step) {
  float prev = v[-step];
  for (int i = 0; i < n; ++i, v += step) {
    const float from_prev = prev + 1;
    float cur = *v;
    if (from_prev < cur) [[unlikely]] {
      cur = from_prev;
      *v = cur;
    }
    prev = cur;
  }
}

}  // namespace

HalfWidthField::HalfWidthField(const ShapeAxis& s)
    : shape_(s), w_(s.width), h_(s.height), bx0_(std::clamp(s.x0, 0, s.width)), by0_(std::clamp(s.y0, 0, s.height)),
      bx1_(std::clamp(s.x1, bx0_, s.width)), by1_(std::clamp(s.y1, by0_, s.height)) {}

void HalfWidthField::measure() const {
  const ShapeAxis& s = shape_;
  d_.assign(padded(w_, h_), 0.0f);
  constexpr float kFar = 1e9f, kDiag = 1.41421356f;
  // Each row is worked only between its first and last covered cell: the cells outside that span
  // are 0 and stay 0 (every neighbour's candidate is positive), and a running minimum entering the
  // span from one of them brings nothing either.
  std::vector<std::pair<int, int>> span(static_cast<std::size_t>(h_), {0, -1});
  for (int y = by0_; y < by1_; ++y) {
    const std::uint8_t* in = &s.in[static_cast<std::size_t>(y) * static_cast<std::size_t>(w_)];
    int lo = 0, hi = w_ - 1;
    while (lo < w_ && !in[lo]) ++lo;
    if (lo == w_) continue;
    while (!in[hi]) --hi;
    span[static_cast<std::size_t>(y)] = {lo, hi};
    float* v = &d_[index(0, y)];
    for (int x = lo; x <= hi; ++x) v[x] = in[x] ? kFar : 0.0f;
  }
  // Each pass takes, per row, the minimum over the row already done first (independent across the
  // row, so it vectorizes), then the one running neighbour in the row; min is exact, so the order
  // gives the same distances as taking all five at once. An outside cell (0) stays 0 without a test:
  // every neighbour's candidate is positive.
  const std::ptrdiff_t row = w_ + 2;
  for (int y = 0; y < h_; ++y) {
    const auto [lo, hi] = span[static_cast<std::size_t>(y)];
    if (hi < lo) continue;
    float* v = &d_[index(0, y)];
    const float* up = v - row;
    for (int x = lo; x <= hi; ++x) v[x] = std::min(std::min(v[x], up[x] + 1), std::min(up[x - 1] + kDiag, up[x + 1] + kDiag));
    running_min(v + lo, hi - lo + 1, 1);
  }
  for (int y = h_ - 1; y >= 0; --y) {
    const auto [lo, hi] = span[static_cast<std::size_t>(y)];
    if (hi < lo) continue;
    float* v = &d_[index(0, y)];
    const float* down = v + row;
    for (int x = lo; x <= hi; ++x) v[x] = std::min(std::min(v[x], down[x] + 1), std::min(down[x + 1] + kDiag, down[x - 1] + kDiag));
    running_min(v + hi, hi - lo + 1, -1);
  }
}

double HalfWidthField::widest(Vec2 a, Vec2 b) const {
  const int steps = std::max(1, static_cast<int>(std::ceil(dist(a, b))));
  double best = 0;
  for (int i = 0; i <= steps; ++i) best = std::max(best, at({a.x + (b.x - a.x) * i / steps, a.y + (b.y - a.y) * i / steps}));
  return best;
}
CoveredSpan covered_span(const ShapeAxis& s, Vec2 p, Vec2 n, double reach) {
  // The samples' t as the walk makes them (stepping by 0.5), then the first covered one from each
  // end: the least and the greatest t of the walk's covered samples, without testing those between.
  std::vector<double> ts;
  for (double t = -reach; t <= reach; t += 0.5) ts.push_back(t);
  auto covered = [&](double t) {
    return s.inside(static_cast<int>(std::floor(p.x + n.x * t)), static_cast<int>(std::floor(p.y + n.y * t)));
  };
  CoveredSpan span;
  std::size_t lo = 0;
  while (lo < ts.size() && !covered(ts[lo])) ++lo;
  if (lo == ts.size()) return span;
  std::size_t hi = ts.size() - 1;
  while (!covered(ts[hi])) --hi;  // ts[lo] is covered: this stops there at the latest
  span.lo = ts[lo], span.hi = ts[hi];
  return span;
}

double HalfWidthField::across(Vec2 p, Vec2 d, double reach) const {
  const Vec2 n{-d.y, d.x};
  const double steps = 4 * reach;  // samples t = -reach + k / 2, k = 0..steps
  if (!(reach >= 0) || steps > 1e9 || std::floor(steps) != steps) {
    const CoveredSpan span = covered_span(shape_, p, n, reach);
    return span.hi < span.lo ? 0 : span.hi - span.lo + 1;
  }
  // The same samples, exact in doubles, read only where the line crosses the image, from either end
  // inwards: the first covered ones from each side are the extent.
  double t0 = -reach, t1 = reach;
  auto clip = [&](double at, double step, int size) {
    if (std::abs(step) < 1e-12) {
      if (at < -1 || at > size + 1) t0 = 1, t1 = 0;
      return;
    }
    const double a = (-1 - at) / step, b = (size + 1 - at) / step;
    t0 = std::max(t0, std::min(a, b)), t1 = std::min(t1, std::max(a, b));
  };
  clip(p.x, n.x, w_);
  clip(p.y, n.y, h_);
  if (t1 < t0) return 0;
  const auto k0 = static_cast<std::int64_t>(std::max(0.0, std::floor(2 * (t0 + reach)) - 2));
  const auto k1 = static_cast<std::int64_t>(std::min(steps, std::ceil(2 * (t1 + reach)) + 2));
  auto point = [&](std::int64_t k) {
    const double t = -reach + 0.5 * static_cast<double>(k);
    return Vec2{p.x + n.x * t, p.y + n.y * t};
  };
  auto sample = [&](std::int64_t k) { return inside(point(k)); };
  // Samples a..b lie between those two (each coordinate moves steadily along the line): when no
  // pixel of the box they span is covered, none of them is inside.
  auto none_inside = [&](std::int64_t a, std::int64_t b) {
    const Vec2 pa = point(a), pb = point(b);
    return !may_cover(static_cast<int>(std::floor(std::min(pa.x, pb.x))) - 1, static_cast<int>(std::floor(std::min(pa.y, pb.y))) - 1,
                      static_cast<int>(std::floor(std::max(pa.x, pb.x))) + 1, static_cast<int>(std::floor(std::max(pa.y, pb.y))) + 1);
  };
  // Blocks of samples from each end inwards, twice as long after each empty one, half as long
  // after one that is not, sample by sample once short.
  constexpr std::int64_t kShortest = 8;
  std::int64_t lo = k0, block = 4 * kShortest;
  while (lo <= k1) {
    const std::int64_t end = std::min(k1, lo + block - 1);
    if (none_inside(lo, end)) {
      lo = end + 1, block *= 2;
    } else if (block > kShortest) {
      block /= 2;
    } else {
      while (lo <= end && !sample(lo)) ++lo;
      if (lo <= end) break;
    }
  }
  if (lo > k1) return 0;
  std::int64_t hi = k1;
  block = 4 * kShortest;
  while (true) {
    const std::int64_t end = std::max(lo, hi - block + 1);
    if (none_inside(end, hi)) {
      hi = end - 1, block *= 2;
    } else if (block > kShortest) {
      block /= 2;
    } else {
      while (!sample(hi)) --hi;  // lo is inside: this stops there at the latest
      break;
    }
  }
  return 0.5 * static_cast<double>(hi - lo) + 1;
}

// Whether a pixel in [x0, x1] x [y0, y1] may be covered: not when every block of kBlock x kBlock
// pixels of the shape's box that it touches is empty (none lies outside the box), read from a
// summed-area table of the non-empty blocks, made at the first ask. A block with a covered pixel
// anywhere in it answers yes: across() then looks closer, sample by sample.
bool HalfWidthField::may_cover(int x0, int y0, int x1, int y1) const {
  const int bw = bx1_ - bx0_, bh = by1_ - by0_;
  const int cw = (bw + kBlock - 1) / kBlock, ch = (bh + kBlock - 1) / kBlock;
  const std::size_t row = static_cast<std::size_t>(cw) + 1;
  if (sums_.empty()) {
    std::vector<std::uint8_t> full(static_cast<std::size_t>(cw) * static_cast<std::size_t>(ch), 0);
    for (int y = 0; y < bh; ++y) {
      const std::uint8_t* in = &shape_.in[static_cast<std::size_t>(by0_ + y) * static_cast<std::size_t>(w_) + static_cast<std::size_t>(bx0_)];
      std::uint8_t* blocks = &full[static_cast<std::size_t>(y / kBlock) * static_cast<std::size_t>(cw)];
      static_assert(kBlock == sizeof(std::uint32_t));
      int c = 0;
      for (; (c + 1) * kBlock <= bw; ++c) {  // a block's row of pixels read as one word
        std::uint32_t word;
        std::memcpy(&word, in + c * kBlock, sizeof word);
        blocks[c] |= word != 0;
      }
      for (int x = c * kBlock; x < bw; ++x) blocks[c] |= in[x] != 0;
    }
    sums_.assign(row * (static_cast<std::size_t>(ch) + 1), 0);
    for (int y = 0; y < ch; ++y) {
      const std::uint8_t* blocks = &full[static_cast<std::size_t>(y) * static_cast<std::size_t>(cw)];
      const std::uint32_t* above = &sums_[static_cast<std::size_t>(y) * row + 1];
      std::uint32_t* out = &sums_[(static_cast<std::size_t>(y) + 1) * row + 1];
      std::uint32_t run = 0;
      for (int x = 0; x < cw; ++x) run += blocks[x] != 0, out[x] = above[x] + run;
    }
  }
  x0 = std::max(x0 - bx0_, 0), y0 = std::max(y0 - by0_, 0), x1 = std::min(x1 - bx0_, bw - 1), y1 = std::min(y1 - by0_, bh - 1);
  if (x1 < x0 || y1 < y0) return false;
  x0 /= kBlock, y0 /= kBlock, x1 /= kBlock, y1 /= kBlock;
  auto at_sum = [&](int x, int y) { return static_cast<std::int64_t>(sums_[static_cast<std::size_t>(y) * row + static_cast<std::size_t>(x)]); };
  return at_sum(x1 + 1, y1 + 1) - at_sum(x0, y1 + 1) - at_sum(x1 + 1, y0) + at_sum(x0, y0) != 0;
}

std::string implausible_fit(const SkeletonTemplate& t, const FitPlacement& p, const ShapeAxis& shape,
                            const HalfWidthField& field) {
  if (p.how.size() != t.bones.size()) return {};
  const Look look{t, p, shape, field};
  for (auto check : {&Look::forced, &Look::rigid, &Look::head, &Look::feet, &Look::fin, &Look::horizontal_body,
                     &Look::long_and_thin, &Look::trunk})
    if (std::string why = (look.*check)(); !why.empty()) return why;
  return {};
}

}  // namespace rig2d::detail
