// SPDX-License-Identifier: Apache-2.0
#include "skeleton/medial_axis.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>

#include "image/run_components.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig2d::medial {
namespace {

// Neighbours P2..P9 clockwise from north, as in Zhang & Suen's paper.
constexpr std::array<int, 8> kDx{0, 1, 1, 1, 0, -1, -1, -1};
constexpr std::array<int, 8> kDy{-1, -1, 0, 1, 1, 1, 0, -1};

std::array<bool, 8> ring(const BinaryGrid& g, int x, int y) {
  std::array<bool, 8> p{};
  for (int k = 0; k < 8; ++k) p[k] = g.at(x + kDx[k], y + kDy[k]);
  return p;
}

// A simple, non-end cell: removing it keeps components and holes (Zhang-Suen's count and crossing
// tests).
bool simple_non_end(const std::array<bool, 8>& p) {
  int count = 0;
  int transitions = 0;
  for (int k = 0; k < 8; ++k) {
    count += p[k];
    transitions += !p[k] && p[(k + 1) % 8];
  }
  return count >= 2 && count <= 6 && transitions == 1;
}

// Zhang-Suen's deletion test for sub-iteration `second` (false: south-east boundary first).
bool deletable(const std::array<bool, 8>& p, bool second) {
  if (!simple_non_end(p)) return false;
  const bool n = p[0], e = p[2], s = p[4], w = p[6];
  return second ? !(n && e && w) && !(n && s && w) : !(n && e && s) && !(e && s && w);
}

// The two tests above for every 8-neighbourhood, indexed by the bit mask sum(p[k] << k): thinning
// asks them several times per border cell per pass.
struct NeighbourTables {
  std::array<bool, 256> simple{};
  std::array<std::array<bool, 256>, 2> deletable{};
};

NeighbourTables make_neighbour_tables() {
  NeighbourTables t;
  for (int mask = 0; mask < 256; ++mask) {
    std::array<bool, 8> p{};
    for (int k = 0; k < 8; ++k) p[k] = (mask >> k) & 1;
    t.simple[mask] = simple_non_end(p);
    t.deletable[0][mask] = deletable(p, false);
    t.deletable[1][mask] = deletable(p, true);
  }
  return t;
}

const NeighbourTables kNeighbourTables = make_neighbour_tables();

// Yokoi's 8-connectivity number: 1 when removing the cell keeps its 8-connected neighbours
// connected to each other and adds no hole.
int connectivity8(const std::array<bool, 8>& p) {
  int n = 0;
  for (int k = 0; k < 8; k += 2) {
    const bool a = !p[k], b = !p[(k + 1) % 8], c = !p[(k + 2) % 8];
    n += a - (a && b && c);
  }
  return n;
}

}  // namespace

// Zhang-Suen can leave two-cell-thick diagonal runs (stair steps); a cell with two or more axis
// neighbours whose removal keeps them 8-connected is redundant and goes, in scan order.
void remove_stair_steps(BinaryGrid& g) {
  std::vector<std::size_t> cells;
  for (std::size_t i = 0; i < g.on.size(); ++i)
    if (g.on[i]) cells.push_back(i);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i : cells) {
      const int x = static_cast<int>(i % g.width), y = static_cast<int>(i / g.width);
      if (!g.on[i]) continue;
      const auto p = ring(g, x, y);
      if (std::count(p.begin(), p.end(), true) >= 2 && connectivity8(p) == 1) {
        g.on[i] = 0;
        changed = true;
      }
    }
  }
}

namespace {

// 1D squared distance transform of f into d (Felzenszwalb & Huttenlocher); v, g and z are scratch
// of f.size(), f.size() and f.size() + 1. g[k] holds f + q^2 of the k-th envelope parabola, and the
// intersection that stops the pops is the new parabola's boundary, so each is computed once.
void edt_1d(const std::vector<float>& f, std::vector<float>& d, std::vector<int>& v, std::vector<float>& g,
            std::vector<float>& z) {
  const int n = static_cast<int>(f.size());
  constexpr float kInf = std::numeric_limits<float>::infinity();
  int k = -1;
  for (int q = 0; q < n; ++q) {
    if (f[q] == kInf) continue;
    const float gq = f[q] + float(q) * q;
    float s = -kInf;
    while (k >= 0) {
      s = (gq - g[k]) / (2.0f * float(q - v[k]));
      if (s > z[k]) break;
      --k;
    }
    if (k < 0) s = -kInf;
    ++k;
    v[k] = q;
    g[k] = gq;
    z[k] = s;
  }
  for (int q = 0, j = 0; q < n; ++q) {
    if (k < 0) {
      d[q] = kInf;
      continue;
    }
    while (j < k && z[j + 1] < float(q)) ++j;
    const float dq = float(q - v[j]);
    d[q] = dq * dq + f[v[j]];
  }
}

}  // namespace

