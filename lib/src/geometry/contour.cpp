// SPDX-License-Identifier: Apache-2.0
// Marching squares with the saddle cases resolved by the cell-centre average, which keeps the
// traced curves closed and disjoint. The margin is applied by contouring a second field,
// G = max(signed distance to the iso-contour - margin, signed distance to the image rectangle),
// so growth and clipping come out of one pass and the result is again a set of disjoint rings.
#include "rig2d/geometry/contour.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define RIG2D_BAND_AVX2 1
#define RIG2D_AVX2_FN __attribute__((target("avx2")))
#endif

#include "geometry/outline_stages.h"
#include "image/alpha_threshold.h"
#include "image/image_checks.h"

namespace rig2d {
namespace {

// Which lattice samples are inside (the field < 0), one bit per sample: rows of 64-bit words, the bits
// past a row's last sample zero. Marching squares only has work where a cell's corners disagree, a
// thin band along the outline, so the cells are scanned 64 at a time by their corner bits.
struct SignBits {
  int nx = 0, ny = 0;
  std::size_t words = 0;  // per row
  std::vector<std::uint64_t> bits;

  SignBits(int nx_, int ny_)
      : nx(nx_), ny(ny_), words((static_cast<std::size_t>(nx_) + 63) / 64), bits(words * static_cast<std::size_t>(ny_), 0) {}
  const std::uint64_t* row(int j) const { return bits.data() + static_cast<std::size_t>(j) * words; }
  bool get(int i, int j) const { return (row(j)[static_cast<std::size_t>(i) >> 6] >> (i & 63)) & 1u; }
  void set(int i, int j, bool in) {
    std::uint64_t& w = bits[static_cast<std::size_t>(j) * words + (static_cast<std::size_t>(i) >> 6)];
    const std::uint64_t bit = std::uint64_t{1} << (i & 63);
    w = in ? (w | bit) : (w & ~bit);
  }
};

// Sets bits x + 1 .. x + n of `row` (n <= 64) from bits 0 .. n - 1 of `bits`.
void put_bits(std::uint64_t* row, int x, std::uint64_t bits, int n) {
  const int at = x + 1, shift = at & 63;
  row[at >> 6] |= bits << shift;
  if (shift + n > 64) row[(at >> 6) + 1] |= bits >> (64 - shift);
}

// Sets bit x + 1 of `row` (zeroed words) for every pixel x >= `x` of an RGBA row whose alpha exceeds
// `threshold` (<= 254): 16 pixels per step, their alpha bytes packed and compared at once.
void set_alpha_bits(const std::uint8_t* rgba, int w, std::uint8_t threshold, std::uint64_t* row, int x = 0) {
#if defined(__SSE2__)
  const __m128i above = _mm_set1_epi8(static_cast<char>(threshold + 1));
  for (; x + 16 <= w; x += 16) {
    const __m128i in = detail::alpha_at_least_16(rgba + 4 * static_cast<std::size_t>(x), above);
    put_bits(row, x, static_cast<std::uint32_t>(_mm_movemask_epi8(in)), 16);
  }
#endif
  for (; x < w; ++x)
    if (rgba[4 * static_cast<std::size_t>(x) + 3] > threshold) put_bits(row, x, 1, 1);
}

#if defined(RIG2D_BAND_AVX2)
// set_alpha_bits 32 pixels a step: the same test, threshold_alpha's (alpha_at_least_32).
RIG2D_AVX2_FN void set_alpha_bits_avx2(const std::uint8_t* rgba, int w, std::uint8_t threshold, std::uint64_t* row) {
  const __m256i above = _mm256_set1_epi8(static_cast<char>(threshold + 1));
  int x = 0;
  for (; x + 32 <= w; x += 32) {
    const __m256i in = detail::alpha_at_least_32(rgba + 4 * static_cast<std::size_t>(x), above);
    put_bits(row, x, static_cast<std::uint32_t>(_mm256_movemask_epi8(in)), 32);
  }
  set_alpha_bits(rgba, w, threshold, row, x);
}
#endif

// Byte i of kSpreadBits[b] (in memory order) is bit i of b.
constexpr std::array<std::uint64_t, 256> kSpreadBits = [] {
  std::array<std::uint64_t, 256> table{};
  for (unsigned b = 0; b < 256; ++b) {
    std::array<std::uint8_t, 8> bytes{};
    for (unsigned i = 0; i < 8; ++i) bytes[i] = static_cast<std::uint8_t>((b >> i) & 1u);
    table[b] = std::bit_cast<std::uint64_t>(bytes);
  }
  return table;
}();

// out[x] = bit x + 1 of `row`, x = 0 .. w - 1: eight pixels per table lookup.
void bits_to_bytes(const std::uint64_t* row, int w, std::uint8_t* out) {
  auto bit = [row](int at) { return (row[at >> 6] >> (at & 63)) & 1u; };
  int x = 0;
  for (; x + 8 <= w; x += 8) {
    const int at = x + 1, shift = at & 63;
    std::uint64_t bits = row[at >> 6] >> shift;
    if (shift > 56) bits |= row[(at >> 6) + 1] << (64 - shift);
    std::memcpy(out + x, &kSpreadBits[bits & 0xffu], 8);
  }
  for (; x < w; ++x) out[x] = static_cast<std::uint8_t>(bit(x + 1));
}

// Calls cell(i, j, code) for every cell (i, j)-(i + 1, j + 1) of row j whose four corners are not all on
// one side, left to right; bit k of code is corner k's (0 tl, 1 tr, 2 br, 3 bl).
template <typename Cell>
void for_each_mixed_cell_in_row(const SignBits& in, int j, Cell&& cell) {
  if (in.nx < 2) return;
  const std::size_t last_cell = static_cast<std::size_t>(in.nx) - 2;
  const std::uint64_t* a = in.row(j);
  const std::uint64_t* b = in.row(j + 1);
  for (std::size_t w = 0; w * 64 <= last_cell; ++w) {
    // Bit k of a_right: the sample right of bit k's (the next word's first sample for k = 63).
    const std::uint64_t a_right = (a[w] >> 1) | (w + 1 < in.words ? a[w + 1] << 63 : 0);
    const std::uint64_t b_right = (b[w] >> 1) | (w + 1 < in.words ? b[w + 1] << 63 : 0);
    std::uint64_t mixed = (a[w] ^ a_right) | (a[w] ^ b[w]) | (a[w] ^ b_right);
    const std::size_t cells_here = std::min<std::size_t>(64, last_cell + 1 - w * 64);
    if (cells_here < 64) mixed &= (std::uint64_t{1} << cells_here) - 1;
    while (mixed != 0) {
      const int k = std::countr_zero(mixed);
      const auto code = static_cast<int>(((a[w] >> k) & 1u) | (((a_right >> k) & 1u) << 1) | (((b_right >> k) & 1u) << 2) |
                                         (((b[w] >> k) & 1u) << 3));
      cell(static_cast<int>(w * 64 + static_cast<std::size_t>(k)), j, code);
      mixed &= mixed - 1;
    }
  }
}

// A cell's corners 0 tl, 1 tr, 2 br, 3 bl (offsets from its top-left sample) and edges 0 top (tl-tr),
// 1 right (tr-br), 2 bottom (bl-br), 3 left (tl-bl), each from corner kEdgeFrom to corner kEdgeTo.
constexpr double kCornerDx[4] = {0, 1, 1, 0}, kCornerDy[4] = {0, 0, 1, 1};
constexpr int kEdgeFrom[4] = {0, 1, 3, 0}, kEdgeTo[4] = {1, 2, 2, 3};

// A contour segment across a cell, from its crossing on edge `from` to its crossing on edge `to`, with
// the inside on its right in the orient2d sense (orient2d(from's, to's, an inside corner) < 0).
struct DirectedSegment {
  int from = 0, to = 0;
};

// The segment between edges e1 and e2 of a cell of corner code `code` (bit k set when corner k is
// inside), directed by the side corner `ref` lies on. Each crossing lies strictly inside its edge, where
// no line through two of them passes through a corner, so every crossing gives the side its edge's
// midpoint gives.
constexpr DirectedSegment directed(int code, int e1, int e2, int ref) {
  const auto mid = [](int e) {  // in a unit cell with corner 0 at the origin
    const double cx = kCornerDx[kEdgeFrom[e]], cy = kCornerDy[kEdgeFrom[e]];
    return (e & 1) == 0 ? Vec2{cx + 0.5, cy} : Vec2{cx, cy + 0.5};
  };
  const Vec2 p = mid(e1), q = mid(e2), c{kCornerDx[ref], kCornerDy[ref]};
  const double side = (p.x - c.x) * (q.y - c.y) - (p.y - c.y) * (q.x - c.x);
  const bool ref_inside = ((code >> ref) & 1) != 0;
  return (side < 0) == ref_inside ? DirectedSegment{e1, e2} : DirectedSegment{e2, e1};
}

// For each corner code with one segment: that segment, directed (codes 5 and 10 have two, below).
constexpr std::array<DirectedSegment, 16> kOneSegment = [] {
  std::array<DirectedSegment, 16> cases{};
  for (int code = 1; code < 15; ++code) {
    auto in = [code](int corner) { return ((code >> corner) & 1) != 0; };
    int e[2] = {0, 0}, n = 0;
    for (int k = 0; k < 4 && n < 2; ++k)
      if (in(kEdgeFrom[k]) != in(kEdgeTo[k])) e[n++] = k;
    int ref = 0;
    while (!in(ref)) ++ref;
    cases[static_cast<std::size_t>(code)] = directed(code, e[0], e[1], ref);
  }
  return cases;
}();

// The two segments of a saddle (code 5: tl and br inside, 10: tr and bl), by [code == 10][cut_tl_br]:
// they cut off the two corners of the minority state at the centre, tl and br or tr and bl.
constexpr std::array<std::array<std::array<DirectedSegment, 2>, 2>, 2> kSaddleSegments = [] {
  std::array<std::array<std::array<DirectedSegment, 2>, 2>, 2> cases{};
  for (const int code : {5, 10}) {
    auto& by_cut = cases[code == 10 ? 1 : 0];
    by_cut[1] = {directed(code, 0, 3, 0), directed(code, 1, 2, 2)};
    by_cut[0] = {directed(code, 0, 1, 1), directed(code, 2, 3, 3)};
  }
  return cases;
}();

// What march_row works out of each segment: both ends, or only where it starts (all a chain needs).
enum class SegmentEnds { Both, Start };

// Calls emit(p, q, ip, iq) for each contour segment in row j_row of the cells of the field value(i, j) at
// (x0 + i, y0 + j) (x0, y0 half-integers, so every lattice coordinate is exact), inside where < 0
// (exactly the set bits of `inside`, which give the cells' corner codes), left to right, p -> q with
// the inside on its right (in the orient2d sense), so islands come out with negative shoelace sums
// (q is left at the origin with SegmentEnds::Start). Also reports, for chaining, the lattice edge id
// of both ends: horizontal edge (i, j) -> 2 * (j * nx + i), vertical -> that + 1.
template <SegmentEnds kEnds = SegmentEnds::Both, typename Value, typename Emit>
void march_row(const SignBits& inside, int j_row, double x0, double y0, Value&& value, Emit&& emit) {
  const std::int64_t nx = inside.nx;
  // Edge ids from the cell's top edge's: 2 * (j * nx + i) + these.
  const std::int64_t edge_offset[4] = {0, 3, 2 * nx, 1};
  const double ya = y0 + j_row;
  // The right corners of the last cell, the left ones of the next when it is its neighbour in the row.
  int last_i = -2;
  float last_tr = 0, last_br = 0;
  for_each_mixed_cell_in_row(inside, j_row, [&](int i, int j, int code) {
    const bool next_to_last = i == last_i + 1;
    const float tl = next_to_last ? last_tr : value(i, j), bl = next_to_last ? last_br : value(i, j + 1);
    const float tr = value(i + 1, j), br = value(i + 1, j + 1);
    last_i = i;
    last_tr = tr;
    last_br = br;
    const float v[4] = {tl, tr, br, bl};
    const double xa = x0 + i;
    const std::int64_t base = 2 * (static_cast<std::int64_t>(j) * nx + i);
    // Where the field crosses 0 on edge e: its first corner moved t along the edge (t in (0, 1): the
    // values are never 0).
    auto point = [&](int e) {
      const double g0 = v[kEdgeFrom[e]], g1 = v[kEdgeTo[e]];
      const double t = g0 / (g0 - g1);
      const double cx = xa + kCornerDx[kEdgeFrom[e]], cy = ya + kCornerDy[kEdgeFrom[e]];
      return (e & 1) == 0 ? Vec2{cx + t, cy} : Vec2{cx, cy + t};
    };
    auto segment = [&](DirectedSegment s) {
      const std::int64_t ip = base + edge_offset[s.from], iq = base + edge_offset[s.to];
      if constexpr (kEnds == SegmentEnds::Both) {
        emit(point(s.from), point(s.to), ip, iq);
      } else {
        emit(point(s.from), Vec2{}, ip, iq);
      }
    };
    if (code == 5 || code == 10) {
      const bool centre_in = (static_cast<double>(tl) + tr + br + bl) / 4 < 0;
      // Corners cut off by the two segments: the ones of the minority state at the centre.
      const bool cut_tl_br = (code == 5) != centre_in;
      for (const DirectedSegment s : kSaddleSegments[code == 10 ? 1 : 0][cut_tl_br ? 1 : 0]) segment(s);
      return;
    }
    segment(kOneSegment[static_cast<std::size_t>(code)]);
  });
}

// march_row over every row of cells: the segments of the whole lattice, row by row.
template <typename Value, typename Emit>
void march(const SignBits& inside, double x0, double y0, Value&& value, Emit&& emit) {
  for (int j = 0; j + 1 < inside.ny; ++j) march_row(inside, j, x0, y0, value, emit);
}

// A contour segment for chain: where it starts, and the lattice edge ids of its two ends.
struct Piece {
  Vec2 start;
  std::int64_t from, to;
};

// Chains oriented segments into closed rings (every crossing point has one successor: each lattice
// edge id is the start of one segment at most). The segment starting at an edge is found in an open
// addressing table keyed by the edge id.
std::vector<Ring> chain(const std::vector<Piece>& pieces) {
  const std::size_t n = pieces.size();
  const std::size_t slots = std::bit_ceil(2 * n + 2), mask = slots - 1;
  std::vector<std::size_t> table(slots, n);  // segment index, n = empty
  auto slot_of = [&](std::int64_t id) {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(id) * 0x9E3779B97F4A7C15ull) >> 32) & mask;
  };
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t at = slot_of(pieces[k].from);
    while (table[at] != n) at = (at + 1) & mask;
    table[at] = k;
  }
  auto find = [&](std::int64_t id) -> std::size_t {
    for (std::size_t at = slot_of(id);; at = (at + 1) & mask)
      if (table[at] == n || pieces[table[at]].from == id) return table[at];
  };
  std::vector<char> used(n, 0);
  std::vector<Ring> rings;
  for (std::size_t s = 0; s < n; ++s) {
    if (used[s]) continue;
    Ring ring;
    std::size_t k = s;
    while (k < n && !used[k]) {
      used[k] = 1;
      if (ring.empty() || !(ring.back() == pieces[k].start)) ring.push_back(pieces[k].start);
      k = find(pieces[k].to);
    }
    while (ring.size() > 1 && ring.front() == ring.back()) ring.pop_back();
    if (ring.size() >= 3) rings.push_back(std::move(ring));
  }
  return rings;
}

