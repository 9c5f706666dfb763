// SPDX-License-Identifier: Apache-2.0
#include "skeleton/templates/arm_edges.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rig2d::detail {
namespace {

constexpr double kLimbPi = 3.14159265358979323846;
// The limb is looked for within this many degrees either side of the placed limb's direction: an arm
// held against the body hangs near its rest (one raised clear of it is in the silhouette already).
constexpr double kLimbSwing = 35;
// ... in steps of this many degrees.
constexpr double kLimbStep = 5;
// The work grid: about this many cells over the figure's measure, so the cost does not grow with the
// sprite's resolution (a cell averages a square of pixels; drawn edges survive the averaging).
constexpr double kGridCells = 150;
// A colour change of this much per cell (premultiplied RGB, 0..255 a channel: the length of the
// colour gradient across a direction) counts as a full edge. Edges saturate so that a faint sleeve
// edge and a black outline count alike once drawn; the tube's evidence is about where edges are.
constexpr double kEdgeFull = 30;
// Cells whose strongest edge is at least this (0..1) vote for the lines they lie on ...
constexpr double kEdgeVote = 0.5;
// ... when the edge runs within about 18 degrees of the line (its gradient across the line is at
// least this share of its strongest).
constexpr double kParallel = 0.95;
// Candidate lines (one side of a tube) kept from the votes, the strongest first.
constexpr std::size_t kLines = 12;
// The strongest tubes on them tried, in order, until one makes a limb.
constexpr std::size_t kTries = 8;
// A tube's half-width runs over this range (fractions of the measure): a thin arm to a chibi's.
constexpr double kHalfMin = 0.025, kHalfMax = 0.08;
// A place along a tube counts towards it when its sides' edges beat the edges inside it by this
// much (0..1): the tube runs as long as both its sides are drawn and its inside is not (half a full
// edge: a body's stripes put as many edges inside a tube as on its sides).
constexpr double kTubeFloor = 0.5;
// A found tube replaces the proportions' placement only when its mean evidence beats that placement's,
// the image's mean edge level around the limb and the edge level in a band around the tube by this
// much (0..1): on a textured or
// noisy body, edges everywhere make any tube look drawn, so its edges must stand out. A quarter of a
// full edge is a margin for drawn limbs against a fill in general, not tuned to a sprite.
constexpr double kBeat = 0.25;
// ... and it is at least this long (fraction of the measure): a short run of edges is a detail.
constexpr double kMinTube = 0.08;
// ... and its edges run along at least this share of the limb from its first joint to the tube's
// end: the sprite draws most of the limb, not a stretch of something else beside it.
constexpr double kCover = 0.5;
// A limb may reach this far (fraction of the measure) past the joint it hangs from (an arm held
// across the body).
constexpr double kAcross = 0.15;
// An edge across the tube at least this strong (0..1) near its end marks the wrist (a hand below a
// cuff); lengths may be this much outside the proportions' range.
constexpr double kCross = 0.5, kReachSlack = 1.5;

Vec2 lx_add(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
Vec2 lx_scale(Vec2 a, double s) { return {a.x * s, a.y * s}; }

// The sprite around the limb on the work grid: each cell's premultiplied colour and coverage, and the
// colour structure tensor (Di Zenzo) of cells inside the shape away from its border, where the
// alpha edge already is.
class EdgeGrid {
 public:
  EdgeGrid(const Image& image, const ShapeAxis& shape, int f, int x0, int y0, int x1, int y1)
      : f_(f), x0_(x0 - 1), y0_(y0 - 1), w_(x1 - x0 + 2), h_(y1 - y0 + 2) {
    const std::size_t n = static_cast<std::size_t>(w_) * static_cast<std::size_t>(h_);
    colour_.assign(3 * n, 0.0f);
    in_.assign(n, 0);
    for (int gy = 0; gy < h_; ++gy)
      for (int gx = 0; gx < w_; ++gx) {
        double sum[3] = {0, 0, 0};
        int covered = 0;
        for (int y = (y0_ + gy) * f; y < (y0_ + gy + 1) * f; ++y)
          for (int x = (x0_ + gx) * f; x < (x0_ + gx + 1) * f; ++x) {
            if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
            const std::uint8_t* p = &image.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x))];
            for (int c = 0; c < 3; ++c) sum[c] += p[c] * (p[3] / 255.0);
            covered += shape.inside(x, y);
          }
        const std::size_t i = cell(gx, gy);
        for (int c = 0; c < 3; ++c) colour_[3 * i + static_cast<std::size_t>(c)] = static_cast<float>(sum[c] / (f * f));
        in_[i] = static_cast<std::uint8_t>(covered > 0 && 2 * covered >= f * f);
      }
    // Each cell's chamfer distance to the nearest uncovered one (cells past the box count as uncovered).
    depth_.assign(n, 0.0f);
    for (int pass = 0; pass < 2; ++pass)
      for (int k = 0; k < w_ * h_; ++k) {
        const int gx = pass ? w_ - 1 - k % w_ : k % w_, gy = pass ? h_ - 1 - k / w_ : k / w_, dir = pass ? 1 : -1;
        const std::size_t i = cell(gx, gy);
        if (!in_[i]) continue;
        float d = pass ? depth_[i] : 1e9f;
        auto from = [&](int x, int y, float step) {
          d = std::min(d, (x < 0 || y < 0 || x >= w_ || y >= h_ ? 0.0f : depth_[cell(x, y)]) + step);
        };
        from(gx + dir, gy, 1), from(gx, gy + dir, 1), from(gx + dir, gy + dir, 1.4142f), from(gx - dir, gy + dir, 1.4142f);
        depth_[i] = d;
      }
    tensor_.assign(3 * n, 0.0f);
    inner_.assign(n, 0);
    for (int gy = 1; gy + 1 < h_; ++gy)
      for (int gx = 1; gx + 1 < w_; ++gx) {
        const std::size_t i = cell(gx, gy);
        if (!in_[i] || !in_[cell(gx - 1, gy)] || !in_[cell(gx + 1, gy)] || !in_[cell(gx, gy - 1)] || !in_[cell(gx, gy + 1)])
          continue;
        double xx = 0, xy = 0, yy = 0;
        for (std::size_t c = 0; c < 3; ++c) {
          const double dx = 0.5 * (colour_[3 * cell(gx + 1, gy) + c] - colour_[3 * cell(gx - 1, gy) + c]);
          const double dy = 0.5 * (colour_[3 * cell(gx, gy + 1) + c] - colour_[3 * cell(gx, gy - 1) + c]);
          xx += dx * dx, xy += dx * dy, yy += dy * dy;
        }
        inner_[i] = 1;
        tensor_[3 * i] = static_cast<float>(xx), tensor_[3 * i + 1] = static_cast<float>(xy), tensor_[3 * i + 2] = static_cast<float>(yy);
      }
  }

  int factor() const { return f_; }
  // Grid coordinates: cell (x, y) covers [x, x + 1) x [y, y + 1); image px = grid * factor.
  bool in(Vec2 q) const {
    const int x = static_cast<int>(std::floor(q.x)) - x0_, y = static_cast<int>(std::floor(q.y)) - y0_;
    return x >= 0 && y >= 0 && x < w_ && y < h_ && in_[cell(x, y)];
  }
  // How deep q lies in the shape (cells to the nearest uncovered cell; 0 off it).
  double depth(Vec2 q) const {
    const int x = static_cast<int>(std::floor(q.x)) - x0_, y = static_cast<int>(std::floor(q.y)) - y0_;
    return x >= 0 && y >= 0 && x < w_ && y < h_ ? depth_[cell(x, y)] : 0;
  }
  // How strongly the colour changes across the unit direction n at q (0..1); 0 off the inner cells.
  double across(Vec2 q, Vec2 n) const {
    const int x = static_cast<int>(std::floor(q.x)) - x0_, y = static_cast<int>(std::floor(q.y)) - y0_;
    if (x < 0 || y < 0 || x >= w_ || y >= h_) return 0;
    return along(cell(x, y), n);
  }
  // The mean edge level over the inner cells (the image's texture around the limb).
  double background() const {
    double sum = 0;
    std::size_t count = 0;
    for (std::size_t i = 0; i < inner_.size(); ++i)
      if (inner_[i]) sum += std::min(1.0, std::sqrt(0.5 * (tensor_[3 * i] + tensor_[3 * i + 2])) / kEdgeFull), ++count;
    return count ? sum / static_cast<double>(count) : 0;
  }
  // Calls vote(centre, strongest, tensor index) for every inner cell whose strongest edge is at least kEdgeVote.
  template <typename Vote>
  void edges(Vote vote) const {
    for (int y = 0; y < h_; ++y)
      for (int x = 0; x < w_; ++x) {
        const std::size_t i = cell(x, y);
        if (!inner_[i]) continue;
        const double xx = tensor_[3 * i], xy = tensor_[3 * i + 1], yy = tensor_[3 * i + 2];
        const double top = 0.5 * (xx + yy) + std::sqrt(0.25 * (xx - yy) * (xx - yy) + xy * xy);
        const double strongest = std::sqrt(top) / kEdgeFull;
        if (strongest >= kEdgeVote) vote(Vec2{x0_ + x + 0.5, y0_ + y + 0.5}, strongest, i);
      }
  }
  double along(std::size_t i, Vec2 n) const {
    const double v = n.x * n.x * tensor_[3 * i] + 2 * n.x * n.y * tensor_[3 * i + 1] + n.y * n.y * tensor_[3 * i + 2];
    return std::min(1.0, std::sqrt(std::max(0.0, v)) / kEdgeFull);
  }
  // The box's corners, grid coordinates.
  Vec2 corner(int k) const { return {static_cast<double>(x0_ + ((k & 1) ? w_ : 0)), static_cast<double>(y0_ + ((k & 2) ? h_ : 0))}; }

 private:
  std::size_t cell(int x, int y) const { return static_cast<std::size_t>(y) * static_cast<std::size_t>(w_) + static_cast<std::size_t>(x); }
  int f_, x0_, y0_, w_, h_;
  std::vector<float> colour_, tensor_, depth_;
  std::vector<std::uint8_t> in_, inner_;
};