bool thinning_deletable(unsigned mask, bool second) { return kNeighbourTables.deletable[second][mask & 255u]; }

bool thinning_simple(unsigned mask) { return kNeighbourTables.simple[mask & 255u]; }

int next_cell(const std::uint8_t* row, int x, int w, bool on) {
  for (; x + 8 <= w; x += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, row + x, sizeof word);
    // Bytes that are nonzero, or zero: in the latter, the lowest flagged byte is the first zero one
    // (a borrow can flag only bytes above it).
    const std::uint64_t found = on ? word : (word - 0x0101010101010101u) & ~word & 0x8080808080808080u;
    if (found == 0) continue;
    if constexpr (std::endian::native == std::endian::little) return x + std::countr_zero(found) / 8;
    break;
  }
  while (x < w && (row[x] != 0) != on) ++x;
  return x;
}

namespace {

// The runs of cells equal to `value`, as connected components (8- or 4-connected).
detail::RunComponents run_components(const BinaryGrid& grid, bool value, bool eight_connected) {
  detail::RunComponents c(eight_connected);
  const int w = grid.width;
  for (int y = 0; y < grid.height; ++y) {
    const std::uint8_t* row = grid.on.data() + static_cast<std::size_t>(y) * w;
    for (int x = next_cell(row, 0, w, value); x < w; x = next_cell(row, x, w, value)) {
      const int x0 = x;
      x = next_cell(row, x, w, !value);
      c.add({y, x0, x});
    }
  }
  return c;
}

}  // namespace

Components label_components(const BinaryGrid& grid) {
  Components c;
  const std::size_t w = static_cast<std::size_t>(grid.width);
  c.label.assign(grid.on.size(), -1);
  detail::RunComponents components = run_components(grid, true, true);
  const auto& runs = components.runs();
  const std::vector<std::uint32_t> root = components.roots();
  std::vector<int> id_of_root(runs.size(), -1);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto& run = runs[r];
    int& id = id_of_root[root[r]];
    const std::size_t row = static_cast<std::size_t>(run.y) * w;
    if (id < 0) {
      id = static_cast<int>(c.area.size());
      c.area.push_back(0);
      c.first.push_back(row + static_cast<std::size_t>(run.x0));
      c.box.push_back({run.x0, run.y, run.x1 - 1, run.y});
    }
    c.area[static_cast<std::size_t>(id)] += static_cast<std::size_t>(run.x1 - run.x0);
    Components::Box& box = c.box[static_cast<std::size_t>(id)];
    box.x0 = std::min(box.x0, run.x0), box.x1 = std::max(box.x1, run.x1 - 1), box.y1 = run.y;
    std::fill(c.label.begin() + static_cast<std::ptrdiff_t>(row + run.x0),
              c.label.begin() + static_cast<std::ptrdiff_t>(row + run.x1), id);
  }
  return c;
}

