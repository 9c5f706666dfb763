// SPDX-License-Identifier: Apache-2.0
// Embedding a skeleton template into a sprite's shape (see docs/templates.md): the extremities of the
// medial axis are matched to the template's tips, branching bones go where their limbs join on the
// axis, the bones between are spaced along the axis by the proportions, and limbs the silhouette does
// not show are placed from the proportions.
#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <optional>
#include <span>
#include <utility>
#include <cstdio>
#include <cstdlib>

#include "rig2d/skeleton/shape_skeleton.h"
#include "rig2d/skeleton/template.h"
#include "skeleton/shape_axis.h"
#include "skeleton/templates/arm_edges.h"
#include "skeleton/templates/ground.h"
#include "skeleton/templates/plane_math.h"
#include "skeleton/templates/template_auto.h"
#include "skeleton/templates/spot_pair.h"

namespace rig2d {
namespace {

using detail::plane::add;
using detail::plane::kPi;
using detail::plane::scale;
using detail::plane::sub;

// An extremity is matched to a template tip only within this distance of where the proportions put
// it (fraction of the figure measure): farther, the part is not that tip.
constexpr double kMatchRadius = 0.45;
// Matching an extremity to an axis point where the axis does not end costs this much more.
constexpr double kInnerTipCost = 0.08;
// Two tips' ends are at least this far apart (fraction of the measure).
constexpr double kTipSpacing = 0.12;
// A joint where limbs meet may lie this far (fraction of its path) outside the places its proportions
// ranges allow; farther, the side limbs matched there are not the template's (an arm matched to the
// end of a tail).
constexpr double kBranchSlack = 0.05;
// A root found this far outside the template's root box (fraction of the box) is moved into it.
constexpr double kRootSlack = 0.02;
// A limb whose axis path shares more than this fraction with its mirror image's (legs drawn together)
// is laid on the straight line from its first joint to its end instead.
constexpr double kSharedPath = 0.3;
// A narrow joint looks for the narrowest point this far either side of its proportional place
// (fraction of its path's length).
constexpr double kNarrowWindow = 0.25;
// ... unless the path is pinched between two wider parts (a chest and a head) within this stretch
// of it (fractions of its length), by at least this fraction of the wider parts' radius.
constexpr double kPinchFrom = 0.1, kPinchTo = 0.9, kPinchDepth = 0.1;
// A tip reachable by its limb's free links is still pulled this much towards its rest place.
constexpr double kRestPull = 0.25;
// A pair of sockets is level (a pelvis line to place the root on) when its rise is at most this
// fraction of its run.
constexpr double kLevelSockets = 0.25;
// Two limbs of a pair found from the colour edges agree when their first joints, and their last,
// are at most this fraction of the figure's measure apart in height.
constexpr double kPairRise = 0.08;
// A limb found from the colour edges starts within this fraction of its parent bone's height span
// above or below it.
constexpr double kSpanSlack = 0.5;
// Angle and length slack when scoring a link against the template's ranges.
constexpr double kAngleSlack = 15;
constexpr double kLengthSlack = 1.5;
// px a joint keeps inside a side of its pixel beyond which the shape ends: far above the rounding of
// the offsets a rig keeps its joints as (under 1e-9 px for any image side up to 1e6 px), far below
// anything seen.
constexpr double kEdgeMargin = 1e-6;

double mid(const TemplateRange& r) { return 0.5 * (r.min + r.max); }
Vec2 unit(double deg) { return {std::cos(deg * kPi / 180), std::sin(deg * kPi / 180)}; }
double norm(Vec2 a) { return std::hypot(a.x, a.y); }
double angle_of(Vec2 v) { return std::atan2(v.y, v.x) * 180 / kPi; }

// Degrees by which `deg` lies outside [lo, hi] (0 inside), any multiple of 360 apart.
double outside_range(double deg, double lo, double hi) {
  if (hi - lo >= 360) return 0;
  double best = 1e9;
  for (int k = -3; k <= 3; ++k) {
    const double a = deg + 360.0 * k;
    best = std::min(best, a < lo ? lo - a : a > hi ? a - hi : 0.0);
  }
  return best;
}

// The pruned medial axis as an undirected tree over its alive nodes, in image px.
// Per node, a list of its neighbours (or of what goes with them), in the order they were linked:
// all nodes' lists in one array (no allocation per node), laid out once every link is known.
template <typename T>
class PerNode {
 public:
  std::span<const T> operator[](std::size_t n) const { return {items_.data() + first_[n], first_[n + 1] - first_[n]}; }
  // From (node, item) pairs in link order.
  void lay_out(std::size_t nodes, const std::vector<std::pair<int, T>>& linked) {
    first_.assign(nodes + 1, 0);
    for (const auto& [n, item] : linked) ++first_[static_cast<std::size_t>(n) + 1];
    std::partial_sum(first_.begin(), first_.end(), first_.begin());
    items_.resize(linked.size());
    std::vector<std::size_t> fill(first_.begin(), first_.end() - 1);
    for (const auto& [n, item] : linked) items_[fill[static_cast<std::size_t>(n)]++] = item;
  }

 private:
  std::vector<std::size_t> first_;
  std::vector<T> items_;
};

struct Axis {
  const detail::ShapeAxis& shape;
  const Image& image;  // the sprite's colours, for spots drawn inside a part
  PerNode<int> next;   // alive neighbours
  PerNode<double> step;  // px to each of them, made once (distances() walks them often)
  std::vector<Vec2> at;                // px
  std::vector<double> radius_px;       // inscribed radius of each node
  std::vector<int> alive;              // alive node indices, ascending
  std::vector<char> raw_end;           // the cell ends the axis (a cycle cut open ends it only in the tree)
  std::vector<std::size_t> node_piece; // the piece each node lies in
  mutable std::vector<char> extremity_made_;  // extremity() memo, per node
  mutable std::vector<Vec2> extremity_at_;
  struct SpotQuery {
    Vec2 centre;
    double radius;
    Vec2 up;
    std::optional<std::pair<Vec2, Vec2>> found;
  };
  mutable std::vector<SpotQuery> spot_queries_;  // spot_pair() memo

  // The eye search in a head, kept per query: the drawn and the mirrored fit ask the same one.
  std::optional<std::pair<Vec2, Vec2>> spot_pair(Vec2 centre, double r, Vec2 up) const {
    for (const SpotQuery& q : spot_queries_)
      if (q.centre.x == centre.x && q.centre.y == centre.y && q.radius == r && q.up.x == up.x && q.up.y == up.y)
        return q.found;
    auto found = detail::find_spot_pair(image, shape, centre, r, up);
    spot_queries_.push_back({centre, r, up, found});
    return found;
  }

  Axis(const detail::ShapeAxis& s, const Image& im) : shape(s), image(im) {
    std::vector<std::size_t> first;  // each piece's first node
    for (const detail::PieceAxis& piece : s.pieces) {
      const medial::AxisTree& t = piece.tree;
      const std::size_t base = at.size();
      first.push_back(base);
      for (std::size_t i = 0; i < t.cell.size(); ++i) {
        at.push_back(s.cell_px(piece, t.cell[i]));
        radius_px.push_back(t.radius[i] * s.cell);
        raw_end.push_back(static_cast<char>(t.end[i]));
        node_piece.push_back(first.size() - 1);
        if (t.alive[i]) alive.push_back(static_cast<int>(base + i));
      }
      for (std::size_t i = 0; i < t.cell.size(); ++i) {
        const int p = t.parent[i];
        if (!t.alive[i] || p < 0 || !t.alive[static_cast<std::size_t>(p)]) continue;
        link(static_cast<int>(base + i), static_cast<int>(base) + p);
      }
    }
    bridge_pieces(first);
    next.lay_out(at.size(), linked_);
    step.lay_out(at.size(), steps_);
    linked_ = {}, steps_ = {};
  }
  double radius(int n) const { return radius_px[static_cast<std::size_t>(n)]; }
  // Where the shape itself ends (a foot, a head): the tree ends there and so does the axis. Where a
  // loop was cut open (a ring), the tree ends but the shape does not.
  bool shape_end(int n) const { return next[static_cast<std::size_t>(n)].size() == 1 && raw_end[static_cast<std::size_t>(n)]; }

  // Pieces apart (a detached head, floating hands) join the main one's tree by their nearest nodes,
  // the nearest piece first, so limbs drawn apart still make one skeleton: each time, the shortest
  // link from a joined piece's node to another piece's (on a tie, the first such pair in node order,
  // the joined node first). Each node of the pieces not yet joined keeps its nearest joined node, met
  // again only by the nodes of each piece as it joins, so the whole looks at each pair of nodes once
  // (not once per piece: a striped or sheet-like shape has dozens of pieces).
  void bridge_pieces(const std::vector<std::size_t>& first) {
    if (first.empty()) return;
    std::vector<std::vector<int>> nodes_of(first.size());  // each piece's alive nodes, ascending
    for (int n : alive) nodes_of[node_piece[static_cast<std::size_t>(n)]].push_back(n);
    struct Nearest {
      double d = 1e300;
      int joined = -1;  // the nearest joined node, the first of the nearest
    };
    std::vector<Nearest> nearest(alive.size());
    std::vector<char> joined(first.size(), 0);
    const auto join = [&](std::size_t piece) {
      joined[piece] = 1;
      for (std::size_t j = 0; j < alive.size(); ++j) {
        const int b = alive[j];
        if (joined[node_piece[static_cast<std::size_t>(b)]]) continue;
        for (int a : nodes_of[piece]) {
          const Vec2 v = sub(at[static_cast<std::size_t>(a)], at[static_cast<std::size_t>(b)]);
          // Plainly farther than the nearest so far (the squares' rounding is far under this margin):
          // no hypot needed.
          if (v.x * v.x + v.y * v.y > nearest[j].d * nearest[j].d * (1 + 1e-9)) continue;
          const double d = norm(v);
          if (d < nearest[j].d || (d == nearest[j].d && a < nearest[j].joined)) nearest[j] = {d, a};
        }
      }
    };
    join(0);
    for (std::size_t k = 1; k < first.size(); ++k) {
      Nearest best;
      int best_b = -1;
      for (std::size_t j = 0; j < alive.size(); ++j) {
        if (joined[node_piece[static_cast<std::size_t>(alive[j])]]) continue;
        const Nearest& n = nearest[j];
        if (n.d < best.d || (n.d == best.d && n.joined < best.joined)) best = n, best_b = alive[j];
      }
      if (best_b < 0) break;
      link(best.joined, best_b);
      join(node_piece[static_cast<std::size_t>(best_b)]);
    }
  }
  // While the axis is made: the links so far, each both ways, in order.
  std::vector<std::pair<int, int>> linked_;
  std::vector<std::pair<int, double>> steps_;
  void link(int a, int b) {
    linked_.emplace_back(a, b);
    linked_.emplace_back(b, a);
    steps_.emplace_back(a, norm(sub(at[static_cast<std::size_t>(b)], at[static_cast<std::size_t>(a)])));
    steps_.emplace_back(b, norm(sub(at[static_cast<std::size_t>(a)], at[static_cast<std::size_t>(b)])));
  }

