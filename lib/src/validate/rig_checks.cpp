// SPDX-License-Identifier: Apache-2.0
// Rig checks beyond the per-file rig reader: GUID shape of the id, sprite references resolved
// through the asset index (ENGINE-SPEC §1.9, §4.2 rule 6), and mesh quality (degenerate and
// duplicated triangles).
#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/core/types.h"
#include "validate/checks.h"

namespace rig2d::detail {
namespace {

const char* kind_label(AssetKind kind) {
  switch (kind) {
    case AssetKind::Texture: return "texture";
    case AssetKind::Sprite: return "sprite";
    case AssetKind::Slice: return "sprite slice";
    case AssetKind::Rig: return "rig";
    case AssetKind::Animation: return "animation clip";
    case AssetKind::Scene: return "scene";
    case AssetKind::OtherJson: return "JSON asset";
    default: return "binary asset";
  }
}

// A texture whose derived whole-image sprite GUID is `ref` but which is not 2d/ui, so the sprite
// does not exist (§1.9 rule 2): names the texture so the message can say how to fix it.
const AssetEntry* texture_deriving(const AssetIndex& index, const std::string& ref) {
  for (const AssetEntry& e : index.entries()) {
    if (e.kind == AssetKind::Texture && derive_guid("sprite:" + e.guid) == ref) return &e;
  }
  return nullptr;
}

void check_sprite_ref(Checker& c, const Json& value, const std::string& pointer, bool v2) {
  if (!value.is_string()) return;  // wrong types are the rig reader's findings
  const std::string& ref = value.get_ref<const std::string&>();
  if (ref.empty()) {
    c.add(Severity::Warning, "rig.sprite.empty",
          std::string(v2 ? "part" : "rig") +
              " has no sprite: the engine's 2D renderer draws a rig only when every part has a texture, so this "
              "hides the whole rig; set it to a sprite GUID from the texture's .meta.json",
          pointer);
    return;
  }
  if (!is_guid(ref)) {
    if (is_url(ref)) {
      c.add(Severity::Warning, "rig.sprite.url",
            "sprite " + quote(ref) +
                " is an external URL: the engine fetches it as is, outside the asset pipeline; use a sprite GUID",
            pointer);
    } else if (looks_like_path(ref)) {
      c.add(Severity::Error, "rig.sprite.path",
            "sprite " + quote(ref) +
                " is a literal path; refs must be GUIDs: use the sprite GUID of the texture (its derived whole-image "
                "sprite or a slice GUID from its .meta.json)",
            pointer);
    } else {
      c.add(Severity::Error, "rig.sprite.guid",
            "sprite " + quote(ref) + " is not a GUID (8-4-4-4-12 hex digits): use a sprite GUID from a .meta.json",
            pointer);
    }
    return;
  }
  if (!c.assets) return;
  const AssetIndex& index = *c.assets;
  const std::string key = lowercase(ref);
  const AssetEntry* entry = index.find(key);
  if (!entry) {
    std::string msg = "sprite " + ref + " does not resolve to any asset under " + quote(index.root());
    if (const AssetEntry* tex = texture_deriving(index, key)) {
      msg += ": it is the whole-image sprite of " + quote(tex->path) +
             ", which exists only for 2d/ui textures; add \"type\": \"2d\" to " + quote(tex->owner_file);
    } else {
      msg += " (no .meta.json claims it): check --assets or the GUID";
    }
    c.add(Severity::Error, "rig.sprite.unresolved", msg, pointer);
    return;
  }
  if (entry->kind == AssetKind::Texture) {
    const std::string derived = derive_guid("sprite:" + entry->guid);
    const std::string fix = "use its whole-image sprite " + derived +
                            " (the texture must be \"type\": \"2d\") or a slice GUID from " + quote(entry->owner_file);
    if (v2) {
      c.add(Severity::Error, "rig.sprite.texture",
            "part sprite " + ref + " is the raw texture GUID of " + quote(entry->path) +
                "; v2 parts must reference sprites (the sprites-only rule): " + fix,
            pointer);
    } else {
      c.add(Severity::Warning, "rig.sprite.texture.v1",
            "sprite " + ref + " is the raw texture GUID of " + quote(entry->path) +
                "; the engine draws the whole image, but the sprites-only rule expects a sprite: " + fix,
            pointer);
    }
    return;
  }
  if (entry->kind != AssetKind::Sprite && entry->kind != AssetKind::Slice) {
    c.add(Severity::Error, "rig.sprite.not_sprite",
          "sprite " + ref + " is the GUID of a " + kind_label(entry->kind) + " (" + quote(entry->path) +
              "), not of a sprite: use a sprite GUID from a texture's .meta.json",
          pointer);
  }
}

// Reads [x, y] pairs as the engine stores them (float32); nullopt if anything is malformed (the rig
// reader reports that).
std::optional<std::vector<Vec2>> read_verts(const Json& mesh) {
  const Json* verts = member(mesh, "verts");
  if (!verts || !verts->is_array() || verts->size() > kMaxVertices) return std::nullopt;
  std::vector<Vec2> out;
  out.reserve(verts->size());
  for (const Json& p : *verts) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) return std::nullopt;
    out.push_back({round_to_float(p[0].get<double>()), round_to_float(p[1].get<double>())});
  }
  return out;
}

