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

// A sprite ref that is not a GUID: an external URL, a literal path, or anything else.
void report_non_guid_sprite(Checker& c, const std::string& ref, const std::string& pointer) {
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
}

// A sprite ref naming a texture (not its sprite): an error in v2 parts, a warning in v1 rigs.
void report_texture_ref(Checker& c, const std::string& ref, const AssetEntry& texture, const std::string& pointer,
                        bool v2) {
  const std::string derived = derive_guid("sprite:" + texture.guid);
  const std::string fix = "use its whole-image sprite " + derived +
                          " (the texture must be \"type\": \"2d\") or a slice GUID from " + quote(texture.owner_file);
  if (v2) {
    c.add(Severity::Error, "rig.sprite.texture",
          "part sprite " + ref + " is the raw texture GUID of " + quote(texture.path) +
              "; v2 parts must reference sprites (the sprites-only rule): " + fix,
          pointer);
  } else {
    c.add(Severity::Warning, "rig.sprite.texture.v1",
          "sprite " + ref + " is the raw texture GUID of " + quote(texture.path) +
              "; the engine draws the whole image, but the sprites-only rule expects a sprite: " + fix,
          pointer);
  }
}

// The derived whole-image sprite of a texture with slices passes the sprites-only rule, but the
// engine's scanner makes that sprite only for textures without slices (ENGINE-SPEC §1.9): the part
// would draw nothing.
void report_sheet_whole(Checker& c, const AssetIndex& index, const std::string& ref, const AssetEntry& sprite,
                        const std::string& pointer) {
  std::size_t slices = 0;
  for (const AssetEntry& e : index.entries()) slices += e.kind == AssetKind::Slice && e.path == sprite.path;
  if (slices == 0) return;
  c.add(Severity::Warning, "rig.sprite.sheet_whole",
        "sprite " + ref + " is the whole-image sprite of " + quote(sprite.path) + ", whose sidecar lists " +
            std::to_string(slices) +
            " slices: the engine makes no whole-image sprite for a sheet, so this draws nothing; use one of its "
            "slice GUIDs",
        pointer);
}

// A GUID sprite ref resolved through the asset index: it must name a sprite or a slice.
void check_sprite_resolves(Checker& c, const std::string& ref, const std::string& pointer, bool v2) {
  if (!c.assets) return;
  const AssetIndex& index = *c.assets;
  const std::string key = ascii_lower(ref);
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
    report_texture_ref(c, ref, *entry, pointer, v2);
    return;
  }
  if (entry->kind != AssetKind::Sprite && entry->kind != AssetKind::Slice) {
    c.add(Severity::Error, "rig.sprite.not_sprite",
          "sprite " + ref + " is the GUID of a " + kind_label(entry->kind) + " (" + quote(entry->path) +
              "), not of a sprite: use a sprite GUID from a texture's .meta.json",
          pointer);
    return;
  }
  if (entry->kind == AssetKind::Sprite) report_sheet_whole(c, index, ref, *entry, pointer);
}

void check_sprite_ref(Checker& c, const std::string& ref, const std::string& pointer, bool v2) {
  if (ref.empty()) {
    c.add(Severity::Warning, "rig.sprite.empty",
          std::string(v2 ? "part" : "rig") +
              " has no sprite: the engine's 2D renderer draws a rig only when every part has a texture, so this "
              "hides the whole rig; set it to a sprite GUID from the texture's .meta.json",
          pointer);
    return;
  }
  if (!is_guid(ref)) {
    report_non_guid_sprite(c, ref, pointer);
    return;
  }
  check_sprite_resolves(c, ref, pointer, v2);
}

// One mesh-bearing object (the v1 rig or a v2 part), from JSON or from the strict reader's model.
struct PartView {
  std::string base;                    // "" (v1) or "/parts/<i>"
  std::optional<std::string> sprite;   // when a string
  std::optional<std::vector<Vec2>> verts;                          // float32 as the engine stores them
  std::optional<std::vector<std::array<std::uint32_t, 3>>> tris;   // when every index is in range
};

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

std::optional<std::vector<std::array<std::uint32_t, 3>>> read_tris(const Json& mesh, std::size_t n) {
  const Json* tris_ptr_json = member(mesh, "tris");
  if (!tris_ptr_json || !tris_ptr_json->is_array() || tris_ptr_json->size() % 3 != 0 ||
      tris_ptr_json->size() > kMaxTriangleIndices) {
    return std::nullopt;
  }
  const Json& tris_json = *tris_ptr_json;
  std::vector<std::array<std::uint32_t, 3>> tris;
  tris.reserve(tris_json.size() / 3);
  for (std::size_t k = 0; k < tris_json.size(); k += 3) {
    std::array<std::uint32_t, 3> t{};
    for (std::size_t j = 0; j < 3; ++j) {
      const Json& v = tris_json[k + j];
      if (!v.is_number_integer() && !v.is_number_unsigned()) return std::nullopt;
      const auto idx = v.get<std::int64_t>();
      if (idx < 0 || static_cast<std::uint64_t>(idx) >= n) return std::nullopt;  // range is the reader's finding
      t[j] = static_cast<std::uint32_t>(idx);
    }
    tris.push_back(t);
  }
  return tris;
}

