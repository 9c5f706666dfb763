// SPDX-License-Identifier: Apache-2.0
// How well a sprite mesh covers the sprite's alpha: pixel-centre scores (mesh_coverage) and the
// outline yardstick, which needs the exact area of each pixel inside the mesh. That area comes from
// signed-area accumulation over the triangles' edges, the method of scanline font rasterizers
// (libart, font-rs): each edge adds, row by row, the area to its right; a prefix sum along the row
// then gives the covered share of every pixel, and the edges shared by two triangles cancel.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "geometry/outline_stages.h"
#include "image/alpha_runs.h"
#include "image/image_checks.h"
#include "rig2d/geometry/contour.h"
#include "rig2d/geometry/outline_mesh.h"

namespace rig2d {
namespace {

std::uint8_t alpha_at(const Image& image, std::size_t pixel) { return image.rgba[4 * pixel + 3]; }

// The mesh's triangles in pixel space (uv * size), skipping bad indices and non-finite uvs.
template <typename Visit>
void for_each_triangle(const Mesh& mesh, int w, int h, Visit&& visit) {
  const std::size_t n = std::min(mesh.uvs.size(), mesh.verts.size());
  for (std::size_t t = 0; t + 2 < mesh.tris.size(); t += 3) {
    if (mesh.tris[t] >= n || mesh.tris[t + 1] >= n || mesh.tris[t + 2] >= n) continue;
    Vec2 p[3];
    bool finite = true;
    for (int k = 0; k < 3; ++k) {
      const Vec2 uv = mesh.uvs[mesh.tris[t + static_cast<std::size_t>(k)]];
      p[k] = {uv.x * w, uv.y * h};
      finite = finite && std::isfinite(p[k].x) && std::isfinite(p[k].y);
    }
    if (finite) visit(p);
  }
}

using detail::border_per_outline;

// The rows y0..y1 (clamped to the image) of pixel centres triangle p can hold.
void triangle_rows(const Vec2* p, int h, int& y0, int& y1) {
  const double ymin = std::min({p[0].y, p[1].y, p[2].y}), ymax = std::max({p[0].y, p[1].y, p[2].y});
  y0 = static_cast<int>(std::clamp(std::ceil(ymin - 0.5), 0.0, static_cast<double>(h)));
  y1 = static_cast<int>(std::clamp(std::floor(ymax - 0.5), -1.0, h - 1.0));
}

// Sets covered[x0..x1] for the pixels of the row of centres at height cy that triangle p holds (in or
// on it, clamped to the image). Scanline: on a row of pixel centres, a triangle is the x-interval
// between its edges.
void cover_row(const Vec2* p, double cy, int w, std::uint8_t* covered) {
  double xl = HUGE_VAL, xr = -HUGE_VAL;
  for (int k = 0; k < 3; ++k) {
    const Vec2 a = p[k], b = p[(k + 1) % 3];
    if ((a.y <= cy && b.y >= cy) || (b.y <= cy && a.y >= cy)) {
      if (a.y == b.y) {
        xl = std::min({xl, a.x, b.x});
        xr = std::max({xr, a.x, b.x});
      } else {
        const double x = a.x + (cy - a.y) * (b.x - a.x) / (b.y - a.y);
        xl = std::min(xl, x);
        xr = std::max(xr, x);
      }
    }
  }
  if (!(xl <= xr)) return;
  const int x0 = static_cast<int>(std::clamp(std::ceil(xl - 0.5), 0.0, static_cast<double>(w)));
  const int x1 = static_cast<int>(std::clamp(std::floor(xr - 0.5), -1.0, w - 1.0));
  if (x0 <= x1)  // a hull's triangles span hundreds of pixels a row: one fill, not a byte a step
    std::fill_n(covered + x0, x1 - x0 + 1, std::uint8_t{1});
}

// 1 where the pixel's centre lies in (or on) a triangle.
std::vector<std::uint8_t> covered_centres(const Mesh& mesh, int w, int h) {
  std::vector<std::uint8_t> covered(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  for_each_triangle(mesh, w, h, [&](const Vec2* p) {
    int y0 = 0, y1 = -1;
    triangle_rows(p, h, y0, y1);
    for (int y = y0; y <= y1; ++y)
      cover_row(p, y + 0.5, w, covered.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w));
  });
  return covered;
}

// Whether the pixel centres in (or on) the mesh's triangles with alpha <= threshold (covered_centres'
// pixels, counted as yardstick_within's border) are at most max_border per px of outline_length. The
// image is marked and counted a band of rows at a time: the count only grows, so once it is over the
// border the rest of the rows cannot bring it back (a hull search's failing candidates stop early),
// and a band's marks stay in cache where a whole image's did not.
bool border_within(const Mesh& mesh, const Image& image, int threshold, double outline_length, double max_border) {
  constexpr int kBandRows = 16;
  const int w = image.width, h = image.height;
  struct Rows {
    std::array<Vec2, 3> p;
    int y0, y1;
  };
  std::vector<Rows> tris;
  for_each_triangle(mesh, w, h, [&](const Vec2* p) {
    Rows t{{p[0], p[1], p[2]}, 0, -1};
    triangle_rows(p, h, t.y0, t.y1);
    if (t.y0 <= t.y1) tris.push_back(t);
  });
  const auto row = static_cast<std::size_t>(w);
  std::vector<std::uint8_t> band(kBandRows * row);
  std::size_t transparent = 0;
  for (int b0 = 0; b0 < h; b0 += kBandRows) {
    const int b1 = std::min(h, b0 + kBandRows) - 1;
    std::fill(band.begin(), band.end(), std::uint8_t{0});
    for (const Rows& t : tris)
      for (int y = std::max(t.y0, b0); y <= std::min(t.y1, b1); ++y)
        cover_row(t.p.data(), y + 0.5, w, band.data() + static_cast<std::size_t>(y - b0) * row);
    const std::size_t first = static_cast<std::size_t>(b0) * row;
    transparent += detail::flagged_at_most(image.rgba.data() + 4 * first, band.data(),
                                           static_cast<std::size_t>(b1 - b0 + 1) * row, threshold);
    if (!(border_per_outline(transparent, outline_length) <= max_border)) return false;
  }
  return border_per_outline(transparent, outline_length) <= max_border;
}

// A piece of a triangle edge within 0 <= x <= w, running down from a to b, that adds (dir = 1) or
// removes (dir = -1) the area right of it in rows [row0, row1).
struct EdgePiece {
  Vec2 a, b;
  double dir = 1, ys = 0, ye = 0, dxdy = 0;
  int row0 = 0, row1 = 0;
};

// Cells lo..hi of a row's accumulator (lo > hi: none).
struct CellRange {
  int lo = 0, hi = -1;
};

// Adds piece e's share to the accumulator of row y (w + 2 cells): cell i holds the change of
// coverage at pixel i, so the prefix sum along the row is each pixel's covered share. Returns the
// cells it added to.
CellRange add_to_row(std::vector<double>& acc, int w, const EdgePiece& e, int y) {
  const double top = std::max(static_cast<double>(y), e.ys), bottom = std::min(y + 1.0, e.ye);
  if (!(top < bottom)) return {};
  const double d = (bottom - top) * e.dir;
  const double xt = std::clamp(e.a.x + (top - e.a.y) * e.dxdy, 0.0, static_cast<double>(w));
  const double xb = std::clamp(e.a.x + (bottom - e.a.y) * e.dxdy, 0.0, static_cast<double>(w));
  const double x0 = std::min(xt, xb), x1 = std::max(xt, xb);
  // floor and ceil of 0 <= x0 <= x1 <= w without the library's handling of huge values and NaN
  const int i0 = static_cast<int>(x0), whole1 = static_cast<int>(x1);
  const int i1 = whole1 + (static_cast<double>(whole1) < x1 ? 1 : 0);
  double* row = acc.data();
  if (i1 <= i0 + 1) {  // the edge stays in one pixel column of this row
    const double xm = 0.5 * (xt + xb) - i0;
    row[i0] += d * (1 - xm);
    row[i0 + 1] += d * xm;
    return {i0, i0 + 1};
  }
  // Pixel i's share right of the edge is ramp(i + 1) - ramp(i), where ramp(X) integrates
  // max(0, X - x) along the edge (x uniform over [x0, x1]); cell i gets that share's change.
  const double s = 1 / (x1 - x0);
  auto ramp = [&](double X) {
    if (X <= x0) return 0.0;
    if (X >= x1) return X - 0.5 * (x0 + x1);
    return 0.5 * s * (X - x0) * (X - x0);
  };
  double previous = 0;
  for (int i = i0; i < i1; ++i) {
    const double share = ramp(i + 1.0) - ramp(i);
    row[i] += d * (share - previous);
    previous = share;
  }
  row[i1] += d * (1 - previous);
  return {i0, i1};
}

// Splits a -> b where it crosses x = 0 and x = w and clamps the pieces' x into [0, w] (a piece left of
// the image still counts for every pixel of its rows, one right of it for none); keeps the pieces
// that cross some row of the image.
void add_pieces(std::vector<EdgePiece>& pieces, int w, int h, Vec2 a, Vec2 b) {
  double cuts[4] = {0, 1, 1, 1};
  int n = 1;
  for (const double x : {0.0, static_cast<double>(w)})
    if ((a.x < x) != (b.x < x) && a.x != b.x) cuts[n++] = (x - a.x) / (b.x - a.x);
  if (n == 3 && cuts[1] > cuts[2]) std::swap(cuts[1], cuts[2]);  // crossing both sides: in order
  cuts[n++] = 1;
  auto at = [&](double t) {
    const Vec2 p = t == 0 ? a : t == 1 ? b : Vec2{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
    return Vec2{std::clamp(p.x, 0.0, static_cast<double>(w)), p.y};
  };
  for (int k = 0; k + 1 < n; ++k) {
    EdgePiece e{at(cuts[k]), at(cuts[k + 1])};
    if (e.a.y == e.b.y) continue;
    if (e.a.y > e.b.y) {
      std::swap(e.a, e.b);
      e.dir = -1;
    }
    e.ys = std::max(e.a.y, 0.0);
    e.ye = std::min(e.b.y, static_cast<double>(h));
    if (!(e.ys < e.ye)) continue;
    e.dxdy = (e.b.x - e.a.x) / (e.b.y - e.a.y);
    e.row0 = static_cast<int>(std::floor(e.ys));
    e.row1 = static_cast<int>(std::ceil(e.ye));
    pieces.push_back(e);
  }
}

// Calls visit(y, shares) for every row y of a w x h sprite, shares[x] being the part of pixel (x, y)
// inside the mesh, 0..1. One row at a time with the edges crossing it, so memory stays O(w + edges).
// The mesh's triangle edges as pieces, in row order.
std::vector<EdgePiece> edge_pieces(const Mesh& mesh, int w, int h) {
  std::vector<EdgePiece> pieces;
  for_each_triangle(mesh, w, h, [&](const Vec2* p) {
    // Every triangle adds positive area whatever its winding, so overlaps show as shares above 1.
    const double twice_area = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y);
    const int step = twice_area > 0 ? 2 : 1;  // walk it so its inside is right of downward edges
    for (int k = 0; k < 3; ++k) add_pieces(pieces, w, h, p[(k * step) % 3], p[((k + 1) * step) % 3]);
  });
  std::stable_sort(pieces.begin(), pieces.end(), [](const EdgePiece& l, const EdgePiece& r) { return l.row0 < r.row0; });
  return pieces;
}

// Calls add(y, piece) for every row y of the sprite and every piece crossing it, then row_done(y).
template <typename Add, typename RowDone>
void for_each_row_piece(const std::vector<EdgePiece>& pieces, int h, Add&& add, RowDone&& row_done) {
  std::vector<std::size_t> active;
  std::size_t next = 0;
  for (int y = 0; y < h; ++y) {
    while (next < pieces.size() && pieces[next].row0 <= y) active.push_back(next++);
    for (std::size_t i = 0; i < active.size();) {
      if (pieces[active[i]].row1 <= y) {
        active[i] = active.back();
        active.pop_back();
        continue;
      }
      add(y, pieces[active[i]]);
      ++i;
    }
    row_done(y);
  }
}

template <typename Visit>
void sweep_pixel_area(const Mesh& mesh, int w, int h, Visit&& visit) {
  const std::vector<EdgePiece> pieces = edge_pieces(mesh, w, h);
  std::vector<double> acc(static_cast<std::size_t>(w) + 2, 0.0), shares(static_cast<std::size_t>(w));
  for_each_row_piece(
      pieces, h, [&](int y, const EdgePiece& e) { add_to_row(acc, w, e, y); },
      [&](int y) {
        double sum = 0;
        for (std::size_t x = 0; x < shares.size(); ++x) {
          sum += acc[x];
          shares[x] = std::clamp(sum, 0.0, 1.0);
        }
        std::fill(acc.begin(), acc.end(), 0.0);
        visit(y, shares.data());
      });
}

// sweep_pixel_area's shares as runs: calls run(y, x0, x1, share) for pixels x0..x1 - 1 of row y, all
// with that share, the runs of a row in order from x = 0 to w. The same shares bit for bit: the
// prefix sum only adds the cells the row's edges touched, and adding the others' +0 changes no sum
// (which starts at +0 and, as x + -x rounds to +0, is never -0). Rows and runs away from the edges
// cost nothing per pixel.
template <typename Run>
void sweep_pixel_runs(const Mesh& mesh, int w, int h, Run&& run) {
  const std::vector<EdgePiece> pieces = edge_pieces(mesh, w, h);
  std::vector<double> acc(static_cast<std::size_t>(w) + 2, 0.0);
  std::vector<CellRange> touched;
  for_each_row_piece(
      pieces, h,
      [&](int y, const EdgePiece& e) {
        const CellRange r = add_to_row(acc, w, e, y);
        if (r.lo <= r.hi) touched.push_back(r);
      },
      [&](int y) {
        std::sort(touched.begin(), touched.end(), [](CellRange a, CellRange b) { return a.lo < b.lo; });
        double sum = 0;
        int x = 0;  // pixels before x are reported
        for (std::size_t k = 0; k < touched.size();) {
          CellRange r = touched[k++];
          while (k < touched.size() && touched[k].lo <= r.hi + 1) r.hi = std::max(r.hi, touched[k++].hi);
          const int lo = std::min(r.lo, w), hi = std::min(r.hi, w - 1);
          if (x < lo) run(y, x, lo, std::clamp(sum, 0.0, 1.0));
          for (int c = std::max(x, lo); c <= hi; ++c) {
            sum += acc[static_cast<std::size_t>(c)];
            run(y, c, c + 1, std::clamp(sum, 0.0, 1.0));
          }
          x = std::max(x, hi + 1);
          std::fill(acc.begin() + r.lo, acc.begin() + r.hi + 1, 0.0);
        }
        if (x < w) run(y, x, w, std::clamp(sum, 0.0, 1.0));
        touched.clear();
      });
}

}  // namespace

CoverageScore mesh_coverage(const Mesh& mesh, const Image& image, int alpha_threshold) {
  if (!detail::image_well_formed(image)) return {};
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height));
  for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = alpha_at(image, i) > alpha_threshold;
  return mesh_coverage(mesh, image.width, image.height, mask);
}

