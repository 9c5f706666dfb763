// SPDX-License-Identifier: Apache-2.0
// What fuzz_psd and fuzz_ora check of any document that reads: well-formed layers, parts inside the
// canvas in both group modes, and an atlas whose rects never overlap.
#pragma once

#include <cstdlib>

#include "rig2d/core/limits.h"
#include "rig2d/layered/atlas_pack.h"
#include "rig2d/layered/document_parts.h"

namespace rig2d::fuzz {

inline void check_parts(const LayeredDocument& doc, GroupMode mode) {
  std::vector<Diagnostic> warnings;
  auto parts = document_parts(doc, mode, "fuzz", warnings);
  if (!parts) {
    if (parts.error().code != "layered.empty" && parts.error().code != "layered.parts") std::abort();
    return;
  }
  std::vector<Image> images;
  for (const DocumentPart& p : *parts) {
    if (p.x < 0 || p.y < 0 || p.image.width < 1 || p.image.height < 1 || p.x + p.image.width > doc.width ||
        p.y + p.image.height > doc.height || p.name.empty())
      std::abort();
    images.push_back(p.image);
  }
  AtlasOptions ao;
  auto placed = pack_atlas(images, ao);
  if (!placed) return;  // too large for one atlas: an error, not a crash
  for (std::size_t i = 0; i < images.size(); ++i) {
    if (placed->x[i] < 0 || placed->y[i] < 0 || placed->x[i] + images[i].width > placed->width ||
        placed->y[i] + images[i].height > placed->height)
      std::abort();
    for (std::size_t j = 0; j < i; ++j) {
      const bool apart = placed->x[i] + images[i].width + ao.padding <= placed->x[j] ||
                         placed->x[j] + images[j].width + ao.padding <= placed->x[i] ||
                         placed->y[i] + images[i].height + ao.padding <= placed->y[j] ||
                         placed->y[j] + images[j].height + ao.padding <= placed->y[i];
      if (!apart) std::abort();
    }
  }
}

inline void check_document(const Result<LayeredDocument>& doc, std::string_view prefix) {
  if (!doc) {
    const std::string& code = doc.error().code;
    if (code.rfind(prefix, 0) != 0 && code != "memory.budget" && code.rfind("png.", 0) != 0) std::abort();
    return;
  }
  if (doc->width < 1 || doc->height < 1 || doc->width > kMaxImageSide || doc->height > kMaxImageSide) std::abort();
  for (const DocumentLayer& l : doc->layers) {
    if (l.image.rgba.size() != std::size_t(l.image.width) * std::size_t(l.image.height) * 4) std::abort();
    if (!(l.opacity >= 0 && l.opacity <= 1)) std::abort();
    for (std::size_t g : l.groups)
      if (g >= doc->groups.size()) std::abort();
  }
  check_parts(*doc, GroupMode::Parts);
  check_parts(*doc, GroupMode::Flatten);
}

}  // namespace rig2d::fuzz
