// SPDX-License-Identifier: Apache-2.0
// An index of the assets under an asset root: which file owns which GUID, and what a sprite GUID
// resolves to (ENGINE-SPEC §1.4, §1.5, §1.9). Lookups never leave the root.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

enum class AssetKind { Texture, Sprite, Slice, Rig, Animation, Scene, OtherJson, OtherBinary };

struct AssetEntry {
  std::string guid;        // lowercase
  std::string path;        // the owning file (for a derived sprite or a slice: the texture)
  AssetKind kind = AssetKind::OtherBinary;
  std::string owner_file;  // the file the GUID is written in (sidecar or JSON asset)
};

// What a sprite reference draws: a texture file and the rect of it (source pixels, top-left origin).
struct SpriteSource {
  std::string texture_path;
  std::string texture_guid;
  bool whole_image = true;      // false for a slice
  int x = 0, y = 0, w = 0, h = 0;  // slice rect; 0,0,0,0 for the whole image
  int sheet_w = 0, sheet_h = 0;    // spriteSheet dims of the sidecar (0 = absent)
  bool raw_texture = false;     // the ref was a texture GUID, not a sprite GUID
};

class RIG2D_EXPORT AssetIndex {
 public:
  // Scans `root` recursively: `*.meta.json` sidecars (texture id, type, sprites[] slices; derived
  // whole-image sprite GUIDs for 2d/ui textures) and the top-level `id` of JSON assets. Unreadable or
  // malformed files become diagnostics, never a failure. Errors: asset.root (root is not a folder).
  static Result<AssetIndex> scan(const std::string& root);

  const std::string& root() const { return root_; }
  // Every GUID owner; a GUID claimed by several files appears once per claim (see duplicates()).
  const std::vector<AssetEntry>& entries() const { return entries_; }
  // The first entry (by path order) owning `guid` (case-insensitive), or nullptr.
  const AssetEntry* find(std::string_view guid) const;
  // Resolves a sprite/texture GUID to the texture it draws. nullopt when unknown.
  std::optional<SpriteSource> resolve_sprite(std::string_view guid) const;
  // True when `path`, every symlink resolved, lies inside the root (resolved the same way). A file the
  // index names can still be a symlink leading out of the tree; callers check this before reading it.
  bool contains(const std::string& path) const;
  // Problems met while scanning (asset.meta.parse, asset.meta.id, asset.guid.duplicate, ...).
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::string root_;
  std::vector<AssetEntry> entries_;  // sorted by guid, then path
  std::vector<Diagnostic> diagnostics_;
  struct Slice {
    std::string guid, texture_path, texture_guid;
    int x, y, w, h, sheet_w, sheet_h;
  };
  std::vector<Slice> slices_;
};

// The default asset root for a file or folder: its nearest ancestor folder named "assets" (itself
// included), else the file's own folder (a folder given is its own root).
RIG2D_EXPORT std::string default_asset_root(const std::string& file);

// `file`'s path under `folder` ('/' separators, both made absolute), or nullopt when it is not inside.
RIG2D_EXPORT std::optional<std::string> path_under(const std::string& file, const std::string& folder);

// `file`'s path under its nearest ancestor folder named "assets" ('/' separators), or nullopt when
// none is. New GUIDs are named by it, so that same-named files in one asset tree get GUIDs of their
// own whichever folder a command was run from.
RIG2D_EXPORT std::optional<std::string> path_under_assets(const std::string& file);

}  // namespace rig2d
