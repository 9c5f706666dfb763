// SPDX-License-Identifier: Apache-2.0
#include "rig2d/skeleton/shape_skeleton.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "image/alpha_threshold.h"
#include "skeleton/axis_tree.h"
#include "skeleton/drop_shadow.h"
#include "skeleton/limbs.h"
#include "skeleton/medial_axis.h"
#include "skeleton/shape_axis.h"
#include "skeleton/shape_skeleton_covered.h"

namespace rig2d {
namespace {

using medial::BinaryGrid;
using medial::Limb;

// The working grid: at most kWorkSide cells on the long side and about kWorkCells in all. Thinning costs
// about its cell count times its half-thickness; bones need no finer axis.
constexpr int kWorkSide = 160;
constexpr double kWorkCells = 8192;
static_assert(kWorkSide + 2 <= 4094, "pieces must stay within CellDistances' exact range");
// Scale-relative floors, as fractions of the piece's size (the square root of its area), so a sprite
// drawn larger or smaller gets the same bones: a spur must reach kSpurScale beyond its junction's
// disc to be a limb (a foot's toe and heel are not two legs), and no bone is shorter than
// kBoneScale (a thin trunk or a small foot gets one or two bones, not a run of stubs that bend
// nothing visible and pinch the mesh between them).
constexpr double kSpurScale = 0.1;
constexpr double kBoneScale = 0.15;
// A cycle of the axis this many cells long or longer goes around a hole (the few cells where lines
// cross close shorter ones).
constexpr std::size_t kMinCycle = 6;
// An island smaller than this fraction of the main piece's size (square root of area) gets one bone.
constexpr double kIslandOneBone = 0.5;

// The full-resolution coverage (alpha > threshold) and its bounding box.
struct Coverage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> in;
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // bbox, [x0, x1) x [y0, y1)
  bool at(int x, int y) const {
    return x >= 0 && y >= 0 && x < width && y < height && in[static_cast<std::size_t>(y) * width + x] != 0;
  }
};

// The index of the last nonzero byte of a row that has one: 8 bytes at a time from its end (most
// sprites have a clear margin on the right).
std::size_t last_nonzero(const std::uint8_t* row, std::size_t n) {
  std::size_t end = n;
  for (std::uint64_t word = 0; end >= 8; end -= 8) {
    std::memcpy(&word, row + end - 8, 8);
    if (word != 0) break;
  }
  while (row[end - 1] == 0) --end;
  return end - 1;
}

// `shadow`: pixels left out (empty: none); `covered`: alpha > threshold per pixel when already found
// (the drop shadow's counting pass), else empty.
Coverage coverage_of(const Image& image, int threshold, const std::vector<std::uint8_t>& shadow,
                     std::vector<std::uint8_t> covered) {
  Coverage c;
  c.width = image.width;
  c.height = image.height;
  const auto w = static_cast<std::size_t>(image.width);
  const bool found = covered.size() == w * static_cast<std::size_t>(image.height);
  if (found)
    c.in = std::move(covered);
  else
    c.in.assign(w * static_cast<std::size_t>(image.height), 0);
  c.x0 = image.width, c.y0 = image.height;
  for (int y = 0; y < image.height; ++y) {
    std::uint8_t* in = c.in.data() + w * static_cast<std::size_t>(y);
    if (!found) detail::threshold_alpha(image.rgba.data() + 4 * w * static_cast<std::size_t>(y), w, threshold, in);
    if (!shadow.empty()) {
      const std::uint8_t* dark = shadow.data() + w * static_cast<std::size_t>(y);
      for (std::size_t x = 0; x < w; ++x) in[x] &= static_cast<std::uint8_t>(dark[x] ^ 1u);
    }
    const void* first = std::memchr(in, 1, w);
    if (!first) continue;
    const std::size_t last = last_nonzero(in, w);
    c.x0 = std::min(c.x0, static_cast<int>(static_cast<const std::uint8_t*>(first) - in));
    c.x1 = std::max(c.x1, static_cast<int>(last) + 1);
    c.y0 = std::min(c.y0, y), c.y1 = y + 1;
  }
  return c;
}

// The bounding box cut in cells of `cell` px, one empty cell of padding around it; a cell is on
// when at least half its pixels are covered, or it carries a thin stroke (keep_thin_strokes).
// Anchored at the box, so moving the sprite in its image moves the skeleton with it and changes
// nothing else.
struct WorkGrid {
  BinaryGrid grid;
  int cell = 1;
  int ox = 0, oy = 0;  // image px of the grid's top-left corner
  Vec2 to_px(double gx, double gy) const { return {ox + (gx + 0.5) * cell, oy + (gy + 0.5) * cell}; }
};

// Cells within two of a thick one (an on cell whose four neighbours are on): the body, its rim and
// the gaps between its parts. A 5 x 5 box dilation, done as a row pass and a column pass, each cell
// the OR of five bytes (on cells are 0/1), in loops over whole rows that vectorize. The grid has an
// empty border, so a thick cell is never on it.
std::vector<std::uint8_t> near_thick(const BinaryGrid& g) {
  const auto w = static_cast<std::size_t>(g.width), h = static_cast<std::size_t>(g.height);
  const std::size_t padded = w + 4;  // a thick row with two empty cells either side
  std::vector<std::uint8_t> thick(padded * h, 0), rows(g.on.size(), 0), near(g.on.size(), 0);
  const std::uint8_t* on = g.on.data();
  for (std::size_t y = 1; y + 1 < h; ++y) {
    const std::uint8_t *up = on + (y - 1) * w, *mid = on + y * w, *down = on + (y + 1) * w;
    std::uint8_t* t = thick.data() + y * padded + 2;
    for (std::size_t x = 1; x + 1 < w; ++x) t[x] = mid[x - 1] & mid[x] & mid[x + 1] & up[x] & down[x];
  }
  for (std::size_t y = 1; y + 1 < h; ++y) {
    const std::uint8_t* t = thick.data() + y * padded;  // t[x + 2] is cell x
    std::uint8_t* r = rows.data() + y * w;
    for (std::size_t x = 0; x < w; ++x) r[x] = t[x] | t[x + 1] | t[x + 2] | t[x + 3] | t[x + 4];
  }
  for (std::size_t y = 0; y < h; ++y) {
    std::uint8_t* n = near.data() + y * w;
    for (std::size_t from = y >= 2 ? y - 2 : 0, to = std::min(h - 1, y + 2), ny = from; ny <= to; ++ny) {
      const std::uint8_t* r = rows.data() + ny * w;
      for (std::size_t x = 0; x < w; ++x) n[x] |= r[x];
    }
  }
  return near;
}

// Keeps the 8-connected pieces of `cells` whose bounding box reaches `min_cells` on its long side.
void keep_long_pieces(BinaryGrid& cells, int min_cells) {
  const medial::Components comps = medial::label_components(cells);
  std::vector<std::uint8_t> long_enough(comps.box.size());
  for (std::size_t c = 0; c < comps.box.size(); ++c) {
    const medial::Components::Box& b = comps.box[c];
    long_enough[c] = static_cast<std::uint8_t>(std::max(b.x1 - b.x0, b.y1 - b.y0) + 1 >= min_cells);
  }
  for (std::size_t i = 0; i < cells.on.size(); ++i)
    if (comps.label[i] >= 0) cells.on[i] = long_enough[static_cast<std::size_t>(comps.label[i])];
}

// Grows `cells` by `steps` rings (8-neighbours) into the cells `passable` allows, ring by ring from
// the cells added last (the grid has an empty border, so no neighbour falls off it).
void grow_into(BinaryGrid& cells, const std::vector<std::uint8_t>& passable, int steps) {
  const auto w = static_cast<std::ptrdiff_t>(cells.width);
  std::vector<std::size_t> ring;
  for (std::size_t i = 0; i < cells.on.size(); ++i)
    if (cells.on[i]) ring.push_back(i);
  const std::ptrdiff_t around[8] = {-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1};
  for (int step = 0; step < steps && !ring.empty(); ++step) {
    std::vector<std::size_t> next;
    for (const std::size_t i : ring) {
      for (const std::ptrdiff_t d : around) {
        const auto n = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) + d);
        if (n >= cells.on.size() || cells.on[n] || !passable[n]) continue;
        cells.on[n] = 1;
        next.push_back(n);
      }
    }
    ring.swap(next);
  }
}