// Squared distance from a point to segment a-b (plain sqrt-free arithmetic: this runs per band
// sample). The terms that do not depend on the point are computed once per segment and per row; the
// arithmetic per point is the same sequence of operations, so the result is too.
struct SegmentDistance {
  Vec2 a;
  double dx, dy, len2;
  SegmentDistance(Vec2 a_, Vec2 b) : a(a_), dx(b.x - a_.x), dy(b.y - a_.y), len2(dx * dx + dy * dy) {}

  // Squared distances of the samples (x0 + i, y), i = from..to, written to out[i - from].
  void row(double x0, int from, int to, double y, float* out) const {
    const double along_y = (y - a.y) * dy;
    if (!(len2 > 0)) {  // a point: t = 0
      for (int i = from; i <= to; ++i) {
        const double ex = (x0 + i) - (a.x + 0.0 * dx), ey = y - (a.y + 0.0 * dy);
        out[i - from] = static_cast<float>(ex * ex + ey * ey);
      }
      return;
    }
    // Two samples per SSE2 register, each lane the scalar expression below (the clamp's signed-zero
    // difference cannot reach the squared distance).
    int i = from;
#if defined(__SSE2__)
    const __m128d ax = _mm_set1_pd(a.x), ay = _mm_set1_pd(a.y), vdx = _mm_set1_pd(dx), vdy = _mm_set1_pd(dy);
    const __m128d vlen2 = _mm_set1_pd(len2), valong_y = _mm_set1_pd(along_y), vy = _mm_set1_pd(y);
    const __m128d zero = _mm_setzero_pd(), one = _mm_set1_pd(1.0);
    // x0 + i is a half-integer far below 2^52, so stepping it by 2 gives the same value.
    __m128d xs = _mm_add_pd(_mm_set1_pd(x0), _mm_set_pd(i + 1, i));
    const __m128d two = _mm_set1_pd(2.0);
    for (; i + 1 <= to; i += 2, xs = _mm_add_pd(xs, two)) {
      __m128d t = _mm_div_pd(_mm_add_pd(_mm_mul_pd(_mm_sub_pd(xs, ax), vdx), valong_y), vlen2);
      t = _mm_min_pd(_mm_max_pd(t, zero), one);
      const __m128d ex = _mm_sub_pd(xs, _mm_add_pd(ax, _mm_mul_pd(t, vdx)));
      const __m128d ey = _mm_sub_pd(vy, _mm_add_pd(ay, _mm_mul_pd(t, vdy)));
      const __m128 d2 = _mm_cvtpd_ps(_mm_add_pd(_mm_mul_pd(ex, ex), _mm_mul_pd(ey, ey)));
      _mm_storel_pi(reinterpret_cast<__m64*>(out + (i - from)), d2);
    }
#endif
    for (; i <= to; ++i) {
      const double x = x0 + i;
      const double t = std::clamp(((x - a.x) * dx + along_y) / len2, 0.0, 1.0);
      const double ex = x - (a.x + t * dx), ey = y - (a.y + t * dy);
      out[i - from] = static_cast<float>(ex * ex + ey * ey);
    }
  }
};

