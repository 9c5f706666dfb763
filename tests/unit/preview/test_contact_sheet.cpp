// SPDX-License-Identifier: Apache-2.0
// Contact sheets of many rigs: one labelled row per rig in the order given (folders sorted), rows
// that move with their rig when the order changes, broken rigs as rows that say why, same bytes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "rig2d/preview/contact_sheet.h"

using namespace rig2d;

namespace {

const std::string kSamples = std::string(RIG2D_SOURCE_DIR) + "/samples";

// Rows are equally tall and stacked under a 10 px top pad.
std::vector<std::uint8_t> row_band(const Image& img, std::size_t rows, std::size_t r) {
  const std::size_t row_h = (static_cast<std::size_t>(img.height) - 10) / rows;
  const std::size_t stride = 4 * static_cast<std::size_t>(img.width);
  const auto first = img.rgba.begin() + static_cast<std::ptrdiff_t>((10 + r * row_h) * stride);
  return {first, first + static_cast<std::ptrdiff_t>(row_h * stride)};
}

// Pixels in the caption strip under the first tile (tile 128 px from y = 10 + row top + 128 + 4)
// that differ from the sheet background.
int caption_ink(const Image& img, std::size_t rows, std::size_t r) {
  const std::size_t row_h = (static_cast<std::size_t>(img.height) - 10) / rows;
  int ink = 0;
  for (std::size_t y = 10 + r * row_h + 128 + 4; y < 10 + r * row_h + 128 + 34; ++y) {
    for (std::size_t x = 10; x < 138; ++x) {
      const std::size_t i = 4 * (y * static_cast<std::size_t>(img.width) + x);
      ink += img.rgba[i] != 38 || img.rgba[i + 1] != 38;
    }
  }
  return ink;
}

RigSheet sheet_of(const std::vector<std::string>& paths, bool validate = false) {
  RigSheetOptions o;
  o.tile = 128;
  o.validate = validate;
  auto sheet = rig_contact_sheet(paths, o);
  REQUIRE(sheet);
  return std::move(*sheet);
}

}  // namespace

TEST_CASE("contact sheet: folders give their rigs sorted, files keep their place", "[preview][sheet]") {
  auto all = collect_rig_paths(std::vector<std::string>{kSamples});
  REQUIRE(all);
  REQUIRE(all->size() >= 6);
  CHECK(std::is_sorted(all->begin(), all->end()));
  for (const std::string& p : *all) CHECK(p.ends_with(".rig2d.json"));
  const std::string hero = kSamples + "/hero.rig2d.json";
  auto mixed = collect_rig_paths(std::vector<std::string>{hero, kSamples});
  REQUIRE(mixed);
  CHECK(mixed->front() == hero);
  CHECK(mixed->size() == all->size());  // hero once, at its first place
  auto missing = collect_rig_paths(std::vector<std::string>{kSamples + "/nope"});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == "io.not_found");
}

TEST_CASE("contact sheet: N rigs give N labelled rows in a stable order", "[preview][sheet]") {
  const std::vector<std::string> order{kSamples + "/bar.rig2d.json", kSamples + "/tentacle.rig2d.json",
                                       kSamples + "/islands.rig2d.json"};
  const RigSheet a = sheet_of(order);
  REQUIRE(a.rows.size() == 3);
  for (std::size_t r = 0; r < 3; ++r) {
    CHECK(a.rows[r].path == order[r]);
    CHECK_FALSE(a.rows[r].failed);
    REQUIRE(a.rows[r].captions.size() == 4);
    const std::string name = order[r].substr(order[r].rfind('/') + 1);
    for (const std::string& caption : a.rows[r].captions) CHECK(caption.rfind(name + "\n", 0) == 0);
    CHECK(caption_ink(a.image, 3, r) > 100);  // the file name is really drawn under the tile
  }
  CHECK(a.rows[0].figures[0] == "15 vertices, 17 triangles");  // samples/bar.rig2d.json as committed
  CHECK(a.rows[0].captions[3] == "bar.rig2d.json\nbent: mid +0.5 rad");
  // Each row's pixels belong to its rig: reversing the order reverses the rows, byte for byte.
  const RigSheet b = sheet_of({order[2], order[1], order[0]});
  CHECK(a.image.width == b.image.width);
  CHECK(a.image.height == b.image.height);
  for (std::size_t r = 0; r < 3; ++r) CHECK(row_band(a.image, 3, r) == row_band(b.image, 3, 2 - r));
  CHECK(row_band(a.image, 3, 0) != row_band(a.image, 3, 1));
  // One rig: one row of the same height.
  const RigSheet one = sheet_of({order[0]});
  CHECK(one.image.height - 10 == (a.image.height - 10) / 3);
  // Same inputs, same bytes.
  CHECK(sheet_of(order).image.rgba == a.image.rgba);
}