constexpr double kBlocked = -1;  // a place where the tube leaves the shape
constexpr double kRunStep = 1;   // cells between the places a tube is looked at along its line

// The tube's evidence at centre c (direction u, across n, half-width h, side tolerance w): its two
// sides' edges parallel to it, the weaker of the two counting (a side on the silhouette's border
// lends the other's), less the mean edge inside it (a cuff or a fold crossing it costs a little;
// a body's stripes or noise cost a lot).
double tube_at(const EdgeGrid& g, Vec2 c, Vec2 n, int h, int w) {
  if (2 * g.depth(c) < h) return kBlocked;  // off the shape, or the part much narrower than the tube
  double side[2] = {0, 0};
  bool border[2] = {false, false};
  for (int s = 0; s < 2; ++s) {
    const double sign = s ? 1.0 : -1.0;
    for (const int d : {h - w, h, h + w}) {
      const Vec2 p = lx_add(c, lx_scale(n, sign * d));
      if (!g.in(p)) {
        border[s] = true;
        break;
      }
      side[s] = std::max(side[s], g.across(p, n));
    }
  }
  double inside = 0;
  for (int d = -(h - w - 1); d <= h - w - 1; ++d) inside += g.across(lx_add(c, lx_scale(n, d)), n);
  inside /= 2 * (h - w - 1) + 1;
  const double sides = border[0] && border[1] ? 0 : border[0] ? side[1] : border[1] ? side[0] : std::min(side[0], side[1]);
  return sides - inside;
}

