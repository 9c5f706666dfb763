// SPDX-License-Identifier: Apache-2.0
// The clip reader: normalizeAnimationClip defaults (ENGINE-SPEC §1.6) and located errors.
#include <catch2/catch.hpp>

#include "rig2d/anim/clip.h"

using namespace rig2d;

TEST_CASE("clip: an empty object gets the engine defaults", "[anim]") {
  auto clip = read_clip("{}", "a.anim.json");
  REQUIRE(clip);
  CHECK(clip->id.empty());
  CHECK(clip->name == "Clip");
  CHECK(clip->duration == 1);
  CHECK(clip->frame_rate == 60);
  CHECK(clip->loop);
  CHECK(clip->tracks.empty());
  CHECK(clip->deform_tracks.empty());
}

TEST_CASE("clip: fields are read and coerced like the engine", "[anim]") {
  const char* text = R"({
  "id": "11111111-2222-4333-8444-555555555555", "name": "walk", "duration": 2, "frameRate": -5, "loop": 0,
  "tracks": [
    {"path": "root/arm", "trait": "Transform", "field": "rz", "keys": [
      {"t": 1, "v": 5, "inTangent": null, "outTangent": "x"},
      {"t": 0, "v": 1, "inTangent": 2, "outTangent": 3, "outWeight": 0.5},
      {"t": 1, "v": 7, "inTangent": 0, "outTangent": 4, "tangentMode": "constant"}
    ]},
    {"trait": "SkinnedSprite2D", "field": "flipX", "type": "boolean", "keys": [{"t": 0, "v": true}]}
  ]
})";
  auto clip = read_clip(text, "a.anim.json");
  REQUIRE(clip);
  CHECK(clip->name == "walk");
  CHECK(clip->duration == 2);
  CHECK(clip->frame_rate == 60);  // not > 0
  CHECK_FALSE(clip->loop);        // 0 is falsy
  REQUIRE(clip->tracks.size() == 2);
  const Track& t0 = clip->tracks[0];
  CHECK(t0.path == "root/arm");
  CHECK(t0.type == TrackType::Number);
  REQUIRE(t0.keys.size() == 3);
  // Stable sort by t: the t=0 key first, then the two t=1 keys in file order.
  CHECK(t0.keys[0].v == 1);
  CHECK(t0.keys[0].in_tangent == 2);
  CHECK(t0.keys[0].out_tangent == 3);
  CHECK(*t0.keys[0].out_weight == 0.5);
  CHECK_FALSE(t0.keys[0].in_weight.has_value());
  CHECK(t0.keys[1].v == 5);
  CHECK(t0.keys[1].in_tangent == 0);   // null -> flat
  CHECK(t0.keys[1].out_tangent == 0);  // string -> flat
  CHECK(t0.keys[2].v == 7);
  CHECK(t0.keys[2].out_tangent == kStepped);  // tangentMode constant wins over the stored 4
  const Track& t1 = clip->tracks[1];
  CHECK(t1.path.empty());
  CHECK(t1.type == TrackType::Boolean);
  CHECK(t1.keys[0].v == 1);
}

TEST_CASE("clip: a stepped key saved by the editor (outTangent null + constant) round-trips as stepped", "[anim]") {
  auto clip = read_clip(
      R"({"tracks":[{"path":"a","trait":"Transform","field":"x","keys":[{"t":0,"v":0,"inTangent":0,"outTangent":null,"tangentMode":"constant"},{"t":1,"v":100,"inTangent":0,"outTangent":0}]}]})",
      "s.anim.json");
  REQUIRE(clip);
  CHECK(clip->tracks[0].keys[0].out_tangent == kStepped);
}

