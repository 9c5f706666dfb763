// SPDX-License-Identifier: Apache-2.0
// Sprite sheets: the vertex budget always holds, slices are rigged one by one, unsliced sheets are
// recognised.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "autorig/autorig_internal.h"
#include "rig2d/asset/guid.h"
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/image/coverage.h"
#include "rig2d/image/png.h"
#include "rig2d/autorig/autorig.h"
#include "rig2d/autorig/autorig_file.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/slices.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/weights/heat_weights.h"
#include "sheet_fixtures.h"

using namespace rig2d;
using namespace rig2d::test;

namespace {

// cols x rows cells of `cell` px, each holding a spiky star in its own colour.
Image star_sheet(int cols, int rows, int cell, int spikes) {
  Image img = blank(cols * cell, rows * cell);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      star(img, (c + 0.5) * cell, (r + 0.5) * cell, cell * 0.2, cell * 0.45, spikes, std::uint8_t(40 + 13 * c),
           std::uint8_t(40 + 13 * r), 200);
  return img;
}

bool has_code(const std::vector<Diagnostic>& ds, const std::string& code) {
  for (const Diagnostic& d : ds)
    if (d.code == code) return true;
  return false;
}

}  // namespace

TEST_CASE("vertex budget: a 2048^2 sheet of 256 spiky sprites is meshed as one hull per sprite", "[autorig][sheets][slow]") {
  const Image sheet = star_sheet(16, 16, 128, 24);
  AutorigOptions o = cli_defaults();
  REQUIRE(o.outline.max_vertices == 4096);
  AutorigStats st;
  auto rig = autorig_image(sheet, o, &st);
  REQUIRE(rig);
  const Mesh& mesh = rig->parts[0].mesh;
  CHECK(mesh.verts.size() <= 4096);
  CHECK(st.vertices == mesh.verts.size());
  CHECK(has_code(st.mesh_warnings, "autorig.budget.hulls"));
  CHECK_FALSE(has_code(st.mesh_warnings, "autorig.budget.coarsened"));
  // One convex hull of at most 4096 / 256 = 16 corners per star, no vertex inside: a fan of
  // corners - 2 triangles each.
  CHECK(st.outline.simplified_rings == 256);
  CHECK(mesh.verts.size() <= 256 * 16);
  CHECK(mesh.tris.size() / 3 == mesh.verts.size() - 2 * 256);
  // A hull contains its island whole: every opaque pixel and all the alpha are inside.
  const OutlineYardstick y = outline_yardstick(mesh, sheet, o.alpha_threshold);
  CHECK(y.opaque_outside == 0);
  CHECK(y.opaque_min_inside > 1 - 1e-9);  // whole, up to the rounding of the area sums
  CHECK(y.alpha_mass_inside == Approx(1.0).margin(1e-9));
  // 256 islands, most crossed by no bone: each still gets a heat source, so the solve succeeds.
  CHECK_FALSE(has_code(st.weight_warnings, "weights.heat.solve_failed"));
  CHECK(verify_rig(*rig));

  // A budget even the coarsest outline cannot meet (256 islands need >= 3 points each) fails.
  o.outline.max_vertices = 500;
  auto tight = autorig_image(sheet, o);
  REQUIRE_FALSE(tight);
  CHECK(tight.error().code == "autorig.budget");
  // Found from the simplified outline's own points, before any triangulation.
  CHECK(tight.error().message.find("needs at least") != std::string::npos);

  // A grid over the budget fails too: no scheme writes more vertices than --max-verts.
  AutorigOptions g;
  g.cols = 100;
  g.rows = 100;
  g.cull = false;
  g.outline.max_vertices = 4096;  // 101 x 101 = 10201 grid vertices
  auto grid = autorig_image(star_sheet(2, 2, 64, 5), g);
  REQUIRE_FALSE(grid);
  CHECK(grid.error().code == "autorig.budget");
}