CoverageScore mesh_coverage(const Mesh& mesh, int w, int h, const std::vector<std::uint8_t>& mask_in) {
  CoverageScore score;
  if (w <= 0 || h <= 0 || mask_in.size() != static_cast<std::size_t>(w) * static_cast<std::size_t>(h)) return score;
  const std::vector<std::uint8_t> covered = covered_centres(mesh, w, h);
  for (std::size_t i = 0; i < covered.size(); ++i) {
    const bool mask = mask_in[i] != 0;
    score.mask_pixels += mask;
    score.mesh_pixels += covered[i];
    score.both += mask && covered[i];
  }
  const std::size_t uni = score.mask_pixels + score.mesh_pixels - score.both;
  score.iou = uni == 0 ? 1.0 : static_cast<double>(score.both) / static_cast<double>(uni);
  score.recall = score.mask_pixels == 0 ? 1.0 : static_cast<double>(score.both) / static_cast<double>(score.mask_pixels);
  return score;
}

std::vector<double> mesh_pixel_area(const Mesh& mesh, int w, int h) {
  if (w <= 0 || h <= 0) return {};
  std::vector<double> area(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  sweep_pixel_area(mesh, w, h, [&](int y, const double* shares) {
    std::copy(shares, shares + w, area.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * static_cast<std::size_t>(w)));
  });
  return area;
}

