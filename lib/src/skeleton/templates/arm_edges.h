// SPDX-License-Identifier: Apache-2.0
// A limb drawn against the body (an arm at the side of a standing figure) found from the sprite's
// inner colour edges, for the template fit's bones over the body. Internal to the skeleton module.
#pragma once

#include <optional>
#include <vector>

#include "rig2d/core/types.h"
#include "rig2d/image/image.h"
#include "skeleton/shape_axis.h"

namespace rig2d::detail {

// One limb over the body as the template's proportions placed it, and the ranges a refinement keeps
// to. Image px; lengths at the figure's scale.
struct OverBodyLimb {
  std::vector<Vec2> joints;             // from the first (a shoulder) to the last (a wrist); at least two
  std::vector<double> links;            // the proportions' length of each link between them
  Vec2 parent;                          // the joint the limb hangs from (a chest): it stays on its side
  double reach_min = 0, reach_max = 0;  // first joint to last
  double end_min = 0, end_max = 0;      // how far the part reaches past the last joint (a hand)
  double measure = 1;                   // the figure's measure
  // Where the figure's other branches begin (a humanoid's hip sockets, image y): the limb's tube ends
  // above it, so a limb is never found on the top of a leg, which moves on its own.
  double floor = 1e300;
};

// What the colour edges show of one limb.
struct LimbFromEdges {
  std::vector<Vec2> joints;  // as OverBodyLimb::joints, moved onto the drawn limb
  double evidence = 0;       // the found tube's mean edge evidence (0..1)
  double unrefined = 0;      // ... along the proportions' placement
  double background = 0;     // the mean edge level across the tube in a band around it
};

// Looks for the limb as a straight tube of colour edges (its two sides parallel to it, or one side
// on the silhouette's own border; few edges inside it) within 35 degrees of the placed limb's
// direction, on its side of `parent`. The tube's far end closes the limb: the last joint goes where
// an edge crosses the tube (a hand below a cuff) within the part's reach of that end, else at the
// middle of that reach; the first joint where the tube's line meets the top of the shape; the joints
// between by the proportions' ratios (straight). None when the evidence does not clearly beat the
// proportions' placement and the edge level around the tube (textures, noise), or the tube is too
// short or draws too little of the limb: the caller keeps that placement. The tube stops at the
// limb's floor. Every joint returned lies on
// a covered pixel. Deterministic.
std::optional<LimbFromEdges> limb_from_edges(const Image& image, const ShapeAxis& shape, const OverBodyLimb& limb);

}  // namespace rig2d::detail