TEST_CASE("vertex budget: any sheet of many islands fits without clipping, whatever the budget", "[autorig][sheets]") {
  // 144 stars with 40 spikes, 57.6 px wide in 64 px cells: far more outline than any of these budgets
  // (1200 leaves each star 8 corners, the fewest whose hull stays off its neighbours' hulls).
  const Image sheet = star_sheet(12, 12, 64, 40);
  for (const std::size_t budget : {std::size_t{1200}, std::size_t{2000}, std::size_t{4096}}) {
    AutorigOptions o = cli_defaults();
    o.outline.max_vertices = budget;
    AutorigStats st;
    auto rig = autorig_image(sheet, o, &st);
    INFO("budget " << budget);
    REQUIRE(rig);
    CHECK(rig->parts[0].mesh.verts.size() <= budget);
    CHECK(has_code(st.mesh_warnings, "autorig.budget.hulls"));
    const OutlineYardstick y = outline_yardstick(rig->parts[0].mesh, sheet, o.alpha_threshold);
    CHECK(y.opaque_outside == 0);
    CHECK(y.opaque_min_inside > 1 - 1e-9);  // whole, up to the rounding of the area sums
    CHECK(y.alpha_mass_inside == Approx(1.0).margin(1e-9));
  }
}

TEST_CASE("vertex budget: a sprite under budget is untouched", "[autorig][sheets]") {
  Image one = blank(128, 128);
  star(one, 64, 64, 20, 56, 7, 200, 100, 50);
  AutorigStats st;
  auto rig = autorig_image(one, cli_defaults(), &st);
  REQUIRE(rig);
  CHECK(st.mesh_warnings.empty());
  CHECK(st.vertices < 4096);
}

TEST_CASE("sheet_island_slices: one slice per sprite of a sheet, in reading order", "[autorig][sheets]") {
  const std::string guid = "2FFB1576-687F-5BFF-8577-1BAD25F3F2AA";  // the sidecar's case is not the GUID's
  // 4 x 2 cells of 64 px, each with a 24 px square (576 px), except the last, which holds a 5 px one
  // (25 px: too small to count towards the sheet, but a sprite of its own). A dot 2 px right of the
  // second square joins its slice; a 2 x 2 speck far from any square is dust.
  Image sheet = blank(256, 128);
  for (int k = 0; k < 7; ++k)
    rect(sheet, 64 * (k % 4) + 20, 64 * (k / 4) + 20, 64 * (k % 4) + 44, 64 * (k / 4) + 44, 200, 90, 40);
  rect(sheet, 64 + 46, 30, 64 + 49, 33, 10, 10, 10);
  rect(sheet, 192 + 30, 64 + 30, 192 + 35, 64 + 35, 10, 10, 10);
  rect(sheet, 128 + 60, 64 + 60, 128 + 62, 64 + 62, 10, 10, 10);
  const std::vector<SpriteSlice> slices = sheet_island_slices(sheet, 8, "tiles", guid);
  REQUIRE(slices.size() == 8);
  std::set<std::string> guids;
  for (std::size_t k = 0; k < slices.size(); ++k) {
    const SpriteSlice& s = slices[k];
    CAPTURE(k, s.x, s.y, s.w, s.h);
    CHECK(s.name == "tiles_0" + std::to_string(k));
    CHECK(s.guid == derive_guid("slice:2ffb1576-687f-5bff-8577-1bad25f3f2aa:" + s.name));
    guids.insert(s.guid);
    CHECK((s.pivot_x == 0.5 && s.pivot_y == 0.5));
    const int cx = 64 * static_cast<int>(k % 4), cy = 64 * static_cast<int>(k / 4);
    if (k == 7) {
      CHECK((s.x == cx + 30 && s.y == cy + 30 && s.w == 5 && s.h == 5));
    } else {
      CHECK((s.x == cx + 20 && s.y == cy + 20 && s.w == (k == 1 ? 29 : 24) && s.h == 24));
    }
  }
  CHECK(guids.size() == 8);
  // Rows read left to right, whatever order the islands were found in: feet-aligned frames of
  // different heights are one row.
  Image frames = blank(200, 100);
  for (int k = 0; k < 4; ++k) rect(frames, 50 * k + 10, 90 - 20 * (k % 2 + 2), 50 * k + 40, 90, 10, 10, 10);
  const std::vector<SpriteSlice> row = sheet_island_slices(frames, 8, "walk", guid);
  REQUIRE(row.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) CHECK(row[k].x == 50 * static_cast<int>(k) + 10);
  // An image of one sprite gives one slice; an empty one none.
  Image one = blank(100, 100);
  star(one, 50, 50, 10, 40, 5, 200, 100, 50);
  CHECK(sheet_island_slices(one, 8, "one", guid).size() == 1);
  CHECK(sheet_island_slices(blank(8, 8), 8, "none", guid).empty());
}

