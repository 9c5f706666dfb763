// SPDX-License-Identifier: Apache-2.0
// `--template auto`'s second look: a template whose fit scores well may still not be the sprite's
// kind (a bush's two leaves and a bud fit a fish's head, tail and fin). Internal to the skeleton module.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rig2d/core/types.h"
#include "rig2d/skeleton/template.h"
#include "skeleton/shape_axis.h"

namespace rig2d::detail {

// How a fit placed each bone of its template, beyond what TemplateFit says.
struct FitPlacement {
  enum class How : std::uint8_t { None, Shape, OverBody, Forced, Omitted };
  std::vector<How> how;           // per template bone
  std::vector<Vec2> at;           // per template bone: its joint, image px (unused when omitted)
  std::vector<char> tip_found;    // per template bone: a tip matched to an extremity of the shape
  std::vector<char> tip_at_end;   // ... to an end of the medial axis (not a point inside it)
  std::vector<Vec2> tip_end;      // ... where that extremity ends, image px
  std::size_t shape_ends = 0;     // ends of the shape's axis (a loop cut open is none)
};

// The first and last t of -reach, -reach + 0.5, ... (up to reach) where p + t n lies on a covered
// pixel of the shape; hi < lo when none does. The plain walk over every sample.
struct CoveredSpan {
  double lo = 1e300, hi = -1e300;
};
CoveredSpan covered_span(const ShapeAxis& s, Vec2 p, Vec2 n, double reach);

// The shape's distance to its outline (chamfer 1/sqrt2), px: the half-width of the part around a point.
// Made once per shape, for every fit checked against it, at the first look at a distance (the checks
// of many fits, a rigid prop's, read none). Kept with a one-cell border of zeros, so the two passes
// read their neighbours without bounds checks. The shape must outlive it.
class HalfWidthField {
 public:
  explicit HalfWidthField(const ShapeAxis& s);
  double at(Vec2 p) const {
    if (d_.empty()) measure();
    return get(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y)));
  }
  // Whether p is on a covered pixel (a half-width above 0), read from the coverage itself.
  bool inside(Vec2 p) const { return shape_.inside(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y))); }
  // The widest the shape is along the segment a-b (its largest half-width).
  double widest(Vec2 a, Vec2 b) const;
  // The shape's extent through p across the unit direction d (from its first to its last covered
  // point on that line, within `reach` either side), px.
  double across(Vec2 p, Vec2 d, double reach) const;

 private:
  static std::size_t padded(int w, int h) { return static_cast<std::size_t>(w + 2) * static_cast<std::size_t>(h + 2); }
  std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(w_ + 2) + static_cast<std::size_t>(x + 1);
  }
  float get(int x, int y) const { return x < 0 || y < 0 || x >= w_ || y >= h_ ? 0.0f : d_[index(x, y)]; }
  static constexpr int kBlock = 4;  // may_cover()'s blocks, px
  bool may_cover(int x0, int y0, int x1, int y1) const;
  void measure() const;  // fills d_
  const ShapeAxis& shape_;
  int w_, h_;
  int bx0_, by0_, bx1_, by1_;  // the shape's box, [bx0_, bx1_) x [by0_, by1_)
  mutable std::vector<float> d_;
  mutable std::vector<std::uint32_t> sums_;  // may_cover(): a summed-area table of the box's non-empty blocks
};

// Why the fit of `t` is not the sprite's kind, however well it scores; "" when nothing speaks
// against it. Measured on the shape: required bones the shape shows nothing of, a head narrower
// than a third of the body, feet that are no extremities of their own, a fish without a tail fin,
// a quadruped's body shorter between its legs than it is deep, a snake not long and thin, a tree
// without a trunk under a crown that overhangs it, a rigid prop for a shape with limbs.
std::string implausible_fit(const SkeletonTemplate& t, const FitPlacement& p, const ShapeAxis& shape,
                            const HalfWidthField& field);

}  // namespace rig2d::detail