// Crossings beyond the image go onto its border, and so do those within kBorderSnap of it: such a
// point only ever lies on a lattice edge to the ring of samples outside the image, where the outline
// leaves the border, and moving it outward onto the border costs nothing in coverage but lets the run
// along the border end on the border (a frame point the simplifier keeps exact) without a stub.
constexpr double kBorderSnap = 1.0 / 16;  // px

double onto_image(double v, double size) {
  if (v < kBorderSnap) return 0;
  if (v > size - kBorderSnap) return size;
  return v;
}

// Marching squares chamfers the image's corners (one cell cut diagonally); when a ring runs from
// one image border to the adjacent one, put the corner itself back.
void restore_image_corners(Ring& ring, double w, double h) {
  // The corners to put back, each after the point at `after`: most rings get none and stay as they are.
  struct Corner {
    std::size_t after;
    Vec2 c;
  };
  std::vector<Corner> corners;
  for (std::size_t k = 0; k < ring.size(); ++k) {
    const Vec2 p = ring[k], q = ring[k + 1 == ring.size() ? 0 : k + 1];
    // Off the border, or more than a pixel from the image's corners (each of |p - c|'s terms is at most
    // their sum): no corner follows it.
    if ((p.x > 1 && p.x < w - 1) || (p.y > 1 && p.y < h - 1)) continue;
    if (p.x != 0 && p.x != w && p.y != 0 && p.y != h) continue;
    auto on_x = [](Vec2 v, double x) { return v.x == x; };
    auto on_y = [](Vec2 v, double y) { return v.y == y; };
    for (const Vec2 c : {Vec2{0, 0}, Vec2{w, 0}, Vec2{w, h}, Vec2{0, h}}) {
      const bool pq = on_x(p, c.x) && on_y(q, c.y) && !on_y(p, c.y) && !on_x(q, c.x);
      const bool qp = on_y(p, c.y) && on_x(q, c.x) && !on_x(p, c.x) && !on_y(q, c.y);
      if ((pq || qp) && std::fabs(p.x - c.x) + std::fabs(p.y - c.y) <= 1.0 &&
          std::fabs(q.x - c.x) + std::fabs(q.y - c.y) <= 1.0)
        corners.push_back({k, c});
    }
  }
  if (corners.empty()) return;
  Ring out;
  out.reserve(ring.size() + corners.size());
  std::size_t next = 0;
  for (std::size_t k = 0; k < ring.size(); ++k) {
    out.push_back(ring[k]);
    for (; next < corners.size() && corners[next].after == k; ++next) out.push_back(corners[next].c);
  }
  ring = std::move(out);
}