namespace {

// 4 x a window's share by its cells (bit 0 upper left, 1 lower left, 2 upper right, 3 lower right).
constexpr std::array<std::int8_t, 16> kQuadShare{0, 1, 1, 0, 1, 0, -2, -1, 1, -2, 0, -1, 0, -1, -1, 0};

// 4 x the Euler number's share of the windows x..x+1 (x < n) of two 0/1 rows, upper and lower.
std::ptrdiff_t row_pair_quads(const std::uint8_t* up, const std::uint8_t* lo, std::size_t n) {
  std::ptrdiff_t quads = 0;
  std::size_t x = 0;
#if defined(__SSE2__)
  // 16 windows a step: counts of windows with one on cell, three, and two on a diagonal.
  const __m128i one = _mm_set1_epi8(1), two = _mm_set1_epi8(2), three = _mm_set1_epi8(3);
  __m128i ones = _mm_setzero_si128(), threes = ones, diagonals = ones;
  for (; x + 16 <= n; x += 16) {
    const auto load = [](const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
    const __m128i a = load(up + x), b = load(up + x + 1), c = load(lo + x), d = load(lo + x + 1);
    const __m128i on = _mm_add_epi8(_mm_add_epi8(a, b), _mm_add_epi8(c, d));
    const __m128i diagonal = _mm_and_si128(_mm_cmpeq_epi8(on, two), _mm_cmpeq_epi8(a, d));
    const __m128i zero = _mm_setzero_si128();
    ones = _mm_add_epi64(ones, _mm_sad_epu8(_mm_and_si128(_mm_cmpeq_epi8(on, one), one), zero));
    threes = _mm_add_epi64(threes, _mm_sad_epu8(_mm_and_si128(_mm_cmpeq_epi8(on, three), one), zero));
    diagonals = _mm_add_epi64(diagonals, _mm_sad_epu8(_mm_and_si128(diagonal, one), zero));
  }
  const __m128i sum = _mm_sub_epi64(_mm_sub_epi64(ones, threes), _mm_add_epi64(diagonals, diagonals));
  std::int64_t lanes[2];
  std::memcpy(lanes, &sum, sizeof lanes);
  quads = static_cast<std::ptrdiff_t>(lanes[0] + lanes[1]);
#endif
  for (; x < n; ++x) quads += kQuadShare[static_cast<unsigned>(up[x] | lo[x] << 1 | up[x + 1] << 2 | lo[x + 1] << 3)];
  return quads;
}

}  // namespace

std::ptrdiff_t euler_number(const BinaryGrid& grid) {
  // Every window that touches an on cell, the grid's outside off: rows -1..h-1 paired with the next,
  // each row read as 0/1 through a copy with an off cell on either side.
  const auto w = static_cast<std::size_t>(grid.width);
  std::vector<std::uint8_t> upper(w + 2, 0), lower(w + 2, 0);
  std::ptrdiff_t quads = 0;  // 4 x the Euler number
  for (int y = 0; y <= grid.height; ++y) {
    std::uint8_t* lo = lower.data();
    if (y < grid.height) {
      const std::uint8_t* on = grid.on.data() + static_cast<std::size_t>(y) * w;
      for (std::size_t x = 0; x < w; ++x) lo[x + 1] = on[x] != 0;
    } else {
      std::fill(lower.begin(), lower.end(), std::uint8_t{0});
    }
    quads += row_pair_quads(upper.data(), lo, w + 1);
    upper.swap(lower);
  }
  return quads / 4;
}

std::size_t fill_small_holes(BinaryGrid& grid, std::size_t max_area) {
  return fill_small_holes(grid, [max_area](std::size_t) { return max_area; });
}

std::size_t fill_small_holes(BinaryGrid& grid, const std::function<std::size_t(std::size_t)>& largest) {
  detail::RunComponents components = run_components(grid, false, false);
  const auto& runs = components.runs();
  const std::vector<std::uint32_t> root = components.roots();
  // Per component (indexed by its root run): cells, and whether it reaches the grid's edge.
  std::vector<std::size_t> area(runs.size(), 0);
  std::vector<std::uint8_t> open(runs.size(), 0);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto& run = runs[r];
    area[root[r]] += static_cast<std::size_t>(run.x1 - run.x0);
    if (run.y == 0 || run.y == grid.height - 1 || run.x0 == 0 || run.x1 == grid.width) open[root[r]] = 1;
  }
  bool any_hole = false;
  std::size_t largest_hole = 0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (open[root[r]]) continue;
    any_hole = true;
    largest_hole = std::max(largest_hole, area[root[r]]);
  }
  if (!any_hole) return 0;
  const std::size_t max_area = largest(largest_hole);
  std::size_t filled = 0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto& run = runs[r];
    if (open[root[r]] || area[root[r]] > max_area) continue;
    const std::size_t row = static_cast<std::size_t>(run.y) * static_cast<std::size_t>(grid.width);
    std::fill(grid.on.begin() + static_cast<std::ptrdiff_t>(row + run.x0),
              grid.on.begin() + static_cast<std::ptrdiff_t>(row + run.x1), std::uint8_t{1});
    filled += static_cast<std::size_t>(run.x1 - run.x0);
  }
  return filled;
}