struct Tube {
  double sum = 0;        // sum of (evidence - kTubeFloor) over [a, b]
  double a = 0, b = 0;   // along u, grid cells
  Vec2 origin, u, n;     // the centre line: origin + t u
  int h = 0, w = 0;
  bool found = false;
};

// The best run of the tube along its centre line within [lo, hi] (Kadane's maximum subarray) whose
// middle lies on `side` of x = parent_x (image px), its centre line above y = floor (image px).
Tube best_run(const EdgeGrid& g, Tube candidate, double lo, double hi, double parent_x, double side, double floor) {
  Tube best;
  double run = 0, start = lo;
  for (double t = lo; t <= hi; t += kRunStep) {
    const Vec2 c = lx_add(candidate.origin, lx_scale(candidate.u, t));
    if (c.y * g.factor() > floor) {  // past the floor the run ends (the line may come back up above it)
      run = 0;
      continue;
    }
    const double s = tube_at(g, c, candidate.n, candidate.h, candidate.w);
    if (run <= 0) run = 0, start = t;
    run += s - kTubeFloor;
    if (run <= best.sum + 1e-9) continue;
    const Vec2 middle = lx_add(candidate.origin, lx_scale(candidate.u, 0.5 * (start + t)));
    if ((middle.x * g.factor() - parent_x) * side <= 0) continue;
    candidate.sum = run, candidate.a = start, candidate.b = t, candidate.found = true;
    best = candidate;
  }
  return best;
}

