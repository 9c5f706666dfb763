// SPDX-License-Identifier: Apache-2.0
// Validation of rig2d assets before commit: rigs (.rig2d.json), texture sidecars (.meta.json) and
// scenes/prefabs (.json), including the cross-file checks the engine relies on (GUID references
// resolved through an asset index, duplicate GUIDs, scene bone hierarchies mirroring their rig).
// Every finding is reported, not just the first; codes are listed by validation_codes() and
// documented in docs/validate.md (the rig reader's own codes in docs/rig-format.md).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/asset/asset_index.h"
#include "rig2d/core/error.h"
#include "rig2d/export.h"
#include "rig2d/anim/clip.h"
#include "rig2d/quality/clip_deform.h"
#include "rig2d/quality/deform_check.h"

namespace rig2d {

enum class FileKind { Rig, Sidecar, Scene, Prefab, Unsupported };

// Classifies a path by name like the engine's asset classifier (ENGINE-SPEC §1.5): *.rig2d.json,
// *.meta.json, *.prefab.json, and any other *.json except the engine's other JSON asset types
// (.anim.json, .atlas.json, ...), rig2d's own *.bones.json / *.pose.json inputs, manifest.json,
// *.layout.json, *.meta.local.json and npm/tsconfig files, which are Unsupported (skipped).
RIG2D_EXPORT FileKind classify_path(std::string_view path);
RIG2D_EXPORT const char* file_kind_name(FileKind kind);  // "rig", "sidecar", "scene", "prefab", "other"

// The files a folder walk checks: every file below `folder` that classify_path() accepts, sorted,
// with '/' separators. Hidden entries (a name starting with '.') and node_modules folders are skipped
// with everything below them; no symlink is followed, to a file or a folder. `error` says why part of
// the tree could not be listed ("" when all of it was).
struct FolderScan {
  std::vector<std::string> files;
  std::string error;
};
RIG2D_EXPORT FolderScan find_checkable_files(const std::string& folder);

struct ValidateOptions {
  double weight_tolerance = 1e-4;  // max |sum - 1| of one vertex's weights [Limit: >= 0]
  bool strict = false;             // warnings count as errors (their severity becomes Error)
  // Deformation check of every rig the reader accepts (rig2d/quality/deform_check.h): deform.*
  // findings at deform_options.severity, the part textures resolved through the asset index.
  bool deform = false;
  DeformOptions deform_options;
  // With deform: also play this clip on every rig and measure each frame (rig2d/quality/clip_deform.h):
  // deform.clip.* findings, and anim.track.* warnings for tracks naming bones a rig lacks.
  std::optional<Clip> deform_clip;
  std::string deform_clip_name;  // as given (a file or a bundled clip's name), for the messages
};

// A GUID a file claims, and where it is written.
struct OwnedGuid {
  std::string guid;
  Location where;
};

struct FileReport {
  std::string path;  // as given
  FileKind kind = FileKind::Unsupported;
  bool unreadable = false;              // the file could not be read (io.* finding)
  std::vector<Diagnostic> diagnostics;  // check order within the file; each has code + pointer
  std::vector<OwnedGuid> guids;         // GUIDs this file owns (rig/scene id, sidecar id + slices)
  double seconds = 0;                   // wall-clock time spent checking it, when the caller measured it

  RIG2D_EXPORT std::size_t count(Severity severity) const;
};

struct CodeInfo {
  const char* code;
  Severity severity;
  const char* summary;  // one line: what it means
};
// Every code the validate and scene modules emit (not the rig reader's, see docs/rig-format.md).
RIG2D_EXPORT const std::vector<CodeInfo>& validation_codes();

// Validates files against one asset index each (or none: references are then not resolved). Safe
// to call from several threads at once; the rig cache for scene checks is shared and locked.
class RIG2D_EXPORT Validator {
 public:
  explicit Validator(ValidateOptions options = {});
  ~Validator();
  Validator(const Validator&) = delete;
  Validator& operator=(const Validator&) = delete;

  // Validates `text` as a file of `kind` named `path`. `assets` resolves GUID references; it must
  // outlive the call. Never throws on bad input: every problem is a diagnostic.
  FileReport validate_text(std::string_view text, const std::string& path, FileKind kind,
                           const AssetIndex* assets) const;
  // Reads `path` (size-limited by kMaxJsonFileBytes) and validates it by its classify_path() kind.
  FileReport validate_file(const std::string& path, const AssetIndex* assets) const;

  const ValidateOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Cross-file checks over a batch: a GUID owned by two of the reports, or by a report and another
// file of its asset index, is a guid.duplicate on each claiming report (at the claim's pointer).
// `indexes[i]` is the asset index reports[i] was validated against (may be null).
RIG2D_EXPORT void check_duplicate_guids(std::vector<FileReport>& reports,
                                        const std::vector<const AssetIndex*>& indexes);

// Applies ValidateOptions::strict to a finished report: warnings become errors.
RIG2D_EXPORT void apply_strict(FileReport& report);

}  // namespace rig2d