namespace {

// Squared distances along each column to the nearest off cell (the grid's outside counting as off),
// by counting cells up and down: exact integers.
// (Every entry is written, so the array starts unzeroed.)
std::unique_ptr<std::int32_t[]> column_squares(const BinaryGrid& grid) {
  const int w = grid.width, h = grid.height;
  const auto cells = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  auto sq = std::make_unique_for_overwrite<std::int32_t[]>(cells);
  // Cells counted from the nearest off cell above, this one included, then below; the running counts
  // in a row of their own, so the loops vectorize (reading the row above in place, they did not), and
  // in 16 bits, eight to a step (the callers' grids are under 4096 rows).
  auto above = std::make_unique_for_overwrite<std::int16_t[]>(cells);
  std::vector<std::int16_t> run(static_cast<std::size_t>(w), 0);
  for (int y = 0; y < h; ++y) {
    const std::uint8_t* on = grid.on.data() + static_cast<std::size_t>(y) * w;
    std::int16_t* here = above.get() + static_cast<std::size_t>(y) * w;
    for (int x = 0; x < w; ++x) {
      run[x] = static_cast<std::int16_t>(on[x] != 0 ? run[x] + 1 : 0);
      here[x] = run[x];
    }
  }
  std::fill(run.begin(), run.end(), std::int16_t{0});
  for (int y = h - 1; y >= 0; --y) {
    const std::uint8_t* on = grid.on.data() + static_cast<std::size_t>(y) * w;
    const std::int16_t* up = above.get() + static_cast<std::size_t>(y) * w;
    std::int32_t* here = sq.get() + static_cast<std::size_t>(y) * w;
    for (int x = 0; x < w; ++x) {
      run[x] = static_cast<std::int16_t>(on[x] != 0 ? run[x] + 1 : 0);
      const std::int32_t nearest = std::min(up[x], run[x]);
      here[x] = nearest * nearest;
    }
  }
  return sq;
}

// Scratch of one row's lower envelope: parabola apexes, their f + q^2, and each one's left boundary
// as a fraction num / den (den > 0).
struct Envelope {
  std::vector<std::int32_t> v;
  std::vector<std::int64_t> g, num, den;
  explicit Envelope(std::size_t n) : v(n), g(n), num(n), den(n) {}
};

// One row of FH's lower envelope over the column squares f[0..n) with an off cell just outside both
// ends (f = 0 there), in integers: a boundary is compared by cross-multiplying (|num| < 2^27, den <=
// 2^14 while n and the squares stay within 4096 cells), so it is exact, as the float envelope is at
// these sizes. Writes min over v of (q - v)^2 + f[v] to d.
void row_envelope(const std::int32_t* f, int n, Envelope& e, std::int32_t* d) {
  // Position p of the padded row is cell p - 1; positions 0 and n + 1 are the off cells outside.
  int k = 0;
  e.v[0] = 0, e.g[0] = 0;  // the left outside cell: f = 0 at position 0, boundary -infinity
  const auto push = [&](int q, std::int64_t gq) {
    std::int64_t num = 0, den = 1;
    for (;;) {
      num = gq - e.g[k];
      den = 2 * static_cast<std::int64_t>(q - e.v[k]);
      if (k == 0 || num * e.den[k] > e.num[k] * den) break;
      --k;
    }
    ++k;
    e.v[k] = q, e.g[k] = gq, e.num[k] = num, e.den[k] = den;
  };
  for (int q = 1; q <= n; ++q) push(q, f[q - 1] + static_cast<std::int64_t>(q) * q);
  push(n + 1, static_cast<std::int64_t>(n + 1) * (n + 1));
  for (int q = 1, j = 0; q <= n; ++q) {
    while (j < k && e.num[j + 1] < q * e.den[j + 1]) ++j;
    const std::int64_t dq = q - e.v[j];
    d[q - 1] = static_cast<std::int32_t>(dq * dq + (e.g[j] - static_cast<std::int64_t>(e.v[j]) * e.v[j]));
  }
}

}  // namespace

