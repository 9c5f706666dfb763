// SPDX-License-Identifier: Apache-2.0
// Scene and prefab checks (ENGINE-SPEC §1.8, §4.1, §4.3): the trait scalar guard, field types,
// ranges and enums of the 2D-skinning traits, SkinnedSprite2D rig references, Bone2D subtrees that
// mirror their rig's hierarchy, and the Billboard3D/FlatSprite3D pairing rules.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "rig2d/asset/guid.h"
#include "validate/checks.h"

namespace rig2d::detail {
namespace {

// The engine's allowlist of non-scalar trait fields (tests/runtime/traitScalarFields.test.ts).
const std::set<std::string> kNonScalarAllowed = {
    "UIAction.bindings",        "MaterialInstance.overrides", "AnimationLibrary.animSets",
    "AnimationLibrary.boneMaps", "SkinnedMeshRenderer.materials", "Input.axes",
    "Input.held",               "Input.pressed",              "Input.released",
    "Input.pointer"};

enum class Type { Number, Bool, String, Color, Enum, ParentId };
struct FieldSpec {
  const char* name;
  Type type;
  double min = -INFINITY;   // inclusive unless min_exclusive
  double max = INFINITY;    // inclusive
  bool min_exclusive = false;
  std::vector<const char*> options = {};  // Type::Enum
};

// Declared fields of the traits this toolchain is responsible for (§1.8, §1.6).
const std::map<std::string, std::vector<FieldSpec>>& trait_specs() {
  static const std::map<std::string, std::vector<FieldSpec>> specs = {
      {"Transform",
       {{"x", Type::Number}, {"y", Type::Number}, {"z", Type::Number}, {"rx", Type::Number}, {"ry", Type::Number},
        {"rz", Type::Number}, {"sx", Type::Number}, {"sy", Type::Number}, {"sz", Type::Number}}},
      {"EntityAttributes",
       {{"name", Type::String},
        {"isActive", Type::Bool},
        {"sortOrder", Type::Number},
        {"parentId", Type::ParentId},
        {"layer", Type::Enum, -INFINITY, INFINITY, false, {"", "3d", "2d", "ui"}},
        {"guid", Type::String},
        {"editorFolder", Type::String}}},
      {"SkinnedSprite2D",
       {{"rig", Type::String},
        {"color", Type::Color},
        {"opacity", Type::Number, 0, 1},
        {"flipX", Type::Bool},
        {"flipY", Type::Bool},
        {"isVisible", Type::Bool}}},
      {"Bone2D", {{"name", Type::String}}},
      {"Billboard3D",
       {{"mode", Type::Enum, -INFINITY, INFINITY, false, {"cylindrical", "spherical"}},
        {"alphaTest", Type::Number, 0, 1},
        {"pixelsPerUnit", Type::Number, 0, INFINITY, true},
        {"anchor", Type::Enum, -INFINITY, INFINITY, false, {"bottom", "center"}}}},
      {"FlatSprite3D", {{"alphaTest", Type::Number, 0, 1}, {"pixelsPerUnit", Type::Number, 0, INFINITY, true}}},
      {"Animator",
       {{"clips", Type::String},
        {"clip", Type::String},
        {"time", Type::Number},
        {"speed", Type::Number},
        {"playing", Type::Bool},
        {"loop", Type::Bool},
        {"fadeDuration", Type::Number, 0}}},
  };
  return specs;
}

const char* type_label(Type t) {
  switch (t) {
    case Type::Number: return "a number";
    case Type::Bool: return "a boolean";
    case Type::String: return "a string";
    case Type::Color: return "a color (0xRRGGBB number or a color string)";
    case Type::Enum: return "one of its option strings";
    default: return "a guid string or a numeric id";
  }
}

const char* field_kind_label(FieldKind k) {
  switch (k) {
    case FieldKind::Null: return "null";
    case FieldKind::Bool: return "a boolean";
    case FieldKind::Number: return "a number";
    case FieldKind::String: return "a string";
    case FieldKind::Array: return "an array";
    default: return "an object";
  }
}

void check_field(Checker& c, const SceneTrait& trait, const TraitField& f, const FieldSpec& spec) {
  const std::string where = trait.name + "." + f.name;
  bool type_ok = false;
  switch (spec.type) {
    case Type::Number: type_ok = f.kind == FieldKind::Number; break;
    case Type::Bool: type_ok = f.kind == FieldKind::Bool; break;
    case Type::String:
    case Type::Enum: type_ok = f.kind == FieldKind::String; break;
    case Type::Color: type_ok = f.kind == FieldKind::Number || f.kind == FieldKind::String; break;
    case Type::ParentId: type_ok = true; break;  // the reader reports bad parent links
  }
  if (!type_ok) {
    c.add(Severity::Error, "scene.field.type",
          where + " must be " + type_label(spec.type) + ", not " + field_kind_label(f.kind), f.pointer);
    return;
  }
  if (spec.type == Type::Number) {
    const double v = f.number;
    const bool low = spec.min_exclusive ? !(v > spec.min) : !(v >= spec.min);
    if (!std::isfinite(v) || low || !(v <= spec.max)) {
      std::string range;
      if (spec.min_exclusive) range = "> " + js_number(spec.min);
      else if (std::isfinite(spec.min) && std::isfinite(spec.max)) range = "in " + js_number(spec.min) + ".." + js_number(spec.max);
      else if (std::isfinite(spec.min)) range = ">= " + js_number(spec.min);
      else range = "finite";
      c.add(Severity::Error, "scene.field.range", where + " must be " + range + ", not " + js_number(v), f.pointer);
    }
  } else if (spec.type == Type::Color && f.kind == FieldKind::Number) {
    if (!(f.number >= 0 && f.number <= 0xFFFFFF) || f.number != std::floor(f.number)) {
      c.add(Severity::Error, "scene.field.range",
            where + " must be an integer 0xRRGGBB in 0..16777215, not " + js_number(f.number), f.pointer);
    }
  } else if (spec.type == Type::Enum) {
    bool known = false;
    std::string list;
    for (const char* o : spec.options) {
      known = known || f.text == o;
      list += (list.empty() ? "" : ", ") + quote(o);
    }
    if (!known) {
      c.add(Severity::Error, "scene.field.enum", where + " is " + quote(f.text) + "; it must be one of " + list,
            f.pointer);
    }
  }
}

void check_traits(Checker& c, const SceneEntity& e) {
  for (const SceneTrait& t : e.traits) {
    for (const TraitField& f : t.fields) {
      if ((f.kind == FieldKind::Array || f.kind == FieldKind::Object) && !kNonScalarAllowed.count(t.name + "." + f.name)) {
        c.add(Severity::Error, "scene.trait.scalar",
              t.name + "." + f.name + " is " + field_kind_label(f.kind) +
                  ": trait fields must be scalar (the engine's trait scalar guard); keep structure in an asset or in "
                  "child entities, or store it as a JSON string",
              f.pointer);
      }
    }
    const auto spec = trait_specs().find(t.name);
    if (spec == trait_specs().end()) continue;
    for (const TraitField& f : t.fields) {
      if (f.kind == FieldKind::Array || f.kind == FieldKind::Object) continue;  // reported above
      const FieldSpec* fs = nullptr;
      for (const FieldSpec& s : spec->second) {
        if (f.name == s.name) fs = &s;
      }
      if (!fs) {
        c.add(Severity::Warning, "scene.field.unknown",
              t.name + " has no field " + quote(f.name) + ": the loader ignores it (check the spelling)", f.pointer);
        continue;
      }
      check_field(c, t, f, *fs);
    }
  }
  const bool skinned = e.has("SkinnedSprite2D");
  const SceneTrait* billboard = e.trait("Billboard3D");
  const SceneTrait* flat = e.trait("FlatSprite3D");
  if (billboard && flat) {
    c.add(Severity::Error, "scene.3d.both",
          "entity has both Billboard3D and FlatSprite3D: both passes run and flat silently wins; keep one",
          flat->pointer);
  }
  for (const SceneTrait* t : {billboard, flat}) {
    if (t && !skinned) {
      c.add(Severity::Error, "scene.3d.alone",
            t->name + " only places a SkinnedSprite2D in 3D: add SkinnedSprite2D to this entity or remove " + t->name,
            t->pointer);
    }
  }
}

// The SkinnedSprite2D root that claims a Bone2D entity: the first skinned entity found walking up
// from the bone's parent (the engine's grouping, §2.5 step 4), or -1.
std::int64_t owning_root(const Scene& scene, std::size_t bone) {
  std::int64_t cur = scene.entities[bone].parent;
  for (int steps = 0; cur >= 0 && steps < 4096; ++steps) {
    const SceneEntity& e = scene.entities[static_cast<std::size_t>(cur)];
    if (e.has("SkinnedSprite2D")) return cur;
    cur = e.parent;
  }
  return -1;
}

std::string entity_label(const Scene& scene, std::int64_t index) {
  if (index < 0) return "the scene root";
  const SceneEntity& e = scene.entities[static_cast<std::size_t>(index)];
  if (auto bone = bone2d_name_of(e)) return "Bone2D " + quote(*bone) + " (" + e.pointer + ")";
  std::string name = attribute_name_of(e);
  if (name.empty()) name = e.name;
  return "entity " + (name.empty() ? std::string() : quote(name) + " ") + "(" + e.pointer + ")";
}

// Up to 12 names, quoted and comma-separated, then ", ..." when there are more.
std::string quoted_list(const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t k = 0; k < names.size() && k < 12; ++k) list += (k ? ", " : "") + quote(names[k]);
  if (names.size() > 12) list += ", ...";
  return list;
}

// The Bone2D entities under one SkinnedSprite2D root.
struct BoneEntities {
  std::map<std::string, std::int64_t> entity_by_bone;  // bone name -> entity (last wins, as nowByName)
  std::vector<std::size_t> members;                    // every Bone2D entity the root owns, in file order
};

// Collects the root's Bone2D entities; names that are no rig bone, and duplicates, are reported.
BoneEntities collect_bone_entities(Checker& c, const Scene& scene, std::size_t root, const RigBones& rig,
                                   const std::map<std::string, std::size_t>& rig_index) {
  BoneEntities out;
  for (std::size_t i = 0; i < scene.entities.size(); ++i) {
    if (!scene.entities[i].has("Bone2D") || i == root) continue;
    if (owning_root(scene, i) != static_cast<std::int64_t>(root)) continue;
    out.members.push_back(i);
    const std::string name = *bone2d_name_of(scene.entities[i]);
    const SceneTrait* bt = scene.entities[i].trait("Bone2D");
    const TraitField* nf = bt->field("name");
    const std::string ptr = nf ? nf->pointer : bt->pointer;
    if (!rig_index.count(name)) {
      const std::string known = quoted_list(rig.names);
      c.add(Severity::Error, "scene.bone.unknown",
            "Bone2D name " + quote(name) + " is not a bone of rig " + quote(rig.file) + " (bones: " +
                (known.empty() ? std::string("none") : known) + "): the engine ignores this entity",
            ptr);
      continue;
    }
    if (auto [it, fresh] = out.entity_by_bone.emplace(name, static_cast<std::int64_t>(i)); !fresh) {
      c.add(Severity::Warning, "scene.bone.duplicate",
            "Bone2D " + quote(name) + " also appears at " + scene.entities[static_cast<std::size_t>(it->second)].pointer +
                " under the same SkinnedSprite2D: only the last one drives the bone",
            ptr);
      it->second = static_cast<std::int64_t>(i);
    }
  }
  return out;
}

// Each bone entity that drives a bone must hang under its rig parent's entity (or the root).
void check_bone_parents(Checker& c, const Scene& scene, std::size_t root, const RigBones& rig,
                        const std::map<std::string, std::size_t>& rig_index, BoneEntities& bones) {
  const SceneEntity& root_entity = scene.entities[root];
  for (const std::size_t i : bones.members) {
    const std::string name = *bone2d_name_of(scene.entities[i]);
    const auto ri = rig_index.find(name);
    if (ri == rig_index.end() || bones.entity_by_bone[name] != static_cast<std::int64_t>(i)) continue;
    const std::int64_t p = rig.parents[ri->second];
    const bool rig_root = p < 0 || p >= static_cast<std::int64_t>(rig.names.size());
    const std::int64_t actual = scene.entities[i].parent;
    std::int64_t expected = static_cast<std::int64_t>(root);
    std::string expected_label = "the SkinnedSprite2D entity " + root_entity.pointer;
    if (!rig_root) {
      const std::string& parent_name = rig.names[static_cast<std::size_t>(p)];
      const auto pe = bones.entity_by_bone.find(parent_name);
      expected = pe == bones.entity_by_bone.end() ? -2 : pe->second;
      expected_label = "Bone2D " + quote(parent_name);
    }
    if (actual == expected) continue;
    if (expected == -2) continue;  // parent bone entity missing: reported as scene.bone.missing
    c.add(Severity::Error, "scene.bone.parent",
          "Bone2D " + quote(name) + " must be a child of " + expected_label + " to mirror the rig's hierarchy, but its parent is " +
              entity_label(scene, actual) +
              (rig_root ? "" : " (a bone under another entity is skinned as if its transform were root-local)"),
          scene.entities[i].pointer + "/traits/EntityAttributes/parentId");
  }
}

void check_bones(Checker& c, const Scene& scene, std::size_t root, const TraitField& rig_field, const RigBones& rig) {
  std::map<std::string, std::size_t> rig_index;  // last wins, as boneIndexByName
  for (std::size_t i = 0; i < rig.names.size(); ++i) rig_index[rig.names[i]] = i;
  BoneEntities bones = collect_bone_entities(c, scene, root, rig, rig_index);
  check_bone_parents(c, scene, root, rig, rig_index, bones);
  std::vector<std::string> missing;
  for (std::size_t b = 0; b < rig.names.size(); ++b) {
    if (!bones.entity_by_bone.count(rig.names[b])) missing.push_back(rig.names[b]);
  }
  if (!missing.empty()) {
    const std::string list = quoted_list(missing);
    c.add(Severity::Warning, "scene.bone.missing",
          "rig bones without a Bone2D entity under this SkinnedSprite2D: " + list +
              "; their vertices stay at the bind pose and do not follow their parents",
          rig_field.pointer);
  }
}

void check_rig_ref(Checker& c, const Scene& scene, std::size_t index, const RigLookup& rigs) {
  const SceneEntity& e = scene.entities[index];
  const SceneTrait* t = e.trait("SkinnedSprite2D");
  const TraitField* f = t->field("rig");
  if (!f || (f->kind == FieldKind::String && f->text.empty())) {
    c.add(Severity::Warning, "scene.rig.empty",
          "SkinnedSprite2D has no rig: nothing is drawn; set \"rig\" to the rig's GUID (its \"id\")",
          f ? f->pointer : t->pointer);
    return;
  }
  if (f->kind != FieldKind::String) return;  // scene.field.type already
  const std::string& ref = f->text;
  if (!is_guid(ref)) {
    if (is_url(ref)) {
      c.add(Severity::Warning, "scene.rig.url",
            "rig " + quote(ref) + " is an external URL: the engine fetches it as is, outside the asset pipeline; use the rig GUID",
            f->pointer);
    } else {
      c.add(Severity::Error, "scene.rig.guid",
            "rig " + quote(ref) + (looks_like_path(ref) ? " is a literal path" : " is not a GUID") +
                ": reference rigs by GUID (the rig file's \"id\")",
            f->pointer);
    }
    return;
  }
  if (!c.assets) return;
  const AssetEntry* entry = c.assets->find(ref);
  if (!entry) {
    c.add(Severity::Error, "scene.rig.unresolved",
          "rig " + ref + " does not resolve to any asset under " + quote(c.assets->root()) +
              ": no .rig2d.json has this \"id\" (check --assets or the GUID)",
          f->pointer);
    return;
  }
  if (entry->kind != AssetKind::Rig) {
    c.add(Severity::Error, "scene.rig.not_rig",
          "rig " + ref + " is the GUID of " + quote(entry->path) + ", which is not a .rig2d.json", f->pointer);
    return;
  }
  std::string why;
  const RigBones* bones = rigs ? rigs(*entry, why) : nullptr;
  if (!bones) {
    c.add(Severity::Error, "scene.rig.unreadable",
          "rig " + quote(entry->path) + " cannot be read, so its bones cannot be checked: " + why, f->pointer);
    return;
  }
  check_bones(c, scene, index, *f, *bones);
}

// Entry i of the clip bank: its shape, and its clip GUID resolved to an .anim.json. Its name goes to
// `names`. False when the entry is malformed.
bool check_clip_entry(Checker& c, const Json& entry, std::size_t i, const TraitField* clips,
                      std::vector<std::string>& names) {
  const Json* name = member(entry, "name");
  const Json* clip = member(entry, "clip");
  const Json* speed = member(entry, "speed");
  const Json* loop = member(entry, "loop");
  const Json* fade = member(entry, "fadeDuration");
  const std::string which = "Animator.clips entry " + std::to_string(i);
  if (!name || !name->is_string() || !clip || !clip->is_string() || (speed && !speed->is_number()) ||
      (loop && !loop->is_boolean()) || (fade && !fade->is_number())) {
    c.add(Severity::Error, "scene.animator.clips",
          which + " must be {\"name\": string, \"clip\": string, \"speed\"?: number, \"loop\"?: boolean, "
                  "\"fadeDuration\"?: number}",
          clips->pointer);
    return false;
  }
  names.push_back(name->get<std::string>());
  const std::string ref = clip->get<std::string>();
  if (!is_guid(ref)) {
    c.add(Severity::Error, "scene.animator.clip.guid",
          which + " (" + quote(names.back()) + "): clip " + quote(ref) +
              " is not a GUID: reference the .anim.json by its \"id\"",
          clips->pointer);
  } else if (c.assets) {
    const AssetEntry* owner = c.assets->find(ref);
    if (!owner || owner->kind != AssetKind::Animation) {
      c.add(Severity::Error, "scene.animator.clip.unresolved",
            which + " (" + quote(names.back()) + "): clip " + ref +
                (owner ? " is the GUID of " + quote(owner->path) + ", not of an .anim.json"
                       : " does not resolve to any .anim.json under " + quote(c.assets->root())),
            clips->pointer);
    }
  }
  return true;
}

// Animator.clips is a JSON string holding the clip bank (§1.6): parse it and resolve each clip GUID.
void check_animator(Checker& c, const SceneEntity& e) {
  const SceneTrait* t = e.trait("Animator");
  if (!t) return;
  const TraitField* clips = t->field("clips");
  std::vector<std::string> names;
  bool bank_ok = true;
  if (clips && clips->kind == FieldKind::String && !clips->text.empty()) {
    const std::string shape = "a JSON string holding [{\"name\", \"clip\": <anim guid>, \"speed\"?, \"loop\"?, \"fadeDuration\"?}]";
    auto bank = parse_json(clips->text, c.path);
    if (!bank || !bank->is_array()) {
      bank_ok = false;
      c.add(Severity::Error, "scene.animator.clips",
            "Animator.clips must be " + shape + (bank ? std::string(", not ") + json_type_name(*bank) : ": " + bank.error().message),
            clips->pointer);
    } else {
      for (std::size_t i = 0; i < bank->size(); ++i) {
        if (!check_clip_entry(c, (*bank)[i], i, clips, names)) bank_ok = false;
      }
    }
  }
  const TraitField* active = t->field("clip");
  if (bank_ok && active && active->kind == FieldKind::String && !active->text.empty() &&
      std::find(names.begin(), names.end(), active->text) == names.end()) {
    std::string list;
    for (std::size_t k = 0; k < names.size() && k < 12; ++k) list += (k ? ", " : "") + quote(names[k]);
    c.add(Severity::Warning, "scene.animator.clip.unknown",
          "Animator.clip " + quote(active->text) + " is not a name in Animator.clips (" +
              (list.empty() ? std::string("the bank is empty") : list) + "): nothing plays; use \"\" for the first clip",
          active->pointer);
  }
}

}  // namespace