// A stroke narrower than half a cell (a 6 px spider leg on a 10 px grid) covers no cell's majority
// where it runs along a cell row, so the majority grid breaks it into specks that get no bones. Away
// from the thick body, a faint cell (one a 1 px line could cross end to end: covered >= cell px)
// joins the on cells there into strokes; a stroke long enough to be a limb is kept and grown through
// the faint and on cells near the body until it reaches it. Other faint cells (the body's
// antialiased rim, a narrow gap between two parts, a short twig) stay off.
void keep_thin_strokes(const std::vector<int>& covered, WorkGrid& g) {
  if (g.cell < 3) return;  // at 2 px a quarter is no less than a half's rounding: nothing to add
  std::vector<std::uint8_t>& on = g.grid.on;
  std::vector<std::uint8_t> passable(on.size(), 0);
  bool any_faint = false;
  for (std::size_t i = 0; i < on.size(); ++i) {
    const bool faint = !on[i] && covered[i] >= g.cell;
    any_faint |= faint;
    passable[i] = static_cast<std::uint8_t>(on[i] || faint);
  }
  if (!any_faint) return;
  const std::vector<std::uint8_t> near = near_thick(g.grid);
  BinaryGrid strokes{g.grid.width, g.grid.height, std::vector<std::uint8_t>(on.size(), 0)};
  for (std::size_t i = 0; i < on.size(); ++i) strokes.on[i] = static_cast<std::uint8_t>(passable[i] && !near[i]);
  if (std::find(strokes.on.begin(), strokes.on.end(), std::uint8_t{1}) == strokes.on.end()) return;
  // As long as a limb must reach beyond its junction (kSpurScale of the shape's size).
  const double on_cells = static_cast<double>(std::count(on.begin(), on.end(), std::uint8_t{1}));
  keep_long_pieces(strokes, static_cast<int>(std::ceil(kSpurScale * std::sqrt(on_cells))));
  grow_into(strokes, passable, 3);
  for (std::size_t i = 0; i < on.size(); ++i) on[i] |= strokes.on[i];
}

// The component labels, largest area first (ties in label order).
std::vector<int> components_largest_first(const medial::Components& comps) {
  std::vector<int> order(comps.area.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return comps.area[static_cast<std::size_t>(a)] > comps.area[static_cast<std::size_t>(b)];
  });
  return order;
}

// One grid row's cells from its column sums (sums[i]: the box's column i, the box starting `in_cell`
// columns into cell gx): each cell's columns in turn, counted off (a cell is a few columns: no loop
// set up per cell).
template <typename Sum>
void row_cells(const Sum* sums, std::size_t box_width, int cell, int gx, int in_cell, int* row) {
  int sum = 0;
  for (std::size_t i = 0; i < box_width; ++i) {
    sum += sums[i];
    if (++in_cell == cell) row[gx++] = sum, sum = 0, in_cell = 0;
  }
  if (in_cell > 0) row[gx] = sum;
}

#if defined(__SSE2__)
// row_cells over byte sums, for cells of at most 16 columns: each cell one psadbw over the 16 bytes
// from its first column, those past its last masked off. `sums` has 16 bytes to spare past the box.
void row_cells_16(const std::uint8_t* sums, std::size_t box_width, int cell, int gx, int in_cell, int* row) {
  const __m128i index = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), zero = _mm_setzero_si128();
  const auto columns = [&](std::size_t n) { return _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>(n)), index); };
  const auto cell_sum = [&](std::size_t from, __m128i mask) {
    const __m128i bytes = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sums + from)), mask);
    const __m128i s = _mm_sad_epu8(bytes, zero);
    return _mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(s, s));
  };
  const auto n = static_cast<std::size_t>(cell);
  std::size_t i = 0;
  if (in_cell > 0) {  // the box starts inside cell gx
    i = std::min(box_width, n - static_cast<std::size_t>(in_cell));
    row[gx++] = cell_sum(0, columns(i));
  }
  const __m128i whole = columns(n);
  for (; i + n <= box_width; i += n) row[gx++] = cell_sum(i, whole);
  if (i < box_width) row[gx] = cell_sum(i, columns(box_width - i));
}
#endif

// Covered pixels per cell of g (its origin and size set). Per grid row: its pixel rows summed column
// by column (a loop that vectorizes), then each row's cells from those sums; no division per pixel,
// and the per-cell work once per grid row. Byte sums when a cell is at most 255 px tall (coverage is
// 0/1, so none overflows): 16 columns per vector step, and cells of up to 16 columns one psadbw each.
template <typename Sum>
void sum_cells(const Coverage& c, const WorkGrid& g, std::vector<int>& covered) {
  const auto box_width = static_cast<std::size_t>(c.x1 - c.x0);
  std::vector<Sum> column_sums(box_width + 16);  // 16 to spare for row_cells_16's loads
  for (int gy = (c.y0 - g.oy) / g.cell; g.oy + gy * g.cell < c.y1; ++gy) {
    const int y_begin = std::max(c.y0, g.oy + gy * g.cell), y_end = std::min(c.y1, g.oy + (gy + 1) * g.cell);
    Sum* sums = column_sums.data();
    for (int y = y_begin; y < y_end; ++y) {  // the first pixel row sets the sums, the others add to them
      const std::uint8_t* in = &c.in[static_cast<std::size_t>(y) * c.width + static_cast<std::size_t>(c.x0)];
      if (y == y_begin)
        for (std::size_t i = 0; i < box_width; ++i) sums[i] = in[i];
      else
        for (std::size_t i = 0; i < box_width; ++i) sums[i] = static_cast<Sum>(sums[i] + in[i]);
    }
    int* row = covered.data() + static_cast<std::size_t>(gy) * g.grid.width;
    if (g.cell == 1) {  // small sprites: a cell is a pixel
      std::copy(sums, sums + box_width, row + (c.x0 - g.ox));
      continue;
    }
    const int gx = (c.x0 - g.ox) / g.cell, in_cell = c.x0 - g.ox - gx * g.cell;
    // Cells of two columns, the usual size on small sprites, in pairs (the box starts a cell from the
    // grid's edge).
    if (g.cell == 2 && in_cell == 0) {
      int* out = row + gx;
      const std::size_t pairs = box_width / 2;
      for (std::size_t k = 0; k < pairs; ++k) out[k] = sums[2 * k] + sums[2 * k + 1];
      if (box_width % 2 != 0) out[pairs] = sums[box_width - 1];
      continue;
    }
#if defined(__SSE2__)
    if constexpr (std::is_same_v<Sum, std::uint8_t>) {
      if (g.cell <= 16) {
        row_cells_16(sums, box_width, g.cell, gx, in_cell, row);
        continue;
      }
    }
#endif
    row_cells(sums, box_width, g.cell, gx, in_cell, row);
  }
}

