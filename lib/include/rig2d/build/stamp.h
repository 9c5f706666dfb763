// SPDX-License-Identifier: Apache-2.0
// Content stamps, rig2d-autorig's up-to-date decision: a SHA-256 over the bytes of every input (PNG,
// sidecar, bones file), the options that shape the rig and the tool version, kept with a hash of the
// rig it produced in a stamp file beside the rig, "<rig>.stamp". A rig is current exactly when both
// hashes still match: file times play no part, so a checkout that moves an mtime back, an edited
// option or a hand-edited rig are all seen.
//
// Why a stamp per rig, beside it: the engine loads every .json under the asset root, so the digest
// cannot be a .json file or a key in the rig; one stamp per rig is written only by the process that
// writes that rig, so parallel build steps (one per sprite under Ninja) never race on a shared cache
// file; and the stamp travels with its rig when an output folder is cached or copied.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rig2d/autorig/autorig_file.h"
#include "rig2d/io/files.h"
#include "rig2d/export.h"

namespace rig2d {

// The files a job reads, in this order: the PNG, its sidecar, the bones file, and the rig kept by
// --keep-bones (the rig at the output path, also read for its id, is covered by the rig hash).
RIG2D_EXPORT std::vector<std::string> job_input_files(const AutorigFileRequest& request);

// "<rig>.stamp".
RIG2D_EXPORT std::string stamp_path(const std::string& rig_path);

// A stamp is the tool's own file: a symlink planted at its path is replaced, never written through
// (it could point anywhere, a device included).
inline constexpr WriteOptions kStampWrite{.follow_symlinks = false};

// The bytes a job's rig is made from, read once: what the digest covers.
struct InputBytes {
  std::string png;
  std::optional<std::string> sidecar;  // nullopt: no sidecar (yet)
  std::optional<std::string> bones;    // the bones file's bytes, when the job has one
  std::string template_key;            // the sprite's template choice (TemplateSpec::stamp_key), "" = none
};

// nullopt when the PNG or the bones file cannot be read (the run then reports why).
RIG2D_EXPORT std::optional<InputBytes> read_input_bytes(const AutorigFileRequest& request);

// The inputs' digest: `options_key` (every option that changes the rig, as canonical text) and
// `version`, then each input's bytes and the template choice, tagged and length-prefixed; 64 hex digits.
RIG2D_EXPORT std::string input_digest(const InputBytes& inputs, const std::string& options_key, const std::string& version);

// The stamp's text for a rig made from inputs with `digest`. A whole-image rig's stamp also records
// whether the image looked like a sprite sheet (the autorig.sheet warning), so --slice-sheets need not
// decode a PNG whose rig is current to guess again.
RIG2D_EXPORT std::string stamp_text(const std::string& digest, const std::string& rig_text,
                       std::optional<bool> looks_like_sheet = std::nullopt);

// True when the stamp beside the rig names `digest` and the rig on disk still has the bytes it was
// written with.
RIG2D_EXPORT bool stamp_is_current(const AutorigFileRequest& request, const std::string& digest);

// True when the stamp is current (as above) and records that the whole image did not look like a
// sprite sheet. A stamp from before the record, or of a slice, says nothing: false.
RIG2D_EXPORT bool stamp_says_no_sheet(const AutorigFileRequest& request, const std::string& digest);

}  // namespace rig2d
