// SPDX-License-Identifier: Apache-2.0
// Reading and writing .rig2d.json (see docs/rig-format.md for the format and every code).
//
// Two readers share one parse: the normalizing reader is the engine's loader (normalizeRig2D, ENGINE-SPEC
// §1.2) and accepts anything that is JSON; the strict reader is for validation and reports every defect.
// The writer emits JSON.stringify(rig, null, 2) in the engine writer's key order.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

// The engine's normalizeRig2D (ENGINE-SPEC §1.2) applied to any JSON: fills defaults, coerces like JS
// ToNumber where the engine does, clamps bad bone indices to 0, renormalizes weights (float32 storage),
// synthesizes the v1 "main" part, stably sorts parts by order. Every Part gets name/order/visible set.
// Fails only when the text is not JSON (json.syntax / json.too_deep / json.too_large) or a count is over
// core/limits.h (rig.limit.bones/parts/verts/tris, checked before allocating). `path` labels errors.
RIG2D_EXPORT Result<Rig> read_rig_normalized(std::string_view text, const std::string& path);

// Engine normalization of an in-memory rig (what the loader would make of write_rig(rig)): non-finite
// numbers become what their JSON `null` coerces to, and so on, exactly as for the written text.
RIG2D_EXPORT Rig normalize_rig(const Rig& rig);

struct StrictOptions {
  double weight_tolerance = 1e-4;  // |sum of a vertex's 4 weights - 1| allowed before rig.weights.sum
};

struct StrictRig {
  std::optional<Rig> rig;                // set when there is no error-severity diagnostic
  std::vector<Diagnostic> diagnostics;   // every defect, each with code, JSON pointer, line:col, file
};

// Strict reader for validation: reports EVERY defect (not just the first) with a stable code, a JSON
// pointer and the line:col of the value (or of the object missing a member). Values are kept exactly as
// written (no float32 rounding, no defaults added), so read_rig_strict(write_rig(r)).rig == r.
// Sizes are checked against core/limits.h before anything is allocated for them.
RIG2D_EXPORT StrictRig read_rig_strict(std::string_view text, const std::string& path,
                                       const StrictOptions& options = {});

// JSON.stringify(rig, null, 2) layout, no trailing newline, keys in the engine writer's order
// (v1: id, version?, sprite, bones, mesh, skinIndices, skinWeights; bones {name,parent,x,y,rot,noScale?};
// v2: id, version?, bones, parts[{name?, sprite, mesh, skinIndices, skinWeights, order?, visible?}]).
// Optional fields are omitted when unset, so read_rig_strict(write_rig(r)) == r (lossless round trip).
// A V1 rig writes parts[0] (empty arrays when it has none); NaN/infinities are written as null.
RIG2D_EXPORT std::string write_rig(const Rig& rig);

}  // namespace rig2d