TEST_CASE("sidecar_with_slices: the sidecar keeps its keys and gains slices that read back", "[autorig][sheets]") {
  const std::string text =
      R"({"version": 2, "id": "2ffb1576-687f-5bff-8577-1bad25f3f2aa", "type": "2d", "extra": [1]})";
  const std::vector<SpriteSlice> slices =
      sheet_island_slices(star_sheet(3, 1, 40, 5), 8, "row", "2ffb1576-687f-5bff-8577-1bad25f3f2aa");
  REQUIRE(slices.size() == 3);
  auto written = sidecar_with_slices(text, "row.png.meta.json", slices, 120, 40);
  REQUIRE(written);
  CHECK(written->find(R"("extra": [)") < written->find(R"("spriteSheet": {)"));
  CHECK(written->find(R"("id": "2ffb1576-687f-5bff-8577-1bad25f3f2aa")") < written->find(R"("extra")"));
  auto back = parse_sprite_slices(*written, "row.png.meta.json");
  REQUIRE(back);
  REQUIRE(back->size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK((*back)[k].guid == slices[k].guid);
    CHECK((*back)[k].name == slices[k].name);
    CHECK(((*back)[k].x == slices[k].x && (*back)[k].y == slices[k].y && (*back)[k].w == slices[k].w &&
           (*back)[k].h == slices[k].h));
  }
  auto meta = parse_sprite_meta(*written, "row.png.meta.json");
  REQUIRE(meta);
  CHECK(meta->has_slices);
  // A sidecar that lists slices already is never sliced over.
  auto again = sidecar_with_slices(*written, "row.png.meta.json", slices, 120, 40);
  REQUIRE_FALSE(again);
  CHECK(again.error().code == "meta.sprites");
  CHECK_FALSE(sidecar_with_slices("[1]", "x.meta.json", slices, 1, 1));
}

TEST_CASE("guess_sheet: a grid of sprites is a sheet, one sprite with details is not", "[autorig][sheets]") {
  const SheetGuess g = guess_sheet(star_sheet(8, 4, 64, 6), 8);
  CHECK(g.islands == 32);
  CHECK(g.cols == 8);
  CHECK(g.rows == 4);
  CHECK(g.looks_like_sheet);
  const SheetGuess strip = guess_sheet(star_sheet(32, 1, 32, 5), 8);
  CHECK(strip.islands == 32);
  CHECK(strip.rows == 1);
  CHECK(strip.looks_like_sheet);

  Image body = blank(200, 200);
  star(body, 100, 100, 60, 80, 5, 10, 200, 10);
  for (int i = 0; i < 5; ++i) rect(body, 4 + 10 * i, 4, 8 + 10 * i, 8, 255, 255, 0);  // specks around a body
  const SheetGuess b = guess_sheet(body, 8);
  CHECK(b.largest_share > 0.9);
  CHECK_FALSE(b.looks_like_sheet);
  CHECK_FALSE(guess_sheet(blank(10, 10), 8).looks_like_sheet);
}

