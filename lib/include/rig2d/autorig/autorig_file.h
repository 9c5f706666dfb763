// SPDX-License-Identifier: Apache-2.0
// One sprite file through the whole auto-rig pipeline, entirely in memory: PNG + sidecar (+ bones file)
// in, verified `.rig2d.json` text (and, with write_meta, sidecar text) out. Nothing is written here,
// so a caller can run many of these in parallel and commit each result atomically.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/autorig.h"

namespace rig2d {

// A sheet's sidecar parsed once for all its slices.
struct ParsedSidecar {
  SpriteMeta meta;
  std::vector<SpriteSlice> slices;
};

struct AutorigFileRequest {
  std::string png_path;                 // the sprite
  std::string rig_path;                 // where the rig will go (read for its id on a re-run)
  std::optional<std::string> bones_path;  // hand-placed bones file; unset = options.bones or suggested
  bool keep_bones = false;              // reuse the bones of the rig already at rig_path, if any (hand
                                        // edits survive a re-run); else bones_path, else as above
  bool write_meta = false;              // create a missing sidecar / set a non-2d one's type to "2d"
  // A minted sidecar's GUID counts the PNG's path from its nearest assets/ folder; with none above it,
  // from this folder when the PNG lies inside it (rig2d-autorig passes the deepest folder holding all
  // its inputs, so same-named copies in different folders get different GUIDs), else from the PNG's
  // own folder. "" = the PNG's folder.
  std::string mint_root;
  std::optional<std::size_t> slice;     // rig only this slice (index into the sidecar's `sprites`):
                                        // its rect, pivot and alpha; sprite = the slice GUID (slices.h)
  // The PNG's bytes and the sidecar's text when the caller has read them already (rig2d-autorig reads
  // both first for its stamp digest): used instead of reading png_path and its sidecar again, so the
  // rig is made from exactly the bytes the caller holds. They must outlive the call. Unset: read.
  std::optional<std::string_view> png_bytes;
  std::optional<std::string_view> sidecar_text;
  // With `slice`: the sheet already decoded from png_bytes (rig2d-autorig keeps it for the sheet's next
  // slice), used instead of decoding them again. It must be exactly their image and outlive the call.
  const Image* decoded = nullptr;
  // With `slice`: sidecar_text already parsed (its meta and slices), used instead of parsing it again
  // for every slice of a sheet. It must be exactly that text's parse and outlive the call.
  const ParsedSidecar* parsed_sidecar = nullptr;
};

struct AutorigFileResult {
  std::string rig_text;                 // JSON.stringify(rig, null, 2), no trailing newline
  std::optional<std::string> meta_text; // sidecar text to write BEFORE the rig (write_meta only)
  bool meta_created = false;            // meta_text is a new sidecar (else an updated type)
  std::string texture_guid;
  std::string sprite_guid;              // derived whole-image sprite (the rig's `sprite`)
  std::string rig_id;
  bool id_kept = false;                 // rig_id came from the existing rig file
  bool bones_kept = false;              // the bones came from the existing rig file (keep_bones)
  std::vector<Diagnostic> warnings;     // e.g. meta.type: the texture is not 2d, the sprite won't resolve
  AutorigStats stats;
  double read_ms = 0, decode_ms = 0, verify_ms = 0;  // wall-clock, for -v
};

// Reads the PNG (limits checked on the header first), its sidecar `<png>.meta.json` and the bones,
// then: sprite = whole_image_sprite_guid(texture id); id = the existing rig's GUID id, else
// uuid_v5(kRigIdNamespace, sprite); autorig_image(options with sprite, id, bones); verify_rig; write_rig;
// and checks the text reads back to the same rig (normalizing reader) and passes the strict reader. With write_meta a
// missing sidecar is minted (mint_texture_guid over the path under default_asset_root) and one without a `type` gets
// "2d"; otherwise a texture the engine treats as 3d is a meta.type warning. With keep_bones an existing rig's bones are
// read like a bones file (its defects are bones.* errors naming the rig). With `slice`, the slice's pixels are rigged
// with its pivot, sprite = its GUID and id = uuid_v5(kRigIdNamespace, slice GUID) (write_meta is ignored: slices need
// no type). Without it, an image that looks like a sheet (guess_sheet) gets an autorig.sheet warning suggesting slices,
// and a texture whose sidecar lists slices is not rigged whole (the engine has no whole-image sprite for it):
// autorig.sheet.whole, or the slice list's own meta.slice.* error when it does not parse. Errors: io.*, png.*, meta.*
// (meta.missing names --write-meta as the fix), bones.*, json.*, autorig.slice (no such slice), autorig.slice.bounds,
// autorig.sheet.whole, autorig.* (autorig.verify means a bug: the generated rig failed its own checks).
RIG2D_EXPORT Result<AutorigFileResult> autorig_file(const AutorigFileRequest& request, const AutorigOptions& options);

// True when `rig_path` exists and is at least as new as the PNG, its sidecar (which must exist) and the
// bones file. File times only: options and contents are not compared (rig2d-autorig decides by a
// content digest instead, see docs/autorig.md).
RIG2D_EXPORT bool autorig_output_up_to_date(const AutorigFileRequest& request);

}  // namespace rig2d
