// SPDX-License-Identifier: Apache-2.0
#include "skeleton/axis_tree.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
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

thread_local SearchGrid t_search;

// Out of line, so the search reads its grid through one plain reference: inlined, the compiler looks
// the thread-local up again at every use in the loop.
[[gnu::noinline]] SearchGrid& thread_search_grid() { return t_search; }

}  // namespace

AxisTree axis_tree(const BinaryGrid& axis, const std::vector<float>& radius, std::size_t root_cell) {
  AxisTree t;
  t.width = axis.width;
  const int w = axis.width;
  SearchGrid& search = thread_search_grid();
  search.start(axis.on.size());
  using Item = std::tuple<double, std::size_t, int>;  // depth, cell (tie-break), parent node
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  search.at(root_cell).best = 0;
  open.emplace(0.0, root_cell, -1);
  while (!open.empty()) {
    const auto [d, cell, parent] = open.top();
    open.pop();
    SearchCell& here = search.at(cell);
    if (here.node >= 0) continue;
    const int id = static_cast<int>(t.cell.size());
    here.node = id;
    t.cell.push_back(cell);
    t.parent.push_back(parent);
    t.depth.push_back(d);
    t.radius.push_back(radius[cell]);
    const int x = static_cast<int>(cell % w), y = static_cast<int>(cell / w);
    int neighbours = 0;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || !axis.at(x + dx, y + dy)) continue;
        ++neighbours;
        const std::size_t next = static_cast<std::size_t>(y + dy) * w + x + dx;
        const double nd = d + ((dx != 0 && dy != 0) ? std::sqrt(2.0) : 1.0);
        SearchCell& there = search.at(next);
        if (there.node < 0 && nd < there.best) {
          there.best = nd;
          open.emplace(nd, next, id);
        }
      }
    }
    t.end.push_back(neighbours <= 1);
  }
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

std::vector<AxisChain> axis_chains(const AxisTree& t) {
  std::vector<AxisChain> out;
  if (t.root < 0) return out;
  std::vector<std::vector<int>> children(t.parent.size());
  for (std::size_t i = 0; i < t.parent.size(); ++i)
    if (t.alive[i] && t.parent[i] >= 0) children[static_cast<std::size_t>(t.parent[i])].push_back(static_cast<int>(i));
  std::vector<std::pair<int, int>> starts;  // (start node, parent chain)
  for (int c : children[static_cast<std::size_t>(t.root)]) starts.emplace_back(c, -1);
  for (std::size_t s = 0; s < starts.size(); ++s) {
    AxisChain chain;
    chain.parent = starts[s].second;
    int node = starts[s].first;
    chain.nodes.push_back(t.parent[node]);
    chain.nodes.push_back(node);
    while (children[static_cast<std::size_t>(node)].size() == 1) {
      node = children[static_cast<std::size_t>(node)][0];
      chain.nodes.push_back(node);
    }
    const auto& next = children[static_cast<std::size_t>(node)];
    chain.tip = next.empty();
    const int id = static_cast<int>(out.size());
    for (int c : next) starts.emplace_back(c, id);
    out.push_back(std::move(chain));
  }
  return out;
}

}  // namespace rig2d::medial
