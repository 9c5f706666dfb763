// SPDX-License-Identifier: Apache-2.0
#include "skeleton/templates/arm_edges.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "skeleton/templates/plane_math.h"

namespace rig2d::detail {
namespace {

using plane::add;
using plane::kPi;
using plane::scale;

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

// floor to int for coordinates well inside the int range (the work grid's): std::floor's value,
// without its general path for any double.
int lx_floor(double v) {
  const int i = static_cast<int>(v);
  return i - static_cast<int>(v < i);
}

// The weights that make the edge across a unit direction n from a cell's colour structure tensor
// (xx, xy, yy): n.x^2, 2 n.x n.y, n.y^2, worked out once per direction.
struct Across {
  explicit Across(Vec2 dir) : n(dir), xx(dir.x * dir.x), xy(2 * dir.x * dir.y), yy(dir.y * dir.y) {}
  Vec2 n;
  double xx, xy, yy;
};

// premultiplied alpha: a / 255.0 for each alpha a (the same values, looked up).
struct AlphaScale {
  AlphaScale() {
    for (int a = 0; a < 256; ++a) of[a] = a / 255.0;
  }
  double of[256];
};

// The sprite around the limb on the work grid: each cell's coverage, the colour structure tensor
// (Di Zenzo) of cells inside the shape away from its border, where the alpha edge already is, and
// what the tubes and the line votes read of it, made once.
class EdgeGrid {
 public:
  // A cell's state: uncovered; covered and flat (no colour change: its tensor is zero); covered with
  // edges, but none above kTubeFloor across any direction; or with a stronger one.
  static constexpr std::uint8_t kUncovered = 0, kFlat = 1, kWeak = 2, kStrong = 3;
  // The largest reach kept: more than any tube's half-width (at most 0.08 of a measure of at most
  // 225 cells).
  static constexpr std::uint8_t kMaxReach = 63;
  // An inner cell whose strongest edge is at least kEdgeVote: it votes for the lines it lies on.
  struct Voter {
    std::size_t i;
    int x, y;          // the cell, on the box
    double strongest;  // its strongest edge (unclamped)
  };

  EdgeGrid(const Image& image, const ShapeAxis& shape, int f, int x0, int y0, int x1, int y1)
      : f_(f), x0_(x0 - 1), y0_(y0 - 1), w_(x1 - x0 + 2), h_(y1 - y0 + 2) {
    const std::size_t n = static_cast<std::size_t>(w_) * static_cast<std::size_t>(h_);
    std::vector<float> colour(3 * n, 0.0f);
    std::vector<std::uint8_t> in(n, 0);
    average(image, shape, colour, in);
    chamfer(in);
    tensor_.assign(3 * n, 0.0f);
    static_assert(kUncovered == 0 && kFlat == 1);
    state_ = in;  // uncovered, or covered and flat until its tensor says otherwise
    double level = 0;
    std::size_t inner = 0;
    for (int gy = 1; gy + 1 < h_; ++gy) {
      const std::uint8_t *up = &in[cell(0, gy - 1)], *row = &in[cell(0, gy)], *down = &in[cell(0, gy + 1)];
      for (int gx = 1; gx + 1 < w_; ++gx) {
        const std::size_t i = cell(gx, gy);
        if (!(row[gx] & row[gx - 1] & row[gx + 1] & up[gx] & down[gx])) continue;  // 0 or 1 each
        const float *left = &colour[3 * cell(gx - 1, gy)], *right = &colour[3 * cell(gx + 1, gy)];
        const float *above = &colour[3 * cell(gx, gy - 1)], *below = &colour[3 * cell(gx, gy + 1)];
        if (left[0] == right[0] && left[1] == right[1] && left[2] == right[2] && above[0] == below[0] && above[1] == below[1] &&
            above[2] == below[2]) {  // no change either way: a zero tensor, as it stands
          ++inner;
          continue;
        }
        double xx = 0, xy = 0, yy = 0;
        for (std::size_t c = 0; c < 3; ++c) {
          const double dx = 0.5 * (colour[3 * cell(gx + 1, gy) + c] - colour[3 * cell(gx - 1, gy) + c]);
          const double dy = 0.5 * (colour[3 * cell(gx, gy + 1) + c] - colour[3 * cell(gx, gy - 1) + c]);
          xx += dx * dx, xy += dx * dy, yy += dy * dy;
        }
        float* t = &tensor_[3 * i];
        t[0] = static_cast<float>(xx), t[1] = static_cast<float>(xy), t[2] = static_cast<float>(yy);
        ++inner;
        if (t[0] == 0 && t[1] == 0 && t[2] == 0) continue;  // a flat fill: no edge either way
        level += std::min(1.0, std::sqrt(0.5 * (t[0] + t[2])) / kEdgeFull);
        // A cell with no edge above kTubeFloor across any direction (its strongest, with a margin
        // far above the rounding of along()) is weak: a tube's side on it cannot start a run.
        const double edge = strongest(i);
        state_[i] = edge > kTubeFloor * (1 - 1e-6) ? kStrong : kWeak;
        if (edge >= kEdgeVote) voters_.push_back({i, gx, gy, edge});
      }
    }
    background_ = inner ? level / static_cast<double>(inner) : 0;
  }

