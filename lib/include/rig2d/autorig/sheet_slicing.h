// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig --slice-sheets: a PNG that looks like a sheet of several sprites (guess_sheet) and
// whose sidecar lists no slices gets its islands written into the sidecar as `sprites` slices, so each
// sprite is rigged on its own (slices.h). See docs/autorig.md, "Sheets and slices".
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

struct SheetSlicing {
  std::string meta_text;      // the sidecar with the slices, to write beside the PNG
  std::size_t slices = 0;     // how many it lists
  bool meta_created = false;  // the sidecar did not exist (write_meta): a new one, as --write-meta makes
};

// The sidecar text that slices the PNG at `png_path` into its islands (sheet_island_slices, named
// after the PNG's stem), or nullopt when it stays as it is: its sidecar lists slices already, the
// image does not look like a sheet, or there is no sidecar and `write_meta` is off (rigging it then
// reports meta.missing). A minted sidecar's GUID counts the path from `mint_root` as
// AutorigFileRequest::mint_root says. Errors: io.*, png.*, limits.*, and the sidecar's json.* / meta.*.
RIG2D_EXPORT Result<std::optional<SheetSlicing>> slice_sheet_file(const std::string& png_path, int alpha_threshold,
                                                                  bool write_meta, const std::string& mint_root = {});

}  // namespace rig2d