TEST_CASE("contact sheet: the figures are rig2d-validate --deform's", "[preview][sheet]") {
  const RigSheet s = sheet_of({kSamples + "/ring.rig2d.json"}, true);
  REQUIRE(s.rows.size() == 1);
  const auto& f = s.rows[0].figures;
  REQUIRE(f.size() >= 3);
  CHECK(f[2].rfind("validate --deform: ", 0) == 0);
  CHECK(s.rows[0].deform_summary.find("bends of 60 deg") != std::string::npos);
}

TEST_CASE("contact sheet: a broken rig is a row that says why, not a failure", "[preview][sheet]") {
  const RigSheet s = sheet_of({kSamples + "/bar.rig2d.json", kSamples + "/bar.png"});
  REQUIRE(s.rows.size() == 2);
  CHECK_FALSE(s.rows[0].failed);
  CHECK(s.rows[1].failed);
  CHECK(s.rows[1].figures.at(0).find("json") != std::string::npos);
  REQUIRE_FALSE(s.diagnostics.empty());
  CHECK(s.diagnostics.back().code == "pose.sheet.rig");
  RigSheetOptions bad;
  bad.tile = 10;
  CHECK_FALSE(rig_contact_sheet(std::vector<std::string>{kSamples + "/bar.rig2d.json"}, bad));
  CHECK_FALSE(rig_contact_sheet(std::vector<std::string>{}, {}));
}

namespace {

// A one-second loop turning root/down_l_1 (a leg of the sample hero) from 0 to 1 rad and back, and a
// track for a bone the hero lacks.
const char* kSheetClip = R"({"id": "5a1d7c1e-0000-4000-8000-000000000001", "name": "kick", "duration": 1,
  "frameRate": 60, "loop": true, "tracks": [
  {"path": "root/down_l_1", "trait": "Transform", "field": "rz", "type": "number",
   "keys": [{"t": 0, "v": 0}, {"t": 0.5, "v": 1}, {"t": 1, "v": 0}]},
  {"path": "root/tail", "trait": "Transform", "field": "rz", "type": "number",
   "keys": [{"t": 0, "v": 0}, {"t": 1, "v": 1}]}]})";

// The RGBA of one tile (tile px square, tiles 10 px apart after a 10 px pad) in row 0.
std::vector<std::uint8_t> sheet_tile(const Image& img, int tile, int index) {
  std::vector<std::uint8_t> out;
  const int x0 = 10 + index * (tile + 10);
  for (int y = 10; y < 10 + tile; ++y) {
    const auto row = img.rgba.begin() + 4 * (static_cast<std::ptrdiff_t>(y) * img.width + x0);
    out.insert(out.end(), row, row + 4 * tile);
  }
  return out;
}

}  // namespace

TEST_CASE("contact sheet: --contact-clip adds the clip's frames to every row", "[preview][sheet]") {
  auto clip = read_clip(kSheetClip, "kick.anim.json");
  REQUIRE(clip);
  RigSheetOptions o;
  o.tile = 96;
  o.validate = false;
  o.clip = &*clip;
  o.clip_name = "kick";
  o.clip_frames = 4;
  const std::vector<std::string> paths{kSamples + "/hero.rig2d.json", kSamples + "/figure.rig2d.json"};
  auto sheet = rig_contact_sheet(paths, o);
  REQUIRE(sheet);
  // 4 + 4 tiles of 96 px, 10 px apart, then the 300 px info panel.
  CHECK(sheet->image.width == 10 + 8 * (96 + 10) + 300 + 10);
  REQUIRE(sheet->rows[0].captions.size() == 8);
  CHECK(sheet->rows[0].captions[4] == "hero.rig2d.json\nkick t=0");
  CHECK(sheet->rows[0].captions[6] == "hero.rig2d.json\nkick t=0.5");
  CHECK(sheet->rows[0].captions[7] == "hero.rig2d.json\nkick t=0.75");
  // t = 0 is the bind pose; t = 0.25 and 0.75 are the same angle (0.5 rad) and so the same picture;
  // t = 0.5 (1 rad) differs from both.
  const Image& img = sheet->image;
  CHECK(sheet_tile(img, 96, 5) == sheet_tile(img, 96, 7));
  CHECK(sheet_tile(img, 96, 5) != sheet_tile(img, 96, 6));
  CHECK(sheet_tile(img, 96, 4) != sheet_tile(img, 96, 5));
  // The track for a bone the rigs lack is a warning naming each rig.
  std::size_t skipped = 0;
  for (const Diagnostic& d : sheet->diagnostics)
    if (d.code == "anim.track.path" && d.message.find("root/tail") != std::string::npos) {
      ++skipped;
      CHECK((d.message.rfind(paths[0], 0) == 0 || d.message.rfind(paths[1], 0) == 0));
    }
  CHECK(skipped == 2);
  auto again = rig_contact_sheet(paths, o);
  REQUIRE(again);
  CHECK(again->image.rgba == sheet->image.rgba);
  o.clip_frames = 9;
  CHECK_FALSE(rig_contact_sheet(paths, o).has_value());
}
