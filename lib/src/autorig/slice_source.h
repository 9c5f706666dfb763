// SPDX-License-Identifier: Apache-2.0
// autorig_file's sheet handling: picking one slice of a sheet to rig, and the warning for a sheet
// that has no slices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/image/image.h"
#include "rig2d/autorig/autorig.h"
#include "rig2d/autorig/slices.h"

namespace rig2d::detail {

struct PickedSlice {
  std::string guid;  // the slice's sprite GUID (lowercase): the rig's `sprite`
  std::string name;  // as the sidecar names it, for messages
  Image pixels;      // the slice rect's pixels
};

// The slices of the sidecar at `meta_path`: parsed from its text when given, else read from the file.
Result<std::vector<SpriteSlice>> sidecar_slices(const std::string& meta_path,
                                                std::optional<std::string_view> sidecar_text);

// Slice `index` of the sidecar at `meta_path` (its text when given, else the file), cropped out of
// `image`; sets options.pivot_x/y to the slice's pivot. Errors: parse_sprite_slices' and
// read_sprite_slices', autorig.slice (no slice `index`), autorig.slice.bounds.
Result<PickedSlice> pick_slice(const std::string& meta_path, std::optional<std::string_view> sidecar_text,
                               std::size_t index, const Image& image, AutorigOptions& options);

// The same, from slices already parsed.
Result<PickedSlice> pick_slice(const std::string& meta_path, const std::vector<SpriteSlice>& slices,
                               std::size_t index, const Image& image, AutorigOptions& options);

// An autorig.sheet warning when `image` looks like a sheet of several sprites (guess_sheet), else none.
// With `coverage`, the guess keeps its per-pixel coverage there (guess_sheet_keeping_coverage).
std::optional<Diagnostic> sheet_warning(const Image& image, int alpha_threshold, const std::string& png_path,
                                        std::vector<std::uint8_t>* coverage = nullptr);

}  // namespace rig2d::detail