WorkGrid work_grid(const Coverage& c) {
  WorkGrid g;
  const int side = std::max(c.x1 - c.x0, c.y1 - c.y0);
  const double area = static_cast<double>(c.x1 - c.x0) * (c.y1 - c.y0);
  g.cell = std::max({1, (side + kWorkSide - 1) / kWorkSide, static_cast<int>(std::ceil(std::sqrt(area / kWorkCells)))});
  g.ox = c.x0 - g.cell;
  g.oy = c.y0 - g.cell;
  g.grid.width = (c.x1 - c.x0 + g.cell - 1) / g.cell + 2;
  g.grid.height = (c.y1 - c.y0 + g.cell - 1) / g.cell + 2;
  std::vector<int> covered(static_cast<std::size_t>(g.grid.width) * g.grid.height, 0);
  // A column's sum counts at most `cell` pixels: byte sums, unless a cell is taller than that (a
  // sprite over 40000 px long).
  if (g.cell <= 0xff)
    sum_cells<std::uint8_t>(c, g, covered);
  else
    sum_cells<int>(c, g, covered);
  g.grid.on.resize(covered.size());
  const int half_cell = g.cell * g.cell;  // a cell is on when 2 * covered >= this
  std::uint8_t* on = g.grid.on.data();
  for (std::size_t i = 0; i < covered.size(); ++i) on[i] = 2 * covered[i] >= half_cell;
  const bool any = std::memchr(on, 1, covered.size()) != nullptr;
  // A shape thinner than half a cell everywhere (a 3 px rope 2000 px long) has no majority cell at
  // all: then any covered pixel turns its cell on, so the shape keeps a skeleton.
  if (!any)
    for (std::size_t i = 0; i < covered.size(); ++i) g.grid.on[i] = covered[i] > 0;
  else
    keep_thin_strokes(covered, g);
  return g;
}

// One island of the working grid, cut out with one cell of padding.
struct Piece {
  BinaryGrid grid;
  int gx0 = 0, gy0 = 0;  // working-grid cell of the piece's (0, 0)
};

Piece cut_piece(const WorkGrid& work, const medial::Components& comps, int label) {
  const int w = work.grid.width;
  const auto [x0, y0, x1, y1] = comps.box[static_cast<std::size_t>(label)];
  Piece p;
  p.gx0 = x0 - 1;
  p.gy0 = y0 - 1;
  p.grid.width = x1 - x0 + 3;
  p.grid.height = y1 - y0 + 3;
  p.grid.on.assign(static_cast<std::size_t>(p.grid.width) * p.grid.height, 0);
  // The grid's on cells are 0/1; when they form one piece, its rows are copied as they are.
  const bool whole = comps.area.size() == 1;
  for (int y = y0; y <= y1; ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * static_cast<std::size_t>(w);
    std::uint8_t* out = p.grid.on.data() + static_cast<std::size_t>(y - p.gy0) * p.grid.width - p.gx0;
    if (whole) {
      std::memcpy(out + x0, work.grid.on.data() + row + x0, static_cast<std::size_t>(x1 - x0 + 1));
      continue;
    }
    const int* in = comps.label.data() + row;
    for (int x = x0; x <= x1; ++x) out[x] = in[x] == label;
  }
  return p;
}

struct PieceSkeleton {
  std::vector<Limb> limbs;
  double scale = 0;        // px: the square root of the piece's area
  bool rooted_near = false;  // rooted at a given point (root_near), not at the central junction
  Vec2 root;               // image px
  double root_radius = 0;  // px
  bool fallback = false;
  bool main_is_limb = false;  // the root's own chain leaves a body (see leaves_a_body): no spine
  bool closed_loop = false;   // every end of its axis is a cut cycle, none a free tip (a ring, a wheel)
  std::size_t holes_filled = 0, axis_cells = 0, pruned = 0;
};

// Nearest on cell of `grid` to the piece's centroid (ties: first in scan order).
std::size_t nearest_on_cell(const BinaryGrid& grid, double cx, double cy) {
  std::size_t best = 0;
  double best_d = -1;
  for (int y = 0; y < grid.height; ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * grid.width;
    const std::uint8_t* on = grid.on.data() + row;
    // The grid is an axis, sparse: the off runs between its cells are passed over.
    for (int x = medial::next_cell(on, 0, grid.width, true); x < grid.width;
         x = medial::next_cell(on, x + 1, grid.width, true)) {
      const double dx = static_cast<double>(x) + 0.5 - cx;
      const double dy = static_cast<double>(y) + 0.5 - cy;
      const double d = dx * dx + dy * dy;
      if (best_d < 0 || d < best_d) best = row + x, best_d = d;
    }
  }
  return best;
}

// The on cells' count and the sums of their column and row indices, in integers.
struct CellCounts {
  std::int64_t n = 0, sx = 0, sy = 0;
};

// One row's on cells and the sum of their x; both fit 32 bits (a piece is at most kWorkSide + 2 cells
// wide). 16 cells a step: the count from a sum of 0/1 bytes, the x sum from 16-bit cells times their
// x, added in pairs into 32-bit lanes (x < 2^15 there).
std::pair<std::int32_t, std::int32_t> row_counts(const std::uint8_t* row, int width) {
  std::int32_t count = 0, xs = 0;
  int x = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1), sixteen = _mm_set1_epi16(16);
  __m128i counts = zero, sums = zero;
  __m128i low = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), high = _mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15);
  for (const int end = std::min(width, 0x7ff0); x + 16 <= end; x += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + x));
    const __m128i on = _mm_andnot_si128(_mm_cmpeq_epi8(bytes, zero), one);
    counts = _mm_add_epi64(counts, _mm_sad_epu8(on, zero));
    sums = _mm_add_epi32(sums, _mm_madd_epi16(_mm_unpacklo_epi8(on, zero), low));
    sums = _mm_add_epi32(sums, _mm_madd_epi16(_mm_unpackhi_epi8(on, zero), high));
    low = _mm_add_epi16(low, sixteen), high = _mm_add_epi16(high, sixteen);
  }
  alignas(16) std::int64_t c[2];
  alignas(16) std::int32_t s[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(c), counts);
  _mm_store_si128(reinterpret_cast<__m128i*>(s), sums);
  count = static_cast<std::int32_t>(c[0] + c[1]), xs = s[0] + s[1] + s[2] + s[3];