  int factor() const { return f_; }
  // Grid coordinates: cell (x, y) covers [x, x + 1) x [y, y + 1); image px = grid * factor.
  // The cell q lies in, or -1 off the box. Cells left of or above the image's edge (the box's
  // margin may reach one past it) are uncovered, flat and of no depth, as off the box: a negative
  // coordinate is off it, and the rest floor by truncation.
  std::ptrdiff_t index(Vec2 q) const { return view().index(q); }
  // kUncovered (or off the box), kFlat, kWeak or kStrong.
  std::uint8_t state(std::ptrdiff_t i) const { return view().state_at(i); }
  bool in(Vec2 q) const { return state(index(q)) != kUncovered; }
  // A tube of half-width h is blocked at q where q lies less than h / 2 deep in the shape (cells
  // to the nearest uncovered cell; off the box it is not in it). h at most kMaxReach.
  bool blocked(Vec2 q, int h) const { return view().blocked(q, h); }
  // How strongly the colour changes across the unit direction n at q (0..1); 0 off the inner cells.
  double across(Vec2 q, Vec2 n) const { return across(q, Across(n)); }
  double across(Vec2 q, const Across& n) const {
    const std::ptrdiff_t i = index(q);
    return i < 0 ? 0 : along(static_cast<std::size_t>(i), n);
  }
  // The mean edge level over the inner cells (the image's texture around the limb).
  double background() const { return background_; }
  // The inner cells whose strongest edge is at least kEdgeVote, row by row.
  const std::vector<Voter>& voters() const { return voters_; }
  Vec2 centre(const Voter& v) const { return Vec2{x0_ + v.x + 0.5, y0_ + v.y + 0.5}; }
  double along(std::size_t i, const Across& n) const { return edge_of(squared(i, n)); }
  // The squared colour change across n at cell i, before along() turns it into 0..1. along() grows
  // with it, so the largest (smallest) of several cells' along() is along() of the largest
  // (smallest) of theirs.
  double squared(std::size_t i, const Across& n) const { return view().squared(static_cast<std::ptrdiff_t>(i), n); }
  static double edge_of(double squared) {
    // A full edge or more (a drawn outline) needs no root: past this its root over kEdgeFull rounds
    // above 1 however the root rounds.
    constexpr double kSaturated = kEdgeFull * kEdgeFull * (1 + 1e-12);
    if (squared >= kSaturated) return 1.0;
    return std::min(1.0, std::sqrt(std::max(0.0, squared)) / kEdgeFull);
  }
  // The grid's arrays and box as plain values, for the tubes' inner loops; index(), state(),
  // blocked() and squared() above read through it.
  struct View {
    const std::uint8_t* state;
    const float* tensor;
    const std::uint8_t* reach;
    int x0, y0;
    unsigned w, h;
    std::ptrdiff_t index(Vec2 q) const {
      if (q.x < 0 || q.y < 0) return -1;
      const auto x = static_cast<unsigned>(static_cast<int>(q.x) - x0), y = static_cast<unsigned>(static_cast<int>(q.y) - y0);
      return x < w && y < h ? static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * w + x) : -1;
    }
    std::uint8_t state_at(std::ptrdiff_t i) const { return i < 0 ? kUncovered : state[i]; }
    bool blocked(Vec2 q, int half) const {
      const std::ptrdiff_t i = index(q);
      return i < 0 || reach[i] < half;
    }
    double squared(std::ptrdiff_t i, const Across& n) const {
      const float* t = tensor + 3 * i;
      return n.xx * t[0] + n.xy * t[1] + n.yy * t[2];
    }
  };
  View view() const {
    return {state_.data(), tensor_.data(), reach_.data(), x0_, y0_, static_cast<unsigned>(w_), static_cast<unsigned>(h_)};
  }
  // The box's corners, grid coordinates.
  Vec2 corner(int k) const { return {static_cast<double>(x0_ + ((k & 1) ? w_ : 0)), static_cast<double>(y0_ + ((k & 2) ? h_ : 0))}; }