  // Distances (px) from `from` to every node over the tree (-1 where not connected), and each
  // node's step towards `from`; made once per node asked about (the fits ask about the same ends
  // and joints again and again).
  struct TreeFrom {
    std::vector<double> d;
    std::vector<int> back;
  };
  const TreeFrom& tree_from(int from) const {
    if (tree_slot_.empty()) tree_slot_.assign(at.size(), -1);
    int& slot = tree_slot_[static_cast<std::size_t>(from)];
    if (slot < 0) {
      slot = static_cast<int>(trees_.size());
      trees_.emplace_back();
      distances(from, trees_.back().d, trees_.back().back);
    }
    return trees_[static_cast<std::size_t>(slot)];
  }
  mutable std::vector<int> tree_slot_;  // tree_from() memo: per node, its entry in trees_
  mutable std::deque<TreeFrom> trees_;  // a deque: references to earlier entries stay valid

  void distances(int from, std::vector<double>& d, std::vector<int>& back) const {
    d.assign(at.size(), -1);
    back.assign(at.size(), -1);
    std::vector<int> stack{from};
    d[static_cast<std::size_t>(from)] = 0;
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      const auto& around = next[static_cast<std::size_t>(n)];
      for (std::size_t k = 0; k < around.size(); ++k) {
        const int m = around[k];
        if (d[static_cast<std::size_t>(m)] >= 0) continue;
        d[static_cast<std::size_t>(m)] = d[static_cast<std::size_t>(n)] + step[static_cast<std::size_t>(n)][k];
        back[static_cast<std::size_t>(m)] = n;
        stack.push_back(m);
      }
    }
  }

  // Nodes from a to b along the tree (empty when not connected).
  std::vector<int> path(int a, int b) const {
    const TreeFrom& tree = tree_from(b);
    const std::vector<double>& d = tree.d;
    const std::vector<int>& back = tree.back;
    std::vector<int> out;
    if (d[static_cast<std::size_t>(a)] < 0) return out;
    for (int n = a; n >= 0; n = back[static_cast<std::size_t>(n)]) out.push_back(n);
    return out;
  }

  // The node with the least summed distance to all of `nodes` (the tree median: where their limbs
  // join); ties to the lowest index.
  int median(const std::vector<int>& nodes) const {
    std::vector<double> sum(at.size(), 0);
    for (int g : nodes) {
      const std::vector<double>& d = tree_from(g).d;
      for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += d[i] < 0 ? 1e12 : d[i];
    }
    int best = nodes.front();
    for (int n : alive)
      if (sum[static_cast<std::size_t>(n)] < sum[static_cast<std::size_t>(best)]) best = n;
    return best;
  }

  // The point where the shape ends past tip node n: the axis stops about its radius short of the
  // outline, so continue along the axis's last stretch by that radius.
  // Where an end node's part ends (its axis reaches out along its own last stretch), made once per
  // end: every template's tips are costed against it.
  Vec2 extremity(int n) const {
    const auto i = static_cast<std::size_t>(n);
    if (extremity_made_.empty()) extremity_made_.assign(at.size(), 0), extremity_at_.resize(at.size());
    if (!extremity_made_[i]) extremity_at_[i] = reach_out(n), extremity_made_[i] = 1;
    return extremity_at_[i];
  }
  Vec2 reach_out(int n) const {
    const double r = radius(n);
    int prev = n, cur = next[static_cast<std::size_t>(n)].empty() ? n : next[static_cast<std::size_t>(n)][0];
    double run = norm(sub(at[static_cast<std::size_t>(cur)], at[static_cast<std::size_t>(n)]));
    while (run < r && next[static_cast<std::size_t>(cur)].size() == 2) {
      const int nx = next[static_cast<std::size_t>(cur)][0] == prev ? next[static_cast<std::size_t>(cur)][1] : next[static_cast<std::size_t>(cur)][0];
      run += norm(sub(at[static_cast<std::size_t>(nx)], at[static_cast<std::size_t>(cur)]));
      prev = cur, cur = nx;
    }
    const Vec2 d = sub(at[static_cast<std::size_t>(n)], at[static_cast<std::size_t>(cur)]);
    const double len = norm(d);
    return len < 1e-9 ? at[static_cast<std::size_t>(n)] : add(at[static_cast<std::size_t>(n)], scale(d, r / len));
  }

  int nearest(Vec2 p) const {
    int best = alive.empty() ? -1 : alive.front();
    double best_d = 1e300;
    for (int n : alive) {
      const double d = norm(sub(at[static_cast<std::size_t>(n)], p));
      if (d < best_d) best = n, best_d = d;
    }
    return best;
  }
};

// Tip-to-node candidates (cost, bone, node), made bone by bone with nodes ascending, handed out
// cheapest first among the bones still open, ties to the lower bone and then node: the order of a
// stable sort by cost, less the bones already matched. Each bone's candidates are a heap of their
// own, so those of a bone matched early are never sorted.
template <typename Pair>
class Cheapest {
 public:
  Cheapest(std::vector<Pair> pairs, std::size_t bones) : pairs_(std::move(pairs)), first_(bones + 1, 0) {
    for (const Pair& p : pairs_) ++first_[p.bone + 1];
    std::partial_sum(first_.begin(), first_.end(), first_.begin());
    end_.assign(first_.begin() + 1, first_.end());
    for (std::size_t b = 0; b < bones; ++b)
      std::make_heap(pairs_.begin() + static_cast<std::ptrdiff_t>(first_[b]), pairs_.begin() + static_cast<std::ptrdiff_t>(end_[b]), later);
  }
  // The next candidate of the bones `open(bone)` says are open; none when they have no more.
  template <typename Open>
  const Pair* next(Open open) {
    std::size_t best = end_.size();
    for (std::size_t b = 0; b < end_.size(); ++b)
      if (end_[b] > first_[b] && open(b) && (best == end_.size() || pairs_[first_[b]].cost < pairs_[first_[best]].cost)) best = b;
    if (best == end_.size()) return nullptr;
    const auto from = pairs_.begin() + static_cast<std::ptrdiff_t>(first_[best]);
    std::pop_heap(from, pairs_.begin() + static_cast<std::ptrdiff_t>(end_[best]), later);
    return &pairs_[--end_[best]];
  }
  // Bone b's candidates costing at most `most`, cheapest first (ties to the lower node).
  std::vector<Pair> of_bone(std::size_t b, double most) const {
    std::vector<Pair> out;
    for (std::size_t i = first_[b]; i < first_[b + 1]; ++i)
      if (pairs_[i].cost <= most) out.push_back(pairs_[i]);
    std::sort(out.begin(), out.end(), [](const Pair& x, const Pair& y) { return later(y, x); });
    return out;
  }

 private:
  static bool later(const Pair& a, const Pair& b) { return b.cost < a.cost || (b.cost == a.cost && b.node < a.node); }
  std::vector<Pair> pairs_;
  std::vector<std::size_t> first_, end_;  // per bone: its heap is [first_, end_), its candidates end at first_[b + 1]
};

// A polyline with arclengths, for placing joints at a fraction of its length.
struct Polyline {
  std::vector<Vec2> p;
  std::vector<double> s;
  std::vector<double> r;  // inscribed radius, px
  double length() const { return s.empty() ? 0 : s.back(); }
  Vec2 at(double t) const {
    if (p.size() == 1 || t <= 0) return p.front();
    for (std::size_t i = 1; i < p.size(); ++i) {
      if (t <= s[i] || i + 1 == p.size()) {
        const double seg = s[i] - s[i - 1], f = seg > 0 ? (t - s[i - 1]) / seg : 0;
        return add(p[i - 1], scale(sub(p[i], p[i - 1]), f));
      }
    }
    return p.back();
  }
};

// The fitting of one template (as drawn or mirrored) into one shape.
class Fitter {
 public:
  Fitter(const SkeletonTemplate& t, const Axis& axis, bool mirrored) : t_(t), axis_(axis), mirrored_(mirrored) {
    const auto& s = axis.shape;
    const double w = s.x1 - s.x0, h = s.y1 - s.y0;
    measure_ = t.measure == TemplateMeasure::Height ? h : t.measure == TemplateMeasure::Width ? w : std::max(w, h);
    const std::size_t n = t.bones.size();
    children_.resize(n);
    for (std::size_t b = 0; b < n; ++b)
      if (t.bones[b].parent >= 0) children_[static_cast<std::size_t>(t.bones[b].parent)].push_back(b);
    expect_.resize(n);
    const double rx = mirrored ? 1 - mid(t.root_x) : mid(t.root_x);
    for (std::size_t b = 0; b < n; ++b) {
      const TemplateBone& bone = t.bones[b];
      expect_[b] = bone.parent < 0 ? Vec2{s.x0 + rx * w, s.y0 + mid(t.root_y) * h}
                                   : add(expect_[static_cast<std::size_t>(bone.parent)], scale(unit(rest(b)), mid(bone.length) * measure_));
    }
    pos_.assign(n, {});
    placed_.assign(n, 0);
    anchor_.assign(n, -1);
    junction_.assign(n, 0);
    socket_.assign(n, 0);
    tip_node_.assign(n, -1);
    how_.assign(n, How::None);
    tip_end_.assign(n, {});
    tip_cost_.assign(n, 0);
    refined_.assign(n, 0);
    chain_scale_.assign(n, 0);
  }