#endif
  for (; x < width; ++x) {
    const std::int32_t on = row[x] != 0;
    count += on, xs += on * x;
  }
  return {count, xs};
}

CellCounts on_cell_counts(const BinaryGrid& g) {
  CellCounts c;
  for (int y = 0; y < g.height; ++y) {
    const auto [count, xs] = row_counts(g.on.data() + static_cast<std::size_t>(y) * g.width, g.width);
    c.n += count, c.sx += xs, c.sy += std::int64_t{count} * y;
  }
  return c;
}

// The on cells' count and the sums of their cell-centre coordinates. Counted in integers: the sums
// of x + 0.5 over the cells in scan order are exact in double (multiples of 0.5 far below 2^52), so
// these are the same numbers.
struct CellSums {
  double n = 0, cx = 0, cy = 0;
};

CellSums on_cell_sums(const BinaryGrid& g) {
  const CellCounts c = on_cell_counts(g);
  const double half = 0.5 * static_cast<double>(c.n);
  return {static_cast<double>(c.n), static_cast<double>(c.sx) + half, static_cast<double>(c.sy) + half};
}

// Short chains between two junctions (an X drawn as two close forks) join their children, which then
// leave from the first junction.
std::vector<Limb> merge_short_links(std::vector<Limb> limbs, double min_length) {
  std::vector<std::uint8_t> gone(limbs.size(), 0);
  for (std::size_t i = 0; i < limbs.size(); ++i) {
    const Limb& link = limbs[i];
    if (link.tip || link.length() >= std::max(min_length, link.radius.back())) continue;
    gone[i] = 1;
    for (std::size_t j = i + 1; j < limbs.size(); ++j) {
      if (limbs[j].parent != static_cast<int>(i)) continue;
      limbs[j].points.insert(limbs[j].points.begin(), link.points.begin(), link.points.end() - 1);
      limbs[j].radius.insert(limbs[j].radius.begin(), link.radius.begin(), link.radius.end() - 1);
      limbs[j].leaves_at += link.points.size() - 1;
      limbs[j].parent = link.parent;
      limbs[j].continues = limbs[j].continues && link.continues;
      limbs[j].measure();
    }
  }
  std::vector<int> index(limbs.size(), -1);
  std::vector<Limb> kept;
  for (std::size_t i = 0; i < limbs.size(); ++i) {
    if (gone[i]) continue;
    index[i] = static_cast<int>(kept.size());
    kept.push_back(std::move(limbs[i]));
    if (kept.back().parent >= 0) kept.back().parent = index[static_cast<std::size_t>(kept.back().parent)];
  }
  return kept;
}

// A piece with no usable axis (a disc, a square): two limbs from the root along the principal axis
// of its cells, out to its edge. A near-isotropic piece goes vertical, as suggest_bones does.
std::vector<Limb> principal_axis_limbs(const Piece& piece, const WorkGrid& work, const medial::CellDistances& dist,
                                       std::size_t root_cell) {
  const BinaryGrid& g = piece.grid;
  // The mean cell (sums of integers, exact in double, so counted in integers), then the spread about
  // it summed in scan order; cells walked by row and column rather than divided out of an index.
  const CellCounts counts = on_cell_counts(g);
  const double n = static_cast<double>(counts.n);
  const double mx = static_cast<double>(counts.sx) / n, my = static_cast<double>(counts.sy) / n;
  double sxx = 0, syy = 0, sxy = 0;
  for (int y = 0; y < g.height; ++y) {
    const std::uint8_t* row = g.on.data() + static_cast<std::size_t>(y) * g.width;
    const double dy = static_cast<double>(y) - my;
    for (int x = 0; x < g.width; ++x) {
      if (!row[x]) continue;
      const double dx = static_cast<double>(x) - mx;
      sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
    }
  }
  const double spread = std::hypot(sxx - syy, 2 * sxy);
  const double angle = spread <= 1e-3 * (sxx + syy) ? std::atan2(1.0, 0.0) : 0.5 * std::atan2(2 * sxy, sxx - syy);
  std::vector<Limb> limbs;
  for (const double sign : {-1.0, 1.0}) {
    const double ux = sign * std::cos(angle), uy = sign * std::sin(angle);
    Limb limb;
    limb.tip = true;
    limb.reach = 0.5 * work.cell;
    const double x0 = static_cast<double>(root_cell % g.width) + 0.5, y0 = static_cast<double>(root_cell / g.width) + 0.5;
    for (double t = 0;; t += 0.5) {
      const int cx = static_cast<int>(std::floor(x0 + ux * t)), cy = static_cast<int>(std::floor(y0 + uy * t));
      if (!g.at(cx, cy)) break;
      limb.points.push_back(work.to_px(x0 + ux * t - 0.5 + piece.gx0, y0 + uy * t - 0.5 + piece.gy0));
      limb.radius.push_back(dist.at(static_cast<std::size_t>(cy) * g.width + cx) * work.cell);
    }
    limb.measure();
    if (limb.points.size() >= 2) limbs.push_back(std::move(limb));
  }
  return limbs;
}

// Fills the piece's holes smaller than a disc of half its widest inscribed radius (an eye, a speck).
// Returns the cells filled.
std::size_t fill_holes(BinaryGrid& g) {
  // A piece is one 8-connected component (cut_piece), so it has a hole exactly when its Euler number
  // is not 1: most have none, and one pass over its 2x2 windows says so for less than labelling its
  // background.
  if (medial::euler_number(g) == 1) return 0;
  return medial::fill_small_holes(g, [&g](std::size_t largest_hole) {
    const medial::CellDistances distances(g);
    const auto disc = [](float radius) { return static_cast<std::size_t>(std::acos(-1.0) * 0.25 * radius * radius); };
    // A disc no wider than the widest that already holds the largest hole fills every hole, as the
    // widest's does: one pass, where the widest scans rows around many cells.
    if (const std::size_t deep = disc(distances.deepest_in_column()); deep >= largest_hole) return deep;
    return disc(distances.widest());
  });
}