namespace {

// The flood fill guess_sheet used before it labelled runs: every pixel's 8 neighbours, an explicit stack.
struct RefIsland {
  std::size_t area = 0;
  int x0, y0, x1, y1;
};

SheetGuess reference_guess(const Image& image, int threshold) {
  const int w = image.width, h = image.height;
  std::vector<std::uint8_t> seen(std::size_t(w) * std::size_t(h), 0);
  auto covered = [&](int x, int y) {
    return image.rgba[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4 + 3] > threshold;
  };
  std::vector<RefIsland> islands;
  std::vector<std::pair<int, int>> stack;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (seen[std::size_t(y) * std::size_t(w) + std::size_t(x)] || !covered(x, y)) continue;
      RefIsland isl{0, x, y, x, y};
      seen[std::size_t(y) * std::size_t(w) + std::size_t(x)] = 1;
      stack.push_back({x, y});
      while (!stack.empty()) {
        const auto [cx, cy] = stack.back();
        stack.pop_back();
        ++isl.area;
        isl.x0 = std::min(isl.x0, cx), isl.x1 = std::max(isl.x1, cx);
        isl.y0 = std::min(isl.y0, cy), isl.y1 = std::max(isl.y1, cy);
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int nx = cx + dx, ny = cy + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            const std::size_t j = std::size_t(ny) * std::size_t(w) + std::size_t(nx);
            if (seen[j] || !covered(nx, ny)) continue;
            seen[j] = 1;
            stack.push_back({nx, ny});
          }
      }
      islands.push_back(isl);
    }
  SheetGuess g;
  std::size_t largest = 0, total = 0;
  for (const RefIsland& i : islands) largest = std::max(largest, i.area), total += i.area;
  if (total == 0) return g;
  std::vector<double> cx, cy, widths, heights;
  for (const RefIsland& i : islands) {
    if (double(i.area) < 0.05 * double(largest)) continue;
    ++g.islands;
    cx.push_back(0.5 * (i.x0 + i.x1));
    cy.push_back(0.5 * (i.y0 + i.y1));
    widths.push_back(i.x1 - i.x0 + 1);
    heights.push_back(i.y1 - i.y0 + 1);
  }
  auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  auto bands = [](std::vector<double> c, double extent) {
    std::sort(c.begin(), c.end());
    std::size_t n = 1;
    for (std::size_t i = 1; i < c.size(); ++i) n += c[i] - c[i - 1] > 0.5 * extent;
    return n;
  };
  g.cols = bands(cx, median(widths));
  g.rows = bands(cy, median(heights));
  g.largest_share = double(largest) / double(total);
  g.looks_like_sheet = g.islands >= kSheetMinIslands && g.largest_share < 0.5;
  return g;
}

}  // namespace

