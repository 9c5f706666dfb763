// SPDX-License-Identifier: Apache-2.0
// A layered document's visible layers as the parts of a multi-part rig: one part per layer (or per
// top-level group, flattened), its opacity baked into its alpha, cropped to its art on the canvas,
// named after the layer (made file-safe and unique). See docs/layered.md.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"
#include "rig2d/layered/document.h"

namespace rig2d {

enum class GroupMode {
  Parts,    // every visible layer is a part, wherever it sits in the group tree
  Flatten,  // a top-level group is composited into one part named after the group
};

// A layer (or group) name ending in this (spaces before it allowed) makes a rigid part: one quad,
// every vertex bound wholly to one bone, never meshed along its outline or weighted by heat.
inline constexpr std::string_view kRigidSuffix = "#rigid";

struct DocumentPart {
  std::string name;           // file-safe and unique: [A-Za-z0-9_-], "layer<index>" when empty, "-2", "-3" on repeats
  std::string source_name;    // the layer's (or group's) name as the document writes it
  std::size_t layer_index = 0;  // the document's index of the layer (a group: its bottom layer)
  int x = 0, y = 0;           // [Units: px] the image's top-left on the canvas (>= 0: cropped to it)
  Image image;                // straight RGBA8, opacity baked in, cropped to the pixels with alpha > 0
  bool rigid = false;         // the name ended in kRigidSuffix (the suffix is not in `name`)
};

// Hidden layers (or in a hidden group) are skipped; opacity is the layer's times its groups'. A layer
// whose pixels all fall off the canvas or are clear gets the warning layered.layer.empty (layer name
// and index) and no part. Errors: layered.empty (no part at all), layered.parts (over kMaxParts).
// `path` labels messages.
RIG2D_EXPORT Result<std::vector<DocumentPart>> document_parts(const LayeredDocument& document, GroupMode groups,
                                                              const std::string& path,
                                                              std::vector<Diagnostic>& warnings);

// The file-safe part name: letters, digits, '-' and '_' kept, every other byte '_'.
RIG2D_EXPORT std::string safe_part_name(std::string_view name);

}  // namespace rig2d