// The mean evidence along a polyline (grid coordinates) at its best half-width.
double polyline_evidence(const EdgeGrid& g, const std::vector<Vec2>& line, int h_lo, int h_hi) {
  double best = kBlocked;
  for (int h = h_lo; h <= h_hi; ++h) {
    const int w = std::max(1, h / 3);
    double sum = 0;
    int count = 0;
    for (std::size_t i = 1; i < line.size(); ++i) {
      const Vec2 d{line[i].x - line[i - 1].x, line[i].y - line[i - 1].y};
      const double len = std::hypot(d.x, d.y);
      if (len < 1e-9) continue;
      const Vec2 u = lx_scale(d, 1 / len), n{-u.y, u.x};
      for (double t = 0; t < len; t += 1, ++count) sum += tube_at(g, lx_add(line[i - 1], lx_scale(u, t)), n, h, w);
    }
    if (count) best = std::max(best, sum / count);
  }
  return best;
}

// The mean edge level across the tube's direction in a band three half-widths either side of it,
// along its run: a limb drawn on a fill has edges only at its sides; a striped or noisy body has them
// all over the band.
template <typename At>
double band_level(const EdgeGrid& g, const Tube& tube, At at) {
  double sum = 0;
  int count = 0;
  for (double t = tube.a; t <= tube.b; t += 2)
    for (int d = -3 * tube.h; d <= 3 * tube.h; ++d) {
      const Vec2 q = lx_add(at(t), lx_scale(tube.n, d));
      if (!g.in(q)) continue;
      sum += g.across(q, tube.n);
      ++count;
    }
  return count ? sum / count : 0;
}

// The limb's joints on a found tube: none when the tube does not make a limb (too short, drawing
// too little of it, off the limb's side).
std::optional<LimbFromEdges> place_limb(const EdgeGrid& g, const ShapeAxis& shape, const OverBodyLimb& limb, const Tube& best,
                                        double side) {
  const int f = g.factor();
  const double m = limb.measure / f;
  if (best.b - best.a < kMinTube * m) return std::nullopt;
  auto at = [&](double t) { return lx_add(best.origin, lx_scale(best.u, t)); };
  // The last joint: an edge across the tube within the part's reach of its end, else the reach's middle.
  const double end_lo = limb.end_min / f, end_hi = limb.end_max / f;
  double t_last = best.b - 0.5 * (end_lo + end_hi), strongest = kCross;
  for (double t = std::ceil(best.b - end_hi); t <= best.b - end_lo; t += 1) {
    double cross = 0;
    for (const double d : {-0.5, 0.0, 0.5}) cross += g.across(lx_add(at(t), lx_scale(best.n, d * best.h)), best.u) / 3;
    if (cross > strongest) strongest = cross, t_last = t;
  }
  t_last = std::max(t_last, best.a);
  // The first joint: where the tube's line, followed up from the tube, meets the top of the shape
  // (half the tube's width inside it), no farther from the last than the proportions allow.
  double t_top = best.a;
  while (t_top - 1 >= t_last - limb.reach_max * kReachSlack / f && g.in(at(t_top - 1))) t_top -= 1;
  const double t_first = std::min(best.a, t_top + 0.5 * best.h);
  if ((t_last - t_first) * f < limb.reach_min / kReachSlack || best.b - best.a < kCover * (best.b - t_first)) return std::nullopt;

  LimbFromEdges out;
  out.background = band_level(g, best, at);
  out.evidence = best.sum / ((best.b - best.a) / kRunStep + 1) + kTubeFloor;
  // The joints between, spaced by the proportions' ratios.
  double total = 0;
  for (double l : limb.links) total += l;
  double so_far = 0;
  out.joints.push_back(lx_scale(at(t_first), f));
  for (std::size_t i = 0; i + 1 < limb.links.size(); ++i) {
    so_far += limb.links[i];
    out.joints.push_back(lx_scale(at(t_first + (t_last - t_first) * (total > 0 ? so_far / total : 0.5)), f));
  }
  out.joints.push_back(lx_scale(at(t_last), f));
  // On covered pixels, the first joint on the limb's side of the joint it hangs from and within the
  // limb's reach of it.
  for (const Vec2& p : out.joints)
    if (!shape.inside(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y)))) return std::nullopt;
  const Vec2 top = out.joints.front();
  if ((top.x - limb.parent.x) * side < 0 || std::hypot(top.x - limb.parent.x, top.y - limb.parent.y) > limb.reach_max)
    return std::nullopt;
  return out;
}

}  // namespace

