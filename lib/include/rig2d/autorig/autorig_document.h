// SPDX-License-Identifier: Apache-2.0
// A layered document (PSD, PSB, ORA) straight to a multi-part (v2) rig: one part per visible layer
// (layered/document_parts.h), rigged as a layout is (autorig_parts), with the part images packed into
// one atlas texture whose sidecar lists a `sprites` slice per part, or written one PNG per layer.
// And the same document as a layout file plus layer PNGs, for hand edits before rigging.
// See docs/layered.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rig2d/autorig/autorig.h"
#include "rig2d/autorig/layout.h"
#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/io/files.h"
#include "rig2d/layered/atlas_pack.h"
#include "rig2d/layered/document_parts.h"

namespace rig2d {

struct DocumentRigRequest {
  std::string document_path;
  std::string rig_path;                    // the rig to write (read for its id on a re-run)
  std::optional<std::string> bones_path;   // hand-placed bones file
  GroupMode groups = GroupMode::Parts;
  std::optional<std::string> layers_dir;   // one PNG (and sidecar) per part here instead of an atlas
  AtlasOptions atlas;
  std::uint64_t memory_budget = 2048ull << 20;  // [Units: bytes] what reading and rigging the document may hold
};

struct DocumentRigResult {
  std::string rig_text;
  std::string rig_id;
  bool id_kept = false;
  std::vector<OutputFile> textures;   // the atlas PNG then its sidecar, or each part's PNG then its sidecar
  std::vector<std::string> inputs;    // the document and the bones file (texture sidecars are outputs)
  std::vector<Diagnostic> warnings;   // the document's, the parts', the rig's
  LayoutStats stats;
  std::vector<std::string> part_names;
};

// "<rig minus .rig2d.json>.atlas.png": hero.rig2d.json -> hero.atlas.png.
RIG2D_EXPORT std::string document_atlas_path(const std::string& rig_path);

// Reads the document, makes its parts, packs them (or lays them out as files), rigs them with
// autorig_parts (rigid parts: one quad bound to the bone that weighs most on the part), checks the rig
// as autorig_layout does, and returns every file's bytes; nothing is written. GUIDs: the texture's is
// kept from its existing sidecar, else uuid_v5(kTextureIdNamespace, path under the asset root + "\n");
// a slice's is kept by name, else derive_guid("slice:" + texture GUID + ":" + name); the rig id is kept
// from an existing rig, else uuid_v5(kRigIdNamespace, "layout:" + place + ":" + sprite GUIDs) as for
// layouts. Errors: read_layered_document's, memory.budget (rigging the canvas, about 9 bytes a canvas
// pixel, with the layers held would exceed memory_budget: checked before any part is made),
// document_parts', atlas.*, meta.* (an existing sidecar that does not parse), autorig_parts',
// autorig.verify.
RIG2D_EXPORT Result<DocumentRigResult> autorig_document(const DocumentRigRequest& request,
                                                        const AutorigOptions& options);

struct DocumentLayoutResult {
  std::vector<OutputFile> files;     // each layer PNG, its sidecar, then the layout file
  std::vector<Diagnostic> warnings;
};

// The layout file (docs/autorig.md "Layouts") of the document's parts, their PNGs in the folder
// "<layout minus .layout.json>.layers/" beside it, each with a sidecar (GUIDs kept as above).
// Errors: read_layered_document's, document_parts', meta.*.
RIG2D_EXPORT Result<DocumentLayoutResult> document_to_layout(const std::string& document_path,
                                                             const std::string& layout_path, GroupMode groups,
                                                             std::uint64_t memory_budget = 2048ull << 20);

}  // namespace rig2d