PartView view_of(const Json& owner, std::string base) {
  PartView v;
  v.base = std::move(base);
  if (const Json* sprite = member(owner, "sprite"); sprite && sprite->is_string()) v.sprite = sprite->get<std::string>();
  const Json* mesh = member(owner, "mesh");
  if (!mesh || !mesh->is_object()) return v;
  v.verts = read_verts(*mesh);
  if (v.verts) v.tris = read_tris(*mesh, v.verts->size());
  return v;
}

PartView view_of(const Part& part, std::string base) {
  PartView v;
  v.base = std::move(base);
  v.sprite = part.sprite;
  std::vector<Vec2> verts;
  verts.reserve(part.mesh.verts.size());
  for (const Vec2& p : part.mesh.verts) verts.push_back({round_to_float(p.x), round_to_float(p.y)});
  std::vector<std::array<std::uint32_t, 3>> tris;
  tris.reserve(part.mesh.tris.size() / 3);
  for (std::size_t k = 0; k + 2 < part.mesh.tris.size(); k += 3) {
    tris.push_back({part.mesh.tris[k], part.mesh.tris[k + 1], part.mesh.tris[k + 2]});
  }
  v.verts = std::move(verts);
  v.tris = std::move(tris);
  return v;
}

// Triangle (i0, i1, i2) of verts has no area: repeated indices, or collinear within 1e-10 of the
// longest edge squared (NaN-free).
bool degenerate_triangle(const std::vector<Vec2>& verts, std::uint32_t i0, std::uint32_t i1, std::uint32_t i2) {
  if (i0 == i1 || i1 == i2 || i0 == i2) return true;
  const Vec2 a = verts[i0], b = verts[i1], d = verts[i2];
  const double cross = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x);
  const double e0 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
  const double e1 = (d.x - a.x) * (d.x - a.x) + (d.y - a.y) * (d.y - a.y);
  const double e2 = (d.x - b.x) * (d.x - b.x) + (d.y - b.y) * (d.y - b.y);
  return !(std::fabs(cross) > 1e-10 * std::max({e0, e1, e2}));
}

void check_degenerate_triangles(Checker& c, const PartView& part) {
  const std::vector<Vec2>& verts = *part.verts;
  const auto& tris = *part.tris;
  const std::string& base = part.base;
  const std::string tris_ptr = base + "/mesh/tris/";
  std::size_t degenerate = 0;
  for (std::size_t k = 0; k < tris.size(); ++k) {
    const auto [i0, i1, i2] = tris[k];
    if (!degenerate_triangle(verts, i0, i1, i2)) continue;
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
}

void check_duplicate_triangles(Checker& c, const PartView& part) {
  const auto& tris = *part.tris;
  const std::string& base = part.base;
  const std::string tris_ptr = base + "/mesh/tris/";
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

void check_triangles(Checker& c, const PartView& part) {
  if (!part.verts || !part.tris) return;
  check_degenerate_triangles(c, part);
  check_duplicate_triangles(c, part);
}

}  // namespace

namespace {

void check_id(Checker& c, bool present, const std::optional<std::string>& id) {
  if (!present) {
    c.add(Severity::Error, "rig.id.missing",
          "the rig has no \"id\": scenes reference rigs by GUID; add \"id\": \"<guid>\" (any lowercase v4 GUID)", "");
  } else if (id) {
    if (is_guid(*id)) {
      c.own(*id, "/id");
    } else {
      c.add(Severity::Error, "rig.id.guid", "id " + quote(*id) + " is not a GUID (8-4-4-4-12 hex digits): replace it with one",
            "/id");
    }
  }
}

void check_parts(Checker& c, const std::vector<PartView>& parts, bool v2) {
  for (const PartView& p : parts) {
    // A missing or non-string sprite is the rig reader's rig.field.missing / rig.field.type.
    if (p.sprite) check_sprite_ref(c, *p.sprite, p.base + "/sprite", v2);
    check_triangles(c, p);
  }
}

}  // namespace

void check_rig(const Json& root, Checker& c) {
  if (!root.is_object()) return;  // the reader reports the root type
  const Json* id = member(root, "id");
  check_id(c, id != nullptr, id && id->is_string() ? std::optional<std::string>(id->get<std::string>()) : std::nullopt);
  // v2 when parts is a non-empty array, as the engine decides (§1.2); v1 otherwise.
  std::vector<PartView> parts;
  const Json* parts_ptr = member(root, "parts");
  const bool v2 = parts_ptr && parts_ptr->is_array() && !parts_ptr->empty();
  if (v2) {
    for (std::size_t i = 0; i < parts_ptr->size() && i < kMaxParts; ++i) {
      const Json& part = (*parts_ptr)[i];
      if (part.is_object()) parts.push_back(view_of(part, "/parts/" + std::to_string(i)));
    }
  } else {
    parts.push_back(view_of(root, ""));
  }
  check_parts(c, parts, v2);
}

void check_rig(const Rig& rig, Checker& c) {
  // The strict reader keeps parts in file order, so part i is "/parts/<i>".
  check_id(c, rig.id.has_value(), rig.id);
  const bool v2 = rig.layout == Layout::V2;
  std::vector<PartView> parts;
  for (std::size_t i = 0; i < rig.parts.size(); ++i) parts.push_back(view_of(rig.parts[i], v2 ? "/parts/" + std::to_string(i) : ""));
  check_parts(c, parts, v2);
}

}  // namespace rig2d::detail
