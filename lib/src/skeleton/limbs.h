// SPDX-License-Identifier: Apache-2.0
// Limbs: medial-axis chains in image pixels, and where along each one the bones' joints go.
// Internal to the skeleton module.
#pragma once

#include <cstddef>
#include <vector>

#include "rig2d/core/types.h"

namespace rig2d::medial {

struct Limb {
  std::vector<Vec2> points;    // image px; points[0] is the junction or root it leaves from
  std::vector<double> radius;  // inscribed radius at each point, px
  int parent = -1;             // limb ending where this one starts; -1 when it leaves the root
  bool tip = false;            // ends in a tip of the shape
  double reach = 0;            // px the leaf reaches past points.back() (the tip's radius), on the
                               // line of the limb's last stretch
  double start = 0;            // arclength of the limb's first joint: 0, or where a limb leaves its
                               // junction's inscribed disc (the hip, not the middle of the body)
  std::size_t leaves_at = 0;   // points[leaves_at] is the junction the limb branches from: 0, unless a
                               // short link between two junctions was merged in front of it
  bool turns_at_start = false;  // the limb runs off the line from points[0] to its first joint (an arm
                                // leaving a shoulder above the hips): its leaf needs a stretch of its own
  std::vector<double> bends;   // arclengths of the joints every bone count keeps (see spaced_bends)
  int bones = 0;               // bones along this limb
  bool dropped = false;        // cut by the bone budget, or no bones of its own (on_loop)
  bool continues = false;      // starts where its parent ends, on the same run of the axis (a chain
                               // split where it leaves a cycle)
  bool on_loop = false;        // runs around a cycle of the axis (a ring, the rim of a lens): it cannot
                               // bend apart from the rest of the cycle, so it moves with its parent

  // Filled by measure() once the points are final: step[i] is the distance from points[i - 1] to
  // points[i] (step[0] = 0) and arc[i] their running sum, in order, so arclength_at reads the very
  // bits its walk would add up. Until measure() follows a change of the points, they are walked.
  std::vector<double> step, arc;

  void measure();
  double length() const;       // along the points, px (reach excluded)
  double arclength_at(std::size_t point) const;  // along the points up to points[point], px
  double step_to(std::size_t point) const;       // from points[point - 1] to points[point], px
  double mean_radius() const;
};

// Where the limb's first joint goes when it leaves a junction: past the inscribed disc of the junction
// it branches from (and of points[0], when a short link was merged in front), but no farther than
// halfway from that junction to the limb's end, so a short limb keeps a bone.
double junction_exit(const Limb& limb);

// Whether the line from the limb's first joint to its end turns more than bend_deg from the line
// from points[0] to that joint (the way a leaf bone hanging there would point).
bool turns_at_start(const Limb& limb, double bend_deg);

// Point at arclength s along the limb, continuing straight past the end for the reach.
Vec2 point_along(const Limb& limb, double s);

// Arclengths where the axis turns by more than bend_deg over a window of about the limb's width:
// one per bend, the sharpest point of it.
std::vector<double> bend_points(const Limb& limb, double bend_deg, double window);

// The bends kept at least min_gap from the limb's first joint, from the previous kept bend and from
// the limb's end, in order along it: a bend too near another or the tip (a foot turning at the end of
// a leg) would make a bone too short to bend anything, that only pinches the mesh between its joints.
std::vector<double> spaced_bends(const Limb& limb, const std::vector<double>& bends, double min_gap);

// Bones a limb wants: one per `bone_px` of length in each stretch between its first joint, its bends
// and its end, at least one per stretch, and on a limb that ends in a tip after a bend (or leaves the
// middle of a bar) one more, so its last stretch holds two joints and its leaf bone (which continues
// its parent's direction) runs along that stretch to the tip.
int wanted_bones(const Limb& limb, const std::vector<double>& bends, double bone_px);

// Arclengths of the limb's `limb.bones` joints, the first at limb.start: one at each bend and two in a tip
// limb's last stretch when there are enough bones (the rest where bones are longest), else evenly.
std::vector<double> joint_arclengths(const Limb& limb, const std::vector<double>& bends);

}  // namespace rig2d::medial
