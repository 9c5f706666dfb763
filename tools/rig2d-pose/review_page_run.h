// SPDX-License-Identifier: Apache-2.0
// rig2d-pose --html: one review page of every rig given.
#pragma once

#include "options.h"

namespace rig2d::pose_cli {

// Builds the review page of o.rigs (folders searched), with o.job.clip_path as the clip the viewer
// plays, and writes it after every rig was read. Returns the exit code; errors are printed.
int run_review_page(const Options& o);

}  // namespace rig2d::pose_cli