OutlineYardstick outline_yardstick(const Mesh& mesh, const Image& image, int alpha_threshold) {
  OutlineYardstick y;
  if (!detail::image_well_formed(image)) return y;
  const int w = image.width, h = image.height;
  const std::vector<std::uint8_t> centres = covered_centres(mesh, w, h);
  double mass = 0, mass_inside = 0;
  sweep_pixel_area(mesh, w, h, [&](int row, const double* shares) {
    const std::size_t first = static_cast<std::size_t>(row) * static_cast<std::size_t>(w);
    for (std::size_t x = 0; x < static_cast<std::size_t>(w); ++x) {
      const int a = alpha_at(image, first + x);
      mass += a;
      mass_inside += a * shares[x];
      if (a >= kYardstickOpaqueAlpha) {
        y.opaque_min_inside = std::min(y.opaque_min_inside, shares[x]);
        y.opaque_outside += shares[x] < 0.5;
      }
      y.transparent_inside += a <= alpha_threshold && centres[first + x];
    }
  });
  y.alpha_mass_inside = mass > 0 ? mass_inside / mass : 1.0;
  y.outline_length = alpha_outline_length(image, alpha_threshold);
  y.border_per_outline_px = border_per_outline(y.transparent_inside, y.outline_length);
  return y;
}