 private:
  std::size_t cell(int x, int y) const { return static_cast<std::size_t>(y) * static_cast<std::size_t>(w_) + static_cast<std::size_t>(x); }

  // Each cell's mean premultiplied colour and whether most of its pixels are covered.
  void average(const Image& image, const ShapeAxis& shape, std::vector<float>& colour, std::vector<std::uint8_t>& in) const {
    static const AlphaScale alpha;
    const int f = f_;
    if (f == 1) {  // a cell is a pixel
      for (int gy = 0; gy < h_; ++gy) {
        const int y = y0_ + gy;
        if (y < 0 || y >= image.height) continue;
        const std::size_t row = static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width);
        for (int gx = 0; gx < w_; ++gx) {
          const int x = x0_ + gx;
          if (x < 0 || x >= image.width) continue;
          const std::uint8_t* p = &image.rgba[4 * (row + static_cast<std::size_t>(x))];
          const double a = alpha.of[p[3]];
          float* out = &colour[3 * cell(gx, gy)];
          for (int c = 0; c < 3; ++c) out[c] = static_cast<float>(p[c] * a);
          in[cell(gx, gy)] = shape.in[row + static_cast<std::size_t>(x)] != 0;
        }
      }
      return;
    }
    for (int gy = 0; gy < h_; ++gy)
      for (int gx = 0; gx < w_; ++gx) {
        double sum[3] = {0, 0, 0};
        int covered = 0;
        for (int y = (y0_ + gy) * f; y < (y0_ + gy + 1) * f; ++y) {
          if (y < 0 || y >= image.height) continue;
          const std::size_t row = static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width);
          for (int x = (x0_ + gx) * f; x < (x0_ + gx + 1) * f; ++x) {
            if (x < 0 || x >= image.width) continue;
            const std::uint8_t* p = &image.rgba[4 * (row + static_cast<std::size_t>(x))];
            const double a = alpha.of[p[3]];
            for (int c = 0; c < 3; ++c) sum[c] += p[c] * a;
            covered += shape.in[row + static_cast<std::size_t>(x)] != 0;
          }
        }
        const std::size_t i = cell(gx, gy);
        for (int c = 0; c < 3; ++c) colour[3 * i + static_cast<std::size_t>(c)] = static_cast<float>(sum[c] / (f * f));
        in[i] = static_cast<std::uint8_t>(covered > 0 && 2 * covered >= f * f);
      }
  }

  // Each cell's chamfer distance to the nearest uncovered one (cells past the box count as
  // uncovered): kept with a ring of uncovered cells around the box, so neighbours need no bounds.
  // Kept as the reach: the largest tube half-width h with 2 * depth >= h.
  void chamfer(const std::vector<std::uint8_t>& in) {
    const std::size_t pw = static_cast<std::size_t>(w_) + 2;
    std::vector<float> padded(pw * (static_cast<std::size_t>(h_) + 2), 0.0f);
    // A pass in direction dir (-1: rows downwards, left to right): the least of a cell's own and
    // its four done neighbours' distances on. A minimum is the same in any order, so the row done
    // before comes first and only the cell just done (kept at hand) waits for the one before.
    auto pass = [&](int gy, std::ptrdiff_t dir, bool second) {
      const std::uint8_t* row_in = &in[cell(0, gy)];
      float* at = &padded[(static_cast<std::size_t>(gy) + 1) * pw + 1];
      const float* done = at + dir * static_cast<std::ptrdiff_t>(pw);
      const int from = dir < 0 ? 0 : w_ - 1;
      float last = at[from + dir];
      for (int gx = from, k = 0; k < w_; gx -= static_cast<int>(dir), ++k) {
        if (!row_in[gx]) {
          last = at[gx];
          continue;
        }
        float d = second ? at[gx] : 1e9f;
        d = std::min(d, done[gx] + 1.0f);
        d = std::min(d, done[gx + dir] + 1.4142f), d = std::min(d, done[gx - dir] + 1.4142f);
        d = std::min(d, last + 1.0f);
        at[gx] = last = d;
      }
    };
    for (int gy = 0; gy < h_; ++gy) pass(gy, -1, false);
    for (int gy = h_ - 1; gy >= 0; --gy) pass(gy, 1, true);
    reach_.resize(in.size());
    for (int gy = 0; gy < h_; ++gy) {
      const float* row = &padded[(static_cast<std::size_t>(gy) + 1) * pw + 1];
      for (int gx = 0; gx < w_; ++gx) {
        const double two = 2.0 * row[gx];  // exact: h > 2 * depth is h > floor(2 * depth)
        reach_[cell(gx, gy)] = two >= kMaxReach ? kMaxReach : static_cast<std::uint8_t>(two);
      }
    }
  }

  // The cell's strongest edge across any direction (the tensor's larger eigenvalue), unclamped.
  double strongest(std::size_t i) const {
    const double xx = tensor_[3 * i], xy = tensor_[3 * i + 1], yy = tensor_[3 * i + 2];
    const double top = 0.5 * (xx + yy) + std::sqrt(0.25 * (xx - yy) * (xx - yy) + xy * xy);
    return std::sqrt(top) / kEdgeFull;
  }

  int f_, x0_, y0_, w_, h_;
  std::vector<float> tensor_;
  std::vector<std::uint8_t> state_, reach_;
  std::vector<Voter> voters_;
  double background_ = 0;
};