// Sample (i, j) of the lattices below lies at (kX0 + i, kY0 + j): pixel centres plus one ring around.
constexpr double kX0 = -0.5, kY0 = -0.5;

// Level minus alpha on the lattice of pixel centres plus one ring of transparent samples around the
// image (x = i - 0.5, y = j - 0.5), so the iso-line at 0 separates the centres with alpha > threshold
// from the rest. Only the signs are stored; value(i, j) recomputes a sample from the image, which
// marching squares needs at the corners of the cells the outline crosses only.
struct AlphaLattice {
  const Image& image;
  float level;
  SignBits inside;
  bool any = false;

  AlphaLattice(const Image& image_, int alpha_threshold)
      : image(image_), level(static_cast<float>(alpha_threshold) + 0.5f), inside(image_.width + 2, image_.height + 2) {
    const int w = image.width, h = image.height;
    // level - alpha < 0 exactly when the integer alpha exceeds the integer threshold.
#if defined(RIG2D_BAND_AVX2)
    const bool avx2 = __builtin_cpu_supports("avx2") != 0;
#endif
    for (int y = 0; y < h; ++y) {
      const std::uint8_t* pixels = image.rgba.data() + 4 * static_cast<std::size_t>(y) * static_cast<std::size_t>(w);
      std::uint64_t* row = inside.bits.data() + static_cast<std::size_t>(y + 1) * inside.words;
#if defined(RIG2D_BAND_AVX2)
      if (avx2) {
        set_alpha_bits_avx2(pixels, w, static_cast<std::uint8_t>(alpha_threshold), row);
        continue;
      }
#endif
      set_alpha_bits(pixels, w, static_cast<std::uint8_t>(alpha_threshold), row);
    }
    for (const std::uint64_t word : inside.bits) any = any || word != 0;
  }
  // value(i, j) is value(pixel_row(j), i): the row's pixels found once (null for the ring around).
  const std::uint8_t* pixel_row(int j) const {
    if (j < 1 || j > image.height) return nullptr;
    return image.rgba.data() + 4 * static_cast<std::size_t>(j - 1) * static_cast<std::size_t>(image.width);
  }
  float value(const std::uint8_t* pixels, int i) const {
    if (pixels == nullptr || i < 1 || i > image.width) return level;
    const float a = pixels[4 * static_cast<std::size_t>(i - 1) + 3];
    return level - a;
  }
  float value(int i, int j) const { return value(pixel_row(j), i); }
};

// A contour segment's share of alpha_outline_length: its length clipped to the image, 0 along the
// image's border.
double outline_piece(const Image& image, Vec2 p, Vec2 q) {
  const double w = image.width, h = image.height;
  auto clip = [&](Vec2 v) { return Vec2{std::clamp(v.x, 0.0, w), std::clamp(v.y, 0.0, h)}; };
  p = clip(p);
  q = clip(q);
  const bool on_border = (p.x == 0 && q.x == 0) || (p.y == 0 && q.y == 0) || (p.x == w && q.x == w) || (p.y == h && q.y == h);
  return on_border ? 0.0 : std::hypot(q.x - p.x, q.y - p.y);
}

// floor(v) and ceil(v) as ints for |v| < 2^31, without the library calls' handling of huge values and
// NaN (the band's bounds, per row of every segment).
int floor_int(double v) {
  const int t = static_cast<int>(v);
  return t - (static_cast<double>(t) > v ? 1 : 0);
}
int ceil_int(double v) {
  const int t = static_cast<int>(v);
  return t + (static_cast<double>(t) < v ? 1 : 0);
}

// Squared distance from each lattice sample to the alpha iso-contour, within a band; beyond it the
// value is capped at band^2. The lattice is walked one row of cells at a time (lower_cell_row), and
// only the rows a row of cells can still change are held: a segment of cell row cj lies between
// sample rows cj and cj + 1, so it changes rows cj - rows_out .. cj + 1 + rows_out alone, and row j is
// final once cell row j + rows_out is done. A few rows of floats stay in cache where the whole lattice
// did not.
struct DistanceBand {
  static constexpr int kMaxBlock = 4;  // px: the widest band stamped as squares (see below)

  const AlphaLattice& alpha;
  double* outline_length;
  float capped = 0;
  int nx = 0, ny = 0;
  int reach = 0;
  int block = 0;
  double padded_band = 0;
  int rows_out = 0;              // rows above and (one more) below a row of cells its segments can change
  int slots = 0;                 // rows held (a power of two): row j in slot j % slots
  std::size_t stride = 0;        // floats a slot: nx, and the cap up to a multiple of 4 past it
  std::vector<float> dist;       // slots x stride
  std::size_t group_words = 0;   // per slot: bit g set when samples 4g .. 4g + 3 may be under the cap
  std::vector<std::uint64_t> lowered;
  std::vector<float> row_d2;     // one row's squared distances to a segment
  std::vector<std::uint64_t> row_groups;  // groups lowered on every row a row of cells reaches
#if defined(RIG2D_BAND_AVX2)
  bool avx2 = __builtin_cpu_supports("avx2") != 0;  // the same distances, four samples a step
#else
  bool avx2 = false;
#endif
#if defined(__SSE2__)
  // The square of samples from .. from + 2 block - 1 of rows j0 .. j0 + 2 block - 1 lowered by their
  // distances to the segment, out[r] + at holding row j0 + r's sample `from`.
  using Stamp = void (*)(const SegmentDistance& segment, int from, int j0, float* const* out, int at);
  Stamp stamp = pick_stamp(block, avx2);
#endif

