// SPDX-License-Identifier: Apache-2.0
// Spine texture atlases (.atlas, the libgdx text format; Spine 4.x "bounds"/"offsets" and the older
// "xy"/"size"/"orig"/"offset" keys): parsing, writing, and the mapping from a region's own UVs to
// page pixels that rotated and whitespace-stripped regions need (see docs/convert.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/core/types.h"
#include "rig2d/export.h"

namespace rig2d {

struct AtlasRegion {
  std::string name;
  int x = 0, y = 0;                           // top-left of the packed pixels on the page, px
  int width = 0, height = 0;                  // packed size in the image's own orientation, px
  int degrees = 0;                            // 0, or 90: stored turned 90 degrees counter-clockwise
  int offset_x = 0, offset_y = 0;             // whitespace stripped at the left / bottom, px
  int original_width = 0, original_height = 0;  // size before stripping, px
  int index = -1;
  int line = 0;                               // 1-based line of the region's name in the atlas
};

struct AtlasPage {
  std::string name;        // the page image, relative to the atlas file's folder
  int width = 0, height = 0;  // px (0 when the atlas omits "size")
  std::vector<AtlasRegion> regions;
  int line = 0;
  bool size_given = false;  // the atlas has a "size" line for the page (at size_line)
  int size_line = 0;
};

struct Atlas {
  std::vector<AtlasPage> pages;
};

// Parses an atlas. Errors (with line:col): atlas.syntax (a malformed "key: values" line or number),
// atlas.region.rotate (a rotation other than 0/90/false/true), atlas.empty (no page), atlas.page.size
// (a page "size" with no pixels), atlas.region.bounds (a region of zero or negative size, at negative
// x or y, or reaching past its page's size).
RIG2D_EXPORT Result<Atlas> parse_spine_atlas(std::string_view text, const std::string& path);

// Spine 4.x atlas text: per page name, size, filter, then regions with bounds (+ offsets, rotate
// when set). Deterministic; parse_spine_atlas(write_spine_atlas(a)) gives `a` back (lines aside).
RIG2D_EXPORT std::string write_spine_atlas(const Atlas& atlas);

struct PixelRect {
  int x = 0, y = 0, w = 0, h = 0;
};

// The rect a region's pixels cover on its page (w and h swapped for a 90-degree region).
RIG2D_EXPORT PixelRect region_page_rect(const AtlasRegion& region);

// Page pixel (top-left origin, y down) of a point given in the region's own UVs: 0..1 over the
// ORIGINAL (unstripped) image, v down — what Spine mesh "uvs" hold. Follows the runtimes' mesh UV
// rule, so stripping and rotation are undone exactly.
RIG2D_EXPORT Vec2 region_uv_to_page(const AtlasRegion& region, Vec2 uv);

}  // namespace rig2d