constexpr double kBlocked = -1;  // a place where the tube leaves the shape
constexpr double kRunStep = 1;   // cells between the places a tube is looked at along its line

// A tube of one direction (across n) and size (half-width h, side tolerance w), looked at place by
// place: its evidence at centre c is its two sides' edges parallel to it, the weaker of the two
// counting (a side on the silhouette's border lends the other's), less the mean edge inside it (a
// cuff or a fold crossing it costs a little; a body's stripes or noise cost a lot); kBlocked off the
// shape, or where the part is much narrower than the tube.
class TubeProbe {
 public:
  TubeProbe(const EdgeGrid& g, Vec2 n, int h, int w) : g_(g.view()), n_(n), h_(h), w_(w), inner_(h - w - 1) {
    // The offsets from the centre to the sides' cells (towards -n, then +n), as the samples are
    // taken: c + n * d (the inside's are made as they are needed, the same way).
    for (int s = 0; s < 2; ++s) {
      const double sign = s ? 1.0 : -1.0;
      int k = 0;
      for (const int d : {h - w, h, h + w}) side_at_[s][k++] = scale(n, sign * d);
    }
  }

  double at(Vec2 c) const {
    if (blocked(c)) return kBlocked;
    const Side a = side(c, 0), b = side(c, 1);
    return sides(a, b) - inside(c);
  }

  // As at(), for a scan with a run of `run` going; none when the run ends here whatever the
  // inside (its sides alone, an upper bound of the evidence, take the run to 0 or below).
  std::optional<double> continuing(Vec2 c, double run) const {
    if (blocked(c)) return kBlocked;
    const Side a = side(c, 0), b = side(c, 1);
    const double value = sides(a, b);
    if (run + (value - kTubeFloor) <= 0) return std::nullopt;
    return value - inside(c);
  }