TEST_CASE("guess_sheet: run labelling finds exactly the flood fill's islands", "[autorig][sheets]") {
  // Random alpha at several densities and thresholds: single pixels, diagonal contacts, runs that
  // touch several runs above, islands that merge late, plus the sheets and a body with specks.
  std::uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u, state >> 8; };
  int sheets = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int w = 1 + int(next() % 90), h = 1 + int(next() % 70);
    Image img = blank(w, h);
    const std::uint32_t density = next() % 100;
    for (std::size_t i = 3; i < img.rgba.size(); i += 4)
      img.rgba[i] = next() % 100 < density ? std::uint8_t(next() % 256) : 0;
    for (const int threshold : {-1, 0, 8, 128, 254, 255}) {
      const SheetGuess got = guess_sheet(img, threshold), want = reference_guess(img, threshold);
      INFO("trial " << trial << " " << w << "x" << h << " density " << density << " threshold " << threshold);
      CHECK(got.islands == want.islands);
      CHECK(got.rows == want.rows);
      CHECK(got.cols == want.cols);
      CHECK(got.largest_share == want.largest_share);
      CHECK(got.looks_like_sheet == want.looks_like_sheet);
      sheets += want.looks_like_sheet;
      // The guess that keeps its coverage: the same guess, and (for a threshold the mask takes) the
      // image's coverage mask byte for byte, these images being smaller than the mask's side.
      std::vector<std::uint8_t> coverage{7};
      const SheetGuess kept = detail::guess_sheet_keeping_coverage(img, threshold, coverage);
      CHECK(kept.islands == want.islands);
      CHECK(kept.rows == want.rows);
      CHECK(kept.cols == want.cols);
      CHECK(kept.largest_share == want.largest_share);
      CHECK(kept.looks_like_sheet == want.looks_like_sheet);
      if (threshold >= 0) {
        CoverageOptions o;
        o.alpha_threshold = threshold;
        const auto mask = coverage_mask(img, o);
        REQUIRE(mask.has_value());
        CHECK((mask->width == w && mask->height == h));
        CHECK(coverage == mask->inside);
      }
    }
  }
  CHECK(sheets > 50);  // the mix holds many sheet-like images, not only blobs
  for (const Image& img : {star_sheet(8, 4, 64, 6), star_sheet(32, 1, 32, 5)}) {
    const SheetGuess got = guess_sheet(img, 8), want = reference_guess(img, 8);
    CHECK(got.islands == want.islands);
    CHECK(got.largest_share == want.largest_share);
  }
}

TEST_CASE("slices: names become safe, unique file stems", "[autorig][sheets]") {
  std::vector<SpriteSlice> s(5);
  s[0].name = "walk 0";
  s[1].name = "../evil.png";
  s[2].name = "";
  s[3].name = "walk_0";
  s[4].name = "Idle-1";
  const std::vector<std::string> stems = slice_file_stems(s);
  CHECK(stems == std::vector<std::string>{"walk_0", "___evil_png", "slice2", "walk_0-2", "Idle-1"});
  CHECK(slice_rig_path("a/hero.rig2d.json", "walk_0") == "a/hero.walk_0.rig2d.json");
}

TEST_CASE("slices: parse errors name the pointer", "[autorig][sheets]") {
  auto ok = parse_sprite_slices(R"({"id": "x", "sprites": [{"guid": "AAAAAAAA-0000-4000-8000-000000000001",
    "name": "a", "rect": {"x": 1, "y": 2, "w": 3, "h": 4}, "pivot": {"x": 0.5, "y": 1}}]})", "s.meta.json");
  REQUIRE(ok);
  REQUIRE(ok->size() == 1);
  CHECK((*ok)[0].guid == "aaaaaaaa-0000-4000-8000-000000000001");
  CHECK((*ok)[0].x == 1);
  CHECK((*ok)[0].h == 4);
  CHECK((*ok)[0].pivot_y == 1);
  auto none = parse_sprite_slices(R"({"id": "x"})", "s.meta.json");
  REQUIRE(none);
  CHECK(none->empty());
  auto bad = parse_sprite_slices(R"({"sprites": [{"guid": "aaaaaaaa-0000-4000-8000-000000000001",
    "rect": {"x": 1, "y": 2, "w": 0.5, "h": 4}}]})", "s.meta.json");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "meta.slice.rect");
  CHECK(bad.error().where.json_pointer == "/sprites/0/rect/w");
  auto no_guid = parse_sprite_slices(R"({"sprites": [{"rect": {"x": 0, "y": 0, "w": 1, "h": 1}}]})", "s.meta.json");
  REQUIRE_FALSE(no_guid);
  CHECK(no_guid.error().code == "meta.slice.guid");
  // Two slices with one GUID (in any case): two rigs would share an id, one sprite would be lost.
  auto twice = parse_sprite_slices(R"({"sprites": [
    {"guid": "aaaaaaaa-0000-4000-8000-00000000000a", "rect": {"x": 0, "y": 0, "w": 1, "h": 1}},
    {"guid": "bbbbbbbb-0000-4000-8000-000000000001", "rect": {"x": 1, "y": 0, "w": 1, "h": 1}},
    {"guid": "AAAAAAAA-0000-4000-8000-00000000000A", "rect": {"x": 2, "y": 0, "w": 1, "h": 1}}]})",
                                   "s.meta.json");
  REQUIRE_FALSE(twice);
  CHECK(twice.error().code == "meta.slice.guid");
  CHECK(twice.error().where.json_pointer == "/sprites/2/guid");
  CHECK(twice.error().message.find("/sprites/0") != std::string::npos);
}