void check_triangles(Checker& c, const Json& owner, const std::string& base) {
  const Json* mesh_ptr = member(owner, "mesh");
  if (!mesh_ptr || !mesh_ptr->is_object()) return;
  const Json& mesh = *mesh_ptr;
  const auto verts = read_verts(mesh);
  const Json* tris_ptr_json = member(mesh, "tris");
  if (!verts || !tris_ptr_json || !tris_ptr_json->is_array() || tris_ptr_json->size() % 3 != 0 ||
      tris_ptr_json->size() > kMaxTriangleIndices) {
    return;
  }
  const Json& tris_json = *tris_ptr_json;
  const std::size_t n = verts->size();
  std::vector<std::array<std::uint32_t, 3>> tris;
  tris.reserve(tris_json.size() / 3);
  for (std::size_t k = 0; k < tris_json.size(); k += 3) {
    std::array<std::uint32_t, 3> t{};
    for (std::size_t j = 0; j < 3; ++j) {
      const Json& v = tris_json[k + j];
      if (!v.is_number_integer() && !v.is_number_unsigned()) return;
      const auto idx = v.get<std::int64_t>();
      if (idx < 0 || static_cast<std::uint64_t>(idx) >= n) return;  // range is the reader's finding
      t[j] = static_cast<std::uint32_t>(idx);
    }
    tris.push_back(t);
  }
  const std::string tris_ptr = base + "/mesh/tris/";

  std::size_t degenerate = 0;
  std::string first_degenerate;
  for (std::size_t k = 0; k < tris.size(); ++k) {
    const auto [i0, i1, i2] = tris[k];
    bool bad = i0 == i1 || i1 == i2 || i0 == i2;
    if (!bad) {
      const Vec2 a = (*verts)[i0], b = (*verts)[i1], d = (*verts)[i2];
      const double cross = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x);
      const double e0 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
      const double e1 = (d.x - a.x) * (d.x - a.x) + (d.y - a.y) * (d.y - a.y);
      const double e2 = (d.x - b.x) * (d.x - b.x) + (d.y - b.y) * (d.y - b.y);
      // Collinear within 1e-10 of the longest edge squared: no area to draw, and NaN-free.
      bad = !(std::fabs(cross) > 1e-10 * std::max({e0, e1, e2}));
    }
    if (!bad) continue;
    if (++degenerate <= kMaxListedPerMesh) {
      c.add(Severity::Warning, "rig.mesh.tri.degenerate",
            "triangle " + std::to_string(k) + " (" + std::to_string(i0) + ", " + std::to_string(i1) + ", " +
                std::to_string(i2) + ") has no area (repeated or collinear vertices): remove it",
            tris_ptr + std::to_string(3 * k));
    }
  }
  if (degenerate > kMaxListedPerMesh) {
    c.add(Severity::Warning, "rig.mesh.tri.degenerate",
          std::to_string(degenerate - kMaxListedPerMesh) + " more degenerate triangles in this mesh are not listed",
          base + "/mesh/tris");
  }

  // Same vertex set twice (in any order or winding): drawn twice, doubled alpha at the seams.
  std::vector<std::tuple<std::array<std::uint32_t, 3>, std::size_t>> keyed;
  keyed.reserve(tris.size());
  for (std::size_t k = 0; k < tris.size(); ++k) {
    auto key = tris[k];
    std::sort(key.begin(), key.end());
    if (key[0] == key[1] || key[1] == key[2]) continue;  // already degenerate
    keyed.emplace_back(key, k);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::pair<std::size_t, std::size_t>> dups;  // (later, first); keyed sorts by (key, index)
  for (std::size_t i = 1, group = 0; i < keyed.size(); ++i) {
    if (std::get<0>(keyed[i]) != std::get<0>(keyed[group])) {
      group = i;
      continue;
    }
    dups.emplace_back(std::get<1>(keyed[i]), std::get<1>(keyed[group]));
  }
  std::sort(dups.begin(), dups.end());
  for (std::size_t i = 0; i < dups.size() && i < kMaxListedPerMesh; ++i) {
    c.add(Severity::Warning, "rig.mesh.tri.duplicate",
          "triangle " + std::to_string(dups[i].first) + " repeats triangle " + std::to_string(dups[i].second) +
              " (same three vertices): it is drawn twice; remove it",
          tris_ptr + std::to_string(3 * dups[i].first));
  }
  if (dups.size() > kMaxListedPerMesh) {
    c.add(Severity::Warning, "rig.mesh.tri.duplicate",
          std::to_string(dups.size() - kMaxListedPerMesh) + " more duplicated triangles in this mesh are not listed",
          base + "/mesh/tris");
  }
}

}  // namespace