  // The cheap first look for `auto`: whether the template's required extremities (not optional, not
  // over the body) are all found where it expects them, the paired ones (feet) at ends of the axis
  // of their own, and at most one inside the axis (a round head's axis ends in its middle, so its
  // top is no end). A loop cut open is no end (a ring has no feet). No joint is placed.
  bool shows_required() const {
    struct Pair {
      double cost;
      std::size_t bone;
      int node;
      Vec2 end;
    };
    std::vector<Pair> pairs;
    std::size_t required = 0;
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      const TemplateBone& bone = t_.bones[b];
      if (!bone.tip || bone.optional || bone.over_body) continue;
      ++required;
      const TipLook look = tip_look(b);
      const bool paired = partner(b).has_value();
      for (int n : axis_.alive) {
        const bool end = axis_.shape_end(n);
        if (!end && paired) continue;
        const Vec2 at = reach(n, look.way);
        if (const auto cost = match_cost(look, at, end)) pairs.push_back({*cost, b, n, at});
      }
    }
    std::vector<char> bone_used(t_.bones.size(), 0);
    std::vector<Vec2> taken;
    std::vector<int> taken_node;
    std::vector<char> taken_end;
    std::size_t found = 0, at_ends = 0;
    Cheapest<Pair> cheapest(std::move(pairs), t_.bones.size());
    while (const Pair* next = cheapest.next([&](std::size_t b) { return !bone_used[b]; })) {
      const Pair& p = *next;
      // Two ends of the axis are two extremities however near (feet side by side); a place inside
      // the axis must keep the tips' spacing.
      const bool end = axis_.shape_end(p.node);
      bool clash = false;
      for (std::size_t k = 0; k < taken.size(); ++k)
        clash = clash || taken_node[k] == p.node ||
                ((!end || !taken_end[k]) && norm(sub(taken[k], p.end)) < kTipSpacing * measure_);
      if (clash) continue;
      taken_node.push_back(p.node);
      taken_end.push_back(end);
      bone_used[p.bone] = 1;
      taken.push_back(p.end);
      ++found;
      at_ends += end;
    }
    return found == required && at_ends + 1 >= required;
  }

  TemplateFit run(const TemplateFitOptions& o) {
    match_tips();
    anchor_branches();
    place_chains();
    settle_root_between_sockets();
    place_spots();
    place_the_rest();
    return result(o);
  }

  // After run: how and where each bone went, for auto's second look.
  detail::FitPlacement placement() const {
    detail::FitPlacement p;
    p.how = how_;
    p.at = pos_;
    p.tip_end = tip_end_;
    p.tip_found.assign(t_.bones.size(), 0);
    p.tip_at_end.assign(t_.bones.size(), 0);
    for (std::size_t b = 0; b < t_.bones.size(); ++b)
      if (tip_node_[b] >= 0) p.tip_found[b] = 1, p.tip_at_end[b] = axis_.shape_end(tip_node_[b]);
    for (int n : axis_.alive) p.shape_ends += axis_.shape_end(n);
    return p;
  }

  // After run: whether refine_over_body() would search any limb.
  bool may_refine() const { return any_may_count(limbs_over_body()); }

  // After run: each limb placed over the body from the proportions (an arm against the torso) moved
  // onto the limb the sprite's inner colour edges draw, where they show it clearly (arm_edges.h).
  // Whether any moved.
  bool refine_over_body() {
    const double k = figure_scale(true);
    const std::vector<std::vector<std::size_t>> limbs = limbs_over_body();
    if (!any_may_count(limbs)) return false;  // none could be refined: spare the searches
    std::vector<std::vector<std::size_t>> chains;
    std::vector<std::optional<detail::LimbFromEdges>> founds;
    for (const std::vector<std::size_t>& chain : limbs) {
      const auto p = t_.bones[chain.front()].parent;
      detail::OverBodyLimb limb;
      limb.parent = pos_[static_cast<std::size_t>(p)];
      limb.measure = measure_;
      for (std::size_t i = 0; i < chain.size(); ++i) {
        const TemplateBone& bone = t_.bones[chain[i]];
        limb.joints.push_back(pos_[chain[i]]);
        if (i == 0) continue;
        limb.links.push_back(mid(bone.length) * measure_ * k);
        limb.reach_min += bone.length.min * measure_ * k;
        limb.reach_max += bone.length.max * measure_ * k;
      }
      const TemplateBone& end = t_.bones[chain.back()];
      limb.end_min = end.extent.min * measure_ * k;
      limb.end_max = end.extent.max * measure_ * k;
      limb.floor = branches_top(static_cast<std::size_t>(p));
      chains.push_back(chain);
      if (twin_missing(chain.front(), chains, founds)) return false;  // the pair cannot agree: spare the search
      auto found = detail::limb_from_edges(axis_.image, axis_.shape, limb);
      if (found && !on_parent_span(static_cast<std::size_t>(p), found->joints.front())) found.reset();
      founds.push_back(std::move(found));
    }
    if (!pairs_agree(chains, founds)) return false;
    bool any = false;
    for (std::size_t l = 0; l < chains.size(); ++l) {
      if (!founds[l]) continue;
      for (std::size_t i = 0; i < chains[l].size(); ++i) pos_[chains[l][i]] = founds[l]->joints[i], refined_[chains[l][i]] = 1;
      any = true;
    }
    if (any) lower_to_shoulders(chains);
    return any;
  }
  // The shoulders' height bounds the chest: a bone whose limbs the colour edges found hanging from
  // below its joint (a chest squeezed up under a big head, its arms found on the sleeves) moves down
  // to their mean height towards the root, carrying the joint above it (the spine) along, so a bend
  // of it turns the arms about their shoulders. Not when that joint would reach the root.
  void lower_to_shoulders(const std::vector<std::vector<std::size_t>>& chains) {
    const auto first = std::find_if(chains.begin(), chains.end(), [&](const auto& c) { return refined_[c.front()] != 0; });
    if (first == chains.end()) return;
    const auto p = static_cast<std::size_t>(t_.bones[first->front()].parent);
    const auto above = t_.bones[p].parent;
    if (above < 0 || t_.bones[static_cast<std::size_t>(above)].parent < 0) return;
    const auto g = static_cast<std::size_t>(above);
    const Vec2 root = pos_[static_cast<std::size_t>(t_.bones[g].parent)];
    double y = 0, n = 0;
    for (const auto& c : chains)
      if (refined_[c.front()] && static_cast<std::size_t>(t_.bones[c.front()].parent) == p) y += pos_[c.front()].y, n += 1;
    y /= n;
    if (y <= pos_[p].y || root.y <= y) return;
    const Vec2 moved = scale(sub(root, pos_[p]), (y - pos_[p].y) / (root.y - pos_[p].y));
    if (pos_[g].y + moved.y >= root.y) return;
    pos_[p] = add(pos_[p], moved);
    pos_[g] = add(pos_[g], moved);
  }

