// SPDX-License-Identifier: Apache-2.0
// Deformation quality over a clip: every frame of an animation measured against the bind pose, as
// check_deformation measures single bends (folds, area, stretch). `rig2d-validate --deform --anim`.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/core/error.h"
#include "rig2d/export.h"
#include "rig2d/quality/deform_check.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

struct ClipDeformStats {
  std::size_t frames = 0;       // frames measured: 0, 1/fps, ... up to and including the duration
  std::size_t triangles = 0;    // measured triangles of all parts
  double flip_fraction = 0;     // worst frame: flipped triangles of all parts / all triangles
  double flip_time = 0;         // s, that frame (first on ties)
  double min_area_ratio = 1;    // over all frames and parts (triangles that did not flip)
  double max_area_ratio = 1;
  double max_edge_stretch = 1;
  double stretch_time = 0;      // s, the frame of max_edge_stretch
  std::size_t tracks_bound = 0; // tracks driving a bone of this rig
};

struct ClipDeformReport {
  ClipDeformStats stats;
  // The clip's skipped tracks (anim.track.*, e.g. a bone the rig lacks), then deform.clip.flip /
  // deform.clip.area / deform.clip.stretch at options.severity when a frame passes the thresholds,
  // then one deform.clip.summary note. Pointers are "" (the rig); messages name the clip and the frame.
  std::vector<Diagnostic> findings;
};

// Plays `clip` on `rig` at `fps` frames per second (30 when not positive; at most 10 000 frames) and
// measures each part's skinned mesh against its bind mesh. Deterministic; never fails.
RIG2D_EXPORT ClipDeformReport check_clip_deformation(const Rig& rig, const Clip& clip, const std::string& clip_name,
                                                     const DeformOptions& options = {}, double fps = 30);

}  // namespace rig2d