std::vector<float> distance_transform(const BinaryGrid& grid, ColumnPass columns) {
  constexpr int kExactSide = 4096;  // 4096^2 = 2^24
  if (columns == ColumnPass::Auto && grid.height + 2 <= kExactSide && grid.width + 2 <= kExactSide) {
    // Columns by counting, rows by the envelope in integers; a row with no on cell stays 0.
    const std::unique_ptr<std::int32_t[]> sq = column_squares(grid);
    Envelope e(static_cast<std::size_t>(grid.width) + 2);
    std::vector<std::int32_t> d(static_cast<std::size_t>(grid.width));
    std::vector<float> out(grid.on.size(), 0.0f);
    for (int y = 0; y < grid.height; ++y) {
      const std::size_t row = static_cast<std::size_t>(y) * grid.width;
      const std::uint8_t* on = grid.on.data() + row;
      if (std::find_if(on, on + grid.width, [](std::uint8_t c) { return c != 0; }) == on + grid.width) continue;
      row_envelope(sq.get() + row, grid.width, e, d.data());
      for (int x = 0; x < grid.width; ++x) out[row + x] = std::sqrt(static_cast<float>(d[x]));
    }
    return out;
  }
  // Pad by one off cell on every side so the outside of the grid counts as background.
  const int w = grid.width + 2, h = grid.height + 2;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  std::vector<float> sq(static_cast<std::size_t>(w) * h, 0.0f);
  const int longest = std::max(w, h);
  std::vector<float> f(static_cast<std::size_t>(longest)), d(f.size()), g(f.size()), z(f.size() + 1);
  std::vector<int> v(f.size());
  for (int y = 0; y < grid.height; ++y)
    for (int x = 0; x < grid.width; ++x)
      if (grid.at(x, y)) sq[static_cast<std::size_t>(y + 1) * w + x + 1] = kInf;
  for (int x = 0; x < w; ++x) {
    f.resize(static_cast<std::size_t>(h));
    d.resize(f.size());
    for (int y = 0; y < h; ++y) f[y] = sq[static_cast<std::size_t>(y) * w + x];
    edt_1d(f, d, v, g, z);
    for (int y = 0; y < h; ++y) sq[static_cast<std::size_t>(y) * w + x] = d[y];
  }
  for (int y = 0; y < h; ++y) {
    f.assign(sq.begin() + static_cast<std::ptrdiff_t>(y) * w, sq.begin() + static_cast<std::ptrdiff_t>(y + 1) * w);
    d.resize(f.size());
    edt_1d(f, d, v, g, z);
    std::copy(d.begin(), d.end(), sq.begin() + static_cast<std::ptrdiff_t>(y) * w);
  }
  std::vector<float> out(grid.on.size(), 0.0f);
  for (int y = 0; y < grid.height; ++y)
    for (int x = 0; x < grid.width; ++x)
      out[static_cast<std::size_t>(y) * grid.width + x] = std::sqrt(sq[static_cast<std::size_t>(y + 1) * w + x + 1]);
  return out;
}

CellDistances::CellDistances(const BinaryGrid& grid)
    : width_(grid.width), cells_(grid.on.size()), column_(column_squares(grid)) {}

std::int32_t CellDistances::squared(const std::int32_t* row, int x, std::int32_t floor) const {
  // The grid's outside is off: (x + 1)^2 and (width - x)^2 bound the scan, so x - k and x + k stay
  // inside the row while k^2 < least.
  std::int32_t least = std::min({row[x], (x + 1) * (x + 1), (width_ - x) * (width_ - x)});
  for (std::int32_t k = 1; k * k < least && least > floor; ++k)
    least = std::min({least, k * k + row[x - k], k * k + row[x + k]});
  return least;
}

float CellDistances::at(std::size_t cell) const {
  const std::size_t w = static_cast<std::size_t>(width_);
  return std::sqrt(static_cast<float>(squared(column_.get() + cell / w * w, static_cast<int>(cell % w), -1)));
}

float CellDistances::widest() const {
  std::int32_t best = 0;
  for (std::size_t row = 0; row < cells_; row += static_cast<std::size_t>(width_)) {
    const std::int32_t* c = column_.get() + row;
    for (int x = 0; x < width_; ++x)
      if (c[x] > best) best = std::max(best, squared(c, x, best));
  }
  return std::sqrt(static_cast<float>(best));
}

float CellDistances::deepest_in_column() const {
  const std::int32_t* column = column_.get();
  std::int32_t deepest = 0;
  for (std::size_t i = 0; i < cells_; ++i) deepest = std::max(deepest, column[i]);  // vectorizes, unlike max_element
  if (deepest == 0) return 0.0f;
  const auto cell = static_cast<std::size_t>(std::find(column, column + cells_, deepest) - column);
  return at(cell);
}

std::vector<float> CellDistances::at_cells(const BinaryGrid& cells) const {
  std::vector<float> out(cells.on.size(), 0.0f);
  const auto w = static_cast<std::size_t>(width_);
  for (std::size_t row = 0; row < cells.on.size(); row += w) {
    const std::uint8_t* on = cells.on.data() + row;
    // The cells asked for are sparse (an axis): the off runs between them are passed over.
    for (int x = next_cell(on, 0, width_, true); x < width_; x = next_cell(on, x + 1, width_, true))
      out[row + static_cast<std::size_t>(x)] = std::sqrt(static_cast<float>(squared(column_.get() + row, x, -1)));
  }
  return out;
}