  // With `outline_length`, lower_cell_row also adds up alpha_outline_length's sum over the same
  // segments, in the same order.
  DistanceBand(const AlphaLattice& alpha_, double band, double* outline_length_)
      : alpha(alpha_), outline_length(outline_length_), capped(static_cast<float>(band * band)), nx(alpha_.inside.nx),
        ny(alpha_.inside.ny), reach(static_cast<int>(std::ceil(band))),
        // Per row, only the samples that can come within the band of the segment: any other sample's
        // distance exceeds the cap it already holds, so skipping it changes nothing. The padding keeps
        // rounding in the bounds from ever dropping a sample that could change.
        block(ceil_int(band + 1e-6)), padded_band(band + 1e-6), rows_out(std::max(reach, block)),
        slots(static_cast<int>(std::bit_ceil(2u * static_cast<unsigned>(rows_out) + 4))),
        stride((static_cast<std::size_t>(nx) + 4) & ~std::size_t{3}),
        dist(static_cast<std::size_t>(slots) * stride, capped), group_words((stride / 4 + 63) / 64),
        lowered(static_cast<std::size_t>(slots) * group_words, 0), row_d2(static_cast<std::size_t>(nx)),
        row_groups(group_words, 0) {}

  std::size_t slot(int j) const { return static_cast<std::size_t>(j) & static_cast<std::size_t>(slots - 1); }
  float* row(int j) { return dist.data() + slot(j) * stride; }
  const float* row(int j) const { return dist.data() + slot(j) * stride; }
  std::uint64_t* groups(int j) { return lowered.data() + slot(j) * group_words; }
  const std::uint64_t* groups(int j) const { return lowered.data() + slot(j) * group_words; }
  // Calls fn(i) for the first sample i of each group of row j that may be under the cap.
  template <typename Fn>
  void for_each_lowered_group(int j, Fn&& fn) const {
    const std::uint64_t* g = groups(j);
    for (std::size_t w = 0; w < group_words; ++w)
      for (std::uint64_t bits = g[w]; bits != 0; bits &= bits - 1)
        fn(static_cast<int>(4 * (64 * w + static_cast<std::size_t>(std::countr_zero(bits)))));
  }
  // Row j comes in at the cap, in the slot of a row no longer read.
  void bring_in(int j) {
    float* r = row(j);
    for_each_lowered_group(j, [&](int i) { std::fill(r + i, r + i + 4, capped); });
    std::fill(groups(j), groups(j) + group_words, 0);
  }
  // Notes samples from..to of rows j0..j1 as lowered.
  void touch(int j0, int j1, int from, int to) {
    const int g0 = from >> 2, g1 = to >> 2;
    if (g0 >> 6 == g1 >> 6) {  // the usual case, a few groups in one word: the same bits on every row
      const std::uint64_t ones = (~std::uint64_t{0} >> (63 - (g1 - g0))) << (g0 & 63);
      for (int j = j0; j <= j1; ++j) groups(j)[g0 >> 6] |= ones;
      return;
    }
    for (int j = j0; j <= j1; ++j) {
      std::uint64_t* g = groups(j);
      for (int k = g0; k <= g1;) {  // bits k .. of word k / 64, up to g1
        const int last = std::min(g1, k | 63), n = last - k + 1;
        const std::uint64_t ones = n == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << n) - 1);
        g[k >> 6] |= ones << (k & 63);
        k = last + 1;
      }
    }
  }

  // Lowers the rows the segments of cell row cj reach (brought in) by their distances.
  void lower_cell_row(int cj) {
    const std::uint8_t* pixels[2] = {alpha.pixel_row(cj), alpha.pixel_row(cj + 1)};
    auto value = [&](int i, int j) { return alpha.value(pixels[j - cj], i); };
    // A segment lies in one lattice cell, so every sample nearer than `block` (an integer) to it is
    // one of the 2 block x 2 block around that cell: in a narrow band, where rows are a few samples
    // long, stamping that square costs less than each row's own bounds. The samples it adds are
    // farther than the band and stay at the cap, so the distances are the same either way.
    if (block <= kMaxBlock) {
      // A segment of cell row cj lies between sample rows cj and cj + 1, so its square spans rows
      // cj - block + 1 .. cj + block: their slots, found once for the row when all are in the lattice.
      const int rows_j = cj - block + 1;
      const bool rows_inside = rows_j >= 0 && cj + block <= ny - 1;
      float* rows[2 * kMaxBlock] = {};
      for (int r = 0; rows_inside && r < 2 * block; ++r) rows[r] = row(rows_j + r);
      march_row(alpha.inside, cj, kX0, kY0, value, [&](Vec2 p, Vec2 q, std::int64_t, std::int64_t) {
        if (outline_length) *outline_length += outline_piece(alpha.image, p, q);
        const int ci = floor_int(std::min(p.x, q.x) - kX0), sj = floor_int(std::min(p.y, q.y) - kY0);
        const int from = std::max(0, ci - block + 1), to = std::min(nx - 1, ci + block);
        const int j0 = std::max(0, sj - block + 1), j1 = std::min(ny - 1, sj + block);
        const SegmentDistance segment(p, q);
#if defined(__SSE2__)
        const int square_i = ci - block + 1, square_j = sj - block + 1;
        if (segment.len2 > 0 && rows_inside && sj == cj && from == square_i && to == ci + block &&
            from >> 8 == to >> 8) {  // the square whole in the lattice, its groups in one word
          // touch's bits, the same on each of the rows: noted for them all once the row of cells is done
          row_groups[static_cast<std::size_t>(from >> 8)] |= (~std::uint64_t{0} >> (63 - ((to >> 2) - (from >> 2))))
                                                             << ((from >> 2) & 63);
          if (stamp != nullptr) return stamp(segment, from, rows_j, rows, from);
        }
        touch(j0, j1, from, to);
        if (segment.len2 > 0) {
          float* out[2 * kMaxBlock];
          if (from == square_i && to == ci + block && j0 == square_j && j1 == sj + block) {
            for (int r = 0; r < 2 * block; ++r) out[r] = row(j0 + r);
            if (stamp != nullptr) return stamp(segment, from, j0, out, from);
          } else {
            // The lattice clips the square (by its border): stamped whole aside, then its part inside
            // lowered (the same distances as each row's own, lane for lane).
            std::array<float, 4 * kMaxBlock * kMaxBlock> aside;
            aside.fill(capped);
            for (int r = 0; r < 2 * block; ++r) out[r] = aside.data() + r * 2 * block;
            if (stamp != nullptr) {
              stamp(segment, square_i, square_j, out, 0);
              for (int j = j0; j <= j1; ++j) lower_row(j, from, to, out[j - square_j] + (from - square_i));
              return;
            }
          }
        }
#else
        touch(j0, j1, from, to);
#endif
        for (int j = j0; j <= j1; ++j) {
          segment.row(kX0, from, to, kY0 + j, row_d2.data());
          lower_row(j, from, to, row_d2.data());
        }
      });
      for (std::size_t w = 0; w < group_words; ++w) {
        for (int r = 0; row_groups[w] != 0 && r < 2 * block; ++r) groups(rows_j + r)[w] |= row_groups[w];
        row_groups[w] = 0;
      }
      return;
    }
    march_row(alpha.inside, cj, kX0, kY0, value, [&](Vec2 p, Vec2 q, std::int64_t, std::int64_t) {
      if (outline_length) *outline_length += outline_piece(alpha.image, p, q);
      const double x_lo = std::min(p.x, q.x), x_hi = std::max(p.x, q.x);
      const double y_lo = std::min(p.y, q.y), y_hi = std::max(p.y, q.y);
      const int i0 = std::max(0, floor_int(x_lo - kX0) - reach);
      const int i1 = std::min(nx - 1, ceil_int(x_hi - kX0) + reach);
      const int j0 = std::max(0, floor_int(y_lo - kY0) - reach);
      const int j1 = std::min(ny - 1, ceil_int(y_hi - kY0) + reach);
      const SegmentDistance segment(p, q);
      for (int j = j0; j <= j1; ++j) {
        const double y = kY0 + j;
        const double dy = std::max({0.0, y_lo - y, y - y_hi});
        if (dy >= padded_band) continue;
        const double half = std::sqrt(padded_band * padded_band - dy * dy);
        const int from = std::max(i0, floor_int(x_lo - half - kX0));
        const int to = std::min(i1, ceil_int(x_hi + half - kX0));
        if (from > to) continue;
        touch(j, j, from, to);
        segment.row(kX0, from, to, y, row_d2.data());
        lower_row(j, from, to, row_d2.data());
      }
    });
  }