TEST_CASE("slices: a three-slice sheet gives three rigs, each covering only its own slice", "[autorig][sheets]") {
  // Three 96 x 128 cells side by side; each sprite fills its cell to 1 px of the border, so a rig
  // reaching over the border would take a neighbour's pixels.
  Image sheet = blank(288, 128);
  const std::uint8_t colors[3][3] = {{220, 30, 30}, {30, 220, 30}, {30, 30, 220}};
  for (int i = 0; i < 3; ++i) {
    rect(sheet, 96 * i + 1, 20, 96 * i + 95, 108, colors[i][0], colors[i][1], colors[i][2]);
    capsule(sheet, 96 * i + 48, 4, 96 * i + 48, 124, 10, colors[i][0], colors[i][1], colors[i][2]);
  }
  Sandbox box("three");
  box.write("sheet.png", *encode_png(sheet));
  const char* guids[3] = {"11111111-0000-4000-8000-000000000001", "22222222-0000-4000-8000-000000000002",
                          "33333333-0000-4000-8000-000000000003"};
  std::string meta = R"({"version": 2, "id": "720bff86-1b0e-4293-acfc-a4b7661f835c", "type": "2d", "sprites": [)";
  for (int i = 0; i < 3; ++i) {
    meta += std::string(i ? "," : "") + R"({"guid": ")" + guids[i] + R"(", "name": "frame )" + std::to_string(i) +
            R"(", "rect": {"x": )" + std::to_string(96 * i) + R"(, "y": 0, "w": 96, "h": 128}, "pivot": {"x": 0.5, "y": 1}})";
  }
  meta += R"(], "spriteSheet": {"width": 288, "height": 128}})";
  box.write("sheet.png.meta.json", meta);

  for (std::size_t i = 0; i < 3; ++i) {
    AutorigFileRequest req;
    req.png_path = box.path("sheet.png");
    req.rig_path = slice_rig_path(box.path("sheet.rig2d.json"), "frame_" + std::to_string(i));
    req.slice = i;
    auto res = autorig_file(req, cli_defaults());
    REQUIRE(res);
    CHECK(res->sprite_guid == guids[i]);
    CHECK_FALSE(has_code(res->warnings, "autorig.sheet"));
    // The sheet decoded once and handed over (rig2d-autorig's next slice) gives the same rig, undecoded.
    req.decoded = &sheet;
    auto given = autorig_file(req, cli_defaults());
    REQUIRE(given);
    CHECK(given->rig_text == res->rig_text);
    CHECK(given->decode_ms == 0);
    req.decoded = nullptr;
    auto rig = read_rig_normalized(res->rig_text, req.rig_path);
    REQUIRE(rig);
    REQUIRE(rig->parts.size() == 1);
    CHECK(rig->parts[0].sprite == guids[i]);
    const Mesh& m = rig->parts[0].mesh;
    // Pivot (0.5, 1): the feet. Vertices lie in the slice's own 96 x 128 frame around it.
    for (std::size_t v = 0; v < m.verts.size(); ++v) {
      CHECK(m.uvs[v].x >= 0);
      CHECK(m.uvs[v].x <= 1);
      CHECK(m.verts[v].x >= -48.0 - 1e-6);
      CHECK(m.verts[v].x <= 48.0 + 1e-6);
      CHECK(m.verts[v].y >= -128.0 - 1e-6);
      CHECK(m.verts[v].y <= 1e-6);
    }
    // Its own pixels are all covered, through its UVs on the slice.
    auto own = crop_slice(sheet, SpriteSlice{guids[i], "", 96 * int(i), 0, 96, 128});
    REQUIRE(own);
    const CoverageScore cov = mesh_coverage(m, *own, 8);
    CHECK(cov.recall == 1.0);
    CHECK(cov.iou > 0.9);  // the 0.75 px margin adds a thin transparent rim
  }
  // No slice 3.
  AutorigFileRequest req;
  req.png_path = box.path("sheet.png");
  req.rig_path = box.path("x.rig2d.json");
  req.slice = 3;
  auto missing = autorig_file(req, cli_defaults());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == "autorig.slice");
}

