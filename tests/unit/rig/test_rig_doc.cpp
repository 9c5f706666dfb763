// SPDX-License-Identifier: Apache-2.0
// RigDoc is rig_to_json's value without the DOM: the same tree (keys, order, number types, null for
// non-finite numbers, 0 for -0), and both readers give the same results on it as on the Json value.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "json/json_util.h"
#include "rig/rig_doc.h"
#include "rig/rig_json_internal.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;
using detail::DocValue;
using detail::Json;

namespace {

// The document value as a Json, keeping every node's type.
Json to_json(const DocValue& v) {
  switch (v.type()) {
    case Json::value_t::null:
      return nullptr;
    case Json::value_t::boolean:
      return v.get<bool>();
    case Json::value_t::string:
      return v.get<std::string>();
    case Json::value_t::number_integer:
      return v.get<std::int64_t>();
    case Json::value_t::number_unsigned:
      return v.get<std::uint64_t>();
    case Json::value_t::number_float:
      return v.get<double>();
    case Json::value_t::array: {
      Json out = Json::array();
      for (const DocValue& e : v) out.push_back(to_json(e));
      return out;
    }
    default: {
      Json out = Json::object();
      for (auto it = v.begin(); it != v.end(); ++it) out[it.key()] = to_json(*it);
      return out;
    }
  }
}

// Equal values of equal types all the way down (Json's == takes 0 and 0.0 for equal).
bool same_tree(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same_tree(a[i], b[i])) return false;
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y)
      if (x.key() != y.key() || !same_tree(*x, *y)) return false;
    return true;
  }
  return a == b;
}

double odd_number(std::mt19937& rng) {
  static const double kOdd[] = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                0.5,
                                1e21,
                                -1e-300,
                                3.0e9,
                                std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                0.25};
  std::uniform_int_distribution<int> pick(0, 15);
  const int k = pick(rng);
  if (k < 12) return kOdd[k];
  return std::uniform_real_distribution<double>(-300.0, 300.0)(rng);
}

// Valid and broken rigs alike: wrong lengths, out-of-range indices and parents, empty and repeated
// names, non-finite and negative numbers, every optional field on and off, both layouts. A third are
// tidy (nothing broken), so the readers' clean paths are compared too.
Rig random_rig(std::mt19937& rng) {
  std::uniform_int_distribution<int> coin(0, 1), small(0, 5), die(0, 9);
  const bool tidy = die(rng) < 3;
  const auto oops = [&] { return !tidy && die(rng) == 0; };
  const auto num = [&] { return tidy ? std::uniform_real_distribution<double>(-300.0, 300.0)(rng) : odd_number(rng); };
  Rig rig;
  if (coin(rng)) rig.id = oops() ? "" : "rig-" + std::to_string(die(rng));
  rig.layout = coin(rng) ? Layout::V2 : Layout::V1;
  if (coin(rng)) rig.version = oops() ? odd_number(rng) : rig.layout == Layout::V1 ? 1 : 2;
  const int bones = 1 + small(rng);
  for (int b = 0; b < bones; ++b) {
    Bone bone;
    bone.name = oops() ? "" : "b" + std::to_string(oops() ? 0 : b);
    bone.parent = oops() ? std::uniform_int_distribution<int>(-3, bones + 1)(rng) : b - 1;
    bone.x = num();
    bone.y = num();
    bone.rot = num();
    bone.no_scale = die(rng) == 0;
    rig.bones.push_back(bone);
  }
  const int parts = rig.layout == Layout::V1 ? (oops() ? 0 : 1) : 1 + small(rng);
  for (int p = 0; p < parts; ++p) {
    Part part;
    if (rig.layout == Layout::V2 && coin(rng)) part.name = oops() ? "" : "p" + std::to_string(oops() ? 0 : p);
    part.sprite = coin(rng) ? "" : "sprite-" + std::to_string(p);
    const int verts = small(rng) * 3;
    const int uvs = oops() ? small(rng) : verts;
    for (int v = 0; v < verts; ++v) part.mesh.verts.push_back({num(), num()});
    for (int v = 0; v < uvs; ++v) {
      part.mesh.uvs.push_back(oops() ? Vec2{odd_number(rng), 2.0} : Vec2{0.125 * small(rng), 0.2 * small(rng)});
    }
    const int tris = oops() ? small(rng) : verts;
    for (int t = 0; t < tris; ++t)
      part.mesh.tris.push_back(static_cast<std::uint32_t>(oops() ? 99 : t % std::max(1, verts)));
    const int slots = oops() ? small(rng) : verts * kSlotsPerVertex;
    for (int s = 0; s < slots; ++s) {
      part.skin_indices.push_back(static_cast<std::uint32_t>(oops() ? 7 : s % bones));
      part.skin_weights.push_back(oops() ? odd_number(rng) : (s % kSlotsPerVertex == 0 ? 1.0 : 0.0));
    }
    if (coin(rng)) part.order = oops() ? odd_number(rng) : static_cast<double>(p);
    if (coin(rng)) part.visible = coin(rng) == 1;
    rig.parts.push_back(part);
  }
  return rig;
}

