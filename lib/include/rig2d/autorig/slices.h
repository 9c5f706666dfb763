// SPDX-License-Identifier: Apache-2.0
// Sprite sheets: a texture whose sidecar lists `sprites` slices (ENGINE-SPEC §1.4) is rigged one slice
// at a time, each into its own v1 rig whose `sprite` is the slice GUID and whose UVs are 0..1 in the
// slice rect. A texture without slices that looks like a sheet (many separate islands) is detected so
// the caller can suggest slicing it. See docs/autorig.md, "Sheets and slices".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"

namespace rig2d {

// File-name form of each slice's name, in order: letters, digits, '-' and '_' are kept, every other
// byte becomes '_' ('.' and '/' included, so a name can neither fake an extension nor a folder); an
// empty name becomes "slice<index>"; a repeated result gets "-2", "-3", ... (first come keeps it).
RIG2D_EXPORT std::vector<std::string> slice_file_stems(const std::vector<SpriteSlice>& slices);

// "<rig_path minus .rig2d.json>.<stem>.rig2d.json": hero.rig2d.json + "walk_0" -> hero.walk_0.rig2d.json.
RIG2D_EXPORT std::string slice_rig_path(const std::string& rig_path, std::string_view stem);

// The slice's pixels as an image of its own. Errors: autorig.slice.bounds (the rect reaches outside
// the image; the message names the slice).
RIG2D_EXPORT Result<Image> crop_slice(const Image& image, const SpriteSlice& slice);

// Whether an image without slices looks like a sheet or atlas of several sprites: at least
// kSheetMinIslands separate islands (8-connected, alpha > threshold, each at least 5% of the largest)
// and no island holding half the covered pixels. rows/cols estimate the grid the islands sit on.
inline constexpr std::size_t kSheetMinIslands = 4;
struct SheetGuess {
  std::size_t islands = 0;          // significant islands
  std::size_t rows = 0, cols = 0;   // bands of island centres, top to bottom and left to right
  double largest_share = 0;         // the largest island's share of the covered pixels
  bool looks_like_sheet = false;
};
RIG2D_EXPORT SheetGuess guess_sheet(const Image& image, int alpha_threshold);

// Slices for an image that looks like a sheet: one per significant island (as guess_sheet counts
// them), a smaller island joined to the nearest one whose box, grown by a quarter of its long side,
// holds its centre; one far from all of them is a slice of its own when it covers at least 16 px and
// 0.5% of the largest island (else it is dust and gets none); in reading order (rows of island centres top to bottom,
// each left to right). Rect: the island's box of alpha > threshold; pivot 0.5, 0.5; name
// "<stem>_<NN>" (numbered from 00, as wide as the count needs); GUID derive_guid("slice:" +
// lowercase(texture_guid) + ":" + name).
RIG2D_EXPORT std::vector<SpriteSlice> sheet_island_slices(const Image& image, int alpha_threshold,
                                                          std::string_view stem, std::string_view texture_guid);

// A sidecar's text with `slices` as its `sprites` and the image size as its `spriteSheet`; other keys
// keep their order and values (JSON.stringify(..., null, 2) layout). Errors: meta.root, json.*, and
// meta.sprites when the sidecar already lists slices.
RIG2D_EXPORT Result<std::string> sidecar_with_slices(std::string_view sidecar_text, const std::string& path,
                                                     const std::vector<SpriteSlice>& slices, int width, int height);

}  // namespace rig2d