namespace {

// Thinning's state per cell, one 16-bit word: bits 0-7 its neighbourhood mask (bit k: neighbour k of
// N, NE, E, SE, S, SW, W, NW is on), kept current as cells go, so a test is one load and a table
// lookup; bit 8 the cell is on; bit 9 it is on and not yet on the border list (its axis neighbours
// were on and none of its neighbours has gone), so a removal finds the neighbours to list in one test.
constexpr std::uint16_t kOn = 0x100, kUnlisted = 0x200;

// Tables over whole states (bits 0-9): an off cell is never deletable nor a stair step.
struct StateTables {
  std::array<std::array<bool, 1024>, 2> deletable{};
  std::array<bool, 1024> stair_step{};
};

const StateTables kStateTables = [] {
  StateTables t;
  for (unsigned mask = 0; mask < 256; ++mask) {
    std::array<bool, 8> p{};
    for (int k = 0; k < 8; ++k) p[k] = (mask >> k) & 1;
    for (const unsigned on : {unsigned{kOn}, unsigned{kOn} | kUnlisted}) {
      t.deletable[0][mask | on] = kNeighbourTables.deletable[0][mask];
      t.deletable[1][mask | on] = kNeighbourTables.deletable[1][mask];
      t.stair_step[mask | on] = std::count(p.begin(), p.end(), true) >= 2 && connectivity8(p) == 1;
    }
  }
  return t;
}();

// Thinning on a grid with an off frame (first and last row and column), indices as the grid's.
class Thinning {
 public:
  // `bits`: 0/1 per cell, the frame off.
  Thinning(const std::vector<std::uint8_t>& bits, int width)
      : w_(width),
        cells_(bits.size()),
        state_(std::make_unique_for_overwrite<std::uint16_t[]>(cells_)) {
    const std::ptrdiff_t w = width, h = static_cast<std::ptrdiff_t>(cells_) / w;
    // Each on cell joins the border list at most once and goes at most once.
    on_ = count_ones(bits.data(), cells_);
    border_ = std::make_unique_for_overwrite<std::uint32_t[]>(on_);
    marked_ = std::make_unique_for_overwrite<std::uint32_t[]>(on_);
    // The frame's states are 0; every inner cell's in one pass per row, which lists the border (on
    // cells with an axis neighbour off) in scan order.
    std::uint16_t* state = state_.get();
    std::fill_n(state, w, std::uint16_t{0});
    std::fill_n(state + (h - 1) * w, w, std::uint16_t{0});
    for (std::ptrdiff_t y = 1; y + 1 < h; ++y) {
      state[y * w] = state[y * w + w - 1] = 0;
      row_states(bits.data() + y * w, y * w);
    }
  }

  // The states of the inner cells of the row starting at cell `row` (c: its 0/1 bytes, the rows above
  // and below at -w and +w), listing its border cells.
  void row_states(const std::uint8_t* c, std::ptrdiff_t row) {
    const std::ptrdiff_t w = w_;
    std::uint16_t* const s = state_.get() + row;
#if defined(__SSE2__)
    if (w - 2 >= 16) {
      // 16 cells a step: neighbour k's 0/1 bytes shifted up to bit k (within each byte), the on and
      // unlisted bits interleaved above them. The last step ends at the row's last inner cell, over
      // cells already done (the same states; their border cells are not listed again).
      const auto at = [c](std::ptrdiff_t i) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + i)); };
      const __m128i one = _mm_set1_epi8(1);
      for (std::ptrdiff_t x = 1, done = 1;; done = x + 16, x = std::min(x + 16, w - 17)) {
        const __m128i n = at(x - w), e = at(x + 1), south = at(x + w), west = at(x - 1), on = at(x);
        __m128i m = _mm_or_si128(n, _mm_slli_epi16(at(x - w + 1), 1));
        m = _mm_or_si128(m, _mm_or_si128(_mm_slli_epi16(e, 2), _mm_slli_epi16(at(x + w + 1), 3)));
        m = _mm_or_si128(m, _mm_or_si128(_mm_slli_epi16(south, 4), _mm_slli_epi16(at(x + w - 1), 5)));
        m = _mm_or_si128(m, _mm_or_si128(_mm_slli_epi16(west, 6), _mm_slli_epi16(at(x - w - 1), 7)));
        const __m128i unlisted = _mm_and_si128(_mm_and_si128(_mm_and_si128(n, e), _mm_and_si128(south, west)), on);
        const __m128i high = _mm_or_si128(on, _mm_slli_epi16(unlisted, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(s + x), _mm_unpacklo_epi8(m, high));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(s + x + 8), _mm_unpackhi_epi8(m, high));
        const __m128i edge = _mm_cmpeq_epi8(_mm_andnot_si128(unlisted, on), one);
        auto lanes = static_cast<unsigned>(_mm_movemask_epi8(edge)) >> (done - x) << (done - x);
        for (; lanes != 0; lanes &= lanes - 1) border_[size_++] = static_cast<std::uint32_t>(row + x + std::countr_zero(lanes));
        if (x == w - 17) return;
      }
    }
