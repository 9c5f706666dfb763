// SPDX-License-Identifier: Apache-2.0
// Contact sheets of many rigs for review: one row per rig with its bind pose, the wireframe with
// bones, the dominant-bone map and a bent pose (folds in red), optionally frames of one clip played on
// every rig, each tile captioned with the file name, and the rig's figures (vertices, triangles, bones, and what rig2d-validate --deform reports).
// Built in memory; nothing is written. Deterministic: same inputs, same bytes.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"
#include "rig2d/raster/canvas.h"

namespace rig2d {

struct RigSheetOptions {
  int tile = 192;                  // px, square tiles [Limit: 64..1024]
  double bend = 0.5;               // radians added to the bent tile's bones (see preview_bend)
  std::string assets_root;         // "" = default_asset_root of each rig
  bool validate = true;            // run the rig2d-validate --deform checks for the figures
  // A clip played on every rig (rig2d-pose --contact-clip): `clip_frames` more tiles per row, its
  // frames at evenly spaced times of one loop (t = 0, d/n, ...), with folds in red and captioned
  // "<clip_name> t=0.25". Tracks naming bones a rig lacks are skipped, with an anim.track.* warning
  // naming the rig. Null: the four tiles only.
  const Clip* clip = nullptr;
  std::string clip_name;
  int clip_frames = 4;             // [Limit: 1..8]
  Paint background{38, 38, 38, 1};
  Paint tile_background{52, 52, 56, 1};
  Paint text{230, 230, 230, 1};
};

struct RigSheetRow {
  std::string path;
  bool failed = false;                 // unreadable or rejected rig: the row says why, no tiles
  std::vector<std::string> captions;   // one per tile: file name, then what the tile shows
  std::vector<std::string> figures;    // the info panel's lines
  std::string deform_summary;          // the deform.summary note of rig2d-validate --deform ("" = none)
};

struct RigSheet {
  Image image;
  std::vector<RigSheetRow> rows;       // rig_paths order
  std::vector<Diagnostic> diagnostics; // rigs that failed, missing textures (warnings)
  std::vector<std::string> inputs;     // every file read (rigs, textures and sidecars)
};

// Renders the sheet. Each rig path gives one row in the given order; a rig that cannot be read or
// is rejected by the reader becomes a row with its error (and a warning), never a failure.
// Errors: pose.sheet (no rigs, tile or clip_frames out of range), raster.size (the sheet would be too large).
RIG2D_EXPORT Result<RigSheet> rig_contact_sheet(std::span<const std::string> rig_paths, const RigSheetOptions& options);

// The rigs named by `inputs`: a file is taken as given; a folder contributes every *.rig2d.json
// below it (recursively, hidden folders skipped), sorted by path. Duplicates are kept once, at
// their first place. Errors: io.not_found (an input that does not exist).
RIG2D_EXPORT Result<std::vector<std::string>> collect_rig_paths(std::span<const std::string> inputs);

}  // namespace rig2d
