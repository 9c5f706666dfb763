// SPDX-License-Identifier: Apache-2.0
// Spine/libgdx atlas text: a page is a name line followed by "key: values" lines, a region is a name
// line (no colon) followed by its own "key: values"; a blank line ends a page. Both the 4.x keys
// (bounds, offsets, rotate: 90) and the 3.x keys (xy, size, orig, offset, rotate: true) are read.
#include "rig2d/interop/atlas.h"

#include <charconv>
#include <optional>
#include <string>
#include <vector>

namespace rig2d {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_values(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = std::min(s.find(',', start), s.size());
    out.push_back(trim(s.substr(start, comma - start)));
    start = comma + 1;
  }
  return out;
}

struct LineError {
  int line;
  std::string message;
};

bool parse_ints(const std::vector<std::string_view>& values, std::size_t want, int* out) {
  if (values.size() < want) return false;
  for (std::size_t i = 0; i < want; ++i) {
    const std::string_view v = values[i];
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out[i]);
    if (ec != std::errc() || end != v.data() + v.size()) return false;
  }
  return true;
}

Unexpected syntax(const std::string& path, int line, const std::string& message, std::string code = "atlas.syntax") {
  return make_error(std::move(code), message, Location{path, "", line, 1});
}

// One region or page property. Returns an error message, or "" when fine.
std::string apply_region_key(AtlasRegion& r, std::string_view key, const std::vector<std::string_view>& v,
                             bool& has_orig) {
  int n[4] = {0, 0, 0, 0};
  const auto need = [&](std::size_t count) { return parse_ints(v, count, n); };
  if (key == "bounds") {
    if (!need(4)) return "bounds takes x, y, width, height";
    r.x = n[0], r.y = n[1], r.width = n[2], r.height = n[3];
  } else if (key == "xy") {
    if (!need(2)) return "xy takes x, y";
    r.x = n[0], r.y = n[1];
  } else if (key == "size") {
    if (!need(2)) return "size takes width, height";
    r.width = n[0], r.height = n[1];
  } else if (key == "offsets") {
    if (!need(4)) return "offsets takes x, y, originalWidth, originalHeight";
    r.offset_x = n[0], r.offset_y = n[1], r.original_width = n[2], r.original_height = n[3];
    has_orig = true;
  } else if (key == "offset") {
    if (!need(2)) return "offset takes x, y";
    r.offset_x = n[0], r.offset_y = n[1];
  } else if (key == "orig") {
    if (!need(2)) return "orig takes width, height";
    r.original_width = n[0], r.original_height = n[1];
    has_orig = true;
  } else if (key == "index") {
    if (!need(1)) return "index takes an integer";
    r.index = n[0];
  } else if (key == "rotate") {
    if (v.size() == 1 && v[0] == "true") r.degrees = 90;
    else if (v.size() == 1 && v[0] == "false") r.degrees = 0;
    else if (!need(1)) return "rotate takes true, false or degrees";
    else r.degrees = n[0];
  }
  // split, pad and unknown keys (4.x allows custom values) carry nothing rig2d uses.
  return "";
}

// The reader's place in the atlas: the current page and region, line by line.
struct AtlasReader {
  const std::string& path;
  Atlas atlas;
  AtlasPage* page = nullptr;
  AtlasRegion* region = nullptr;
  bool has_orig = false;

  void finish_region() {
    if (region && !has_orig) region->original_width = region->width, region->original_height = region->height;
    region = nullptr;
  }

  // A line without a colon: a page name after a blank line, else a region name.
  void name_line(std::string_view line, int line_no) {
    finish_region();
    if (!page) {
      atlas.pages.push_back({std::string(line), 0, 0, {}, line_no});
      page = &atlas.pages.back();
    } else {
      page->regions.push_back({});
      region = &page->regions.back();
      region->name = std::string(line);
      region->line = line_no;
      has_orig = false;
    }
  }

  // A "key: value" line of the current page or region; an error message, or none.
  std::optional<Unexpected> key_line(std::string_view line, std::size_t colon, int line_no) {
    if (!page) return syntax(path, line_no, "a \"key: value\" line before any page name");
    const std::string_view key = trim(line.substr(0, colon));
    const auto values = split_values(line.substr(colon + 1));
    if (!region) {
      int n[2];
      if (key == "size") {
        if (!parse_ints(values, 2, n)) return syntax(path, line_no, "page size takes width, height");
        page->width = n[0], page->height = n[1];
        page->size_given = true;
        page->size_line = line_no;
      }
      return std::nullopt;  // format, filter, repeat, pma, scale: rendering hints only
    }
    if (std::string message = apply_region_key(*region, key, values, has_orig); !message.empty()) {
      return syntax(path, line_no, "region \"" + region->name + "\": " + message);
    }
    if (region->degrees != 0 && region->degrees != 90) {
      return syntax(path, line_no,
                    "region \"" + region->name + "\": rotate " + std::to_string(region->degrees) +
                        " is not supported (0 or 90 only)",
                    "atlas.region.rotate");
    }
    return std::nullopt;
  }
};