TEST_CASE("slices: a sheet is not rigged whole, and a broken slice list is reported", "[autorig][sheets]") {
  Sandbox box("whole");
  box.write("sheet.png", *encode_png(star_sheet(2, 1, 64, 5)));
  const std::string head = R"({"version": 2, "id": "720bff86-1b0e-4293-acfc-a4b7661f835c", "type": "2d", )";
  AutorigFileRequest req;
  req.png_path = box.path("sheet.png");
  req.rig_path = box.path("sheet.rig2d.json");
  // Sound slices: the whole image has no sprite in the engine, so no whole-image rig.
  box.write("sheet.png.meta.json", head + R"("sprites": [{"guid": "11111111-0000-4000-8000-000000000001", "name": "a",
                                   "rect": {"x": 0, "y": 0, "w": 64, "h": 64}}]})");
  auto whole = autorig_file(req, cli_defaults());
  REQUIRE_FALSE(whole);
  CHECK(whole.error().code == "autorig.sheet.whole");
  CHECK(whole.error().where.json_pointer == "/sprites");
  // A slice list that does not parse: its own error and pointer, from the file or from given text.
  const std::string broken = head + R"("sprites": [{"guid": "11111111-0000-4000-8000-000000000001", "name": "a",
                                                     "rect": {"x": 0, "y": 0, "w": 0, "h": 64}}]})";
  box.write("sheet.png.meta.json", broken);
  auto bad = autorig_file(req, cli_defaults());
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "meta.slice.rect");
  CHECK(bad.error().where.json_pointer == "/sprites/0/rect");
  CHECK(bad.error().where.file == box.path("sheet.png.meta.json"));
  req.sidecar_text = broken;
  auto bad_given = autorig_file(req, cli_defaults());
  REQUIRE_FALSE(bad_given);
  CHECK(bad_given.error().code == "meta.slice.rect");
  req.sidecar_text.reset();
  box.write("sheet.png.meta.json", head + R"("sprites": {"a": 1}})");
  auto not_array = autorig_file(req, cli_defaults());
  REQUIRE_FALSE(not_array);
  CHECK(not_array.error().code.rfind("meta.", 0) == 0);
  // An empty list is no slices: the whole image is the sprite.
  box.write("sheet.png.meta.json", head + R"("sprites": []})");
  auto empty = autorig_file(req, cli_defaults());
  REQUIRE(empty);
  CHECK(empty->sprite_guid == whole_image_sprite_guid("720bff86-1b0e-4293-acfc-a4b7661f835c"));
}