void check_scene(const Scene& scene, Checker& c, const RigLookup& rigs) {
  const bool prefab = scene.flavor == SceneFlavor::Prefab;
  if (!scene.id) {
    c.add(Severity::Error, prefab ? "prefab.id.missing" : "scene.id.missing",
          std::string("the ") + (prefab ? "prefab" : "scene") + " has no string \"id\": add its GUID", "");
  } else if (!is_guid(*scene.id)) {
    c.add(Severity::Error, prefab ? "prefab.id.guid" : "scene.id.guid",
          "id " + quote(*scene.id) + " is not a GUID (8-4-4-4-12 hex digits): replace it with one", "/id");
  } else {
    c.own(*scene.id, "/id");
  }
  if (!prefab && scene.version && *scene.version > 9) {
    c.add(Severity::Warning, "scene.version",
          "scene version " + js_number(*scene.version) + " is newer than the engine's 9: it loads with a warning", "/version");
  }
  for (const SceneEntity& e : scene.entities) {
    check_traits(c, e);
    check_animator(c, e);
  }
  for (std::size_t i = 0; i < scene.entities.size(); ++i) {
    if (scene.entities[i].has("SkinnedSprite2D")) check_rig_ref(c, scene, i, rigs);
  }
  for (std::size_t i = 0; i < scene.entities.size(); ++i) {
    const SceneEntity& e = scene.entities[i];
    if (!e.has("Bone2D") || e.has("SkinnedSprite2D") || owning_root(scene, i) >= 0) continue;
    c.add(Severity::Warning, "scene.bone.orphan",
          "Bone2D " + quote(*bone2d_name_of(e)) +
              " has no SkinnedSprite2D ancestor, so it drives nothing: parent it under the rig's SkinnedSprite2D entity",
          e.trait("Bone2D")->pointer);
  }
}

}  // namespace rig2d::detail