#if defined(__SSE2__)
  // The stamp for a band's block (null when it has none), picked once.
  static Stamp pick_stamp(int block, [[maybe_unused]] bool avx2) {
#if defined(RIG2D_BAND_AVX2)
    if (avx2) {
      switch (block) {
        case 2: return &stamp_square_avx2<2>;
        case 3: return &stamp_square_avx2<3>;
        case 4: return &stamp_square_avx2<4>;
        default: return nullptr;
      }
    }
#endif
    switch (block) {
      case 2: return &stamp_square<2>;
      case 3: return &stamp_square<3>;
      case 4: return &stamp_square<4>;
      default: return nullptr;
    }
  }

  // segment.row and lower_row over samples from .. from + 2 * pairs - 1 of rows j0 .. j0 + 2 * pairs - 1
  // (pairs <= kMaxBlock; out as for stamp): the same arithmetic lane for lane, with what does not change
  // down the rows (the broadcasts, (x - a.x) * dx) made once, and the lowering four samples a step.
  template <int pairs>
  static void stamp_square(const SegmentDistance& segment, int from, int j0, float* const* out, int at) {
    static_assert(pairs <= kMaxBlock);
    const __m128d ax = _mm_set1_pd(segment.a.x), ay = _mm_set1_pd(segment.a.y);
    const __m128d vdx = _mm_set1_pd(segment.dx), vdy = _mm_set1_pd(segment.dy), vlen2 = _mm_set1_pd(segment.len2);
    const __m128d zero = _mm_setzero_pd(), one = _mm_set1_pd(1.0);
    __m128d xs[kMaxBlock], along_x[kMaxBlock];
    for (int k = 0; k < pairs; ++k) {
      xs[k] = _mm_set_pd(kX0 + (from + 2 * k + 1), kX0 + (from + 2 * k));
      along_x[k] = _mm_mul_pd(_mm_sub_pd(xs[k], ax), vdx);
    }
    for (int j = j0; j < j0 + 2 * pairs; ++j) {
      const double y = kY0 + j;
      const __m128d valong_y = _mm_set1_pd((y - segment.a.y) * segment.dy), vy = _mm_set1_pd(y);
      __m128 d2[kMaxBlock];
      for (int k = 0; k < pairs; ++k) {
        __m128d t = _mm_div_pd(_mm_add_pd(along_x[k], valong_y), vlen2);
        t = _mm_min_pd(_mm_max_pd(t, zero), one);
        const __m128d ex = _mm_sub_pd(xs[k], _mm_add_pd(ax, _mm_mul_pd(t, vdx)));
        const __m128d ey = _mm_sub_pd(vy, _mm_add_pd(ay, _mm_mul_pd(t, vdy)));
        d2[k] = _mm_cvtpd_ps(_mm_add_pd(_mm_mul_pd(ex, ex), _mm_mul_pd(ey, ey)));
      }
      __m128 row_j[kMaxBlock];  // the row's samples, four (two for an odd last pair) a register
      int groups = 0;
      for (int k = 0; k < pairs; k += 2, ++groups) row_j[groups] = k + 1 < pairs ? _mm_movelh_ps(d2[k], d2[k + 1]) : d2[k];
      lower_square_row(out[j - j0] + at, pairs, row_j);
    }
  }

#if defined(RIG2D_BAND_AVX2)
  // stamp_square in AVX2 registers, two rows at a time: each register holds two samples of row j in
  // its low half and the same two of row j + 1 in its high half, every lane the scalar expression of
  // segment.row in its order (no contraction). Rows are lowered and listed in stamp_square's order.
  template <int pairs>
  RIG2D_AVX2_FN static void stamp_square_avx2(const SegmentDistance& segment, int from, int j0, float* const* out,
                                              int at) {
    static_assert(pairs <= kMaxBlock);
    const __m256d ax = _mm256_set1_pd(segment.a.x), ay = _mm256_set1_pd(segment.a.y);
    const __m256d vdx = _mm256_set1_pd(segment.dx), vdy = _mm256_set1_pd(segment.dy);
    const __m256d vlen2 = _mm256_set1_pd(segment.len2), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    __m256d xs[kMaxBlock], along_x[kMaxBlock];
    for (int k = 0; k < pairs; ++k) {
      const double x0 = kX0 + (from + 2 * k), x1 = kX0 + (from + 2 * k + 1);
      xs[k] = _mm256_set_pd(x1, x0, x1, x0);
      along_x[k] = _mm256_mul_pd(_mm256_sub_pd(xs[k], ax), vdx);
    }
    for (int j = j0; j + 1 < j0 + 2 * pairs; j += 2) {
      const double y0 = kY0 + j, y1 = kY0 + (j + 1);
      const double along_y0 = (y0 - segment.a.y) * segment.dy, along_y1 = (y1 - segment.a.y) * segment.dy;
      const __m256d valong_y = _mm256_set_pd(along_y1, along_y1, along_y0, along_y0);
      const __m256d vy = _mm256_set_pd(y1, y1, y0, y0);
      __m128 d2[kMaxBlock];  // samples (2k, j), (2k + 1, j), (2k, j + 1), (2k + 1, j + 1)
      for (int k = 0; k < pairs; ++k) {
        __m256d t = _mm256_div_pd(_mm256_add_pd(along_x[k], valong_y), vlen2);
        t = _mm256_min_pd(_mm256_max_pd(t, zero), one);
        const __m256d ex = _mm256_sub_pd(xs[k], _mm256_add_pd(ax, _mm256_mul_pd(t, vdx)));
        const __m256d ey = _mm256_sub_pd(vy, _mm256_add_pd(ay, _mm256_mul_pd(t, vdy)));
        d2[k] = _mm256_cvtpd_ps(_mm256_add_pd(_mm256_mul_pd(ex, ex), _mm256_mul_pd(ey, ey)));
      }
      __m128 row_j[kMaxBlock], row_j1[kMaxBlock];  // each row's samples, four (two for an odd last pair) a register
      int groups = 0;
      for (int k = 0; k < pairs; k += 2, ++groups) {
        if (k + 1 < pairs) {
          row_j[groups] = _mm_movelh_ps(d2[k], d2[k + 1]);
          row_j1[groups] = _mm_movehl_ps(d2[k + 1], d2[k]);
        } else {
          row_j[groups] = d2[k];
          row_j1[groups] = _mm_movehl_ps(d2[k], d2[k]);
        }
      }
      lower_square_row(out[j - j0] + at, pairs, row_j);
      lower_square_row(out[j + 1 - j0] + at, pairs, row_j1);
    }
  }