void check_rig(const Json& root, Checker& c) {
  if (!root.is_object()) return;  // the reader reports the root type
  const auto id = root.find("id");
  if (id == root.end()) {
    c.add(Severity::Error, "rig.id.missing",
          "the rig has no \"id\": scenes reference rigs by GUID; add \"id\": \"<guid>\" (any lowercase v4 GUID)", "");
  } else if (id->is_string()) {
    if (is_guid(id->get_ref<const std::string&>())) {
      c.own(id->get<std::string>(), "/id");
    } else {
      c.add(Severity::Error, "rig.id.guid",
            "id " + quote(id->get<std::string>()) + " is not a GUID (8-4-4-4-12 hex digits): replace it with one",
            "/id");
    }
  }

  // v2 when parts is a non-empty array, as the engine decides (§1.2); v1 otherwise.
  const Json* parts_ptr = member(root, "parts");
  if (parts_ptr && parts_ptr->is_array() && !parts_ptr->empty()) {
    const Json& parts = *parts_ptr;
    for (std::size_t i = 0; i < parts.size() && i < kMaxParts; ++i) {
      const Json& part = parts[i];
      if (!part.is_object()) continue;
      const std::string base = "/parts/" + std::to_string(i);
      // A missing sprite is the rig reader's rig.field.missing.
      if (const Json* sprite = member(part, "sprite")) check_sprite_ref(c, *sprite, base + "/sprite", true);
      check_triangles(c, part, base);
    }
  } else {
    if (const Json* sprite = member(root, "sprite")) check_sprite_ref(c, *sprite, "/sprite", false);
    check_triangles(c, root, "");
  }
}

}  // namespace rig2d::detail