void check_same_reading(const Rig& rig) {
  const Json value = detail::rig_to_json(rig);
  const detail::RigDoc doc(rig);
  REQUIRE(same_tree(to_json(doc.root()), value));

  const std::string path = "a.rig2d.json";
  const auto from_json = detail::read_rig_normalized_parsed(value, path);
  const auto from_doc = detail::read_rig_normalized_parsed(doc.root(), path);
  REQUIRE(from_json.has_value() == from_doc.has_value());
  if (from_json) {
    CHECK(write_rig(*from_doc) == write_rig(*from_json));
  } else {
    CHECK(from_doc.error().code == from_json.error().code);
    CHECK(from_doc.error().message == from_json.error().message);
    CHECK(from_doc.error().where.json_pointer == from_json.error().where.json_pointer);
  }

  const std::string text = write_rig(rig);
  REQUIRE(text == detail::to_js_json(value));  // the streaming writer prints this value
  const StrictRig strict_json = detail::read_rig_strict_parsed(value, text, path);
  const StrictRig strict_doc = detail::read_rig_strict_parsed(doc.root(), text, path);
  REQUIRE(strict_doc.diagnostics.size() == strict_json.diagnostics.size());
  for (std::size_t k = 0; k < strict_json.diagnostics.size(); ++k) {
    const Diagnostic& a = strict_doc.diagnostics[k];
    const Diagnostic& b = strict_json.diagnostics[k];
    CHECK(a.severity == b.severity);
    CHECK(a.code == b.code);
    CHECK(a.message == b.message);
    CHECK(a.where.json_pointer == b.where.json_pointer);
    CHECK(a.where.line == b.where.line);
    CHECK(a.where.column == b.where.column);
  }
  REQUIRE(strict_doc.rig.has_value() == strict_json.rig.has_value());
  if (strict_json.rig) CHECK(write_rig(*strict_doc.rig) == write_rig(*strict_json.rig));
}

TEST_CASE("rig doc: rig_to_json's tree and the readers' results, on random valid and broken rigs", "[rig]") {
  std::mt19937 rng(20261205);
  std::size_t clean = 0, broken = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const Rig rig = random_rig(rng);
    INFO("trial " << trial << ":\n" << write_rig(rig));
    check_same_reading(rig);
    const bool ok = detail::read_rig_strict_parsed(detail::rig_to_json(rig), write_rig(rig), "a").rig.has_value();
    (ok ? clean : broken) += 1;
  }
  // Both kinds are exercised.
  CHECK(clean > 300);
  CHECK(broken > 300);
}

TEST_CASE("rig doc: a primitive, null and empty containers read as in nlohmann", "[rig]") {
  Rig rig;  // v1 with no part: the writer's empty part
  const detail::RigDoc doc(rig);
  const DocValue& root = doc.root();
  REQUIRE(root.is_object());
  CHECK(root.size() == 5);
  const DocValue& bones = *root.find("bones");
  CHECK(bones.is_array());
  CHECK(bones.empty());
  CHECK(bones.begin() == bones.end());
  CHECK(root.find("parts") == root.end());
  const DocValue& sprite = *root.find("sprite");
  CHECK(sprite.size() == 1);
  CHECK(!sprite.empty());
  int elements = 0;
  for (auto it = sprite.begin(); it != sprite.end(); ++it) ++elements;
  CHECK(elements == 1);
  CHECK(sprite.find("x") == sprite.end());
  Rig nan_version;
  nan_version.version = std::nan("");
  const detail::RigDoc with_null(nan_version);
  const DocValue& null = *with_null.root().find("version");
  CHECK(null.is_null());
  CHECK(null.size() == 0);
  CHECK(null.empty());
  CHECK(null.begin() == null.end());
}

}  // namespace