#endif

  // The lowering of one row of stamp_square: out[0 .. 2 * pairs - 1], four a register (the last two
  // alone when pairs is odd).
  static void lower_square_row(float* out, int pairs, const __m128* d) {
    int k = 0, g = 0;
    for (; k + 1 < pairs; k += 2, ++g) {
      const int i = 2 * k;
      _mm_storeu_ps(out + i, _mm_min_ps(d[g], _mm_loadu_ps(out + i)));
    }
    if (k < pairs) {
      const int i = 2 * k;
      const __m128 old = _mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(out + i));
      _mm_storel_pi(reinterpret_cast<__m64*>(out + i), _mm_min_ps(d[g], old));
    }
  }
#endif

  // dist = min(dist, d2) over samples from..to of row j.
  void lower_row(int j, int from, int to, const float* d2) {
    float* r = row(j);
    for (int i = from; i <= to; ++i) r[i] = std::min(r[i], d2[i - from]);
  }
};

// How far beyond the margin distances are computed exactly: more than a cell diagonal (see below),
// sqrt(2) = 1.4142 plus slack far above float rounding; every sample farther out reads as the cap.
constexpr double kBandBeyondMargin = 1.42;

// G = max(signed distance - margin, signed distance to the image rectangle); inside where < 0.
// Values are kept off exact zero so no crossing lands on a sample (which would pinch rings).
struct GrownField {
  const AlphaLattice& alpha;
  const DistanceBand& band;
  double margin;
  float cap;  // band.capped had the band been made for this margin
  double capped_d;
  float grows_below;
  double half_w, half_h;  // the image's
  std::vector<double> column_qx;  // the rectangle term's x part, by column
  SignBits inside;
  // The segments of G's contour, row by row, for chain.
  std::vector<Piece> pieces;

  // Off the band G has the sign of the alpha field: there |signed distance - margin| >=
  // kBandBeyondMargin, and every alpha-inside sample is a pixel centre, at least half a pixel inside
  // the rectangle. So the grown signs are the alpha signs with the band's samples decided one by one
  // (decide_row, once the band's row is final).
  // G's exact value is only read at the corners of cells its sign change crosses; each such corner is
  // within a cell diagonal of a corner with G < 0 (alpha-inside, or outside nearer than the margin),
  // so within margin + sqrt(2) of the alpha contour: inside the band, where distances are exact.
  // A band made for a larger margin serves a smaller one: under this margin's cap its distances are
  // the same minimum over the same segments (a farther segment cannot go under the cap), and at or
  // over the cap they read as the cap.
  GrownField(const AlphaLattice& alpha_, const DistanceBand& band_, double margin_)
      : alpha(alpha_), band(band_), margin(margin_),
        cap(static_cast<float>((margin_ + kBandBeyondMargin) * (margin_ + kBandBeyondMargin))),
        capped_d(std::sqrt(static_cast<double>(cap))), grows_below(margin_ > 0 ? nearer_than(margin_) : 0),
        half_w(alpha_.image.width / 2.0), half_h(alpha_.image.height / 2.0), inside(alpha_.inside) {
    // Room for a contour around the lattice, about a sprite's: fewer regrowths of the list.
    pieces.reserve(2 * static_cast<std::size_t>(inside.nx + inside.ny));
    column_qx.resize(static_cast<std::size_t>(inside.nx));
    for (int i = 0; i < inside.nx; ++i) column_qx[static_cast<std::size_t>(i)] = std::fabs((kX0 + i) - half_w) - half_w;
  }

