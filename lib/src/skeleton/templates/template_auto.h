// SPDX-License-Identifier: Apache-2.0
// `--template auto`'s second look: a template whose fit scores well may still not be the sprite's
// kind (a bush's two leaves and a bud fit a fish's head, tail and fin). Internal to the skeleton module.
#pragma once

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

// Why the fit of `t` is not the sprite's kind, however well it scores; "" when nothing speaks
// against it. Measured on the shape: required bones the shape shows nothing of, a head narrower
// than a third of the body, feet that are no extremities of their own, a fish without a tail fin,
// a quadruped's body shorter between its legs than it is deep, a snake not long and thin, a tree
// without a trunk under its crown, a rigid prop for a shape with limbs.
std::string implausible_fit(const SkeletonTemplate& t, const FitPlacement& p, const ShapeAxis& shape);

}  // namespace rig2d::detail
