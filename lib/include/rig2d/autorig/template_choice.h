// SPDX-License-Identifier: Apache-2.0
// Which skeleton template one sprite of a batch is rigged with: its sidecar's
// {"rig2d": {"template": ...}} key, else the first rule of a template map (--template-map) whose glob
// matches its path, else the batch's --template. See docs/templates.md, "Choosing per sprite".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/autorig/autorig.h"
#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/skeleton/template_map.h"

namespace rig2d {

// What a batch chooses templates from (the sidecars are read per sprite).
struct TemplateSources {
  const TemplateMap* map = nullptr;  // --template-map, if any
  TemplateSpec fallback;             // --template (Kind::None when not given)
};

struct TemplateChoice {
  TemplateSpec spec;
  enum class From { Option, Map, Sidecar };
  From from = From::Option;
  Location where;    // the sidecar's /rig2d/template or the map's /rules/N/template; empty for the option
  std::string glob;  // From::Map: the rule's glob

  // "the sidecar hero.png.meta.json", "the map art/templates.map.json at /rules/2 (heroes/**)", "--template".
  RIG2D_EXPORT std::string reason() const;
};

// The `rig2d.template` of a sidecar's text: nullopt when the sidecar has no `rig2d` key. Errors (with
// the pointer and line:col): json.*, meta.rig2d (`rig2d` not an object, a key in it other than
// `template`, or a `template` that is not a string).
RIG2D_EXPORT Result<std::optional<std::string>> sidecar_template_text(std::string_view sidecar_text,
                                                                      const std::string& sidecar_path);

// The choice for the sprite at `png_path` whose sidecar holds `sidecar_text` (nullopt: read the
// sidecar file; a missing sidecar has no key). The sidecar's key wins over the map, the map over the
// fallback. A template file a sidecar names is relative to the sidecar's folder. Errors: as
// sidecar_template_text; template.unknown located at the sidecar's /rig2d/template; a template file's
// io.* / template.* errors.
RIG2D_EXPORT Result<TemplateChoice> choose_template(const std::string& png_path,
                                                    std::optional<std::string_view> sidecar_text,
                                                    const TemplateSources& sources);

// The files a choice was made from, for depfiles and --list-inputs: the map (every sprite's choice
// depends on it) and the chosen template file, when there is one.
RIG2D_EXPORT std::vector<std::string> template_choice_inputs(const TemplateChoice& choice,
                                                             const TemplateSources& sources);

// `options` rigging with `spec`: its template, `auto`, or neither (the skeleton options as they are).
RIG2D_EXPORT void apply_template_spec(const TemplateSpec& spec, AutorigOptions& options);

}  // namespace rig2d
