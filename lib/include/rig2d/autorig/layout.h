// SPDX-License-Identifier: Apache-2.0
// Multi-part characters: a layout names a canvas and the parts drawn on it (each a PNG, or a slice of
// one, placed at x, y px, with a draw order), and autorig_layout turns it into one v2 rig: one shared
// skeleton suggested over the union of the parts (or hand-placed), and per part its own outline mesh
// and weights, by only the bones over that part. The layout format and its JSON Schema
// (schemas/rig2d-layout.schema.json) are described in docs/autorig.md, "Layouts".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"
#include "rig2d/autorig/autorig.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

struct LayoutPart {
  std::string name;                  // the v2 part's name; unique
  std::string png;                   // the part's texture (a layout file's paths are relative to it)
  std::optional<std::string> slice;  // a slice of that texture, by name or GUID; without `png`, a slice
                                     // GUID looked up in the asset root's sidecars
  int x = 0, y = 0;                  // [Units: px] the part image's top-left corner on the canvas
  double order = 0;                  // draw order, lower = behind (default: the part's index)
};

struct PartLayout {
  int width = 0, height = 0;         // [Units: px] canvas size [Limit: 1..kMaxImageSide]
  double pivot_x = 0.5, pivot_y = 0.5;  // rig origin as a fraction of the canvas, 0,0 = top-left
  bool pivot_given = false;          // the file sets "pivot" (else the caller's pivot applies)
  std::vector<LayoutPart> parts;     // file order (a folder: PNG name order) [Limit: 1..kMaxLayoutParts]
};

inline constexpr std::size_t kMaxLayoutParts = 256;

// Parses a layout file (.rig2d-layout.json... any name): {"canvas": {"width", "height"}, "pivot"?: {x, y},
// "parts": [{"name", "png"?, "slice"?, "x"?, "y"?, "order"?}]}. Paths stay as written. Errors (pointer
// and line:col): json.*, layout.root, layout.key (an unknown key: a typo is never ignored),
// layout.canvas, layout.pivot, layout.parts, layout.part (a field of the wrong type, no png and no
// slice), layout.name (empty or duplicate).
RIG2D_EXPORT Result<PartLayout> parse_part_layout(std::string_view text, const std::string& path);

// A layout file, or a folder of same-size full-canvas layer PNGs (each part named by its file stem,
// drawn in name order at 0, 0). A file's relative png paths are resolved against its folder. Errors:
// io.*, parse_part_layout's, layout.folder (no PNG in it), layout.size (layers of different sizes),
// png.* (an unreadable layer header).
RIG2D_EXPORT Result<PartLayout> read_part_layout(const std::string& path);

// One part with its pixels, ready to rig: what autorig_parts works on.
struct PlacedPart {
  std::string name;
  std::string sprite;  // the part's sprite GUID
  Image image;         // the part's own pixels (a whole layer, or a slice's rect)
  int x = 0, y = 0;    // top-left on the canvas, px
  double order = 0;
};

struct LayoutPartStats {
  std::size_t vertices = 0, triangles = 0;
  std::vector<std::size_t> bones;  // the bones allowed to weight this part
  bool nearest_bone_fallback = false;  // no bone passes through the part: its nearest bone took it
};

struct LayoutStats {
  std::size_t vertices = 0, triangles = 0, bones = 0;
  std::vector<LayoutPartStats> parts;
  std::vector<Diagnostic> warnings;  // mesh coarsening, heat fallbacks (pointer /parts/i/...), a poor template fit
  std::string template_note;         // a template fit (or `auto`) over the union: which, its score, and why
};

// The v2 rig of `parts` on a width x height canvas. Rig space: canvas px minus the pivot
// (options.pivot_x/y of the canvas), +y down. Bones: options.bones, else a template (options.skeleton_template,
// template_auto) fitted over the union of every part's alpha, else the shape skeleton part by part, or
// the engine's chain over the union (options.skeleton). Each part: an outline mesh of its own alpha (MeshMode::Outline
// is the only scheme) placed at x, y, UVs 0..1 in its own image; weights (options.weights) by the bones
// whose segments run through the part's own coverage for at least a third of their length and within
// 0.1 of the largest share any part has of them (else the bone nearest to it). The vertex budget options.outline.max_vertices holds for the whole rig: each
// part gets a share by its covered area. Parts keep the given order; `order` is written per part.
// Errors: autorig.options, autorig.bones, layout.parts (none, too many), autorig.empty (a part or
// the union has no pixel over the threshold), autorig.budget, weights.*.
RIG2D_EXPORT Result<Rig> autorig_parts(const std::vector<PlacedPart>& parts, int width, int height,
                                       const AutorigOptions& options, LayoutStats* stats = nullptr);

struct LayoutRigRequest {
  std::string layout_path;                // layout file or folder
  std::string rig_path;                   // the rig to write (read for its id on a re-run)
  std::optional<std::string> bones_path;  // hand-placed bones file
  std::uint64_t memory_budget = 2048ull << 20;  // [Units: bytes] what rigging the layout may hold at once
};

// What rigging `layout` holds at once, about: the canvas twice as RGBA8 (the union of the parts'
// alpha, and one part placed on it for its skeleton) and once as a byte mask, each part's pixels,
// and the largest part's PNG decode. Parts named by slice GUID only are not counted.
RIG2D_EXPORT std::uint64_t layout_peak_bytes(const PartLayout& layout);

struct LayoutRigResult {
  std::string rig_text;               // JSON.stringify(rig, null, 2), no trailing newline
  std::string rig_id;
  bool id_kept = false;
  std::vector<std::string> inputs;    // every file read: layout file, each PNG and its sidecar, bones file
  std::vector<Diagnostic> warnings;
  LayoutStats stats;
};

// Reads the layout, each part's PNG and sidecar (sprite = the slice GUID, else the texture's
// whole-image sprite), rigs them with autorig_parts, checks the rig (verify_rig per part, read back),
// and returns its text; nothing is written. id: the existing rig's GUID, else uuid_v5(kRigIdNamespace,
// "layout:" + every part's sprite GUID). Errors: read_part_layout's, io.*, png.*, meta.*, autorig.slice,
// autorig.slice.bounds, layout.sprite (a slice GUID found in no sidecar), memory.budget (layout_peak_bytes
// over request.memory_budget, checked before any part is decoded), autorig_parts', autorig.verify.
RIG2D_EXPORT Result<LayoutRigResult> autorig_layout(const LayoutRigRequest& request, const AutorigOptions& options);

}  // namespace rig2d