  TemplateFit result(const TemplateFitOptions& o) {
    TemplateFit fit;
    fit.template_name = t_.name;
    fit.mirrored = mirrored_;
    fit.tips = tips_.size();
    fit.tips_matched = matched_;
    const Vec2 pivot{o.pivot_x * axis_.shape.width, o.pivot_y * axis_.shape.height};
    std::vector<std::int64_t> index(t_.bones.size(), -1);
    std::vector<std::size_t> kept;
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      if (how_[b] == How::Omitted) {
        fit.omitted.push_back(t_.bones[b].name);
        continue;
      }
      pos_[b] = snap_inside(pos_[b]);
      if (how_[b] == How::Forced) fit.forced.push_back(t_.bones[b].name);
      if (how_[b] == How::OverBody) fit.over_body.push_back(t_.bones[b].name);
      if (refined_[b]) fit.refined.push_back(t_.bones[b].name);
      Bone bone;
      bone.name = t_.bones[b].name;
      const auto p = t_.bones[b].parent;
      bone.parent = p < 0 ? -1 : index[static_cast<std::size_t>(p)];
      const Vec2 origin = p < 0 ? pivot : pos_[static_cast<std::size_t>(p)];
      bone.x = pos_[b].x - origin.x;
      bone.y = pos_[b].y - origin.y;
      index[b] = static_cast<std::int64_t>(fit.bones.size());
      fit.bones.push_back(std::move(bone));
      fit.from.push_back(b);
      kept.push_back(b);
    }
    fit.score = score(kept);
    if (!t_.ground.empty() && !fit.bones.empty()) {  // the root hangs from where the figure stands
      const Vec2 ground = detail::ground_point(axis_.image, o.alpha_threshold, pos_[kept.front()].x);
      Bone stand;
      stand.name = t_.ground;
      stand.x = ground.x - pivot.x;
      stand.y = ground.y - pivot.y;
      detail::stand_on(fit.bones, std::move(stand));
      fit.from.insert(fit.from.begin(), kTemplateGround);
    }
    return fit;
  }

 private:
  // The highest joint of the root's branches that do not hold bone b (a humanoid's hip sockets, below
  // an arm's chest): where those branches begin. Far below the shape when there are none.
  double branches_top(std::size_t b) const {
    std::size_t top = b;
    while (t_.bones[top].parent >= 0 && t_.bones[static_cast<std::size_t>(t_.bones[top].parent)].parent >= 0)
      top = static_cast<std::size_t>(t_.bones[top].parent);
    double y = 1e300;
    std::vector<std::size_t> todo;
    if (t_.bones[top].parent >= 0)
      for (std::size_t c : children_[static_cast<std::size_t>(t_.bones[top].parent)])
        if (c != top) todo.push_back(c);
    while (!todo.empty()) {
      const std::size_t c = todo.back();
      todo.pop_back();
      if (how_[c] == How::Omitted) continue;
      y = std::min(y, pos_[c].y);
      for (std::size_t d : children_[c]) todo.push_back(d);
    }
    return y;
  }

  // Whether a limb's first joint q found from the colour edges lies at the height of the bone p it
  // hangs from (a shoulder beside the chest, between where the chest begins and where its other
  // children begin: the neck), give or take kSpanSlack of that span: a tube that runs on up into a
  // head or starts by the belly is something else drawn beside the body.
  bool on_parent_span(std::size_t p, Vec2 q) const {
    double top = pos_[p].y, bottom = pos_[p].y;
    for (std::size_t c : children_[p])
      if (how_[c] != How::OverBody && how_[c] != How::Omitted) top = std::min(top, pos_[c].y), bottom = std::max(bottom, pos_[c].y);
    const double slack = kSpanSlack * (bottom - top);
    return q.y >= top - slack;
  }

  // Whether bone b's twin in a symmetry pair was looked for among the limbs so far and not found.
  bool twin_missing(std::size_t b, const std::vector<std::vector<std::size_t>>& chains,
                    const std::vector<std::optional<detail::LimbFromEdges>>& founds) const {
    for (const auto& [x, y] : t_.symmetry) {
      if (x != b && y != b) continue;
      const std::size_t twin = x == b ? y : x;
      for (std::size_t l = 0; l < founds.size(); ++l)
        if (chains[l].front() == twin && !founds[l]) return true;
    }
    return false;
  }

  // The limbs placed over the body from the proportions (each from its first bone on, whose parent
  // is not over the body), in bone order.
  std::vector<std::vector<std::size_t>> limbs_over_body() const {
    std::vector<std::vector<std::size_t>> out;
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      const auto p = t_.bones[b].parent;
      if (how_[b] != How::OverBody || p < 0 || how_[static_cast<std::size_t>(p)] == How::OverBody) continue;
      std::vector<std::size_t> chain = over_body_chain(b);
      if (chain.size() >= 2) out.push_back(std::move(chain));
    }
    return out;
  }

  // Whether any of these limbs could be refined: one the template pairs counts only with every twin
  // among them (pairs_agree), so when each limb's twin lies elsewhere (an arm the shape shows, beside
  // one held against the body), a limb found only keeps every placement as it is.
  bool any_may_count(const std::vector<std::vector<std::size_t>>& limbs) const {
    auto among = [&](std::size_t b) { return std::any_of(limbs.begin(), limbs.end(), [&](const auto& l) { return l.front() == b; }); };
    for (const auto& l : limbs) {
      bool counts = true;
      for (const auto& [x, y] : t_.symmetry)
        if (x == l.front() || y == l.front()) counts = counts && among(x == l.front() ? y : x);
      if (counts) return true;
    }
    return false;
  }

  // Whether the limbs found from the colour edges make a figure's pair: a limb whose template pairs it
  // with another counts only when both are found, with their first and last joints at about the same
  // height (arms at the sides of a figure facing the viewer hang alike; a tail, a jaw or a stripe found
  // on one side of an animal does not have a twin).
  bool pairs_agree(const std::vector<std::vector<std::size_t>>& chains,
                   const std::vector<std::optional<detail::LimbFromEdges>>& founds) const {
    for (std::size_t l = 0; l < chains.size(); ++l) {
      if (!founds[l]) continue;
      for (const auto& [a, b] : t_.symmetry) {
        if (a != chains[l].front() && b != chains[l].front()) continue;
        const std::size_t twin = a == chains[l].front() ? b : a;
        std::size_t o = 0;
        while (o < chains.size() && chains[o].front() != twin) ++o;
        if (o == chains.size() || !founds[o]) return false;
        const auto& p = founds[l]->joints;
        const auto& q = founds[o]->joints;
        if (std::abs(p.front().y - q.front().y) > kPairRise * measure_ || std::abs(p.back().y - q.back().y) > kPairRise * measure_)
          return false;
      }
    }
    return true;
  }

  // A limb over the body from its first bone b: each next bone its only child over the body, down
  // to a tip; empty when it branches or ends elsewhere.
  std::vector<std::size_t> over_body_chain(std::size_t b) const {
    std::vector<std::size_t> chain{b};
    while (!t_.bones[chain.back()].tip) {
      std::vector<std::size_t> next;
      for (std::size_t c : children_[chain.back()])
        if (how_[c] == How::OverBody) next.push_back(c);
      if (next.size() != 1) return {};
      chain.push_back(next.front());
    }
    return chain;
  }
  using How = detail::FitPlacement::How;

  double rest(std::size_t b) const { return mirrored_ ? 180 - t_.bones[b].rest : t_.bones[b].rest; }
  TemplateRange direction(std::size_t b) const {
    const TemplateRange& d = t_.bones[b].direction;
    return mirrored_ ? TemplateRange{180 - d.max, 180 - d.min} : d;
  }
  // Where the part a tip bone ends in should reach (its joint, for a root tip).
  Vec2 expected_end(std::size_t b) const {
    const TemplateBone& bone = t_.bones[b];
    if (bone.parent < 0) return expect_[b];
    return add(expect_[b], scale(unit(rest(b)), mid(bone.extent) * measure_));
  }

  // The end of the shape reached from node n going `deg`: the axis stops about its radius short of
  // the outline. A tip of the axis reaches out along its own last stretch.
  Vec2 reach(int n, double deg) const { return reach(n, unit(deg)); }
  Vec2 reach(int n, Vec2 way) const {
    if (axis_.next[static_cast<std::size_t>(n)].size() == 1) return axis_.extremity(n);
    return add(axis_.at[static_cast<std::size_t>(n)], scale(way, axis_.radius(n)));
  }
  // Which way a tip bone's part points: its link's rest direction; a root tip (a tree's foot) points
  // away from its first child.
  double approach(std::size_t b) const {
    if (t_.bones[b].parent >= 0 || children_[b].empty()) return rest(b);
    return rest(children_[b].front()) + 180;
  }

  // The first bone of tip b's limb: b's topmost ancestor below a bone with several tipped children
  // (the upper arm below the chest).
  std::size_t limb_root(std::size_t b) const {
    std::size_t a = b;
    while (t_.bones[a].parent >= 0) {
      const auto p = static_cast<std::size_t>(t_.bones[a].parent);
      if (t_.bones[p].parent < 0 || children_[p].size() > 1) break;
      a = p;
    }
    return a;
  }
  // How far the part of tip b found ending at node n lies from where its limb can reach. In a limb
  // (one of a pair, over the body or optional: an arm raised or hanging, a leg kicking) links whose
  // direction range is half a turn or more swing freely: the limb's end may lie anywhere within their
  // summed length of the joint above them, in the upper free link's range. A little of the distance
  // from the rest pose counts too, so of two reachable extremities the one nearer the rest pose wins.
  // What that costs against every node shares is made once per bone (TipLook): the way its part
  // points, where it should end and, in a limb, the free reach of the links above it.
  struct TipLook {
    Vec2 way, expected;
    bool limb = false;
    double free_len = 0;
    Vec2 root;         // where the joint above the free links is expected
    TemplateRange top; // the upper free link's range
  };
  TipLook tip_look(std::size_t b) const {
    TipLook look{unit(approach(b)), expected_end(b)};
    if (!t_.bones[b].over_body && !t_.bones[b].optional && !partner(b)) return look;
    look.free_len = mid(t_.bones[b].extent);
    std::size_t top = b;
    for (std::size_t a = b; t_.bones[a].parent >= 0; a = static_cast<std::size_t>(t_.bones[a].parent)) {
      const TemplateRange d = direction(a);
      if (d.max - d.min < 180) break;
      look.free_len += mid(t_.bones[a].length);
      top = a;
      look.limb = true;
    }
    if (!look.limb) return look;
    look.root = expect_[static_cast<std::size_t>(t_.bones[top].parent)];
    look.top = direction(top);
    return look;
  }
  double rest_cost(std::size_t b, int n) const { return norm(sub(reach(n, approach(b)), expected_end(b))) / measure_; }
  // A tip candidate's cost at `at` (its node an end of the axis or, paying kInnerTipCost, inside it)
  // when it is within kMatchRadius; nothing otherwise.
  std::optional<double> match_cost(const TipLook& look, Vec2 at, bool axis_end) const {
    const double inner = axis_end ? 0 : kInnerTipCost;
    const auto cost = tip_cost_within(look, at, kMatchRadius - inner);
    if (!cost || !(*cost + inner <= kMatchRadius)) return std::nullopt;
    return *cost + inner;
  }
  // The cost of the part found ending at `end` (reach(n, look.way) of its node n) where it is at most
  // `limit`; nothing where it surely exceeds it: the end lies farther than that from the rest place
  // and, in a limb, from where its free links reach (squared distances, with room for their
  // rounding), so the exact distances and angle are spared.
  std::optional<double> tip_cost_within(const TipLook& look, Vec2 end, double limit) const {
    auto farther = [&](Vec2 v, double len) {
      const double r = len * measure_;
      return v.x * v.x + v.y * v.y > r * r * (1 + 1e-6);
    };
    if (limit >= 0 && farther(sub(end, look.expected), limit) && (!look.limb || farther(sub(end, look.root), limit + look.free_len)))
      return std::nullopt;
    return tip_cost_at(look, end);
  }
  double tip_cost_at(const TipLook& look, Vec2 end) const {
    const double from_rest = norm(sub(end, look.expected)) / measure_;
    if (!look.limb) return from_rest;
    const Vec2 v = sub(end, look.root);
    const double beyond = std::max(0.0, norm(v) / measure_ - look.free_len), pull = kRestPull * from_rest;
    if (beyond + pull >= from_rest) return from_rest;  // so is it with any angle off the range
    const double off = std::max(0.0, outside_range(angle_of(v), look.top.min, look.top.max) - kAngleSlack) / 180;
    return std::min(from_rest, beyond + off + pull);
  }

  // Extremities to tips, cheapest pairs first, each bone and each place used once. Any axis point can
  // be an extremity (a round head's axis ends in its middle), but one where the axis ends is preferred.
  void match_tips() {
    for (int n : axis_.alive)
      if (axis_.next[static_cast<std::size_t>(n)].size() == 1) tips_.push_back(n);
    struct Pair {
      double cost;
      std::size_t bone;
      int node;
    };
    std::vector<Pair> pairs;
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      if (!t_.bones[b].tip) continue;
      const TipLook look = tip_look(b);
      // A limb that may lie over the body or be missing needs an axis end of its own.
      const bool own_end = t_.bones[b].over_body || t_.bones[b].optional;
      for (int n : axis_.alive) {
        const bool end = axis_.next[static_cast<std::size_t>(n)].size() == 1;
        if (!end && own_end) continue;
        if (const auto cost = match_cost(look, reach(n, look.way), end)) pairs.push_back({*cost, b, n});
      }
    }
    std::vector<Vec2> taken;
    Cheapest<Pair> cheapest(std::move(pairs), t_.bones.size());
    while (const Pair* next = cheapest.next([&](std::size_t b) { return tip_node_[b] < 0; })) {
      const Pair& p = *next;
      const Vec2 end = reach(p.node, approach(p.bone));
      if (std::any_of(taken.begin(), taken.end(), [&](Vec2 q) { return norm(sub(q, end)) < kTipSpacing * measure_; }))
        continue;
      taken.push_back(end);
      tip_node_[p.bone] = p.node;
      tip_cost_[p.bone] = p.cost;
      tip_end_[p.bone] = end;
    }
    move_pair_off_one_branch(cheapest);
    // Beside an arm (or a wing) found hanging at its rest place, an extremity only a swing of the
    // other reaches is more likely an ear or a lock of hair than a hand raised alone.
    std::vector<std::size_t> lone;
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      const auto m = partner(b);
      if (tip_node_[b] < 0 || !m || tip_node_[*m] < 0 || !(t_.bones[b].over_body || t_.bones[b].optional)) continue;
      const bool hanging = tip_end_[*m].y > expect_[static_cast<std::size_t>(t_.bones[limb_root(*m)].parent)].y;
      if (rest_cost(b, tip_node_[b]) > kMatchRadius && rest_cost(*m, tip_node_[*m]) <= kMatchRadius && hanging)
        lone.push_back(b);
    }
    for (std::size_t b : lone) tip_node_[b] = -1;
    for (int n : tips_) matched_ += std::count(tip_node_.begin(), tip_node_.end(), n) > 0;
  }

  // A required tip of a pair (a foot) matched inside the axis, on the branch that ends at its
  // partner's extremity (both feet on one drawn leg), is neither an end of the shape nor a limb of its
  // own: it is charged the inner cost again, and takes an end of the axis that costs no more than
  // that when one is free or holds a tip that may lie over the body or be missing (a kicking leg
  // taken for a hand). Candidates cheapest first, as matched.
  template <typename Pair>
  void move_pair_off_one_branch(const Cheapest<Pair>& pairs) {
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      const TemplateBone& bone = t_.bones[b];
      const auto m = partner(b);
      if (!bone.tip || bone.optional || bone.over_body || !m || tip_node_[b] < 0 || tip_node_[*m] < 0) continue;
      if (axis_.next[static_cast<std::size_t>(tip_node_[b])].size() == 1 || !on_branch(tip_node_[*m], tip_node_[b])) continue;
      const double charged = tip_cost_[b] + kInnerTipCost;
      for (const auto& p : pairs.of_bone(b, charged)) {
        if (axis_.next[static_cast<std::size_t>(p.node)].size() != 1) continue;
        std::int64_t holder = -1;
        for (std::size_t k = 0; k < t_.bones.size(); ++k)
          if (tip_node_[k] == p.node) holder = static_cast<std::int64_t>(k);
        if (holder >= 0 && !t_.bones[static_cast<std::size_t>(holder)].over_body && !t_.bones[static_cast<std::size_t>(holder)].optional)
          continue;
        const Vec2 end = reach(p.node, approach(b));
        bool spaced = true;
        for (std::size_t k = 0; k < t_.bones.size(); ++k)
          if (tip_node_[k] >= 0 && k != b && static_cast<std::int64_t>(k) != holder)
            spaced = spaced && norm(sub(tip_end_[k], end)) >= kTipSpacing * measure_;
        if (!spaced) continue;
        if (holder >= 0) tip_node_[static_cast<std::size_t>(holder)] = -1;
        tip_node_[b] = p.node;
        tip_cost_[b] = p.cost;
        tip_end_[b] = end;
        break;
      }
    }
  }
  // Whether the axis path from the end node `from` to `to` passes no junction (a node with three or
  // more neighbours) before `to`: both lie on one branch.
  bool on_branch(int from, int to) const {
    const std::vector<int> way = axis_.path(from, to);
    for (std::size_t i = 1; i + 1 < way.size(); ++i)
      if (axis_.next[static_cast<std::size_t>(way[i])].size() >= 3) return false;
    return true;
  }

  bool has_tip(std::size_t b) const {
    if (tip_node_[b] >= 0) return true;
    for (std::size_t c : children_[b])
      if (has_tip(c)) return true;
    return false;
  }
  // The first matched tip below b (b's own first), in template order.
  int rep(std::size_t b) const {
    if (tip_node_[b] >= 0 && t_.bones[b].parent >= 0) return tip_node_[b];
    for (std::size_t c : children_[b])
      if (const int r = rep(c); r >= 0) return r;
    return -1;
  }
  // Template length from b's joint to the end of the chain through its first tipped child.
  double length_below(std::size_t b) const { return length_below(b, mid); }
  template <typename Pick>
  double length_below(std::size_t b, Pick pick) const {
    for (std::size_t c : children_[b])
      if (has_tip(c)) return pick(t_.bones[c].length) + length_below(c, pick);
    return t_.bones[b].tip ? pick(t_.bones[b].extent) : 0;
  }
  int anchored_ancestor(std::size_t b) const {
    for (std::int64_t a = t_.bones[b].parent; a >= 0; a = t_.bones[static_cast<std::size_t>(a)].parent)
      if (anchor_[static_cast<std::size_t>(a)] >= 0) return anchor_[static_cast<std::size_t>(a)];
    return -1;
  }

  // Bones where limbs meet (three or more matched groups) go to the axis point joining them; the
  // root always gets a place.
  void anchor_branches() {
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      const TemplateBone& bone = t_.bones[b];
      if (bone.parent < 0 && tip_node_[b] >= 0) {  // a tree's foot: the root is an extremity
        anchor_[b] = tip_node_[b];
        set(b, tip_end_[b], How::Shape);
        continue;
      }
      std::vector<int> groups;
      if (const int up = anchored_ancestor(b); up >= 0) groups.push_back(up);
      std::vector<std::size_t> tipped;
      for (std::size_t c : children_[b])
        if (has_tip(c)) groups.push_back(rep(c)), tipped.push_back(c);
      if (const int up = anchored_ancestor(b); up >= 0 && groups.size() >= 3) {
        // A side limb reached from the joint above only through the main limb's tip (a hat's brim
        // or a lock of hair on the head, taken for a raised hand) is not b's.
        for (std::size_t i = tipped.size(); i-- > 1;) {
          const std::vector<int> way = axis_.path(groups[i + 1], up);
          if (std::find(way.begin(), way.end(), groups[1]) == way.end()) continue;
          unmatch(tipped[i]);
          tipped.erase(tipped.begin() + static_cast<std::ptrdiff_t>(i));
          groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(i + 1));
        }
      }
      if (groups.size() >= 3 && bone.parent >= 0 && !plausible_branch(b, groups)) {
        for (std::size_t i = 1; i < tipped.size(); ++i) unmatch(tipped[i]);
        groups.resize(2);
      }
      if (groups.size() >= 3) {
        anchor_[b] = axis_.median(groups);
        junction_[b] = 1;
      } else if (bone.parent < 0 && groups.size() == 2) {  // a fish's body between head and tail
        const Polyline line = polyline(axis_.path(groups[0], groups[1]), std::nullopt);
        const double a = mid(t_.bones[tipped[0]].length) + length_below(tipped[0]);
        const double c = mid(t_.bones[tipped[1]].length) + length_below(tipped[1]);
        const Vec2 p = line.at(line.length() * (a + c > 0 ? a / (a + c) : 0.5));
        anchor_[b] = axis_.nearest(p);
      } else if (bone.parent < 0) {
        anchor_[b] = axis_.nearest(expect_[b]);
      }
      if (bone.parent < 0 && anchor_[b] >= 0 && !groups.empty()) anchor_[b] = into_root_box(anchor_[b], groups.front());
      if (anchor_[b] >= 0) set(b, axis_.at[static_cast<std::size_t>(anchor_[b])], How::Shape);
    }
  }

  // Whether the joint where b's limbs meet on the axis lies near b's proportional place on the way
  // from the joint above (groups[0]) to its main limb's end (groups[1]).
  bool plausible_branch(std::size_t b, const std::vector<int>& groups) const {
    const int m = axis_.median(groups);
    const std::vector<double>& d = axis_.tree_from(groups[0]).d;
    // On to the outline past the main limb's tip (a round head's axis stops well inside it).
    double whole = d[static_cast<std::size_t>(groups[1])];
    for (std::size_t k = 0; k < t_.bones.size(); ++k)
      if (tip_node_[k] == groups[1]) {
        whole += norm(sub(tip_end_[k], axis_.at[static_cast<std::size_t>(groups[1])]));
        break;
      }
    if (whole <= 0) return false;
    // Template lengths from the anchored ancestor down to b, and from b to its main limb's end, at
    // the ends of their ranges: the joint may lie anywhere the proportions allow (a small head puts
    // the shoulders high on the way to its top).
    double above_lo = 0, above_hi = 0;
    for (std::size_t a = b; a < t_.bones.size() && anchor_[a] < 0; a = static_cast<std::size_t>(t_.bones[a].parent))
      above_lo += t_.bones[a].length.min, above_hi += t_.bones[a].length.max;
    const double below_lo = length_below(b, [](const TemplateRange& r) { return r.min; });
    const double below_hi = length_below(b, [](const TemplateRange& r) { return r.max; });
    const double lo = above_lo + below_hi > 0 ? above_lo / (above_lo + below_hi) : 0.5;
    const double hi = above_hi + below_lo > 0 ? above_hi / (above_hi + below_lo) : 0.5;
    const double at = d[static_cast<std::size_t>(m)] / whole;
    return at >= lo - kBranchSlack && at <= hi + kBranchSlack;
  }
  // Limbs drawn together (legs side by side) join low on the axis: a root found there moves along
  // the axis towards its main limb's end until it is within the template's root box (with slack).
  int into_root_box(int node, int main_end) const {
    const auto& s = axis_.shape;
    const double w = s.x1 - s.x0, h = s.y1 - s.y0;
    const TemplateRange rx = mirrored_ ? TemplateRange{1 - t_.root_x.max, 1 - t_.root_x.min} : t_.root_x;
    auto in_box = [&](int n) {
      const Vec2 p = axis_.at[static_cast<std::size_t>(n)];
      const double fx = (p.x - s.x0) / w, fy = (p.y - s.y0) / h;
      return fx >= rx.min - kRootSlack && fx <= rx.max + kRootSlack && fy >= t_.root_y.min - kRootSlack &&
             fy <= t_.root_y.max + kRootSlack;
    };
    if (in_box(node)) return node;
    for (int n : axis_.path(node, main_end))
      if (in_box(n)) return n;
    return node;
  }

  void unmatch(std::size_t b) {
    tip_node_[b] = -1;
    for (std::size_t c : children_[b]) unmatch(c);
  }

  Polyline polyline(const std::vector<int>& nodes, std::optional<Vec2> reach) const {
    Polyline l;
    for (int n : nodes) {
      const Vec2 p = axis_.at[static_cast<std::size_t>(n)];
      l.s.push_back(l.p.empty() ? 0 : l.s.back() + norm(sub(p, l.p.back())));
      l.p.push_back(p);
      l.r.push_back(axis_.radius(n));
    }
    if (reach && !nodes.empty()) {  // on to the outline past a tip
      const Vec2 e = *reach;
      l.s.push_back(l.s.back() + norm(sub(e, l.p.back())));
      l.p.push_back(e);
      l.r.push_back(0);
    }
    return l;
  }

  // From every placed bone down each tipped child: the bones up to the next anchor or matched tip
  // spaced along the axis path by their proportions.
  void place_chains() {
    for (std::size_t u = 0; u < t_.bones.size(); ++u) {
      if (anchor_[u] < 0) continue;
      for (std::size_t c : children_[u]) {
        if (!has_tip(c)) continue;
        std::vector<std::size_t> chain{c};
        while (anchor_[chain.back()] < 0 && tip_node_[chain.back()] < 0) {
          const auto& kids = children_[chain.back()];
          const auto next = std::find_if(kids.begin(), kids.end(), [&](std::size_t k) { return has_tip(k); });
          chain.push_back(*next);
        }
        place_chain(u, chain);
      }
    }
  }

  void place_chain(std::size_t u, const std::vector<std::size_t>& chain) {
    const std::size_t d = chain.back();
    const bool to_tip = anchor_[d] < 0;
    const int end = to_tip ? tip_node_[d] : anchor_[d];
    const Polyline line = polyline(axis_.path(anchor_[u], end), to_tip ? std::optional<Vec2>(tip_end_[d]) : std::nullopt);
    std::vector<double> cum;
    double total = 0;
    for (std::size_t b : chain) cum.push_back(total += mid(t_.bones[b].length));
    if (to_tip) total += mid(t_.bones[d].extent);
    const std::size_t placed = to_tip ? chain.size() : chain.size() - 1;  // an anchor keeps its node
    std::vector<double> at(placed);
    for (std::size_t i = 0; i < placed; ++i) at[i] = total > 0 ? line.length() * cum[i] / total : 0;
    // Narrow joints (a neck) move to the narrowest point near their place; the joints between them
    // are spaced again by their proportions, so a big head or a short neck moves its neighbours too.
    std::vector<char> fixed(placed, 0);
    // A paired limb leaving the root's junction (legs from the hips) turns where it leaves its inscribed
    // disc, as in the shape skeleton: its socket, not the middle of the body.
    if (junction_[u] && t_.bones[u].parent < 0 && placed > 1 && partner(chain[0]) && line.p.size() >= 3) {
      const double r0 = line.r.front();
      for (std::size_t k = 1; k < line.p.size(); ++k)
        if (norm(sub(line.p[k], line.p.front())) >= r0) {
          if (line.s[k] < 0.6 * line.length() && line.s[k] > at[0]) {
            at[0] = line.s[k], fixed[0] = 1;
            // The top of a leg when the leg below it is as long as the template's shortest; a shorter
            // one comes out from under a skirt or a coat, its top hidden. Legs drawn apart from the
            // body (joined across a gap) show no top at all.
            const bool whole = line.length() - line.s[k] >= measure_ * length_below(chain[0], [](const TemplateRange& r) { return r.min; });
            const auto path = axis_.path(anchor_[u], end);
            const bool joined = std::all_of(path.begin(), path.end(), [&](int n) {
              return axis_.node_piece[static_cast<std::size_t>(n)] == axis_.node_piece[static_cast<std::size_t>(path.front())];
            });
            socket_[chain[0]] = whole && joined;
          }
          break;
        }
    }
    for (std::size_t i = 0; i < placed; ++i) {
      if (!t_.bones[chain[i]].narrow || line.p.size() < 3) continue;
      fixed[i] = 1;
      bool squeezed = false;
      at[i] = narrow_place(line, at[i], to_tip, squeezed);
      // The links between squeeze under a big head: their scale is the chain's (figure_scale).
      if (squeezed)
        for (std::size_t c = 0; c < placed; ++c) chain_scale_[chain[c]] = total > 0 ? line.length() / (total * measure_) : 0;
    }
    std::size_t from = 0;  // joints (from, i) lie between the fixed points `start` and at[i]
    double start = 0, start_len = 0;
    for (std::size_t i = 0; i <= placed; ++i) {
      if (i < placed && !fixed[i]) continue;
      const double stop = i < placed ? at[i] : line.length(), stop_len = i < placed ? cum[i] : total;
      for (std::size_t k = from; k < i; ++k)
        at[k] = start + (stop - start) * (stop_len > start_len ? (cum[k] - start_len) / (stop_len - start_len) : 0);
      if (i < placed) start = at[i], start_len = cum[i], from = i + 1;
    }
    const bool straight = to_tip && shares_path(u, d, line);
    for (std::size_t i = 0; i < placed; ++i) {
      if (!straight) {
        set(chain[i], line.at(at[i]), How::Shape);
        continue;
      }
      const Vec2 first = add(pos_[u], scale(unit(rest(chain[0])), mid(t_.bones[chain[0]].length) * measure_));
      const double f0 = cum[0] / total;
      const double f = i == 0 ? 0 : (cum[i] / total - f0) / std::max(1e-9, 1 - f0);
      set(chain[i], add(first, scale(sub(tip_end_[d], first), f)), How::Shape);
    }
    if (to_tip && (t_.bones[d].over_body || t_.bones[d].optional) && !within_ranges(u, chain)) {
      for (std::size_t b : chain) placed_[b] = 0, how_[b] = How::None;
      unmatch(chain.front());
    }
  }

  // A root where a pair of limbs leaves its disc (the hips, where the legs meet the body) is their
  // pelvis, which spans from the body's centre where the limbs meet (the axis junction, up in the
  // belly) down to the line through the two sockets: the joint goes to its middle.
  void settle_root_between_sockets() {
    for (const auto& [a, b] : t_.symmetry) {
      const auto u = t_.bones[a].parent;
      if (u < 0 || u != t_.bones[b].parent || t_.bones[static_cast<std::size_t>(u)].parent >= 0) continue;
      if (!socket_[a] || !socket_[b] || how_[a] != How::Shape || how_[b] != How::Shape) continue;
      // Sockets at different heights (a figure turned, a leg drawn forward) show no pelvis line.
      const Vec2 across = sub(pos_[a], pos_[b]);
      if (std::abs(across.y) > kLevelSockets * std::abs(across.x)) return;
      const Vec2 sockets = scale(add(pos_[a], pos_[b]), 0.5);
      const Vec2 pelvis = scale(add(pos_[static_cast<std::size_t>(u)], sockets), 0.5);
      if (inside(pelvis)) pos_[static_cast<std::size_t>(u)] = pelvis;
      return;
    }
  }

  // A pair of spot bones (the eyes) goes to a level, mirrored pair of dark spots inside their parent's
  // part (the head): its largest inscribed disc on the way from the parent's joint to its tip. Each
  // takes the spot nearer its rest direction; a part without such a pair leaves them out.
  void place_spots() {
    for (const auto& [a, b] : t_.symmetry) {
      const auto p = t_.bones[a].parent;
      if (!t_.bones[a].spot || !t_.bones[b].spot || p < 0 || p != t_.bones[b].parent) continue;
      const auto parent = static_cast<std::size_t>(p);
      if (how_[parent] != How::Shape || tip_node_[parent] < 0) continue;
      int centre = tip_node_[parent];
      for (int n : axis_.path(axis_.nearest(pos_[parent]), tip_node_[parent]))
        if (axis_.radius(n) > axis_.radius(centre)) centre = n;
      // The part's own axis: from the disc's centre out to its tip (the joint may sit off to a side).
      const Vec2 middle = axis_.at[static_cast<std::size_t>(centre)], to_tip = sub(tip_end_[parent], middle);
      const double len = norm(to_tip);
      const Vec2 up = len > 1e-9 ? scale(to_tip, 1 / len) : Vec2{0, -1};
      const auto spots = axis_.spot_pair(middle, axis_.radius(centre), up);
      if (!spots) continue;
      auto off = [&](std::size_t bone, Vec2 at) {
        const double r = rest(bone);
        return outside_range(angle_of(sub(at, pos_[parent])), r, r);
      };
      const bool swap = off(a, spots->second) + off(b, spots->first) < off(a, spots->first) + off(b, spots->second);
      set(a, swap ? spots->second : spots->first, How::Shape);
      set(b, swap ? spots->first : spots->second, How::Shape);
    }
  }

  // Whether the inscribed disc at point k of a path to a tip lies within the tip's part: the discs on
  // the path that reach the tip's end (its last point), give or take a cell of the grid. The
  // narrowest point there is the part's own axis narrowing towards its end (a head's towards its
  // crown), not a neck: a big head on a body as wide as it (arms drawn against the torso) keeps its
  // inscribed radius down to the hips.
  bool in_tip_part(const Polyline& line, std::size_t k) const {
    const double cell = axis_.shape.cell;
    if (line.r.back() > 0) return false;  // the path stops inside the shape: no tip's end
    for (std::size_t j = 0; j + 1 < line.p.size(); ++j)
      if (line.r[j] > 0 && norm(sub(line.p[j], line.p.back())) <= line.r[j] + cell &&
          norm(sub(line.p[k], line.p[j])) + line.r[k] <= line.r[j] + cell)
        return true;
    return false;
  }
  // Where a narrow joint (a neck) proportionally at `at` on `line` goes: where the path is pinched
  // between two wider parts, else the narrowest point near `at`, or where the silhouette is pinched
  // across the path when that lies in the tip's part (a head's axis narrowing towards its crown); and
  // never beyond the middle of the tip's part (a big head whose width is a step up from a small
  // body's, with no pinch between them). `squeezed` when a big head pushed it down.
  double narrow_place(const Polyline& line, double at, bool to_tip, bool& squeezed) const {
    if (const auto pinch = pinched(line, line.r)) {
      at = *pinch;
    } else {
      const double lo = std::max(0.0, at - kNarrowWindow * line.length());
      const double hi = std::min(line.length(), at + kNarrowWindow * line.length());
      std::size_t best = line.p.size();
      for (std::size_t k = 0; k < line.p.size(); ++k) {
        if (line.s[k] <= lo || line.s[k] >= hi || line.r[k] <= 0) continue;
        if (best == line.p.size() || line.r[k] < line.r[best] - 1e-9 ||
            (std::abs(line.r[k] - line.r[best]) <= 1e-9 && std::abs(line.s[k] - at) < std::abs(line.s[best] - at)))
          best = k;
      }
      at = best < line.p.size() ? line.s[best] : at;
      if (best < line.p.size() && in_tip_part(line, best))
        if (const auto chin = pinched_across(line)) at = *chin, squeezed = true;
    }
    if (to_tip)
      if (const auto chin = below_tip_middle(line, at)) at = *chin, squeezed = true;
    return at;
  }

  // When `at` lies beyond the middle of the tip's part: the point, from where the path leaves that
  // part up to its middle, where the silhouette is narrowest across the path (the chin, where a big
  // head meets the body's top). The part's middle is the largest inscribed disc met walking the path
  // back from the tip's end, until the path leaves that disc through a part kPinchDepth narrower (the
  // wobbles of a lock of hair's width do not end the head). None when `at` lies before the middle,
  // or the path never leaves the part.
  std::optional<double> below_tip_middle(const Polyline& line, double at) const {
    if (line.p.size() < 3 || line.r.back() > 0) return std::nullopt;  // no tip's end
    std::size_t middle = line.p.size() - 1, leaves = line.p.size();
    for (std::size_t k = line.p.size(); k-- > 0;) {
      if (line.r[k] > line.r[middle]) middle = k;
      else if (norm(sub(line.p[k], line.p[middle])) > line.r[middle] && line.r[k] < (1 - kPinchDepth) * line.r[middle]) {
        leaves = k;
        break;
      }
    }
    if (leaves == line.p.size() || at <= line.s[middle]) return std::nullopt;
    std::size_t chin = leaves;
    double narrowest = across(line, leaves);
    for (std::size_t k = leaves + 1; k < middle; ++k)
      if (const double w = across(line, k); w > 0 && (narrowest <= 0 || w < narrowest - 1e-9)) chin = k, narrowest = w;
    return line.s[chin];
  }

  // Where the silhouette's width across the path is pinched (a chin between a big head and a body
  // with its arms), when its inscribed radius shows none.
  std::optional<double> pinched_across(const Polyline& line) const {
    std::vector<double> widths;
    for (std::size_t k = 0; k < line.p.size(); ++k) widths.push_back(across(line, k));
    return pinched(line, widths);
  }

  // The silhouette's extent across the path at its point k (square to the path over the part's
  // inscribed radius either side), within twice that radius of it, px. 0 past the path's last point
  // on the outline.
  double across(const Polyline& line, std::size_t k) const {
    const double r = line.r[k];
    const Vec2 d = sub(line.at(line.s[k] + r), line.at(line.s[k] - r));
    const double len = norm(d);
    if (r <= 0 || len < 1e-9) return 0;
    const Vec2 n{-d.y / len, d.x / len};
    const detail::CoveredSpan span = detail::covered_span(axis_.shape, line.p[k], n, 2 * r);
    return span.hi < span.lo ? 0 : span.hi - span.lo;
  }

  // Where the path is pinched deepest between two wider parts (a neck between a chest and a head; a
  // chibi's big head on its small body pinches at the chin): the point whose width `w` (its inscribed
  // radius, or the silhouette's extent across it) lies furthest below the widest on both sides of it.
  // None when no pinch is deep enough.
  static std::optional<double> pinched(const Polyline& line, const std::vector<double>& w) {
    const std::size_t n = line.p.size();
    std::vector<double> before(n, 0), after(n, 0);
    for (std::size_t k = 0; k < n; ++k) before[k] = std::max(k ? before[k - 1] : 0.0, w[k]);
    for (std::size_t k = n; k-- > 0;) after[k] = std::max(k + 1 < n ? after[k + 1] : 0.0, w[k]);
    std::optional<double> best;
    double best_depth = 0;
    for (std::size_t k = 1; k + 1 < n; ++k) {
      if (line.r[k] <= 0 || line.s[k] < kPinchFrom * line.length() || line.s[k] > kPinchTo * line.length()) continue;
      const double wide = std::min(before[k], after[k]), depth = wide - w[k];
      if (depth >= kPinchDepth * wide && depth > best_depth + 1e-9) best = line.s[k], best_depth = depth;
    }
    return best;
  }

  // Whether the axis path to d's tip runs along its mirror image's for more than kSharedPath of it.
  bool shares_path(std::size_t u, std::size_t d, const Polyline& line) const {
    const auto m = partner(d);
    if (!m || tip_node_[*m] < 0 || line.length() <= 0) return false;
    const std::vector<int> mine = axis_.path(anchor_[u], tip_node_[d]), theirs = axis_.path(anchor_[u], tip_node_[*m]);
    double shared = 0;
    for (std::size_t i = 1; i < mine.size() && i < theirs.size() && mine[i] == theirs[i]; ++i)
      shared += norm(sub(axis_.at[static_cast<std::size_t>(mine[i])], axis_.at[static_cast<std::size_t>(mine[i - 1])]));
    return shared > kSharedPath * line.length();
  }
  // Whether every link of a placed chain points within its range (with the scoring slack).
  bool within_ranges(std::size_t u, const std::vector<std::size_t>& chain) const {
    std::size_t prev = u;
    for (std::size_t b : chain) {
      const Vec2 link = sub(pos_[b], pos_[prev]);
      const TemplateRange dir = direction(b);
      if (norm(link) > 1e-9 && outside_range(angle_of(link), dir.min, dir.max) > kAngleSlack) return false;
      prev = b;
    }
    return true;
  }

  // The median length ratio of the links the shape placed, so limbs placed from the proportions
  // come out at the figure's own scale (a chibi's short arms). With `chain_scale`, links squeezed
  // under a big head count at their chain's scale: the reach an arm found from the colour edges may
  // have is not cut by a short torso.
  double figure_scale(bool chain_scale = false) const {
    std::vector<double> ratios;
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      const auto p = t_.bones[b].parent;
      if (p < 0 || t_.bones[b].spot || how_[b] != How::Shape || how_[static_cast<std::size_t>(p)] != How::Shape) continue;
      const double want = mid(t_.bones[b].length) * measure_;
      if (chain_scale && chain_scale_[b] > 0) ratios.push_back(chain_scale_[b]);
      else if (want > 0) ratios.push_back(norm(sub(pos_[b], pos_[static_cast<std::size_t>(p)])) / want);
    }
    if (ratios.empty()) return 1;
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2), ratios.end());
    return std::clamp(ratios[ratios.size() / 2], 0.5, 2.0);
  }

  std::optional<std::size_t> partner(std::size_t b) const {
    for (const auto& [l, r] : t_.symmetry) {
      if (l == b) return r;
      if (r == b) return l;
    }
    return std::nullopt;
  }

  // Bones no matched extremity reached: optional ones are left out, the rest placed from the
  // proportions (or mirroring a partner the shape placed), kept inside the shape.
  void place_the_rest() {
    const double k = figure_scale();
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      if (placed_[b] || how_[b] == How::Omitted) continue;
      const TemplateBone& bone = t_.bones[b];
      if (bone.parent < 0) {  // no axis at all (a speck): the proportions' place
        set(b, expect_[b], How::Forced);
        continue;
      }
      const auto parent = static_cast<std::size_t>(bone.parent);
      if (how_[parent] == How::Omitted || bone.optional) {
        how_[b] = How::Omitted;
        continue;
      }
      double deg = rest(b), len = mid(bone.length) * measure_ * k;
      if (const auto m = partner(b); m && how_[*m] == How::Shape && how_[static_cast<std::size_t>(t_.bones[*m].parent)] == How::Shape) {
        const Vec2 link = sub(pos_[*m], pos_[static_cast<std::size_t>(t_.bones[*m].parent)]);
        // The partner's link mirrored about the figure's vertical (a front view's other arm).
        deg = 180 - angle_of(link);
        len = norm(link);
      }
      const Vec2 from = pos_[parent], dir = unit(deg);
      if (how_[parent] != How::OverBody && bone.over_body) len = std::min(len, 0.8 * run_inside(from, dir));
      Vec2 p = add(from, scale(dir, len));
      for (double f = 1; f > 0 && !inside(p); f -= 0.1) p = add(from, scale(dir, len * f));
      set(b, p, bone.over_body ? How::OverBody : How::Forced);
    }
  }

  // px from p along dir before the shape ends.
  double run_inside(Vec2 p, Vec2 dir) const {
    double t = 0;
    while (t < 4 * measure_ && inside(add(p, scale(dir, t + 0.5)))) t += 0.5;
    return t;
  }
  bool inside(Vec2 p) const {
    return axis_.shape.inside(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y)));
  }
  void set(std::size_t b, Vec2 p, How how) {
    pos_[b] = p;
    placed_[b] = 1;
    how_[b] = how;
  }

  // The covered pixel centre nearest p (p itself when covered, kept kEdgeMargin inside a side of its
  // pixel that an uncovered pixel lies beyond: a rig keeps each joint as an offset from its parent,
  // and the sums that place it again round, so one exactly on that side could land off the shape).
  Vec2 snap_inside(Vec2 p) const {
    const auto& s = axis_.shape;
    if (inside(p)) {
      const double fx = std::floor(p.x), fy = std::floor(p.y);
      const int x = static_cast<int>(fx), y = static_cast<int>(fy);
      // The pixel a rounding of x (y) could carry p into: -1 or 1 beside it, 0 when p is not that near.
      const int dx = p.x < fx + kEdgeMargin ? -1 : p.x > fx + 1 - kEdgeMargin ? 1 : 0;
      const int dy = p.y < fy + kEdgeMargin ? -1 : p.y > fy + 1 - kEdgeMargin ? 1 : 0;
      const bool corner_open = dx != 0 && dy != 0 && !s.inside(x + dx, y + dy);
      if (dx != 0 && (corner_open || !s.inside(x + dx, y))) p.x = dx < 0 ? fx + kEdgeMargin : fx + 1 - kEdgeMargin;
      if (dy != 0 && (corner_open || !s.inside(x, y + dy))) p.y = dy < 0 ? fy + kEdgeMargin : fy + 1 - kEdgeMargin;
      return p;
    }
    const int px = static_cast<int>(std::floor(p.x)), py = static_cast<int>(std::floor(p.y));
    for (int r = 1; r < std::max(s.width, s.height) + 2; ++r) {
      Vec2 best = p;
      double best_d = -1;
      for (int y = py - r; y <= py + r; ++y)
        for (int x = px - r; x <= px + r; ++x) {
          if ((std::abs(y - py) != r && std::abs(x - px) != r) || !s.inside(x, y)) continue;
          const double d = std::hypot(x + 0.5 - p.x, y + 0.5 - p.y);
          if (best_d < 0 || d < best_d) best = {x + 0.5, y + 0.5}, best_d = d;
        }
      if (best_d >= 0) return best;
    }
    return p;
  }

  double score(const std::vector<std::size_t>& kept) const {
    // Each required tip by how near its expected place it was found (0 when not found).
    std::size_t required = 0;
    double found = 0;
    for (std::size_t b = 0; b < t_.bones.size(); ++b) {
      const TemplateBone& bone = t_.bones[b];
      if (!bone.tip || bone.optional || bone.over_body) continue;
      ++required;
      if (tip_node_[b] >= 0) found += std::max(0.0, 1 - tip_cost_[b] / kMatchRadius);
    }
    double fit = 0, links = 0, in = 0, samples = 0;
    for (std::size_t b : kept) {
      const auto p = t_.bones[b].parent;
      if (p < 0 || t_.bones[b].spot) continue;  // spots are inside their part by construction
      const Vec2 a = pos_[static_cast<std::size_t>(p)], c = pos_[b];
      for (int i = 0; i <= 8; ++i) in += inside(add(a, scale(sub(c, a), i / 8.0))), samples += 1;
      if (how_[b] != How::Shape) continue;
      const TemplateRange dir = direction(b), len = t_.bones[b].length;
      const double l = norm(sub(c, a)) / measure_;
      fit += 0.5 * (outside_range(angle_of(sub(c, a)), dir.min - kAngleSlack, dir.max + kAngleSlack) == 0);
      fit += 0.5 * (l >= len.min / kLengthSlack && l <= len.max * kLengthSlack);
      links += 1;
    }
    const double tips = required ? found / double(required) : 1;
    const double explained = tips_.empty() ? 0.5 : double(matched_) / double(tips_.size());
    return 0.4 * tips + 0.2 * (links ? fit / links : 0.5) + 0.2 * (samples ? in / samples : 1) + 0.2 * explained;
  }

  const SkeletonTemplate& t_;
  const Axis& axis_;
  bool mirrored_;
  double measure_ = 1;
  std::vector<std::vector<std::size_t>> children_;
  std::vector<Vec2> expect_, pos_, tip_end_;
  std::vector<double> tip_cost_;  // a matched tip's distance from its expected place, + kInnerTipCost
  std::vector<char> placed_, junction_;  // junction_: anchored where three or more limbs meet
  std::vector<char> socket_;             // a paired limb's first joint moved to where it leaves the root's disc
  std::vector<char> refined_;            // an over-body joint moved onto the limb the colour edges draw
  std::vector<double> chain_scale_;      // a link squeezed under a big head: its chain's scale (0: its own)
  std::vector<int> anchor_, tip_node_, tips_;
  std::vector<How> how_;
  std::size_t matched_ = 0;
};

}  // namespace