// A page's size and its regions' rects must describe pixels of the page: a region of no pixels, one
// at negative bounds or one reaching past the page would become a slice the engine cannot use (or
// none at all, while parts still name it).
std::optional<Unexpected> check_bounds(const Atlas& atlas, const std::string& path) {
  for (const AtlasPage& page : atlas.pages) {
    if (page.size_given && (page.width <= 0 || page.height <= 0))
      return syntax(path, page.size_line,
                    "page \"" + page.name + "\": size " + std::to_string(page.width) + ", " + std::to_string(page.height) +
                        " has no pixels",
                    "atlas.page.size");
    for (const AtlasRegion& r : page.regions) {
      const PixelRect rect = region_page_rect(r);
      const std::string name = "region \"" + r.name + "\": bounds " + std::to_string(r.x) + ", " + std::to_string(r.y) +
                               ", " + std::to_string(r.width) + ", " + std::to_string(r.height);
      if (r.width <= 0 || r.height <= 0) return syntax(path, r.line, name + " have no pixels", "atlas.region.bounds");
      if (r.x < 0 || r.y < 0) return syntax(path, r.line, name + " start left of or above the page", "atlas.region.bounds");
      const long long right = static_cast<long long>(rect.x) + rect.w, bottom = static_cast<long long>(rect.y) + rect.h;
      if (page.width > 0 && page.height > 0 && (right > page.width || bottom > page.height))
        return syntax(path, r.line,
                      name + " reach past the page's " + std::to_string(page.width) + " x " +
                          std::to_string(page.height) + " px",
                      "atlas.region.bounds");
    }
  }
  return std::nullopt;
}

}  // namespace

Result<Atlas> parse_spine_atlas(std::string_view text, const std::string& path) {
  AtlasReader r{path, {}};
  int line_no = 0;
  std::size_t start = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") start = 3;
  while (start <= text.size()) {
    const std::size_t nl = std::min(text.find('\n', start), text.size());
    const std::string_view line = trim(text.substr(start, nl - start));
    start = nl + 1;
    ++line_no;
    if (line.empty()) {
      r.finish_region();
      r.page = nullptr;
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      r.name_line(line, line_no);
    } else if (auto error = r.key_line(line, colon, line_no)) {
      return std::move(*error);
    }
  }
  r.finish_region();
  if (r.atlas.pages.empty()) return syntax(path, line_no, "the atlas has no page", "atlas.empty");
  if (auto bad = check_bounds(r.atlas, path)) return std::move(*bad);
  return std::move(r.atlas);
}

std::string write_spine_atlas(const Atlas& atlas) {
  std::string out;
  const auto nums = [](std::initializer_list<int> values) {
    std::string s;
    for (int v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
    return s;
  };
  for (const AtlasPage& page : atlas.pages) {
    // A blank line before the first page keeps a name that starts like a byte order mark (which a
    // reader skips at the start of the file) a name.
    if (!out.empty() || page.name.rfind("\xEF\xBB\xBF", 0) == 0) out += "\n";
    out += page.name + "\n";
    out += "\tsize: " + nums({page.width, page.height}) + "\n";
    out += "\tfilter: Linear, Linear\n";
    for (const AtlasRegion& r : page.regions) {
      out += r.name + "\n";
      if (r.index != -1) out += "\tindex: " + std::to_string(r.index) + "\n";
      out += "\tbounds: " + nums({r.x, r.y, r.width, r.height}) + "\n";
      if (r.offset_x != 0 || r.offset_y != 0 || r.original_width != r.width || r.original_height != r.height) {
        out += "\toffsets: " + nums({r.offset_x, r.offset_y, r.original_width, r.original_height}) + "\n";
      }
      if (r.degrees != 0) out += "\trotate: " + std::to_string(r.degrees) + "\n";
    }
  }
  return out;
}

PixelRect region_page_rect(const AtlasRegion& region) {
  if (region.degrees == 90) return {region.x, region.y, region.height, region.width};
  return {region.x, region.y, region.width, region.height};
}

Vec2 region_uv_to_page(const AtlasRegion& r, Vec2 uv) {
  // Pixel of the original image (top-left origin), then into the packed rect: the packed pixels
  // start offset_x from the left and (original_height - offset_y - height) from the top.
  const double ox = uv.x * r.original_width - r.offset_x;
  const double oy = uv.y * r.original_height - (r.original_height - r.offset_y - r.height);
  if (r.degrees == 90) {
    // Stored turned 90 degrees counter-clockwise: the image's right edge is the page's top, so image
    // x runs up the page (from the bottom of the packed rect) and image y runs right.
    return {r.x + oy, r.y + (r.width - ox)};
  }
  return {r.x + ox, r.y + oy};
}

}  // namespace rig2d