TEST_CASE("slices: the slice comes from the sidecar text given, and a failing slice is named", "[autorig][sheets]") {
  Sandbox box("given");
  box.write("sheet.png", *encode_png(star_sheet(2, 1, 64, 5)));  // two stars in 64 px cells
  const std::string head = R"({"version": 2, "id": "720bff86-1b0e-4293-acfc-a4b7661f835c", "type": "2d", "sprites": [)";
  const std::string given =
      head +
      R"({"guid": "11111111-0000-4000-8000-000000000001", "name": "right", "rect": {"x": 64, "y": 0, "w": 64, "h": 64}},
               {"guid": "11111111-0000-4000-8000-000000000002", "name": "corner", "rect": {"x": 0, "y": 0, "w": 2, "h": 2}}]})";
  // On disk, slice 0 is somewhere else: the rig must follow the text the caller digested.
  box.write(
      "sheet.png.meta.json",
      head +
          R"({"guid": "99999999-0000-4000-8000-000000000009", "name": "x", "rect": {"x": 0, "y": 0, "w": 8, "h": 8}}]})");
  AutorigFileRequest req;
  req.png_path = box.path("sheet.png");
  req.rig_path = box.path("sheet.right.rig2d.json");
  req.sidecar_text = given;
  req.slice = 0;
  auto res = autorig_file(req, cli_defaults());
  REQUIRE(res);
  CHECK(res->sprite_guid == "11111111-0000-4000-8000-000000000001");
  auto rig = read_rig_normalized(res->rig_text, req.rig_path);
  REQUIRE(rig);
  CHECK(rig->parts[0].mesh.verts.size() > 20);  // a star, not an 8 px corner
  // The 2 x 2 corner is transparent: the error says which slice.
  req.slice = 1;
  auto empty = autorig_file(req, cli_defaults());
  REQUIRE_FALSE(empty);
  CHECK(empty.error().code == "autorig.empty");
  CHECK(empty.error().message.find("slice \"corner\" (/sprites/1)") != std::string::npos);
}

TEST_CASE("slices: an unsliced sheet is rigged with an autorig.sheet warning", "[autorig][sheets]") {
  Sandbox box("unsliced");
  box.write("strip.png", *encode_png(star_sheet(8, 1, 48, 5)));
  box.write("strip.png.meta.json", R"({"version": 2, "id": "720bff86-1b0e-4293-acfc-a4b7661f835c", "type": "2d"})");
  AutorigFileRequest req;
  req.png_path = box.path("strip.png");
  req.rig_path = box.path("strip.rig2d.json");
  auto res = autorig_file(req, cli_defaults());
  REQUIRE(res);
  CHECK(has_code(res->warnings, "autorig.sheet"));
}

TEST_CASE("heat weights: every island no bone crosses gets a heat source", "[autorig][sheets][weights]") {
  // Five separate unit squares along x, one bone across the first only: the old per-bone scope seeded
  // just the nearest lone square, leaving the rest without a source (a singular system).
  Mesh mesh;
  for (int i = 0; i < 5; ++i) {
    const float x = float(3 * i);
    const auto base = static_cast<std::uint32_t>(mesh.verts.size());
    mesh.verts.insert(mesh.verts.end(), {{x, 0}, {x + 1, 0}, {x + 1, 1}, {x, 1}});
    mesh.uvs.insert(mesh.uvs.end(), 4, Vec2{0, 0});
    mesh.tris.insert(mesh.tris.end(), {base, base + 2, base + 1, base, base + 3, base + 2});
  }
  std::vector<Bone> bones{{"a", -1, 0.2, 0.5, 0, false}, {"b", 0, 0.6, 0, 0, false}};
  auto w = compute_heat_weights(mesh, bones);
  REQUIRE(w);
  CHECK_FALSE(w->stats.solver_fallback);
  CHECK(has_code(w->warnings, "weights.heat.island_without_bone"));
  for (std::size_t v = 0; v < mesh.verts.size(); ++v) {
    double sum = 0;
    for (int k = 0; k < 4; ++k) sum += w->weights.weights[v * 4 + std::size_t(k)];
    CHECK(sum == Approx(1.0));
    // Bone b's segment (a leaf: its joint at x 0.8) is the nearer to every square right of the first.
    if (v >= 4) CHECK(w->weights.indices[v * 4] == 1);
  }
}