std::optional<LimbFromEdges> limb_from_edges(const Image& image, const ShapeAxis& shape, const OverBodyLimb& limb) {
  const std::size_t nj = limb.joints.size();
  if (nj < 2 || limb.links.size() + 1 != nj || !(limb.measure > 0) || image.width != shape.width || image.height != shape.height)
    return std::nullopt;
  const int f = std::max(1, static_cast<int>(std::lround(limb.measure / kGridCells)));
  const double m = limb.measure / f;  // the measure in cells
  const Vec2 first = limb.joints.front(), last = limb.joints.back();
  const double rest = std::atan2(last.y - first.y, last.x - first.x) * 180 / kLimbPi;
  // The box the limb may lie in: around its placement, by the longest it may be.
  const double reach = limb.reach_max * kReachSlack + limb.end_max;
  double bx0 = 1e300, by0 = 1e300, bx1 = -1e300, by1 = -1e300;
  for (const Vec2& p : limb.joints) bx0 = std::min(bx0, p.x), by0 = std::min(by0, p.y), bx1 = std::max(bx1, p.x), by1 = std::max(by1, p.y);
  // Only the limb's side of the joint it hangs from, and as far past it as a limb drawn across the
  // body may reach (its middle stays on its side).
  const double side = limb.joints.front().x >= limb.parent.x ? 1 : -1, across = kAcross * limb.measure;
  if (side > 0) bx0 = std::max(limb.parent.x - across, bx0 - reach) + reach;
  else bx1 = std::min(limb.parent.x + across, bx1 + reach) - reach;
  const int gx0 = std::max(shape.x0 / f, static_cast<int>(std::floor((bx0 - reach) / f)));
  const int gy0 = std::max(shape.y0 / f, static_cast<int>(std::floor((by0 - 0.5 * reach) / f)));
  const int gx1 = std::min((shape.x1 + f - 1) / f, static_cast<int>(std::ceil((bx1 + reach) / f)));
  const int gy1 = std::min((shape.y1 + f - 1) / f, static_cast<int>(std::ceil((by1 + reach) / f)));
  if (gx1 - gx0 < 4 || gy1 - gy0 < 4) return std::nullopt;
  const EdgeGrid g(image, shape, f, gx0, gy0, gx1, gy1);

  // Lines of edges near the limb's direction: each edge cell votes for the lines through it it runs along.
  const int bins = static_cast<int>(2 * kLimbSwing / kLimbStep) + 1;
  std::vector<double> rho_lo(static_cast<std::size_t>(bins));
  std::vector<std::vector<double>> votes(static_cast<std::size_t>(bins));
  auto dir = [&](int k) { return (rest - kLimbSwing + k * kLimbStep) * kLimbPi / 180; };
  for (int k = 0; k < bins; ++k) {
    const Vec2 n{-std::sin(dir(k)), std::cos(dir(k))};
    double lo = 1e300, hi = -1e300;
    for (int c = 0; c < 4; ++c) {
      const Vec2 p = g.corner(c);
      lo = std::min(lo, p.x * n.x + p.y * n.y), hi = std::max(hi, p.x * n.x + p.y * n.y);
    }
    rho_lo[static_cast<std::size_t>(k)] = std::floor(lo);
    votes[static_cast<std::size_t>(k)].assign(static_cast<std::size_t>(hi - std::floor(lo)) + 2, 0.0);
  }
  std::vector<Vec2> normal;
  for (int k = 0; k < bins; ++k) normal.push_back({-std::sin(dir(k)), std::cos(dir(k))});
  g.edges([&](Vec2 p, double strongest, std::size_t i) {
    for (int k = 0; k < bins; ++k) {
      const Vec2 n = normal[static_cast<std::size_t>(k)];
      const double e = g.along(i, n);
      if (e < kParallel * std::min(1.0, strongest)) continue;
      const auto r = static_cast<std::size_t>(std::floor(p.x * n.x + p.y * n.y - rho_lo[static_cast<std::size_t>(k)]));
      votes[static_cast<std::size_t>(k)][r] += e;
    }
  });
  struct Peak {
    double votes;
    int k;
    int r;
  };
  // The strongest lines, none within 2 bins and 2 cells of a stronger one (first found wins a tie).
  std::vector<Peak> lines;
  while (lines.size() < kLines) {
    Peak top{0, 0, 0};
    for (int k = 0; k < bins; ++k) {
      const auto& v = votes[static_cast<std::size_t>(k)];
      for (std::size_t r = 0; r < v.size(); ++r) {
        if (v[r] <= top.votes) continue;
        const int ri = static_cast<int>(r);
        if (std::any_of(lines.begin(), lines.end(), [&](const Peak& q) { return std::abs(q.k - k) <= 2 && std::abs(q.r - ri) <= 2; }))
          continue;
        top = {v[r], k, ri};
      }
    }
    if (top.votes <= 0) break;
    lines.push_back(top);
  }

  // Tubes with one side on each line, either way, every half-width: the best run of evidence.
  const int h_lo = std::max(2, static_cast<int>(std::lround(kHalfMin * m)));
  const int h_hi = std::max(h_lo + 1, static_cast<int>(std::lround(kHalfMax * m)));
  const int h_step = std::max(1, (h_hi - h_lo) / 2);
  std::vector<Tube> tubes;
  for (const Peak& line : lines) {
    const double a = dir(line.k);
    const Vec2 u{std::cos(a), std::sin(a)}, n{-u.y, u.x};
    // Along the line: from half the limb's reach above its first joint to its whole reach below.
    const double from = (first.x * u.x + first.y * u.y) / f, lo = from - 0.5 * reach / f, hi = from + reach / f;
    const double rho = rho_lo[static_cast<std::size_t>(line.k)] + line.r + 0.5;
    for (int h = h_lo; h <= h_hi; h += h_step)
      for (const double s : {-1.0, 1.0}) {
        Tube t;
        t.u = u, t.n = n, t.h = h, t.w = std::max(1, h / 3);
        t.origin = lx_scale(n, rho + s * h);
        if (Tube run = best_run(g, t, std::floor(lo), std::ceil(hi), limb.parent.x, side, limb.floor); run.found) tubes.push_back(run);
      }
  }
  std::stable_sort(tubes.begin(), tubes.end(), [](const Tube& a, const Tube& b) { return a.sum > b.sum; });
  if (tubes.size() > kTries) tubes.resize(kTries);

  std::vector<Vec2> placed;  // the proportions' placement on the grid, on to the part's end
  for (const Vec2& p : limb.joints) placed.push_back(lx_scale(p, 1.0 / f));
  const Vec2 last_link{placed.back().x - placed[placed.size() - 2].x, placed.back().y - placed[placed.size() - 2].y};
  const double last_len = std::hypot(last_link.x, last_link.y);
  if (last_len > 1e-9)
    placed.push_back(lx_add(placed.back(), lx_scale(last_link, 0.5 * (limb.end_min + limb.end_max) / f / last_len)));
  const double unrefined = polyline_evidence(g, placed, h_lo, h_hi), background = g.background();
  for (const Tube& coarse : tubes) {
    // The lines' directions are kLimbStep apart: turn the tube about its middle by a degree or two
    // and shift it by a cell, so it follows the drawn limb over its whole length.
    Tube tube = coarse;
    const Vec2 middle = lx_add(coarse.origin, lx_scale(coarse.u, 0.5 * (coarse.a + coarse.b)));
    const double a0 = std::atan2(coarse.u.y, coarse.u.x);
    for (const double turn : {-2.0, -1.0, 0.0, 1.0, 2.0})
      for (const double shift : {-1.0, 0.0, 1.0}) {
        if (turn == 0 && shift == 0) continue;
        Tube t = coarse;
        const double a = a0 + turn * kLimbPi / 180;
        t.u = {std::cos(a), std::sin(a)}, t.n = {-t.u.y, t.u.x};
        const Vec2 centre = lx_add(middle, lx_scale(t.n, shift));
        const double mid_t = centre.x * t.u.x + centre.y * t.u.y;
        t.origin = lx_add(centre, lx_scale(t.u, -mid_t));
        const double from = (first.x * t.u.x + first.y * t.u.y) / f;
        if (Tube run = best_run(g, t, from - 0.5 * reach / f, from + reach / f, limb.parent.x, side, limb.floor); run.found && run.sum > tube.sum + 1e-9)
          tube = run;
      }
    auto found = place_limb(g, shape, limb, tube, side);
    if (!found) continue;
    found->unrefined = unrefined;
    if (found->evidence < unrefined + kBeat || found->evidence < std::max(background, found->background) + kBeat) continue;
    return found;
  }
  return std::nullopt;
}

}  // namespace rig2d::detail