TEST_CASE("clip: unknown track type and non-numeric weights are warnings, not errors", "[anim]") {
  std::vector<Diagnostic> warnings;
  auto clip = read_clip(
      R"({"tracks":[{"path":"a","type":"vector","keys":[{"t":0,"v":1,"inWeight":"big"}]}], "duration": "long"})",
      "w.anim.json", &warnings);
  REQUIRE(clip);
  CHECK(clip->tracks[0].type == TrackType::Number);
  CHECK(clip->duration == 1);
  REQUIRE(warnings.size() == 3);
  CHECK(warnings[0].code == "clip.type");  // duration
  CHECK(warnings[0].where.json_pointer == "/duration");
  CHECK(warnings[1].code == "clip.track.type");
  CHECK(warnings[1].where.json_pointer == "/tracks/0/type");
  CHECK(warnings[2].where.json_pointer == "/tracks/0/keys/0/inWeight");
}

TEST_CASE("clip: deform tracks are read and sorted", "[anim]") {
  auto clip = read_clip(
      R"({"deformTracks":[{"path":"","part":"main","keys":[{"t":1,"offsets":[10,-4]},{"offsets":[0,0]}]}]})", "d.anim.json");
  REQUIRE(clip);
  REQUIRE(clip->deform_tracks.size() == 1);
  const DeformTrack& d = clip->deform_tracks[0];
  CHECK(d.part == "main");
  REQUIRE(d.keys.size() == 2);
  CHECK(d.keys[0].t == 0);  // `t ?? 0`
  CHECK(d.keys[1].offsets == std::vector<double>{10, -4});
}

TEST_CASE("clip: errors carry the code, pointer and line:col", "[anim]") {
  struct Case {
    const char* text;
    const char* code;
    const char* pointer;
    int line;
  };
  const Case cases[] = {
      {"[1,2]", "clip.root", "", 1},
      {"{\"tracks\": [\n  7\n]}", "clip.track", "/tracks/0", 2},
      {"{\"tracks\": [{\"path\": 3}]}", "clip.track", "/tracks/0/path", 1},
      {"{\"tracks\": [{\"keys\": [\n  \"k\"]}]}", "clip.key", "/tracks/0/keys/0", 2},
      {"{\"tracks\": [{\"keys\": [{\"v\": 1,\n \"t\": \"0\"}]}]}", "clip.key.time", "/tracks/0/keys/0/t", 2},
      {"{\"tracks\": [{\"keys\": [{\"t\": 0}]}]}", "clip.key.value", "/tracks/0/keys/0", 1},
      {"{\"tracks\": [{\"keys\": [{\"t\": 0, \"v\": \"red\"}]}]}", "clip.key.value", "/tracks/0/keys/0/v", 1},
      {"{\"deformTracks\": [{\"keys\": [{\"t\": 0, \"offsets\": [1, null]}]}]}", "clip.deform.offsets",
       "/deformTracks/0/keys/0/offsets/1", 1},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto clip = read_clip(c.text, "bad.anim.json");
    REQUIRE_FALSE(clip);
    CHECK(clip.error().code == c.code);
    CHECK(clip.error().where.file == "bad.anim.json");
    CHECK(clip.error().where.json_pointer == c.pointer);
    CHECK(clip.error().where.line == c.line);
  }
}

TEST_CASE("clip: syntax errors and missing files", "[anim]") {
  auto bad = read_clip("{\"tracks\": [", "x.anim.json");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "json.syntax");
  CHECK(bad.error().where.line == 1);
  auto missing = load_clip("/nonexistent/dir/x.anim.json");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == "io.not_found");
}

TEST_CASE("clip: every prefix of a valid clip fails cleanly or reads", "[anim]") {
  const std::string text = R"({"id":"x","duration":1,"loop":true,"tracks":[{"path":"a/b","trait":"Transform","field":"rz",
"keys":[{"t":0,"v":0,"inTangent":0,"outTangent":0},{"t":0.5,"v":1.5,"inTangent":1,"outTangent":null,"tangentMode":"constant"}]}],
"deformTracks":[{"path":"","part":"main","keys":[{"t":0,"offsets":[1,2,3,4]}]}]})";
  REQUIRE(read_clip(text, "full.anim.json"));
  for (std::size_t n = 0; n < text.size(); ++n) {
    auto clip = read_clip(std::string_view(text).substr(0, n), "prefix.anim.json");
    if (!clip) {
      CHECK_FALSE(clip.error().code.empty());
      CHECK(clip.error().where.file == "prefix.anim.json");
    }
  }
}
