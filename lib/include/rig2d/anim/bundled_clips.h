// SPDX-License-Identifier: Apache-2.0
// The clips bundled with the skeleton templates (clips/<template>/<clip>.anim.json, installed under
// share/rig2d/clips/): rotations only, addressed by the templates' bone name-paths, so each plays on
// every rig made from its template. See docs/templates.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

// "humanoid/idle", "humanoid/jump", ... in a fixed order (by template, then clip name).
RIG2D_EXPORT std::vector<std::string> bundled_clip_names();
// A bundled clip's file text ("" for an unknown name).
RIG2D_EXPORT std::string_view bundled_clip_text(std::string_view name);

// `spec` names a bundled clip ("humanoid/walk": no extension, and no file of that name) or a clip
// file's path. Errors: as load_clip; anim.clip.unknown for a "template/clip" name that is neither a
// bundled clip nor a file (the message lists the bundled clips).
RIG2D_EXPORT Result<Clip> load_clip_spec(const std::string& spec, std::vector<Diagnostic>* warnings = nullptr);

}  // namespace rig2d