namespace {

struct PlacedFit {
  TemplateFit fit;
  detail::FitPlacement placement;  // as the shape and the proportions placed it
  std::optional<Fitter> fitter;    // the chosen way's fit, to refine
};

PlacedFit fit_placed(Fitter drawn, Fitter mirrored, const TemplateFitOptions& o) {
  PlacedFit best{drawn.run(o), {}, std::nullopt};
  TemplateFit other = mirrored.run(o);
  if (other.score > best.fit.score + 1e-12) {
    best.fit = std::move(other);
    best.placement = mirrored.placement();
    best.fitter.emplace(std::move(mirrored));
    return best;
  }
  best.placement = drawn.placement();
  best.fitter.emplace(std::move(drawn));
  return best;
}

// The chosen fit's limbs over the body refined from the sprite's colour edges (once, for the fit
// that is kept). The score stays the fit's to the shape, as `auto` compared it.
void refine_from_edges(PlacedFit& placed, const TemplateFitOptions& o) {
  if (!o.colour_edges || !placed.fitter || !placed.fitter->refine_over_body()) return;
  const double score = placed.fit.score;
  placed.fit = placed.fitter->result(o);
  placed.fit.score = score;
}

// Whether the shape lies the way `t` is measured: a template measured by the height is for figures
// standing up, by the width for figures lying along the ground.
bool lies_as_measured(const SkeletonTemplate& t, const detail::ShapeAxis& shape) {
  const double w = shape.x1 - shape.x0, h = shape.y1 - shape.y0;
  const bool upright = t.measure != TemplateMeasure::Width || w >= h;
  const bool lying = t.measure != TemplateMeasure::Height || h >= w;
  return upright && lying;
}

// Whether `auto` would take this fit of a template it was not left to choose: lying as the template
// is measured, showing its required extremities (`shown`, either way), scoring well and passing the
// second look. Where the template plainly does not fit (a fish, a tree or a prop forced into a
// humanoid) there is no arm held against a body to find, so the colour edges are not searched.
bool auto_would_take(const SkeletonTemplate& tmpl, const detail::ShapeAxis& shape, const PlacedFit& placed,
                     bool shown) {
  if (!lies_as_measured(tmpl, shape) || !shown || placed.fit.score < kTemplateFitFloor) return false;
  return detail::implausible_fit(tmpl, placed.placement, shape, detail::HalfWidthField(shape)).empty();
}

TemplateFit fit_on_axis(const SkeletonTemplate& tmpl, const Axis& axis, const TemplateFitOptions& o) {
  Fitter drawn(tmpl, axis, false), mirrored(tmpl, axis, true);
  const bool shown = o.colour_edges && (drawn.shows_required() || mirrored.shows_required());
  PlacedFit placed = fit_placed(std::move(drawn), std::move(mirrored), o);
  const bool may_search = o.colour_edges && placed.fitter && placed.fitter->may_refine();
  if (may_search && auto_would_take(tmpl, axis.shape, placed, shown)) refine_from_edges(placed, o);
  return std::move(placed.fit);
}

Result<detail::ShapeAxis> axis_of(const Image& image, const TemplateFitOptions& o) {
  if (!(o.pivot_x >= 0 && o.pivot_x <= 1 && o.pivot_y >= 0 && o.pivot_y <= 1))
    return make_error("skeleton.options", "pivot_x and pivot_y must be within 0..1");
  return detail::shape_axis(image, o.alpha_threshold, o.skip_drop_shadow, o.min_branch, o.branch_ratio);
}

}  // namespace