// The tree's chains as limbs, each split where it joins or leaves a cycle of the axis (on_cycle). A
// limb around a hole bends only by tearing the cycle where the tree cut it (the rim of a lens, a
// chain's link): it gets no bones (on_loop) and moves with the bone it hangs from, as what hangs
// from it does; a temple leaving the rim is a limb of its own. Counts the chains ending in a free
// tip and in a cut cycle.
template <typename ToPx>
std::vector<Limb> chain_limbs(const medial::AxisTree& tree, const std::vector<std::uint8_t>& on_cycle, int cell, ToPx to_px,
                              std::size_t& free_tips, std::size_t& cut_ends) {
  std::vector<Limb> limbs;
  const std::vector<medial::AxisChain> chains = medial::axis_chains(tree);
  std::vector<int> last_of(chains.size(), -1);  // each chain's last limb
  const auto looped = [&](int node) { return on_cycle[static_cast<std::size_t>(node)] != 0; };
  for (std::size_t c = 0; c < chains.size(); ++c) {
    const std::vector<int>& nodes = chains[c].nodes;
    int parent = chains[c].parent < 0 ? -1 : last_of[static_cast<std::size_t>(chains[c].parent)];
    for (std::size_t from = 0; from + 1 < nodes.size();) {  // nodes[from]: the point the run leaves from
      std::size_t to = from + 1;
      while (to + 1 < nodes.size() && looped(nodes[to + 1]) == looped(nodes[from + 1])) ++to;
      Limb limb;
      limb.parent = parent;
      limb.continues = from > 0;
      limb.on_loop = limb.dropped = looped(nodes[from + 1]);
      limb.tip = chains[c].tip && to + 1 == nodes.size();
      for (std::size_t k = from; k <= to; ++k) {
        limb.points.push_back(to_px(tree.cell[static_cast<std::size_t>(nodes[k])]));
        limb.radius.push_back(tree.radius[static_cast<std::size_t>(nodes[k])] * cell);
      }
      limb.measure();
      // A true tip stops about its radius short of the outline; a cut cycle meets its other half.
      const bool free_tip = limb.tip && tree.end[static_cast<std::size_t>(nodes.back())];
      if (free_tip) limb.reach = limb.radius.back();
      free_tips += free_tip;
      cut_ends += limb.tip && !free_tip;
      parent = static_cast<int>(limbs.size());
      limbs.push_back(std::move(limb));
      from = to;
    }
    last_of[c] = parent;
  }
  return limbs;
}

// `root_near`: cell-centre coordinates in the piece's grid of the point to root at, or none.
PieceSkeleton piece_skeleton(Piece piece, const WorkGrid& work, const ShapeSkeletonOptions& o,
                             std::optional<Vec2> root_near) {
  PieceSkeleton out;
  BinaryGrid& g = piece.grid;
  out.holes_filled = fill_holes(g);
  const medial::CellDistances distances(g);
  const auto [n, cx, cy] = on_cell_sums(g);
  out.scale = std::sqrt(n) * work.cell;
  const double min_spur = std::max(o.min_branch, kSpurScale * out.scale) / work.cell;
  BinaryGrid axis = g;
  medial::thin(axis);
  out.axis_cells = static_cast<std::size_t>(std::count(axis.on.begin(), axis.on.end(), 1));
  // Radii are read on the axis only (the root is an axis cell).
  const std::vector<float> dist = distances.at_cells(axis);
  // Root: the junction of the pruned axis whose inscribed disc comes nearest the centroid (the hips
  // of a figure, a spider's body); with no junction (a bar, a worm), the axis point nearest it.
  std::size_t root_cell = root_near ? nearest_on_cell(axis, root_near->x, root_near->y) : nearest_on_cell(axis, cx / n, cy / n);
  medial::AxisTree tree = medial::axis_tree(axis, dist, root_cell);
  out.pruned = medial::prune_spurs(tree, min_spur, o.branch_ratio);
  out.rooted_near = root_near.has_value();
  const int hub = root_near ? -1 : medial::central_junction(tree, cx / n, cy / n);
  if (hub >= 0 && hub != tree.root) {
    root_cell = tree.cell[static_cast<std::size_t>(hub)];
    tree = medial::axis_tree(axis, dist, root_cell);
    out.pruned = medial::prune_spurs(tree, min_spur, o.branch_ratio);
  }

  const auto to_px = [&](std::size_t cell) {
    return work.to_px(static_cast<double>(cell % g.width) + piece.gx0, static_cast<double>(cell / g.width) + piece.gy0);
  };
  out.root = to_px(root_cell);
  out.root_radius = dist[root_cell] * work.cell;
  std::size_t free_tips = 0, cut_ends = 0;
  out.limbs = chain_limbs(tree, medial::cycle_nodes(tree, kMinCycle), work.cell, to_px, free_tips, cut_ends);
  out.closed_loop = cut_ends > 0 && free_tips == 0;
  out.limbs = merge_short_links(std::move(out.limbs), o.min_branch);

  // The longest run of the axis from a junction or the root to a tip or the next junction (a limb
  // and the ones continuing it past a cycle).
  double longest_reach = 0;
  std::vector<double> run(out.limbs.size(), 0);
  for (std::size_t i = 0; i < out.limbs.size(); ++i) {
    const Limb& limb = out.limbs[i];
    run[i] = limb.length() + (limb.continues ? run[static_cast<std::size_t>(limb.parent)] : 0);
    longest_reach = std::max(longest_reach, run[i] + limb.reach);
  }
  if (out.limbs.empty() || longest_reach < 1.25 * out.root_radius) {
    out.limbs = principal_axis_limbs(piece, work, distances, root_cell);
    out.fallback = true;
  }
  return out;
}

// The root's own limb: the thickest one leaving the root (ties: the longer, then the first); for a
// piece rooted where it joins another (a layer's shoulder), the one reaching farthest from there.
int main_limb(const std::vector<Limb>& limbs, bool farthest) {
  int best = -1;
  for (std::size_t i = 0; i < limbs.size(); ++i) {
    if (limbs[i].parent != -1 || limbs[i].dropped) continue;
    if (best < 0) {
      best = static_cast<int>(i);
      continue;
    }
    const Limb& b = limbs[static_cast<std::size_t>(best)];
    if (farthest) {
      if (limbs[i].length() + limbs[i].reach > b.length() + b.reach + 1e-9) best = static_cast<int>(i);
      continue;
    }
    const double ri = limbs[i].mean_radius(), rb = b.mean_radius();
    if (ri > rb + 1e-9 || (std::abs(ri - rb) <= 1e-9 && limbs[i].length() > b.length() + 1e-9)) best = static_cast<int>(i);
  }
  return best;
}

bool has_children(const std::vector<Limb>& limbs, std::size_t i) {
  for (const Limb& l : limbs)
    if (!l.dropped && l.parent == static_cast<int>(i)) return true;
  return false;
}