namespace detail {

double border_per_outline(std::size_t transparent_inside, double outline_length) {
  if (transparent_inside == 0) return 0.0;
  return outline_length > 0 ? static_cast<double>(transparent_inside) / outline_length : HUGE_VAL;
}

bool yardstick_within(const Mesh& mesh, const Image& image, int alpha_threshold, double outline_length,
                      double max_border) {
  const OutlineYardstick none;
  if (!image_well_formed(image))
    return none.alpha_mass_inside >= kYardstickMinAlphaMass && none.opaque_outside == 0 &&
           none.border_per_outline_px <= max_border;
  if (!border_within(mesh, image, alpha_threshold, outline_length, max_border)) return false;
  return alpha_mass_within(mesh, image);
}

}  // namespace detail

namespace {

// The alpha mass that alpha_mass_within asks of its sum of share x alpha, and the rounding slack
// around it within which it sums again the serial way.
struct MassBar {
  double bar = 0, slack = 0;
};
MassBar mass_bar(std::uint64_t mass, int w, int h) {
  const double m = static_cast<double>(mass);
  const double terms = static_cast<double>(w) * static_cast<double>(h) + 8;
  return {kYardstickMinAlphaMass * m, 8 * terms * std::numeric_limits<double>::epsilon() * m};  // 16 n u m
}

// outline_yardstick's alpha mass and opaque pixels, added pixel by pixel in its order.
bool alpha_mass_within_serial(const Mesh& mesh, const Image& image) {
  const int w = image.width, h = image.height;
  double mass = 0, mass_inside = 0;
  std::size_t opaque_outside = 0;
  sweep_pixel_area(mesh, w, h, [&](int row, const double* shares) {
    const std::size_t first = static_cast<std::size_t>(row) * static_cast<std::size_t>(w);
    for (std::size_t x = 0; x < static_cast<std::size_t>(w); ++x) {
      const int a = alpha_at(image, first + x);
      mass += a;
      mass_inside += a * shares[x];
      opaque_outside += a >= kYardstickOpaqueAlpha && shares[x] < 0.5;
    }
  });
  const double alpha_mass_inside = mass > 0 ? mass_inside / mass : 1.0;
  return alpha_mass_inside >= kYardstickMinAlphaMass && opaque_outside == 0;
}

}  // namespace

