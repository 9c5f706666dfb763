// SPDX-License-Identifier: Apache-2.0
#include "skeleton/axis_tree.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <tuple>
#include <utility>

namespace rig2d::medial {
namespace {

std::vector<int> alive_children_count(const AxisTree& t) {
  std::vector<int> kids(t.parent.size(), 0);
  for (std::size_t i = 0; i < t.parent.size(); ++i)
    if (t.alive[i] && t.parent[i] >= 0) ++kids[static_cast<std::size_t>(t.parent[i])];
  return kids;
}

struct Spur {
  double reach = 0;
  int tip = -1;
  int junction = -1;
};

// The spur ending at `tip`: walk up while the parent has no other alive child.
Spur spur_from(const AxisTree& t, const std::vector<int>& kids, int tip) {
  int node = tip;
  while (t.parent[node] != t.root && kids[static_cast<std::size_t>(t.parent[node])] == 1) node = t.parent[node];
  const int junction = t.parent[node];
  const double length = t.depth[tip] - t.depth[junction];
  return {length + t.radius[tip] - t.radius[junction], tip, junction};
}

// Per-cell search state kept by each thread across calls: a tree touches about a hundred axis cells
// of a grid of thousands, so a cell's state counts only when its stamp is the call's, instead of
// filling grid-sized arrays every call.
struct SearchCell {
  std::uint32_t stamp = 0;
  int node = -1;     // tree node of the cell once reached
  double best = 0;   // shortest depth seen so far
};

struct SearchGrid {
  std::vector<SearchCell> cells;
  std::uint32_t stamp = 0;