// Fits the piece's bones into `budget`: first fewer bones on the limbs with the most, then the
// shortest outer limbs go. Returns the bones left (at least 1: the root).
int fit_budget(std::vector<Limb>& limbs, int main, int budget) {
  int total = 0;
  for (const Limb& l : limbs) total += l.dropped ? 0 : l.bones;
  total = std::max(total, 1);
  while (total > budget) {
    int most = -1;
    for (std::size_t i = 0; i < limbs.size(); ++i) {
      const Limb& l = limbs[i];
      if (!l.dropped && l.bones > (l.tip ? 2 : 1) && (most < 0 || l.bones > limbs[static_cast<std::size_t>(most)].bones))
        most = static_cast<int>(i);
    }
    if (most >= 0) {
      --limbs[static_cast<std::size_t>(most)].bones, --total;
      continue;
    }
    int shortest = -1;
    for (std::size_t i = 0; i < limbs.size(); ++i) {
      const Limb& l = limbs[i];
      if (l.dropped || static_cast<int>(i) == main || has_children(limbs, i)) continue;
      if (shortest < 0 || l.length() + l.reach < limbs[static_cast<std::size_t>(shortest)].length() +
                                                     limbs[static_cast<std::size_t>(shortest)].reach)
        shortest = static_cast<int>(i);
    }
    if (shortest < 0) break;
    Limb& cut = limbs[static_cast<std::size_t>(shortest)];
    cut.dropped = true;
    total -= cut.bones;
    // A parent left bare ends the shape and needs a leaf; one around a loop has no bones and keeps none.
    if (cut.parent >= 0 && !limbs[static_cast<std::size_t>(cut.parent)].dropped &&
        !has_children(limbs, static_cast<std::size_t>(cut.parent))) {
      Limb& bare = limbs[static_cast<std::size_t>(cut.parent)];  // now ends the shape: a leaf needs a parent
      bare.tip = true;
      total += std::max(0, 2 - bare.bones);
      bare.bones = std::max(bare.bones, 2);
    }
  }
  return total;
}

// "up", "down_l", "right", ...: where the limb points, and for up/down limbs which side of the root
// it ends on (screen sides, as the image shows them).
std::string limb_label(const Limb& limb, Vec2 root, double side_margin) {
  const Vec2 end = point_along(limb, limb.length() + limb.reach);
  const double dx = end.x - limb.points.front().x, dy = end.y - limb.points.front().y;
  if (std::abs(dx) > std::abs(dy)) return dx < 0 ? "left" : "right";
  const std::string base = dy < 0 ? "up" : "down";
  if (end.x < root.x - side_margin) return base + "_l";
  if (end.x > root.x + side_margin) return base + "_r";
  return base;
}

// The covered pixel centre nearest to p within `radius` px (p itself when its pixel is covered).
Vec2 snap_inside(const Coverage& c, Vec2 p, int radius) {
  const int px = static_cast<int>(std::floor(p.x)), py = static_cast<int>(std::floor(p.y));
  if (c.at(px, py)) return p;
  Vec2 best = p;
  double best_d = -1;
  for (int y = py - radius; y <= py + radius; ++y) {
    for (int x = px - radius; x <= px + radius; ++x) {
      if (!c.at(x, y)) continue;
      const double d = std::hypot(x + 0.5 - p.x, y + 0.5 - p.y);
      if (best_d < 0 || d < best_d) best = {x + 0.5, y + 0.5}, best_d = d;
    }
  }
  return best;
}

// Appends one piece's bones: its root (parented to the nearest bone already there, for a second
// piece), the root's own limb, then every other limb, parents first.
struct BoneWriter {
  const Coverage& coverage;
  Vec2 origin;  // image px of the rig origin (the pivot)
  int snap_radius = 2;
  std::vector<Bone> bones;
  std::vector<Vec2> joints;  // image px, one per bone
  std::map<std::string, int> labels_used;

  int add(std::string name, std::int64_t parent, Vec2 joint) {
    joint = snap_inside(coverage, joint, snap_radius);
    const Vec2 from = parent < 0 ? origin : joints[static_cast<std::size_t>(parent)];
    bones.push_back({std::move(name), parent, joint.x - from.x, joint.y - from.y, 0, false});
    joints.push_back(joint);
    return static_cast<int>(bones.size()) - 1;
  }

  int nearest_bone(Vec2 p) const {
    int best = -1;
    double best_d = 0;
    for (std::size_t i = 0; i < joints.size(); ++i) {
      const double d = std::hypot(joints[i].x - p.x, joints[i].y - p.y);
      if (best < 0 || d < best_d) best = static_cast<int>(i), best_d = d;
    }
    return best;
  }

  std::string unique_label(const std::string& label) {
    const int n = ++labels_used[label];
    return n == 1 ? label : label + std::to_string(n);
  }

  // island 0 is the main piece ("root", "spine_1", "up_1", ...); island k > 0 is "island<k>",
  // "island<k>_spine_1", ...
  void add_piece(const PieceSkeleton& piece, const std::vector<Limb>& limbs, int main, std::size_t island) {
    const std::string prefix = island == 0 ? "" : "island" + std::to_string(island) + "_";
    const std::string root_name = island == 0 ? "root" : "island" + std::to_string(island);
    const int root = add(root_name, bones.empty() ? -1 : nearest_bone(piece.root), piece.root);
    std::vector<int> last(limbs.size(), root);
    // Bones "<label>_1", "<label>_2", ... along limb i from its joint number `first` on.
    const auto chain = [&](std::size_t i, int parent, std::size_t first, const std::string& label) {
      const Limb& limb = limbs[i];
      const auto at = medial::joint_arclengths(limb, limb.bends);
      for (std::size_t k = first; k < at.size(); ++k)
        parent = add(label + "_" + std::to_string(k + 1 - first), parent, point_along(limb, at[k]));
      last[i] = parent;
    };
    // The root's own chain is the spine, unless it is a limb leaving a body (a frog's leg): then it is
    // named where it points, like the others.
    if (main >= 0) {
      const Limb& own = limbs[static_cast<std::size_t>(main)];
      const std::string label = piece.main_is_limb ? limb_label(own, piece.root, 0.5 * piece.root_radius) : "spine";
      chain(static_cast<std::size_t>(main), root, 1, unique_label(prefix + label));
    }
    for (std::size_t i = 0; i < limbs.size(); ++i) {
      const int parent = limbs[i].parent < 0 ? root : last[static_cast<std::size_t>(limbs[i].parent)];
      if (limbs[i].dropped) last[i] = parent;  // what hangs from it (past a loop) hangs from its parent
      if (limbs[i].dropped || static_cast<int>(i) == main) continue;
      chain(i, parent, 0, unique_label(prefix + limb_label(limbs[i], piece.root, 0.5 * piece.root_radius)));
    }
  }

  // Turns are measured over about a limb width: wide enough to ignore the axis's pixel steps.
  static double bend_window(const Limb& limb, double cell) { return std::max(3.0 * cell, 2 * limb.mean_radius()); }
};

// A piece without junctions is a bar bent from its middle: both halves turn at the root. Unless its
// middle is a body: the half is less than half as thick past the root's inscribed disc (a frog's leg
// leaving its body, a fish's tail), so turning it at the root would swing half the body with it.
bool leaves_a_body(const Limb& limb, const PieceSkeleton& piece) {
  if (piece.fallback || limb.parent >= 0) return false;
  const double exit = medial::junction_exit(limb);
  std::vector<double> past;
  for (std::size_t k = 0; k < limb.points.size(); ++k)
    if (limb.arclength_at(k) >= exit) past.push_back(limb.radius[k]);
  if (past.empty()) return false;
  std::nth_element(past.begin(), past.begin() + static_cast<std::ptrdiff_t>(past.size() / 2), past.end());
  return past[past.size() / 2] < 0.5 * piece.root_radius;
}

