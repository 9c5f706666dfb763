// SPDX-License-Identifier: Apache-2.0
// Bones that follow the sprite's own shape: the medial axis of the alpha coverage, turned into a
// tree rooted at the main body, with a chain of bones along every limb. See docs/skeleton.md.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

enum class SkeletonMode {
  Shape,  // medial-axis skeleton, a chain per limb (this header)
  Chain,  // the engine's suggestBones: one straight chain on the pivot line (suggest_bones.h)
};

struct ShapeSkeletonOptions {
  int alpha_threshold = 8;   // a pixel is inside when alpha > threshold. [Limit: 0..255]
  double pivot_x = 0.5;      // rig origin, fraction of the image width. [Limit: 0..1]
  double pivot_y = 0.5;      // fraction of the height. [Limit: 0..1]
  int max_bones = 32;        // bone budget over all islands; long chains get fewer bones first,
                             // then the least significant limbs are dropped. [Limit: 2..256]
  double min_branch = 4;     // px: a limb shorter than this (or than 10% of the piece's size, the
                             // square root of its area) beyond its junction's inscribed disc is no
                             // limb (antialiased bumps, ragged edges, toes). [Limit: 0..1e6]
  double branch_ratio = 0.5; // ... nor is one shorter than this fraction of the junction's radius,
                             // so small bulges on thick bodies make no bones. [Limit: 0..10]
  double bone_length = 3;    // target bone length in limb half-widths: a limb 12 half-widths long
                             // gets 4 bones; never shorter than 15% of the piece's size. [Limit: 0.5..100]
  std::optional<Vec2> root_near;  // image px: root the main piece at its axis point nearest this (where
                                  // a layer joins the one it hangs from) instead of at its central
                                  // junction. [Limit: finite]
  double bend_angle = 35;    // degrees: the medial axis turning more than this at one place gets a
                             // joint there (a knee, a tentacle's curl) unless that is nearer another
                             // joint or the limb's end than the shortest bone. [Limit: 5..180]
  double rigid_reach = 0;    // a piece whose limbs reach no farther from its root, along the axis and
                             // to their tips, than this many times the root's inscribed radius (a
                             // head, an eye, a hand: at most about twice as long as it is wide at 2)
                             // gets one bone, which moves it whole; 0 = off. [Limit: 0..100]
  double rigid_length = 0;   // px: so does a piece whose limbs reach less than this from its root (an
                             // eyebrow, a mouth: too short for a bend worth a bone); 0 = off.
                             // [Limit: 0..1e6]
  bool skip_drop_shadow = true;  // a baked drop shadow (a dark, semi-transparent patch, at least 2 % of
                                 // the covered pixels, under a figure that is at least half of them)
                                 // shapes no bones; the mesh and weights still cover it
};

struct ShapeSkeletonStats {
  double cell = 1;               // px per cell of the working grid (the shape is downsampled to at
                                 // most 160 cells on its long side and
                                 // about 8k cells in all)
  std::size_t islands = 0;       // separate pieces of the shape with bones of their own
  std::size_t islands_skipped = 0;  // pieces too small for bones (weighted by the nearest bones)
  std::size_t holes_filled = 0;  // working cells of small holes filled before thinning
  std::size_t axis_cells = 0;    // medial-axis cells after thinning
  std::size_t branches_pruned = 0;  // spurs removed (bumps, antialiasing)
  std::size_t limbs = 0;         // chains of bones (a chain runs from a junction or the root to a
                                 // tip or the next junction)
  std::size_t tips = 0;          // limbs that end in a tip
  std::size_t bones = 0;
  std::size_t rigid_pieces = 0;  // pieces given one bone by rigid_reach
  std::size_t loop_pieces = 0;   // closed loops (a ring, a wheel: no free end) given one bone
  std::size_t loop_limbs = 0;    // limbs around a hole of a piece with free ends (the rims of a pair
                                 // of glasses) given no bones: they move with the bone they hang from
  bool axis_fallback = false;    // a piece had no usable medial axis (a disc): its principal axis
                                 // was used instead
  double drop_shadow = 0;        // share of the covered pixels found to be a drop shadow's (deep
                                 // inside it) and left out of the skeleton; 0 = none
};

// Range checks of every field (the limits above). Errors: skeleton.options naming the field.
RIG2D_EXPORT Result<void> check_shape_skeleton_options(const ShapeSkeletonOptions& options);

// Bones for the sprite in `image` (texture space: origin at the pivot, px, +y down), parents first:
// "root" at the medial-axis point nearest the main piece's centroid, then one chain per limb named
// by where it points from the root ("up", "down_l", "right", ... each bone "<limb>_<k>", the root's
// own chain "spine_<k>"). Every joint lies on an opaque pixel; a limb leaving a junction has its first
// joint where it leaves the junction's inscribed disc (a hip), and its leaf bone reaches to the tip
// (after a bend, its last stretch holds two joints so the leaf runs along it). Other pieces get their
// own chains, parented to the nearest bone. Rotations are 0 (offsets only), like suggest_bones.
// Deterministic, and the same up to translation wherever the sprite sits in the image.
// Errors: skeleton.options (a field out of its limit), skeleton.empty (no pixel above the threshold),
// coverage.image (inconsistent image).
RIG2D_EXPORT Result<std::vector<Bone>> shape_skeleton(const Image& image, const ShapeSkeletonOptions& options = {},
                                                      ShapeSkeletonStats* stats = nullptr);

}  // namespace rig2d