  // As at(), for a scan with no run going: none when the place cannot start one (its sides, an
  // upper bound of its evidence, are at most kTubeFloor, or it is blocked). The cells' states
  // settle most places, side `first` first: when it is weak inside the shape the other need not be
  // looked at.
  std::optional<double> above_floor(Vec2 c, int first) const {
    if (blocked(c)) return std::nullopt;
    Side s[2];
    s[first] = side(c, first);
    if (!s[first].strong && !s[first].border) return std::nullopt;
    s[1 - first] = side(c, 1 - first);
    const bool may = s[0].border && s[1].border ? false : s[0].border ? s[1].strong : s[1].border ? s[0].strong : s[0].strong && s[1].strong;
    if (!may) return std::nullopt;
    const double value = sides(s[0], s[1]);
    if (value <= kTubeFloor) return std::nullopt;
    // The inside only lowers the evidence: once it plainly takes it to the floor (a margin far
    // above the rounding), the place starts no run.
    const double inside_at = inside(c, (value - kTubeFloor) + 1e-12);
    if (inside_at < 0) return std::nullopt;
    return value - inside_at;
  }

 private:
  struct Side {
    std::ptrdiff_t cell[3];
    int cells = 0;        // its cells on the shape
    bool border = false;  // it reaches an uncovered cell (the silhouette's border)
    bool strong = false;  // a cell on the shape is strong
  };

  bool blocked(Vec2 c) const { return g_.blocked(c, h_); }

  // One side's cells (s = 0: towards -n), up to the first uncovered one.
  Side side(Vec2 c, int s) const {
    Side out;
    for (const Vec2& at : side_at_[s]) {
      const std::ptrdiff_t i = g_.index(add(c, at));
      const std::uint8_t state = g_.state_at(i);
      if (state == EdgeGrid::kUncovered) {
        out.border = true;
        break;
      }
      out.strong = out.strong || state == EdgeGrid::kStrong;
      out.cell[out.cells++] = i;
    }
    return out;
  }

  // The largest EdgeGrid::squared() of a side's cells.
  double squared(const Side& side) const {
    double most = 0;
    for (int k = 0; k < side.cells; ++k) most = std::max(most, g_.squared(side.cell[k], n_));
    return most;
  }

  double sides(const Side& a, const Side& b) const {
    if (a.border && b.border) return 0;
    return EdgeGrid::edge_of(a.border ? squared(b) : b.border ? squared(a) : std::min(squared(a), squared(b)));
  }

  // The mean edge across the tube inside it (flat cells add nothing); -1 as soon as it is plainly at
  // least `enough` (the terms are never negative).
  double inside(Vec2 c, double enough = 1e300) const {
    const double count = 2 * inner_ + 1, stop = enough * count;
    double sum = 0;
    for (int d = -inner_; d <= inner_; ++d) {
      const std::ptrdiff_t i = g_.index(add(c, scale(n_.n, d)));
      if (g_.state_at(i) < EdgeGrid::kWeak) continue;
      const double v = g_.squared(i, n_);
      if (v > 0) sum += EdgeGrid::edge_of(v);
      if (sum >= stop) return -1;
    }
    return sum / count;
  }

  EdgeGrid::View g_;
  Across n_;
  int h_, w_, inner_;
  Vec2 side_at_[2][3];
};

struct Tube {
  double sum = 0;        // sum of (evidence - kTubeFloor) over [a, b]
  double a = 0, b = 0;   // along u, grid cells
  Vec2 origin, u, n;     // the centre line: origin + t u
  int h = 0, w = 0;
  int away = 0;  // the side (0: towards -n) away from the line of edges the tube was built on
  bool found = false;
};

