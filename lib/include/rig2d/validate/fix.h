// SPDX-License-Identifier: Apache-2.0
// `rig2d-validate --fix`: rewrites a rig so the file says explicitly what the engine's loader would
// make of it (ENGINE-SPEC §1.2): weights renormalized per vertex, missing defaults filled, values
// coerced the way the loader coerces them. Everything else (key order, unknown keys, untouched
// values) is kept, and the output uses the engine's JSON.stringify(v, null, 2) layout, so a file in
// that layout gets a diff of exactly the changed lines. Defects that have no meaning-preserving fix
// (triangle indices out of range, parent cycles, ...) are left for the validator to report.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

struct FixOptions {
  // A vertex whose weights sum within this of 1 (and are all finite, >= 0) is left untouched.
  double weight_tolerance = 1e-4;  // [Limit: >= 0]
};

struct FixResult {
  std::string text;                  // the fixed file (== the input when nothing changed)
  bool changed = false;
  std::vector<Diagnostic> changes;   // one Note per change, code fix.*, with pointer and line:col
};

// Fixes one .rig2d.json text. Errors: json.syntax / json.too_deep (not JSON), fix.root (the root is
// not an object), fix.too_large (a count over core/limits.h). A trailing newline is kept as found.
RIG2D_EXPORT Result<FixResult> fix_rig(std::string_view text, const std::string& path, const FixOptions& options = {});

}  // namespace rig2d
