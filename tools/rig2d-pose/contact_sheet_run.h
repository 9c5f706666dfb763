// SPDX-License-Identifier: Apache-2.0
// rig2d-pose --contact-sheet: one review sheet of every rig given.
#pragma once

#include "options.h"

namespace rig2d::pose_cli {

// Renders every rig of o.rigs (folders searched) into one sheet, written after every row rendered.
// Returns the exit code; errors are printed.
int run_contact_sheet(const Options& o);

}  // namespace rig2d::pose_cli