// The best run of the tube along its centre line within [lo, hi] (Kadane's maximum subarray) whose
// middle lies on `side` of x = parent_x (image px), its centre line above y = floor (image px).
Tube best_run(const EdgeGrid& g, Tube candidate, double lo, double hi, double parent_x, double side, double floor) {
  Tube best;
  // A run counts only with its middle on the limb's side: when the whole line is off it (both ends;
  // x grows or falls steadily along it), none can.
  auto off_side = [&](double t) { return (add(candidate.origin, scale(candidate.u, t)).x * g.factor() - parent_x) * side <= 0; };
  if (off_side(lo) && off_side(hi)) return best;
  const TubeProbe probe(g, candidate.n, candidate.h, candidate.w);
  double run = 0, start = lo;
  for (double t = lo; t <= hi; t += kRunStep) {
    const Vec2 c = add(candidate.origin, scale(candidate.u, t));
    if (c.y * g.factor() > floor) {  // past the floor the run ends (the line may come back up above it)
      if (candidate.u.y >= 0) break;  // ... for good when the line does not rise
      run = 0;
      continue;
    }
    double s = 0;
    if (run > 0) {
      const auto on = probe.continuing(c, run);
      if (!on) {  // the run ends here: as below, run <= 0 after it
        run = 0;
        continue;
      }
      s = *on;
    } else if (const auto above = probe.above_floor(c, candidate.away)) {
      s = *above;
    } else {  // no run starts here: whatever the evidence, run <= 0 after it
      run = 0;
      continue;
    }
    if (run <= 0) run = 0, start = t;
    run += s - kTubeFloor;
    if (run <= best.sum + 1e-9) continue;
    const Vec2 middle = add(candidate.origin, scale(candidate.u, 0.5 * (start + t)));
    if ((middle.x * g.factor() - parent_x) * side <= 0) continue;
    best.sum = run, best.a = start, best.b = t, best.found = true;
  }
  if (!best.found) return best;
  candidate.sum = best.sum, candidate.a = best.a, candidate.b = best.b, candidate.found = true;
  return candidate;
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
      const Vec2 u = scale(d, 1 / len);
      const TubeProbe probe(g, Vec2{-u.y, u.x}, h, w);
      for (double t = 0; t < len; t += 1, ++count) sum += probe.at(add(line[i - 1], scale(u, t)));
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
      const Vec2 q = add(at(t), scale(tube.n, d));
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
  auto at = [&](double t) { return add(best.origin, scale(best.u, t)); };
  // The last joint: an edge across the tube within the part's reach of its end, else the reach's middle.
  const double end_lo = limb.end_min / f, end_hi = limb.end_max / f;
  double t_last = best.b - 0.5 * (end_lo + end_hi), strongest = kCross;
  for (double t = std::ceil(best.b - end_hi); t <= best.b - end_lo; t += 1) {
    double cross = 0;
    for (const double d : {-0.5, 0.0, 0.5}) cross += g.across(add(at(t), scale(best.n, d * best.h)), best.u) / 3;
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
  out.joints.push_back(scale(at(t_first), f));
  for (std::size_t i = 0; i + 1 < limb.links.size(); ++i) {
    so_far += limb.links[i];
    out.joints.push_back(scale(at(t_first + (t_last - t_first) * (total > 0 ? so_far / total : 0.5)), f));
  }
  out.joints.push_back(scale(at(t_last), f));
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
  const double rest = std::atan2(last.y - first.y, last.x - first.x) * 180 / kPi;
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
  constexpr int bins = static_cast<int>(2 * kLimbSwing / kLimbStep) + 1;
  static_assert(bins <= 32);
  std::vector<double> rho_lo(static_cast<std::size_t>(bins));
  std::vector<std::vector<double>> votes(static_cast<std::size_t>(bins));
  auto dir = [&](int k) { return (rest - kLimbSwing + k * kLimbStep) * kPi / 180; };
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
  std::vector<Across> normal;
  for (int k = 0; k < bins; ++k) normal.emplace_back(Vec2{-std::sin(dir(k)), std::cos(dir(k))});
  const EdgeGrid::View grid = g.view();
  for (const EdgeGrid::Voter& voter : g.voters()) {
    const Vec2 p = g.centre(voter);
    const double parallel = kParallel * std::min(1.0, voter.strongest);
    // Below this squared change along() is below `parallel` whatever its rounding: no root needed.
    const double plainly_not = (parallel * kEdgeFull) * (parallel * kEdgeFull) * (1 - 1e-12);
    // Every direction's squared change first, then the directions it may vote in, in order: a
    // voter's votes fall in a run of directions, which a branch per direction would guess badly.
    std::array<double, bins> squared;
    std::uint32_t may = 0;
    for (int k = 0; k < bins; ++k) {
      squared[static_cast<std::size_t>(k)] = grid.squared(static_cast<std::ptrdiff_t>(voter.i), normal[static_cast<std::size_t>(k)]);
      may |= static_cast<std::uint32_t>(squared[static_cast<std::size_t>(k)] > plainly_not) << k;
    }
    for (; may != 0; may &= may - 1) {
      const int k = std::countr_zero(may);
      const Across& n = normal[static_cast<std::size_t>(k)];
      const double e = EdgeGrid::edge_of(squared[static_cast<std::size_t>(k)]);
      if (e < parallel) continue;
      const auto r = static_cast<std::size_t>(lx_floor(p.x * n.n.x + p.y * n.n.y - rho_lo[static_cast<std::size_t>(k)]));
      votes[static_cast<std::size_t>(k)][r] += e;
    }
  }
  struct Peak {
    double votes;
    int k;
    int r;
  };
  // The strongest lines, none within 2 bins and 2 cells of a stronger one (first found wins a tie):
  // every line with votes, strongest first (a tie in bin then cell order), each kept unless a kept
  // one is that near.
  std::vector<Peak> voted, lines;
  std::size_t places = 0;
  for (const auto& v : votes) places += v.size();
  voted.reserve(places);
  for (int k = 0; k < bins; ++k) {
    const auto& v = votes[static_cast<std::size_t>(k)];
    for (std::size_t r = 0; r < v.size(); ++r)
      if (v[r] > 0) voted.push_back({v[r], k, static_cast<int>(r)});
  }
  // A heap of them, the top the strongest (a tie: the first in bin then cell order), taken from
  // only as far as the lines kept need.
  auto weaker = [](const Peak& a, const Peak& b) {
    return a.votes < b.votes || (a.votes == b.votes && (a.k > b.k || (a.k == b.k && a.r > b.r)));
  };
  std::make_heap(voted.begin(), voted.end(), weaker);
  for (auto end = voted.end(); end != voted.begin() && lines.size() < kLines; --end) {
    std::pop_heap(voted.begin(), end, weaker);
    const Peak& p = *(end - 1);
    if (std::none_of(lines.begin(), lines.end(), [&](const Peak& q) { return std::abs(q.k - p.k) <= 2 && std::abs(q.r - p.r) <= 2; }))
      lines.push_back(p);
  }

  // Tubes with one side on each line, either way, every half-width: the best run of evidence.
  const int h_lo = std::max(2, static_cast<int>(std::lround(kHalfMin * m)));
  const int h_hi = std::max(h_lo + 1, static_cast<int>(std::lround(kHalfMax * m)));
  const int h_step = std::max(1, (h_hi - h_lo) / 2);
  std::vector<Tube> tubes;
  // A tube between two lines 2 h apart is one tube from either line: scanned once.
  struct Scanned {
    int k, h;
    double centre;
    Tube run;
  };
  std::vector<Scanned> scanned;
  for (const Peak& line : lines) {
    const double a = dir(line.k);
    const Vec2 u{std::cos(a), std::sin(a)}, n{-u.y, u.x};
    // Along the line: from half the limb's reach above its first joint to its whole reach below.
    const double from = (first.x * u.x + first.y * u.y) / f, lo = from - 0.5 * reach / f, hi = from + reach / f;
    const double rho = rho_lo[static_cast<std::size_t>(line.k)] + line.r + 0.5;
    for (int h = h_lo; h <= h_hi; h += h_step)
      for (const double s : {-1.0, 1.0}) {
        Tube t;
        const double centre = rho + s * h;
        t.u = u, t.n = n, t.h = h, t.w = std::max(1, h / 3);
        t.origin = scale(n, centre);
        t.away = s > 0 ? 1 : 0;
        const auto same = std::find_if(scanned.begin(), scanned.end(),
                                       [&](const Scanned& o) { return o.k == line.k && o.h == h && o.centre == centre; });
        Tube run;
        if (same != scanned.end()) {
          run = same->run;
          run.away = t.away;
        } else {
          run = best_run(g, t, std::floor(lo), std::ceil(hi), limb.parent.x, side, limb.floor);
          scanned.push_back({line.k, h, centre, run});
        }
        if (run.found) tubes.push_back(run);
      }
  }
  std::stable_sort(tubes.begin(), tubes.end(), [](const Tube& a, const Tube& b) { return a.sum > b.sum; });
  if (tubes.size() > kTries) tubes.resize(kTries);

  std::vector<Vec2> placed;  // the proportions' placement on the grid, on to the part's end
  for (const Vec2& p : limb.joints) placed.push_back(scale(p, 1.0 / f));
  const Vec2 last_link{placed.back().x - placed[placed.size() - 2].x, placed.back().y - placed[placed.size() - 2].y};
  const double last_len = std::hypot(last_link.x, last_link.y);
  if (last_len > 1e-9)
    placed.push_back(add(placed.back(), scale(last_link, 0.5 * (limb.end_min + limb.end_max) / f / last_len)));
  // The placement's evidence is looked at only once a tube makes a limb (most tries do not).
  std::optional<double> unrefined_at;
  const double background = g.background();
  for (std::size_t i = 0; i < tubes.size(); ++i) {
    const Tube& coarse = tubes[i];
    // The same tube found from both its lines was refined already, and made no limb.
    auto same = [&](const Tube& o) {
      return o.origin.x == coarse.origin.x && o.origin.y == coarse.origin.y && o.u.x == coarse.u.x && o.u.y == coarse.u.y &&
             o.h == coarse.h && o.a == coarse.a && o.b == coarse.b && o.sum == coarse.sum;
    };
    if (std::any_of(tubes.begin(), tubes.begin() + static_cast<std::ptrdiff_t>(i), same)) continue;
    // The lines' directions are kLimbStep apart: turn the tube about its middle by a degree or two
    // and shift it by a cell, so it follows the drawn limb over its whole length. Each turned tube
    // is looked at around the run only, as far again as the run is long (at least a shortest limb)
    // past either end: a run farther along the turned line is another tube, not this one followed.
    Tube tube = coarse;
    const Vec2 middle = add(coarse.origin, scale(coarse.u, 0.5 * (coarse.a + coarse.b)));
    const double a0 = std::atan2(coarse.u.y, coarse.u.x);
    const double half = 0.5 * (coarse.b - coarse.a) + std::max(coarse.b - coarse.a, kMinTube * m);
    for (const double turn : {-2.0, -1.0, 0.0, 1.0, 2.0})
      for (const double shift : {-1.0, 0.0, 1.0}) {
        if (turn == 0 && shift == 0) continue;
        Tube t = coarse;
        const double a = a0 + turn * kPi / 180;
        t.u = {std::cos(a), std::sin(a)}, t.n = {-t.u.y, t.u.x};
        const Vec2 centre = add(middle, scale(t.n, shift));
        const double mid_t = centre.x * t.u.x + centre.y * t.u.y;
        t.origin = add(centre, scale(t.u, -mid_t));
        // Within the limb's span along the line (its places as a whole scan would take them).
        const double from = (first.x * t.u.x + first.y * t.u.y) / f, lo = from - 0.5 * reach / f, hi = from + reach / f;
        const double near_lo = lo + std::max(0.0, std::ceil(mid_t - half - lo)), near_hi = std::min(hi, mid_t + half);
        if (Tube run = best_run(g, t, near_lo, near_hi, limb.parent.x, side, limb.floor); run.found && run.sum > tube.sum + 1e-9)
          tube = run;
      }
    auto found = place_limb(g, shape, limb, tube, side);
    if (!found) continue;
    if (!unrefined_at) unrefined_at = polyline_evidence(g, placed, h_lo, h_hi);
    const double unrefined = *unrefined_at;
    found->unrefined = unrefined;
    if (found->evidence < unrefined + kBeat || found->evidence < std::max(background, found->background) + kBeat) continue;
    return found;
  }
  return std::nullopt;
}

}  // namespace rig2d::detail
