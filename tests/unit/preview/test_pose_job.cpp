// SPDX-License-Identifier: Apache-2.0
// The pose job and its outputs: sample times, overlay lists, sprite resolution through the asset
// index (whole-image sprites and atlas slices, §1.9), contact sheets and the APNG container.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>

#include "rig2d/image/png.h"
#include "rig2d/preview/pose_job.h"
#include "rig2d/preview/preview.h"

using namespace rig2d;

namespace {

const std::string kData = std::string(RIG2D_SOURCE_DIR) + "/tests/data/pose";

std::uint32_t be32(const std::string& s, std::size_t at) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data() + at);
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

std::vector<std::string> chunk_types(const std::string& png) {
  std::vector<std::string> types;
  for (std::size_t at = 8; at + 12 <= png.size(); at += 12 + be32(png, at)) types.push_back(png.substr(at + 4, 4));
  return types;
}

Image filled(int w, int h, std::uint8_t v) {
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.assign(static_cast<std::size_t>(4 * w * h), v);
  return img;
}

std::array<int, 4> pixel(const Image& img, int x, int y) {
  const std::size_t i = 4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x));
  return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]};
}

}  // namespace

TEST_CASE("pose job: clip sample times", "[preview][job]") {
  Clip clip;
  clip.duration = 1;
  CHECK(*clip_sample_times(clip, {}, 4.0) == std::vector<double>{0, 0.25, 0.5, 0.75});
  clip.loop = false;
  CHECK(*clip_sample_times(clip, {}, 4.0) == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
  CHECK(*clip_sample_times(clip, {1.5, -1}, std::nullopt) == std::vector<double>{1, 0});  // clamped
  clip.loop = true;
  CHECK(*clip_sample_times(clip, {1.25}, std::nullopt) == std::vector<double>{0.25});  // wrapped
  CHECK(*clip_sample_times(clip, {}, std::nullopt) == std::vector<double>{0});
  CHECK(clip_sample_times(clip, {}, 0.0).error().code == "pose.fps");
  CHECK(clip_sample_times(clip, {}, 1e9).error().code == "pose.frames");
  clip.duration = 0;
  CHECK(clip_sample_times(clip, {}, 10.0).error().code == "pose.fps");
}

TEST_CASE("pose job: numbered paths", "[preview][job]") {
  CHECK(numbered_path("out/walk.png", 7, 20) == "out/walk_0007.png");
  CHECK(numbered_path("walk", 0, 2) == "walk_0000.png");
  CHECK(numbered_path("a.png", 12345, 20000) == "a_12345.png");
}

TEST_CASE("pose job: overlay lists", "[preview][job]") {
  Rig rig;
  rig.bones = {{"base", -1, 0, 0, 0}, {"mid", 0, 0, 0, 0}};
  auto ov = parse_overlays(rig, "wireframe,weights:mid,bones");
  REQUIRE(ov);
  CHECK(ov->wireframe);
  CHECK(ov->bones);
  CHECK_FALSE(ov->dominant);
  CHECK(ov->weights_bone == std::optional<std::size_t>(1));
  CHECK(parse_overlays(rig, "")->weights_bone == std::nullopt);
  CHECK(parse_overlays(rig, "glow").error().code == "pose.overlay");
  CHECK(parse_overlays(rig, "weights:tip").error().message.find("base, mid") != std::string::npos);
}

TEST_CASE("pose job: sprites resolve to whole images and atlas slices", "[preview][job]") {
  PoseJob job;
  job.rig_path = kData + "/assets/rigs/atlas.rig2d.json";
  job.framing.margin = 0;
  auto res = run_pose_job(job);
  REQUIRE(res);
  CHECK(res->diagnostics.empty());
  REQUIRE(res->frame_pngs.size() == 1);
  auto img = decode_png(res->frame_pngs[0], "atlas");
  REQUIRE(img);
  CHECK(img->width == 24);
  // back (order 0) = the left slice (red) at x 0..16; front = the right slice (blue) at 8..24.
  CHECK(pixel(*img, 3, 8) == std::array<int, 4>{255, 0, 0, 255});
  CHECK(pixel(*img, 12, 8) == std::array<int, 4>{0, 0, 255, 255});
  CHECK(pixel(*img, 20, 3) == std::array<int, 4>{0, 0, 255, 255});

  job.rig_path = kData + "/assets/rigs/bar.rig2d.json";
  res = run_pose_job(job);
  REQUIRE(res);
  CHECK(res->stats.parts_flat == 0);
  img = decode_png(res->frame_pngs[0], "bar");
  REQUIRE(img);
  const auto bar = load_png(kData + "/assets/textures/bar.png");
  REQUIRE(bar);
  CHECK(img->rgba == bar->rgba);  // the bind pose reproduces the sprite
}

TEST_CASE("pose job: a missing sprite is a warning and a flat tint", "[preview][job]") {
  PoseJob job;
  job.rig_path = kData + "/assets/rigs/missing.rig2d.json";
  job.tint = 0x204080;
  auto res = run_pose_job(job);
  REQUIRE(res);
  REQUIRE(res->diagnostics.size() == 1);
  CHECK(res->diagnostics[0].code == "pose.sprite.unresolved");
  CHECK(res->diagnostics[0].where.json_pointer == "/sprite");
  CHECK(res->stats.parts_flat == 1);
  auto img = decode_png(res->frame_pngs[0], "missing");
  REQUIRE(img);
  CHECK(pixel(*img, 40, 100) == std::array<int, 4>{0x20, 0x40, 0x80, 128});  // the tint at alpha 0.5
}

TEST_CASE("pose job: command-line errors carry no file, file errors do", "[preview][job]") {
  PoseJob job;
  job.rig_path = kData + "/assets/rigs/bar.rig2d.json";
  job.pose = {"elbow.rot=1"};
  auto res = run_pose_job(job);
  REQUIRE_FALSE(res);
  CHECK(res.error().code == "pose.bone");
  CHECK(res.error().where.file.empty());
  job.pose.clear();
  job.pose_file = kData + "/badbone.pose.json";
  res = run_pose_job(job);
  REQUIRE_FALSE(res);
  CHECK(res.error().where.file == job.pose_file);
}

TEST_CASE("pose job: the range-of-motion clip plays at 12 fps and can be kept", "[preview][job]") {
  PoseJob job;
  job.rig_path = kData + "/assets/rigs/bar.rig2d.json";
  job.range_of_motion = RangeOfMotionOptions{};
  job.clip_json = true;
  job.framing.fit = true;
  auto res = run_pose_job(job);
  REQUIRE(res);
  CHECK(res->swung_bones == std::vector<std::string>{"mid", "tip"});
  REQUIRE(res->times.size() == 24);  // 2 bones x 1 s x 12 fps, the loop's end left out
  CHECK(res->times[3] == 0.25);
  REQUIRE(res->frame_pngs.size() == 24);
  CHECK(res->frame_pngs[0] == res->frame_pngs[12]);  // both bones at bind
  CHECK(res->frame_pngs[3] != res->frame_pngs[0]);   // mid at +45 deg
  CHECK(res->frame_pngs[3] != res->frame_pngs[15]);  // ... and tip at +45: another picture
  auto clip = read_clip(res->clip_json, "rom.anim.json");
  REQUIRE(clip);
  CHECK(clip->tracks.size() == 2);
  CHECK(clip->duration == 2);

  // A clip file and the range-of-motion clip exclude each other; --time picks frames of it.
  job.clip_path = kData + "/assets/anims/wave.anim.json";
  res = run_pose_job(job);
  REQUIRE_FALSE(res);
  CHECK(res.error().code == "pose.rom");
  CHECK(res.error().where.file.empty());
  job.clip_path.clear();
  job.times = {0.25, 1.75};
  res = run_pose_job(job);
  REQUIRE(res);
  CHECK(res->times == std::vector<double>{0.25, 1.75});
  job.range_of_motion_bones = {"elbow"};
  res = run_pose_job(job);
  REQUIRE_FALSE(res);
  CHECK(res.error().code == "pose.bone");
  CHECK_THAT(res.error().message, Catch::Contains("base, mid, tip"));  // the rig's bones, listed
  job.range_of_motion_bones = {"tip", "mid"};
  job.times.clear();
  res = run_pose_job(job);
  REQUIRE(res);
  CHECK(res->swung_bones == std::vector<std::string>{"tip", "mid"});
}

TEST_CASE("contact sheet: grid layout and labels", "[preview][preview]") {
  const std::vector<Image> frames{filled(10, 8, 255), filled(10, 8, 255), filled(10, 8, 255)};
  const std::vector<std::string> labels{"t=0", "t=1", "t=2"};
  SheetOptions o;
  o.padding = 2;
  o.label_scale = 1;
  auto sheet = contact_sheet(frames, labels, o);
  REQUIRE(sheet);
  // 2 columns (ceil sqrt 3), 2 rows; a cell is as wide as the widest label ("t=0" is wider than a
  // 10 px frame, so labels cannot run into each other) and 8 + label line + 2 px high, the label line
  // of a 7 px font being 6 px of ascent + 2 of descent (each rounded up). Frames sit centred in it.
  CHECK(text_height(1) == 8);
  const int cell = text_width("t=0", 1);
  REQUIRE(cell > 10);
  const int inset = (cell - 10) / 2;
  CHECK(sheet->width == 2 * cell + 3 * 2);
  CHECK(sheet->height == 2 * 18 + 3 * 2);
  CHECK(pixel(*sheet, 2 + inset, 2) == std::array<int, 4>{255, 255, 255, 255});
  CHECK(pixel(*sheet, 2 + inset + 9, 2 + 7) == std::array<int, 4>{255, 255, 255, 255});
  CHECK(pixel(*sheet, 2 + inset - 1, 2) == std::array<int, 4>{38, 38, 38, 255});  // beside the frame
  CHECK(pixel(*sheet, 0, 0) == std::array<int, 4>{38, 38, 38, 255});
  CHECK(pixel(*sheet, 2 + cell + 2 + 5, 2 + 18 + 2 + 1) ==
        std::array<int, 4>{38, 38, 38, 255});  // the empty fourth cell
  // Frames wider than their labels keep their own width.
  const std::vector<Image> wide{filled(40, 8, 255), filled(40, 8, 255)};
  CHECK(contact_sheet(wide, labels, o)->width == 2 * 40 + 3 * 2);
  CHECK_FALSE(contact_sheet({}, {}, o));
  const std::vector<Image> mixed{filled(10, 8, 0), filled(4, 4, 0)};
  CHECK(contact_sheet(mixed, {}, o).error().code == "pose.sheet");
}

TEST_CASE("apng: chunk layout, sequence numbers and delays", "[preview][preview]") {
  const std::vector<Image> frames{filled(3, 2, 0), filled(3, 2, 128), filled(3, 2, 255)};
  const std::uint32_t delays[] = {40, 250};
  auto apng = encode_apng(frames, delays);
  REQUIRE(apng);
  CHECK(chunk_types(*apng) ==
        std::vector<std::string>{"IHDR", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND"});
  const std::string& s = *apng;
  CHECK(be32(s, 8 + 25 + 8) == 3);  // acTL num_frames
  CHECK(be32(s, 8 + 25 + 12) == 0); // loop forever
  // First fcTL: sequence 0, 3x2, delay 40/1000.
  const std::size_t fctl = 8 + 25 + 20 + 8;
  CHECK(be32(s, fctl) == 0);
  CHECK(be32(s, fctl + 4) == 3);
  CHECK(be32(s, fctl + 8) == 2);
  CHECK(((unsigned char)s[fctl + 20] << 8 | (unsigned char)s[fctl + 21]) == 40);
  CHECK(((unsigned char)s[fctl + 22] << 8 | (unsigned char)s[fctl + 23]) == 1000);
  // The whole file still decodes as a PNG (frame 0) for viewers without APNG support.
  auto first = decode_png(*apng, "a.png");
  REQUIRE(first);
  CHECK(first->rgba == frames[0].rgba);
  auto again = encode_apng(frames, delays);
  CHECK(*again == *apng);
  CHECK(encode_apng({}, {}).error().code == "pose.apng");
}