// Where each limb's joints go and how many bones it wants (before the budget).
void plan_limbs(PieceSkeleton& piece, int main, const ShapeSkeletonOptions& o, int cell) {
  std::vector<Limb>& limbs = piece.limbs;
  // A piece rooted where it joins another hangs from there: what lies on the join's side of the
  // root (inside the piece it joins) moves with the root, so only the root's own chain gets bones.
  for (std::size_t i = 0; piece.rooted_near && i < limbs.size(); ++i) {
    const bool other_root_limb = limbs[i].parent < 0 && static_cast<int>(i) != main;
    const bool under_dropped = limbs[i].parent >= 0 && limbs[static_cast<std::size_t>(limbs[i].parent)].dropped &&
                               !limbs[static_cast<std::size_t>(limbs[i].parent)].on_loop;
    limbs[i].dropped = limbs[i].on_loop || other_root_limb || under_dropped;
  }
  const auto root_limbs = std::count_if(limbs.begin(), limbs.end(), [](const Limb& l) { return l.parent < 0; });
  piece.main_is_limb = root_limbs == 2 && main >= 0 && leaves_a_body(limbs[static_cast<std::size_t>(main)], piece);
  const double min_bone = std::max(2.0 * cell, kBoneScale * piece.scale);
  for (std::size_t i = 0; i < limbs.size(); ++i) {
    Limb& limb = limbs[i];
    // A limb turns where it leaves its junction's disc (a hip, a shoulder), not about the body's
    // middle, which would sweep its root through the body and crush the mesh between the limbs.
    // The root's own chain starts at the root, which is its joint; so do the two halves of a bar,
    // unless the other half leaves a body.
    if (static_cast<int>(i) != main && (limb.parent >= 0 || root_limbs >= 3 || leaves_a_body(limb, piece)))
      limb.start = medial::junction_exit(limb);
    // Past a junction merged in front of it, a limb may turn away from the line to its first joint,
    // which a lone leaf bone would follow; it then gets a second joint, if both bones stay long enough.
    limb.turns_at_start = limb.leaves_at > 0 && limb.start > 0 &&
                          limb.length() + limb.reach - limb.start >= 2 * min_bone &&
                          medial::turns_at_start(limb, o.bend_angle);
    const double bone_px = std::max({o.bone_length * limb.mean_radius(), 2 * o.min_branch, min_bone});
    limb.bends = medial::spaced_bends(limb, medial::bend_points(limb, o.bend_angle, BoneWriter::bend_window(limb, cell)), min_bone);
    limb.bones = medial::wanted_bones(limb, limb.bends, bone_px);
  }
}

// How far the piece's limbs reach from its root: along the chains from the root out to each tip, and
// past it by the tip's reach.
double reach_from_root(const std::vector<Limb>& limbs) {
  std::vector<double> depth(limbs.size(), 0);
  double farthest = 0;
  for (std::size_t i = 0; i < limbs.size(); ++i) {  // parents come first
    const double base = limbs[i].parent >= 0 ? depth[static_cast<std::size_t>(limbs[i].parent)] : 0;
    depth[i] = base + limbs[i].length();
    farthest = std::max(farthest, depth[i] + limbs[i].reach);
  }
  return farthest;
}

// The centre of the piece's cell nearest to p (image px): where a one-bone island turns, on its side
// facing the rest of the figure (a head turns at its neck, not about its middle).
Vec2 nearest_piece_point(const Piece& piece, const WorkGrid& work, Vec2 p) {
  const double cx = (p.x - work.ox) / work.cell - piece.gx0, cy = (p.y - work.oy) / work.cell - piece.gy0;
  const std::size_t i = nearest_on_cell(piece.grid, cx, cy);
  const auto w = static_cast<std::size_t>(piece.grid.width);
  return work.to_px(piece.gx0 + static_cast<double>(i % w), piece.gy0 + static_cast<double>(i / w));
}

}  // namespace

Result<void> check_shape_skeleton_options(const ShapeSkeletonOptions& o) {
  const auto bad = [](const std::string& field, const std::string& limit) {
    return make_error("skeleton.options", "skeleton option " + field + " must be " + limit);
  };
  if (o.alpha_threshold < 0 || o.alpha_threshold > 255) return bad("alpha_threshold", "in [0, 255]");
  if (!(o.pivot_x >= 0 && o.pivot_x <= 1)) return bad("pivot_x", "in [0, 1]");
  if (!(o.pivot_y >= 0 && o.pivot_y <= 1)) return bad("pivot_y", "in [0, 1]");
  if (o.max_bones < 2 || o.max_bones > 256) return bad("max_bones", "in [2, 256]");
  if (!(o.min_branch >= 0 && o.min_branch <= 1e6)) return bad("min_branch", "in [0, 1e6] px");
  if (!(o.branch_ratio >= 0 && o.branch_ratio <= 10)) return bad("branch_ratio", "in [0, 10]");
  if (!(o.bone_length >= 0.5 && o.bone_length <= 100)) return bad("bone_length", "in [0.5, 100] half-widths");
  if (!(o.rigid_reach >= 0 && o.rigid_reach <= 100)) return bad("rigid_reach", "in [0, 100]");
  if (!(o.rigid_length >= 0 && o.rigid_length <= 1e6)) return bad("rigid_length", "in [0, 1e6] px");
  if (!(o.bend_angle >= 5 && o.bend_angle <= 180)) return bad("bend_angle", "in [5, 180] degrees");
  if (o.root_near && !(std::isfinite(o.root_near->x) && std::isfinite(o.root_near->y)))
    return bad("root_near", "a finite point");
  return {};
}

Result<std::vector<Bone>> shape_skeleton(const Image& image, const ShapeSkeletonOptions& o, ShapeSkeletonStats* stats) {
  return detail::shape_skeleton_covered(image, o, stats, {});
}

