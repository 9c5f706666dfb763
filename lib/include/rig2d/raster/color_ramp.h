// SPDX-License-Identifier: Apache-2.0
// Colour ramps for scalar fields (bone weights): viridis, perceptually uniform and readable by
// colour-blind viewers and in greyscale print, and the editor's grey ramp.
#pragma once

#include "rig2d/export.h"
#include "rig2d/raster/canvas.h"

namespace rig2d {

enum class Ramp {
  Viridis,  // matplotlib's viridis (van der Walt, Smith and Firing, 2015), 256 entries
  Grey,     // the editor's weight view: grey round(255 * t)
};

// The ramp's colour at t in 0..1 (clamped; NaN counts as 0), opaque: entry round(255 * t) of the
// 256-entry table (JavaScript rounding, halves up).
RIG2D_EXPORT Paint ramp_color(Ramp ramp, double t);

}  // namespace rig2d