namespace detail {

// The mass inside is summed per run of equal share (share x the run's alpha sum), in another order
// than outline_yardstick's pixel by pixel, so the two sums differ by rounding: each is within
// gamma_n * mass of the exact sum of alpha x share (n terms, gamma_n = n u / (1 - n u), u = 2^-53,
// every share <= 1). Only a sum within twice that (with room to spare) of the threshold could compare
// differently; that sprite is summed again the serial way. The alpha mass is an integer, exact either
// way, and the opaque pixels a count.
bool alpha_mass_within(const Mesh& mesh, const Image& image) {
  const int w = image.width, h = image.height;
  const std::uint8_t* rgba = image.rgba.data();
  std::uint64_t mass = 0;
  double inside = 0;
  std::size_t opaque_outside = 0;
  sweep_pixel_runs(mesh, w, h, [&](int y, int x0, int x1, double share) {
    const std::uint8_t* px = rgba + 4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x0));
    const auto n = static_cast<std::size_t>(x1 - x0);
    const std::uint64_t a = n == 1 ? px[3] : alpha_sum(px, n);
    mass += a;
    if (share > 0) inside += share * static_cast<double>(a);
    if (share < 0.5 && a > 0) opaque_outside += n == 1 ? (px[3] >= kYardstickOpaqueAlpha) : alpha_high_bit_count(px, n);
  });
  static_assert(kYardstickOpaqueAlpha == 128, "alpha_high_bit_count counts alpha >= 128");
  if (opaque_outside > 0) return false;
  if (mass == 0) return true;  // nothing to keep: alpha mass inside 1
  const MassBar b = mass_bar(mass, w, h);
  if (inside >= b.bar + b.slack) return true;
  if (inside <= b.bar - b.slack) return false;
  return alpha_mass_within_serial(mesh, image);
}

bool alpha_mass_surely_kept(double inside, std::uint64_t mass, int w, int h) {
  if (mass == 0) return true;
  const MassBar b = mass_bar(mass, w, h);
  return inside >= b.bar + b.slack;
}

}  // namespace detail
}  // namespace rig2d
