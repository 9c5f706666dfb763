// SPDX-License-Identifier: Apache-2.0
// outline_mesh's stages, for a caller that meshes one traced outline at several tolerances (the vertex
// budget's retries trace once). Internal.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/geometry/triangulate.h"
#include "rig2d/image/image.h"
#include "rig2d/rig/rig.h"

namespace rig2d::detail {

// trace_alpha_contours' rings and grown mask (empty unless asked for) at one margin.
struct ContourAtMargin {
  std::vector<Ring> rings;
  std::vector<std::uint8_t> grown;
};

// trace_alpha_contours at each of `margins`, from one distance band (made for the largest): the same
// rings and masks as tracing at each margin alone, for less than the cost of two. With `outline_length`,
// also alpha_outline_length(image, alpha_threshold), from the same segments.
Result<std::vector<ContourAtMargin>> trace_alpha_contours_at(const Image& image, int alpha_threshold,
                                                             std::span<const double> margins, bool masks,
                                                             double* outline_length = nullptr);

struct TracedOutline {
  std::vector<Ring> rings;          // the contour at the margin, specks (under min_area) dropped
  std::vector<std::uint8_t> grown;  // the mask the contour encloses, for the fit score (only when scored)
  // The same image traced at `smaller_margin` as trace_outline would (null when not asked for, or when
  // that gave no ring).
  double smaller_margin = 0;
  std::shared_ptr<const TracedOutline> at_smaller_margin;
  // alpha_outline_length(image, alpha_threshold) when trace_outline was asked to measure it, else -1.
  double alpha_outline_length = -1;
};

// The contour and its specks dropped; sets the stats' contour counts. Options must have passed
// check_outline_options. With 0 <= smaller_margin < options.margin it also traces at smaller_margin,
// from the same distance band. The grown masks are made only with options.score_coverage, so
// mesh_outline scores only with the options the outline was traced with. Errors: outline.empty,
// contour.image.
Result<TracedOutline> trace_outline(const Image& image, const OutlineMeshOptions& options, OutlineMeshStats& st,
                                    double smaller_margin = -1, bool measure_length = false);

// The traced rings simplified at options.tolerance; sets the stats' simplified counts.
std::vector<Ring> simplify_outline(const Image& image, const TracedOutline& traced, const OutlineMeshOptions& options,
                                   OutlineMeshStats& st);

// The simplified rings triangulated into the sprite's mesh; sets the stats' mesh figures, and scores
// the mesh against the image when `score`. Errors: geometry.* from the triangulation.
Result<Mesh> mesh_outline(const Image& image, const TracedOutline& traced, const std::vector<Ring>& rings,
                          const OutlineMeshOptions& options, OutlineMeshStats& st, bool score);

// Whether outline_yardstick(mesh, image, alpha_threshold) keeps alpha mass and opaque pixels and has a
// border of at most max_border, for callers that test many meshes of one image: `outline_length` is
// alpha_outline_length(image, alpha_threshold), and the pixel-area sweep runs only once the border
// (pixel centres alone) passes. The same answer as the full yardstick.
bool yardstick_within(const Mesh& mesh, const Image& image, int alpha_threshold, double outline_length,
                      double max_border);

// Whether the mesh keeps outline_yardstick's alpha mass (kYardstickMinAlphaMass) and leaves no pixel of
// alpha >= kYardstickOpaqueAlpha outside: the same answer, from runs of equal pixel share instead of
// every pixel (image well formed).
bool alpha_mass_within(const Mesh& mesh, const Image& image);

// Transparent pixel centres inside the mesh per px of alpha outline: 0 when there are none, unbounded
// when there is no outline to spread them over.
double border_per_outline(std::size_t transparent_inside, double outline_length);

// Whether alpha_mass_within keeps the alpha mass `mass` of a w x h image (opaque pixels aside) when
// its sum of share x alpha is at least `inside`, without a second look.
bool alpha_mass_surely_kept(double inside, std::uint64_t mass, int w, int h);

// What the rings of a hull search's candidate tell of yardstick_within for every mesh of them.
enum class HullVerdict { Within, Beyond, Unsure };

// yardstick_within for the candidates of a hull search over one image, each the triangulation of
// convex rings (no point added): the image's totals are summed once, and the rings alone settle
// most candidates before any is triangulated.
class HullYardstick {
 public:
  HullYardstick(const Image& image, int alpha_threshold, double outline_length, double max_border);
  // True when yardstick_within(mesh, image, alpha_threshold, outline_length, max_border) holds for
  // every mesh that triangulates `rings` (mesh_outline's, each ring convex and in the image's frame,
  // no two sharing an inside point); false when the rings alone cannot tell.
  bool surely_within(const std::vector<Ring>& rings);
  // Within as surely_within; Beyond when yardstick_within fails for every such mesh of `rings` (its
  // border surely over max_border); Unsure when the rings alone cannot tell.
  HullVerdict judge(const std::vector<Ring>& rings);
  // True when the convex `rings` in the frame (of those whose boxes meet, the largest alone) hold, at
  // least kInnerSlack inside, more than `factor` times the border's transparent pixels: so does every
  // ring set containing them, and a mesh of it, which can lose only centres along its own chords, then
  // misses the yardstick.
  bool surely_beyond_inside(const std::vector<Ring>& rings, double factor);

 private:
  const Image& image_;
  int threshold_ = 0;
  double outline_length_ = 0, max_border_ = 0;
  bool usable_ = false;
  bool summed_ = false;                    // mass_ and opaque_ are summed when first needed:
  std::uint64_t mass_ = 0, opaque_ = 0;    // the image's alpha sum, its pixels of alpha >= kYardstickOpaqueAlpha
  std::vector<std::uint8_t> all_flagged_;  // a row of flags for flagged_at_most
};

}  // namespace rig2d::detail