  // Decides the samples of row j the band lowered (its row final).
  void decide_row(int j) {
    const float* d = band.row(j);
    if (margin > 0) {
      // G < 0 on an alpha-outside sample under the cap when its larger term is: a pixel centre (the
      // ring around the image has rect = 0.5) nearer than the margin; the snap off zero keeps G's
      // sign. An alpha-inside sample is a pixel centre (rect <= -0.5), so G <= -margin < 0: it stays.
      // Without a branch per sample: whether one grows is a coin toss along the band.
      if (j < 1 || j > alpha.image.height) return;
      std::uint64_t* bits = inside.bits.data() + static_cast<std::size_t>(j) * inside.words;
      // Four samples a group (never across a word; the slot's padding past nx and every sample not
      // lowered hold the cap, so they do not grow), then samples 0 and nx - 1 (the ring around the
      // image, alpha-outside) put back.
      band.for_each_lowered_group(j, [&](int i) {
#if defined(__SSE2__)
        const auto grows = static_cast<std::uint64_t>(_mm_movemask_ps(_mm_cmplt_ps(_mm_loadu_ps(d + i), _mm_set1_ps(grows_below))));
#else
        std::uint64_t grows = 0;
        for (int k = 0; k < 4; ++k) grows |= static_cast<std::uint64_t>(d[i + k] < grows_below) << k;
#endif
        bits[i >> 6] |= grows << (i & 63);
      });
      const auto last = static_cast<std::size_t>(inside.nx - 1);
      bits[0] &= ~std::uint64_t{1};
      bits[last >> 6] &= ~(std::uint64_t{1} << (last & 63));
      return;
    }
    band.for_each_lowered_group(j, [&](int i) {
      for (int k = i; k < std::min(i + 4, inside.nx); ++k)
        if (d[k] < cap) inside.set(k, j, value(k, j) < 0);
    });
  }
  // The segments of G's contour in cell row j (rows j and j + 1 decided).
  void trace_cell_row(int j) {
    const double w = alpha.image.width, h = alpha.image.height;
    const Row rows[2] = {row(j), row(j + 1)};
    march_row<SegmentEnds::Start>(
        inside, j, kX0, kY0, [&](int i, int jj) { return value(rows[jj - j], i); },
        [&](Vec2 p, Vec2, std::int64_t ip, std::int64_t iq) {
          pieces.push_back({{onto_image(p.x, w), onto_image(p.y, h)}, ip, iq});
        });
  }
  // The least float d2 with sqrt(d2) - margin >= 0 (value's test, in double), so that below it, and
  // only there, a squared distance is nearer than the margin.
  static float nearer_than(double margin) {
    auto nearer = [&](float d2) { return std::sqrt(static_cast<double>(d2)) - margin < 0; };
    auto t = static_cast<float>(margin * margin);
    while (t > 0 && !nearer(std::nextafter(t, 0.0f))) t = std::nextafter(t, 0.0f);
    while (nearer(t)) t = std::nextafter(t, HUGE_VALF);
    return t;
  }
  // What G at the samples of row j takes from the row alone: the band's distances, the alpha signs and
  // the rectangle term's y part.
  struct Row {
    const float* d;
    const std::uint64_t* alpha_in;
    double qy;
  };
  Row row(int j) const { return {band.row(j), alpha.inside.row(j), std::fabs((kY0 + j) - half_h) - half_h}; }
  float value(int i, int j) const { return value(row(j), i); }
  float value(const Row& r, int i) const {
    const float dk = r.d[i];
    const double d = dk >= cap ? capped_d : std::sqrt(static_cast<double>(dk));
    const double signed_d = (r.alpha_in[static_cast<std::size_t>(i) >> 6] >> (i & 63)) & 1u ? -d : d;
    const double qx = column_qx[static_cast<std::size_t>(i)], qy = r.qy;
    const double ox = std::max(qx, 0.0), oy = std::max(qy, 0.0);
    const double rect = qx <= 0 && qy <= 0 ? std::max(qx, qy) : std::sqrt(ox * ox + oy * oy);
    double g = std::max(signed_d - margin, rect);
    if (g >= 0 && g < 1e-4) g = 1e-4;
    return static_cast<float>(g);
  }
};

// The contours of G at each margin, from one band made for the widest: each row of cells lowers the
// band, then the rows it finished are decided and the cells between decided rows traced, so the band
// holds a few rows at a time.
void trace_grown(const AlphaLattice& alpha, double widest, std::span<const double> margins, bool masks,
                 double* outline_length, std::vector<detail::ContourAtMargin>& out) {
  DistanceBand band(alpha, widest + kBandBeyondMargin, outline_length);
  std::vector<GrownField> grown;
  grown.reserve(margins.size());
  for (const double margin : margins) grown.emplace_back(alpha, band, margin);
  const int ny = alpha.inside.ny;
  int brought = 0, decided = 0, traced = 0;
  auto decide_through = [&](int last) {
    for (; decided <= std::min(last, ny - 1); ++decided)
      for (GrownField& g : grown) g.decide_row(decided);
    for (; traced + 1 < decided; ++traced)
      for (GrownField& g : grown) g.trace_cell_row(traced);
  };
  for (int cj = 0; cj + 1 < ny; ++cj) {
    for (; brought <= std::min(ny - 1, cj + 1 + band.rows_out); ++brought) band.bring_in(brought);
    band.lower_cell_row(cj);
    decide_through(cj - band.rows_out);  // later cell rows change rows from cj + 1 - rows_out on
  }
  decide_through(ny - 1);

  const int w = alpha.image.width, h = alpha.image.height;
  for (std::size_t m = 0; m < grown.size(); ++m) {
    GrownField& g = grown[m];
    if (masks)
      for (int y = 0; y < h; ++y)
        bits_to_bytes(g.inside.row(y + 1), w,
                      out[m].grown.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w));
    out[m].rings = chain(g.pieces);
    for (Ring& r : out[m].rings) restore_image_corners(r, w, h);
  }
}

}  // namespace

double alpha_outline_length(const Image& image, int alpha_threshold) {
  if (!detail::image_well_formed(image) || alpha_threshold < 0 || alpha_threshold > 254) return 0;
  double length = 0;
  const AlphaLattice alpha(image, alpha_threshold);
  auto value = [&](int i, int j) { return alpha.value(i, j); };
  march(alpha.inside, kX0, kY0, value,
        [&](Vec2 p, Vec2 q, std::int64_t, std::int64_t) { length += outline_piece(image, p, q); });
  return length;
}

double ring_signed_area(const Ring& ring) {
  double sum = 0;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++)
    sum += ring[j].x * ring[i].y - ring[i].x * ring[j].y;
  return sum / 2;
}

Result<std::vector<Ring>> trace_alpha_contours(const Image& image, const ContourOptions& options,
                                               std::vector<std::uint8_t>* grown_mask) {
  const double margins[1] = {options.margin};
  auto traced = detail::trace_alpha_contours_at(image, options.alpha_threshold, margins, grown_mask != nullptr);
  if (!traced) return Unexpected{traced.error()};
  if (grown_mask) *grown_mask = std::move((*traced)[0].grown);
  return std::move((*traced)[0].rings);
}

namespace detail {

Result<std::vector<ContourAtMargin>> trace_alpha_contours_at(const Image& image, int alpha_threshold,
                                                             std::span<const double> margins, bool masks,
                                                             double* outline_length) {
  if (!image_well_formed(image))
    return make_error("contour.image", "image is empty or its pixel buffer does not match " +
                                           std::to_string(image.width) + "x" + std::to_string(image.height));
  if (alpha_threshold < 0 || alpha_threshold > 254)
    return make_error("contour.options", "alpha threshold " + std::to_string(alpha_threshold) + " is outside 0..254");
  double widest = 0;
  for (const double margin : margins) {
    if (!(margin >= 0 && margin <= kMaxContourMargin)) return make_error("contour.options", "margin must be within 0..64 px");
    widest = std::max(widest, margin);
  }

  const int w = image.width, h = image.height;
  const AlphaLattice alpha(image, alpha_threshold);
  std::vector<ContourAtMargin> out(margins.size());
  if (masks)
    for (ContourAtMargin& c : out) c.grown.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  if (outline_length) *outline_length = 0;
  if (!alpha.any) return out;  // no mixed cell: no outline
  if (margins.empty()) {
    if (outline_length) *outline_length = alpha_outline_length(image, alpha_threshold);
    return out;
  }

  trace_grown(alpha, widest, margins, masks, outline_length, out);  // one band serves every margin
  return out;
}

}  // namespace detail

}  // namespace rig2d