#endif
    for (std::ptrdiff_t x = 1; x + 1 < w; ++x) {
      const unsigned inner = c[x - w] & c[x + 1] & c[x + w] & c[x - 1];
      s[x] = static_cast<std::uint16_t>(c[x - w] | c[x - w + 1] << 1 | c[x + 1] << 2 | c[x + w + 1] << 3 | c[x + w] << 4 |
                                        c[x + w - 1] << 5 | c[x - 1] << 6 | c[x - w - 1] << 7 | c[x] << 8 | (c[x] & inner) << 9);
      if (c[x] & ~inner) border_[size_++] = static_cast<std::uint32_t>(row + x);
    }
  }

  // The 1s among n 0/1 bytes.
  static std::size_t count_ones(const std::uint8_t* bytes, std::size_t n) {
    std::size_t ones = 0, i = 0;
#if defined(__SSE2__)
    __m128i sums = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16)
      sums = _mm_add_epi64(sums, _mm_sad_epu8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i)), _mm_setzero_si128()));
    std::uint64_t lanes[2];
    std::memcpy(lanes, &sums, sizeof lanes);
    ones = static_cast<std::size_t>(lanes[0] + lanes[1]);
#endif
    for (; i < n; ++i) ones += bytes[i];
    return ones;
  }

  // Zhang-Suen's two sub-iterations until a pass removes nothing.
  void run() {
    for (bool changed = true; changed;) {
      changed = false;
      for (const int second : {0, 1}) changed |= sub_iteration(kStateTables.deletable[second]);
    }
  }

  // Zhang-Suen can leave two-cell-thick diagonal runs (stair steps); a cell with two or more axis
  // neighbours whose removal keeps them 8-connected is redundant and goes, in scan order.
  void remove_stair_steps() {
    std::vector<std::uint32_t> cells(border_.get(), border_.get() + size_);
    if (size_ == on_ - removed_size_) {  // every on cell is on the border list: its cells, sorted
      std::sort(cells.begin(), cells.end());
    } else {
      cells.clear();
      for (std::size_t i = 0; i < cells_; ++i)
        if (state_[i] & kOn) cells.push_back(static_cast<std::uint32_t>(i));
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (const std::uint32_t i : cells) {
        if (!kStateTables.stair_step[state_[i]]) continue;
        remove(i);
        changed = true;
      }
    }
  }

  // Clears the removed cells in `on` (indices as the state's): every byte masked by its cell's on bit
  // in one pass (a kept cell keeps its value), rather than a store per removed cell.
  void clear_removed(std::uint8_t* on) const {
    const std::uint16_t* state = state_.get();
    for (std::size_t i = 0; i < cells_; ++i)
      on[i] = static_cast<std::uint8_t>(on[i] & -static_cast<unsigned>((state[i] >> 8) & 1u));
  }

 private:
  // One sub-iteration: every border cell the test marks (in parallel, centred like Zhang-Suen), then
  // removed one by one with a re-check, so a two-cell-thick line or a 2x2 block keeps a cell instead
  // of vanishing. Cells gone since the last sub-iteration leave the list as it is read (each entry
  // is written back and kept by adding its on bit, without a branch on it).
  bool sub_iteration(const std::array<bool, 1024>& deletable) {
    std::uint32_t* const border = border_.get();
    std::uint32_t* const marked = marked_.get();
    const std::uint16_t* const state = state_.get();
    const std::size_t size = size_;
    std::size_t kept = 0, count = 0;
    for (std::size_t r = 0; r < size; ++r) {
      const std::uint32_t i = border[r];
      const unsigned s = state[i];
      border[kept] = i;
      kept += s >> 8;  // a listed cell's state is below 0x200: this is its on bit
      marked[count] = i;
      count += deletable[s];
    }
    size_ = kept;
    bool changed = false;
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint32_t i = marked[k];
      if (!kNeighbourTables.simple[state[i] & 0xff]) continue;
      remove(i);
      changed = true;
    }
    return changed;
  }

  // Cell i goes: it leaves each neighbour's mask (as that neighbour's opposite neighbour), and an on
  // neighbour not yet listed joins the border list, in neighbour order N, NE, E, SE, S, SW, W, NW.
  // One 16-bit store per neighbour: wider read-modify-writes of the 3 x 3 block's rows run fewer
  // instructions but are slower, as the next removal's wide load straddles this one's stores, which
  // cannot be forwarded to it.
  void remove(std::uint32_t i) {
    ++removed_size_;
    std::uint16_t* state = state_.get();
    std::uint32_t* border = border_.get();
    std::size_t size = size_;
    state[i] = static_cast<std::uint16_t>(state[i] & ~kOn);
    const auto leave = [&](std::ptrdiff_t j, unsigned bit) {
      const auto s = static_cast<std::uint16_t>(state[j] & ~(1u << bit));
      state[j] = s;
      if (s & kUnlisted) {
        state[j] = static_cast<std::uint16_t>(s & ~kUnlisted);
        border[size++] = static_cast<std::uint32_t>(j);
      }
    };
    const std::ptrdiff_t c = i, w = w_;
    leave(c - w, 4);
    leave(c - w + 1, 5);
    leave(c + 1, 6);
    leave(c + w + 1, 7);
    leave(c + w, 0);
    leave(c + w - 1, 1);
    leave(c - 1, 2);
    leave(c - w - 1, 3);
    size_ = size;
  }

  std::ptrdiff_t w_;
  std::size_t cells_;
  std::unique_ptr<std::uint16_t[]> state_;  // one per cell
  std::unique_ptr<std::uint32_t[]> border_, marked_;  // on_ each
  std::size_t on_ = 0, size_ = 0, removed_size_ = 0;
};