Result<std::vector<Bone>> detail::shape_skeleton_covered(const Image& image, const ShapeSkeletonOptions& o,
                                                         ShapeSkeletonStats* stats, std::vector<std::uint8_t> covered) {
  if (auto ok = check_shape_skeleton_options(o); !ok) return Unexpected{ok.error()};
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != 4 * static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height))
    return make_error("coverage.image", "the image is empty or its pixel buffer does not match its size");
  const bool given = covered.size() == image.rgba.size() / 4;
  detail::DropShadow shadow = o.skip_drop_shadow
                                  ? detail::find_drop_shadow(image, o.alpha_threshold, given ? covered.data() : nullptr)
                                  : detail::DropShadow{};
  const Coverage coverage =
      coverage_of(image, o.alpha_threshold, shadow.pixels, given ? std::move(covered) : std::move(shadow.coverage));
  if (coverage.x1 <= coverage.x0) {
    return make_error("skeleton.empty",
                      "no pixel has alpha above " + std::to_string(o.alpha_threshold) + ": nothing to place bones in");
  }
  const WorkGrid work = work_grid(coverage);
  const medial::Components comps = medial::label_components(work.grid);
  const std::vector<int> order = components_largest_first(comps);

  ShapeSkeletonStats st;
  st.cell = work.cell;
  st.drop_shadow = shadow.share;
  BoneWriter writer{coverage, {o.pivot_x * image.width, o.pivot_y * image.height}, work.cell + 2, {}, {}, {}};
  const double cell_area = static_cast<double>(work.cell) * work.cell;
  const double main_area = order.empty() ? 0 : static_cast<double>(comps.area[static_cast<std::size_t>(order[0])]) * cell_area;
  double main_scale = 0;
  for (int label : order) {
    const double area = static_cast<double>(comps.area[static_cast<std::size_t>(label)]) * cell_area;
    const int budget = o.max_bones - static_cast<int>(writer.bones.size());
    const bool first = writer.bones.empty();
    if (!first && (budget < 2 || area < std::max(4 * o.min_branch * o.min_branch, 0.02 * main_area))) {
      ++st.islands_skipped;
      continue;
    }
    const Piece cut = cut_piece(work, comps, label);
    std::optional<Vec2> near;
    if (first && o.root_near)
      near = Vec2{(o.root_near->x - work.ox) / work.cell - cut.gx0, (o.root_near->y - work.oy) / work.cell - cut.gy0};
    PieceSkeleton piece = piece_skeleton(cut, work, o, near);
    std::vector<Limb>& limbs = piece.limbs;
    const int main = main_limb(limbs, piece.rooted_near);
    plan_limbs(piece, main, o, work.cell);
    // A small island (a floating hand, a hat) moves as one: cut into chains at its own scale it gets
    // stubs that bend nothing visible and only pinch its mesh. So does a round one of any size (a
    // detached head): with no limb it would be folded in half along its principal axis.
    // A compact or short piece (rigid_reach, rigid_length) has nothing long enough to bend: its bones would only fold it.
    const double reach = reach_from_root(limbs);
    const bool compact = (o.rigid_reach > 0 && reach <= o.rigid_reach * piece.root_radius) || reach < o.rigid_length;
    // A closed loop (a ring, a chain link, a wheel) has no free end to bend: cut into chains that meet
    // again, a bend tears it where the halves meet (a ring's chain folded 19.7% of its triangles at
    // 60 deg). It moves as one, as a prop does.
    const bool loop = piece.closed_loop && !piece.fallback;
    const bool one_bone = compact || loop || (!first && (piece.scale < kIslandOneBone * main_scale || piece.fallback));
    st.rigid_pieces += compact;
    st.loop_pieces += loop && !compact;
    if (one_bone) {
      for (Limb& limb : limbs) limb.dropped = true;
      if (!first) {
        const Vec2 hang = writer.joints[static_cast<std::size_t>(writer.nearest_bone(piece.root))];
        piece.root = nearest_piece_point(cut, work, hang);
      }
    }
    if (first) main_scale = piece.scale;
    fit_budget(limbs, main, budget);
    writer.add_piece(piece, limbs, one_bone ? -1 : main, st.islands);
    ++st.islands;
    st.holes_filled += piece.holes_filled;
    st.axis_cells += piece.axis_cells;
    st.branches_pruned += piece.pruned;
    st.axis_fallback = st.axis_fallback || piece.fallback;
    for (const Limb& limb : limbs) {
      st.limbs += !limb.dropped;
      st.tips += !limb.dropped && limb.tip;
      st.loop_limbs += limb.on_loop && !one_bone;
    }
  }
  st.bones = writer.bones.size();
  if (stats) *stats = st;
  return std::move(writer.bones);
}

namespace detail {

namespace {

PieceAxis piece_axis(Piece piece, const WorkGrid& work, double min_branch, double branch_ratio) {
  PieceAxis out;
  BinaryGrid& g = piece.grid;
  fill_holes(g);
  const medial::CellDistances distances(g);
  const auto [n, cx, cy] = on_cell_sums(g);
  const double min_spur = std::max(min_branch, kSpurScale * std::sqrt(n) * work.cell) / work.cell;
  BinaryGrid axis = g;
  medial::thin(axis);
  const std::vector<float> dist = distances.at_cells(axis);
  std::size_t root_cell = nearest_on_cell(axis, cx / n, cy / n);
  out.tree = medial::axis_tree(axis, dist, root_cell);
  medial::prune_spurs(out.tree, min_spur, branch_ratio);
  const int hub = medial::central_junction(out.tree, cx / n, cy / n);
  if (hub >= 0 && hub != out.tree.root) {
    root_cell = out.tree.cell[static_cast<std::size_t>(hub)];
    out.tree = medial::axis_tree(axis, dist, root_cell);
    medial::prune_spurs(out.tree, min_spur, branch_ratio);
  }
  out.grid = std::move(g);
  out.ox = work.ox + static_cast<double>(piece.gx0) * work.cell;
  out.oy = work.oy + static_cast<double>(piece.gy0) * work.cell;
  return out;
}

}  // namespace

Result<ShapeAxis> shape_axis(const Image& image, int alpha_threshold, bool skip_drop_shadow, double min_branch,
                             double branch_ratio) {
  ShapeSkeletonOptions o;
  o.alpha_threshold = alpha_threshold;
  o.min_branch = min_branch;
  o.branch_ratio = branch_ratio;
  if (auto ok = check_shape_skeleton_options(o); !ok) return Unexpected{ok.error()};
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != 4 * static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height))
    return make_error("coverage.image", "the image is empty or its pixel buffer does not match its size");
  DropShadow shadow = skip_drop_shadow ? find_drop_shadow(image, alpha_threshold) : DropShadow{};
  Coverage coverage = coverage_of(image, alpha_threshold, shadow.pixels, std::move(shadow.coverage));
  if (coverage.x1 <= coverage.x0)
    return make_error("skeleton.empty",
                      "no pixel has alpha above " + std::to_string(alpha_threshold) + ": nothing to place bones in");
  const WorkGrid work = work_grid(coverage);
  const medial::Components comps = medial::label_components(work.grid);
  const std::vector<int> order = components_largest_first(comps);
  ShapeAxis out;
  for (int label : order) {  // the pieces shape_skeleton gives bones of their own
    const double area = static_cast<double>(comps.area[static_cast<std::size_t>(label)]);
    if (!out.pieces.empty() && area < 0.02 * static_cast<double>(comps.area[static_cast<std::size_t>(order[0])])) break;
    out.pieces.push_back(piece_axis(cut_piece(work, comps, label), work, min_branch, branch_ratio));
  }
  out.width = coverage.width;
  out.height = coverage.height;
  out.in = std::move(coverage.in);
  out.x0 = coverage.x0, out.y0 = coverage.y0, out.x1 = coverage.x1, out.y1 = coverage.y1;
  out.cell = work.cell;
  return out;
}

}  // namespace detail

}  // namespace rig2d
