// SPDX-License-Identifier: Apache-2.0
// What every importer returns and what every exporter needs: a rig, the texture slices it refers to,
// the clips it comes with, and the findings met on the way. docs/convert.md lists every mapping rule,
// every loss and every code (all convert.*).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

// One slice of a texture, as written to the texture's .meta.json "sprites".
struct SliceOut {
  std::string guid;
  std::string name;
  int x = 0, y = 0, w = 0, h = 0;  // source pixels, top-left origin
};

// A texture the imported rig draws from, with the slices its parts use.
struct TextureSheet {
  std::string image;         // the image path as the source names it (atlas page, res:// path)
  std::string texture_guid;  // the sidecar "id"
  int width = 0, height = 0; // the "spriteSheet" dims, px
  std::vector<SliceOut> slices;
  // The parts draw the whole texture through its derived whole-image sprite GUID (ENGINE-SPEC §1.5):
  // set when one region covers the whole image and the sidecar has no slices, which must stay so,
  // since a slice would hide the whole-image sprite other rigs may use.
  bool whole_image = false;
};

struct ImportResult {
  Rig rig;
  std::vector<TextureSheet> sheets;
  std::vector<Clip> clips;               // one per source animation
  std::vector<Diagnostic> diagnostics;   // warnings (convert.*) about what did not carry over
};

// A texture sidecar that already exists: its GUID and slices are kept, so references stay valid.
struct KnownSidecar {
  std::string image;  // as in TextureSheet::image
  std::string text;   // the .meta.json text
};

struct ImportOptions {
  std::string rig_id;                  // the rig's "id" ("" = none)
  std::vector<KnownSidecar> sidecars;  // existing sidecars of the textures met
  // A texture met without a sidecar gets GUID uuid_v5(kRigIdNamespace, "texture:" + its name): by
  // default its image as the source names it (atlas page, Godot resource path), or the name given
  // here for that image (rig2d-convert gives the texture file's path under its assets/ folder, so
  // two imported characters whose pages share a file name get GUIDs of their own).
  std::map<std::string, std::string> texture_names;
};

// The sidecar text for `sheet`: `existing` ("" = none) keeps its other keys, its "id" and its
// slices of other names; slices of the same name are replaced. Adds "type": "2d" when absent and sets
// "spriteSheet" (a whole_image sheet gets neither slices nor spriteSheet). JSON.stringify layout. Errors: convert.sidecar.parse (existing is not a JSON object).
RIG2D_EXPORT Result<std::string> write_texture_sidecar(const TextureSheet& sheet, std::string_view existing,
                                                       const std::string& existing_path);

// What a sprite GUID draws, for exporters: the texture file and the rect of it.
struct ExportSprite {
  std::string image;          // path of the texture file, as the exporter should write it
  int sheet_w = 0, sheet_h = 0;  // texture size, px
  int x = 0, y = 0, w = 0, h = 0;  // the sprite's rect on it, px
  std::string name;           // slice name (or the image's stem)
  std::string file = {};      // the texture file on disk, to place beside an export ("" = not known)
};

struct ExportOptions {
  // Resolves a part's sprite GUID; nullopt when unknown (the export still succeeds, with a warning).
  std::function<std::optional<ExportSprite>(const std::string& sprite_guid)> resolve_sprite;
  std::vector<Clip> clips;  // exported as animations where the format has them
  std::string name;         // skeleton / scene name ("" = "rig")
};

// A Spine atlas page: the bare file name the .atlas gives it (loaders look for it beside the atlas)
// and the texture that file must hold.
struct ExportPage {
  std::string name;   // file name beside the atlas ("hero.png", "hero-2.png" when two textures share one)
  std::string image;  // ExportSprite::image of the texture
  std::string file;   // ExportSprite::file of the texture
};

struct ExportResult {
  std::string text;       // the skeleton JSON or the .tscn
  std::string atlas;      // Spine only: the .atlas ("" when no sprite resolved)
  std::vector<ExportPage> pages;  // Spine only: the atlas pages, in atlas order
  std::vector<Diagnostic> diagnostics;
};

}  // namespace rig2d