  // Starts a new search over n cells: every cell reads as unreached with infinite depth.
  void start(std::size_t n) {
    if (cells.size() < n) cells.resize(n);
    if (++stamp == 0) {
      for (SearchCell& c : cells) c.stamp = 0;
      stamp = 1;
    }
  }
  SearchCell& at(std::size_t cell) {
    SearchCell& c = cells[cell];
    if (c.stamp != stamp) c = {stamp, -1, std::numeric_limits<double>::infinity()};
    return c;
  }
};

// The open list: a binary min-heap over (depth, cell, parent), kept by each thread across calls so
// it grows once. A cell is pushed again only with a strictly shorter depth, so no two entries share
// (depth, cell) and the pops come in one order, whatever the heap's layout.
struct OpenItem {
  double depth;
  std::size_t cell;
  int parent;
  bool operator>(const OpenItem& o) const {
    return std::tie(depth, cell, parent) > std::tie(o.depth, o.cell, o.parent);
  }
};

// The nodes as the search finds them, in arrays kept by each thread (grown once, not per tree).
struct ThreadSearch {
  SearchGrid grid;
  std::vector<OpenItem> open;
  std::vector<std::size_t> cell;
  std::vector<int> parent;
  std::vector<double> depth;
  std::vector<float> radius;
  std::vector<std::uint8_t> end;
  std::vector<std::pair<int, int>> cross;
};

thread_local ThreadSearch t_search;

// Out of line, so the search reads its state through one plain reference: inlined, the compiler looks
// the thread-local up again at every use in the loop.
[[gnu::noinline]] ThreadSearch& thread_search() { return t_search; }

// Neighbours NW, N, NE, W, E, SW, S, SE (row by row) as bits 0-7 of a mask.
constexpr int kAroundX[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int kAroundY[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

// The on neighbours of cell (x, y) of the grid.
unsigned on_around(const BinaryGrid& g, std::size_t cell, int x, int y) {
  const std::ptrdiff_t w = g.width;
  unsigned mask = 0;
  if (x > 0 && y > 0 && x + 1 < g.width && y + 1 < g.height) {  // away from the edge: plain offsets
    const std::uint8_t* c = g.on.data() + cell;
    mask = (c[-w - 1] != 0) | (c[-w] != 0) << 1 | (c[-w + 1] != 0) << 2 | (c[-1] != 0) << 3 | (c[1] != 0) << 4 |
           (c[w - 1] != 0) << 5 | (c[w] != 0) << 6 | (c[w + 1] != 0) << 7;
    return mask;
  }
  for (int k = 0; k < 8; ++k) mask |= static_cast<unsigned>(g.at(x + kAroundX[k], y + kAroundY[k])) << k;
  return mask;
}

}  // namespace

AxisTree axis_tree(const BinaryGrid& axis, const std::vector<float>& radius, std::size_t root_cell) {
  const int w = axis.width;
  std::ptrdiff_t offset[8];
  for (int k = 0; k < 8; ++k) offset[k] = static_cast<std::ptrdiff_t>(kAroundY[k]) * w + kAroundX[k];
  ThreadSearch& s = thread_search();
  SearchGrid& search = s.grid;
  search.start(axis.on.size());
  s.open.clear(), s.cell.clear(), s.parent.clear(), s.depth.clear(), s.radius.clear(), s.end.clear(), s.cross.clear();
  const auto push = [&open = s.open](double depth, std::size_t cell, int parent) {
    open.push_back({depth, cell, parent});
    std::push_heap(open.begin(), open.end(), std::greater<>{});
  };
  search.at(root_cell).best = 0;
  push(0.0, root_cell, -1);
  while (!s.open.empty()) {
    std::pop_heap(s.open.begin(), s.open.end(), std::greater<>{});
    const auto [d, cell, parent] = s.open.back();
    s.open.pop_back();
    SearchCell& here = search.at(cell);
    if (here.node >= 0) continue;
    const int id = static_cast<int>(s.cell.size());
    here.node = id;
    s.cell.push_back(cell);
    s.parent.push_back(parent);
    s.depth.push_back(d);
    s.radius.push_back(radius[cell]);
    const int x = static_cast<int>(cell % static_cast<std::size_t>(w)),
              y = static_cast<int>(cell / static_cast<std::size_t>(w));
    const unsigned around = on_around(axis, cell, x, y);
    for (unsigned m = around; m != 0; m &= m - 1) {
      const int k = std::countr_zero(m);
      const std::size_t next = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(cell) + offset[k]);
      const double nd = d + ((kAroundX[k] != 0 && kAroundY[k] != 0) ? std::sqrt(2.0) : 1.0);
      SearchCell& there = search.at(next);
      if (there.node >= 0) {
        if (there.node != parent) s.cross.emplace_back(there.node, id);  // reached another way: a cycle
      } else if (nd < there.best) {
        there.best = nd;
        push(nd, next, id);
      }
    }
    s.end.push_back(std::popcount(around) <= 1);
  }
  AxisTree t;
  t.width = w;
  t.cell.assign(s.cell.begin(), s.cell.end());
  t.parent.assign(s.parent.begin(), s.parent.end());
  t.depth.assign(s.depth.begin(), s.depth.end());
  t.radius.assign(s.radius.begin(), s.radius.end());
  t.end.assign(s.end.begin(), s.end.end());
  t.cross.assign(s.cross.begin(), s.cross.end());
  t.alive.assign(t.cell.size(), 1);
  t.root = t.cell.empty() ? -1 : 0;
  return t;
}

std::size_t prune_spurs(AxisTree& t, double min_length, double ratio) {
  std::size_t removed = 0;
  for (;;) {
    const std::vector<int> kids = alive_children_count(t);
    Spur weakest;
    double weakest_margin = 0;
    for (std::size_t i = 0; i < t.parent.size(); ++i) {
      if (!t.alive[i] || static_cast<int>(i) == t.root || kids[i] != 0) continue;
      const Spur s = spur_from(t, kids, static_cast<int>(i));
      const double margin = s.reach - std::max(min_length, ratio * t.radius[static_cast<std::size_t>(s.junction)]);
      if (margin < 0 && (weakest.tip < 0 || margin < weakest_margin)) {
        weakest = s;
        weakest_margin = margin;
      }
    }
    if (weakest.tip < 0) return removed;
    for (int node = weakest.tip; node != weakest.junction; node = t.parent[node]) t.alive[node] = 0;
    ++removed;
  }
}

int central_junction(const AxisTree& t, double cx, double cy) {
  std::vector<int> degree = alive_children_count(t);
  for (std::size_t i = 0; i < t.parent.size(); ++i)
    if (t.alive[i] && t.parent[i] >= 0) ++degree[i];
  int best = -1;
  double best_score = 0;
  for (std::size_t i = 0; i < t.parent.size(); ++i) {
    if (!t.alive[i] || degree[i] < 3) continue;
    const double x = static_cast<double>(t.cell[i] % static_cast<std::size_t>(t.width)) + 0.5;
    const double y = static_cast<double>(t.cell[i] / static_cast<std::size_t>(t.width)) + 0.5;
    const double score = std::hypot(x - cx, y - cy) - t.radius[i];
    if (best < 0 || score < best_score) best = static_cast<int>(i), best_score = score;
  }
  return best;
}

std::vector<std::uint8_t> cycle_nodes(const AxisTree& t, std::size_t min_cycle) {
  std::vector<std::uint8_t> on(t.parent.size(), 0);
  std::vector<int> path;
  for (auto [a, b] : t.cross) {
    // Both paths up to where they meet (a parent always comes before its children, so the later node
    // steps up first).
    path.clear();
    while (a != b) {
      int& later = a > b ? a : b;
      path.push_back(later);
      later = t.parent[static_cast<std::size_t>(later)];
    }
    path.push_back(a);
    if (path.size() < min_cycle) continue;
    for (int node : path) on[static_cast<std::size_t>(node)] = 1;
  }
  return on;
}

std::vector<AxisChain> axis_chains(const AxisTree& t) {
  std::vector<AxisChain> out;
  if (t.root < 0) return out;
  // Each node's alive children in node order, all in one array: kids[first[i]..first[i + 1]).
  const std::size_t n = t.parent.size();
  std::vector<int> first(n + 1, 0), kids;
  for (std::size_t i = 0; i < n; ++i)
    if (t.alive[i] && t.parent[i] >= 0) ++first[static_cast<std::size_t>(t.parent[i]) + 1];
  for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
  kids.resize(static_cast<std::size_t>(first[n]));
  std::vector<int> next(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
    if (t.alive[i] && t.parent[i] >= 0)
      kids[static_cast<std::size_t>(next[static_cast<std::size_t>(t.parent[i])]++)] = static_cast<int>(i);
  const auto children = [&](int node) {
    const auto i = static_cast<std::size_t>(node);
    return std::span<const int>(kids.data() + first[i], kids.data() + first[i + 1]);
  };
  std::vector<std::pair<int, int>> starts;  // (start node, parent chain)
  for (int c : children(t.root)) starts.emplace_back(c, -1);
  for (std::size_t s = 0; s < starts.size(); ++s) {
    AxisChain chain;
    chain.parent = starts[s].second;
    int node = starts[s].first;
    std::size_t length = 2;  // the chain's nodes, counted first so they are stored at once
    for (int k = node; children(k).size() == 1; k = children(k)[0]) ++length;
    chain.nodes.reserve(length);
    chain.nodes.push_back(t.parent[node]);
    chain.nodes.push_back(node);
    while (children(node).size() == 1) {
      node = children(node)[0];
      chain.nodes.push_back(node);
    }
    const std::span<const int> more = children(node);
    chain.tip = more.empty();
    const int id = static_cast<int>(out.size());
    for (int c : more) starts.emplace_back(c, id);
    out.push_back(std::move(chain));
  }
  return out;
}

}  // namespace rig2d::medial