bool has_off_frame(const BinaryGrid& g) {
  const auto w = static_cast<std::size_t>(g.width), h = static_cast<std::size_t>(g.height);
  if (w < 3 || h < 3) return false;
  const auto off = [](const std::uint8_t* p, std::size_t n) { return std::all_of(p, p + n, [](std::uint8_t c) { return c == 0; }); };
  if (!off(g.on.data(), w) || !off(g.on.data() + (h - 1) * w, w)) return false;
  for (std::size_t y = 1; y + 1 < h; ++y)
    if (g.on[y * w] != 0 || g.on[y * w + w - 1] != 0) return false;
  return true;
}

}  // namespace

void thin(BinaryGrid& grid) {
  // The test reads a cell's 8 neighbours as plain index offsets: a grid with an off frame (as the
  // skeleton's pieces have) is thinned in place; any other on a copy padded with one off cell.
  if (has_off_frame(grid)) {
    std::vector<std::uint8_t> bits(grid.on.size());
    for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = grid.on[i] != 0;
    Thinning t(bits, grid.width);
    t.run();
    t.remove_stair_steps();
    t.clear_removed(grid.on.data());
    return;
  }
  const std::size_t w = static_cast<std::size_t>(grid.width) + 2;
  std::vector<std::uint8_t> bits(w * (static_cast<std::size_t>(grid.height) + 2), 0);
  for (std::size_t y = 0; y < static_cast<std::size_t>(grid.height); ++y)
    for (std::size_t x = 0; x < static_cast<std::size_t>(grid.width); ++x)
      bits[(y + 1) * w + x + 1] = grid.on[y * static_cast<std::size_t>(grid.width) + x] != 0;
  Thinning t(bits, static_cast<int>(w));
  t.run();
  t.remove_stair_steps();
  t.clear_removed(bits.data());
  for (std::size_t y = 0; y < static_cast<std::size_t>(grid.height); ++y) {
    const std::uint8_t* kept = bits.data() + (y + 1) * w + 1;
    std::uint8_t* on = grid.on.data() + y * static_cast<std::size_t>(grid.width);
    for (std::size_t x = 0; x < static_cast<std::size_t>(grid.width); ++x)
      on[x] = static_cast<std::uint8_t>(on[x] & -static_cast<unsigned>(kept[x]));
  }
}

}  // namespace rig2d::medial