Result<TemplateFit> fit_template(const Image& image, const SkeletonTemplate& tmpl, const TemplateFitOptions& o) {
  if (tmpl.bones.empty()) return make_error("skeleton.options", "the template has no bones");
  auto shape = axis_of(image, o);
  if (!shape) return Unexpected{shape.error()};
  return fit_on_axis(tmpl, Axis(*shape, image), o);
}

Result<TemplateAutoFit> fit_template_auto(const Image& image, const std::vector<SkeletonTemplate>& templates,
                                          const TemplateFitOptions& o) {
  for (const SkeletonTemplate& t : templates)
    if (t.bones.empty()) return make_error("skeleton.options", "template \"" + t.name + "\" has no bones");
  auto shape = axis_of(image, o);
  if (!shape) return Unexpected{shape.error()};
  const Axis axis(*shape, image);
  TemplateAutoFit out;
  // A cheap look first, so only plausible templates are fitted: in list order, the first that
  // fits well wins (a head and two feet are a humanoid's as much as a bird's: figures are the
  // common case, listed first).
  std::optional<TemplateFit> best_below;  // the best fit under the floor, when none fits well
  std::optional<detail::HalfWidthField> half_width;  // made at the first fit that scores well
  for (const SkeletonTemplate& t : templates) {
    // The shape must lie as the template is measured and show its required extremities.
    if (!lies_as_measured(t, *shape)) {
      out.skipped.push_back(t.name);
      continue;
    }
    Fitter drawn(t, axis, false), mirrored(t, axis, true);  // looked at, then fitted
    if (!drawn.shows_required() && !mirrored.shows_required()) {
      out.skipped.push_back(t.name);
      continue;
    }
    PlacedFit placed = fit_placed(std::move(drawn), std::move(mirrored), o);
    TemplateFit& fit = placed.fit;
    out.scores.emplace_back(t.name, fit.score);
    if (fit.score >= kTemplateFitFloor) {
      // Scoring well is not enough: the shape must have the parts of the template's kind.
      if (!half_width) half_width.emplace(*shape);
      std::string why = detail::implausible_fit(t, placed.placement, *shape, *half_width);
      if (why.empty()) {
        refine_from_edges(placed, o);
        out.best = std::move(fit);
        return out;
      }
      out.rejected.emplace_back(t.name, std::move(why));
      continue;
    }
    if (!best_below || fit.score > best_below->score) best_below = std::move(fit);
  }
  out.best = std::move(best_below);
  return out;
}

}  // namespace rig2d
