// SPDX-License-Identifier: Apache-2.0
#include "rig2d/scene/scene.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "json/json_util.h"

namespace rig2d {
namespace {

using detail::Json;
using detail::json_type_name;

struct Reader {
  std::string_view text;
  const std::string& path;
  std::vector<Diagnostic>& out;

  void report(Severity severity, std::string code, std::string message, std::string pointer) {
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.message = std::move(message);
    const auto [line, col] = detail::locate_pointer(text, pointer);
    d.where = Location{path, std::move(pointer), line, col};
    out.push_back(std::move(d));
  }
};

TraitField read_field(const std::string& name, const Json& v, std::string pointer) {
  TraitField f;
  f.name = name;
  f.pointer = std::move(pointer);
  switch (v.type()) {
    case Json::value_t::boolean:
      f.kind = FieldKind::Bool;
      f.boolean = v.get<bool>();
      break;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      f.kind = FieldKind::Number;
      f.number = v.get<double>();
      break;
    case Json::value_t::string:
      f.kind = FieldKind::String;
      f.text = v.get<std::string>();
      break;
    case Json::value_t::array: f.kind = FieldKind::Array; break;
    case Json::value_t::object: f.kind = FieldKind::Object; break;
    default: f.kind = FieldKind::Null; break;
  }
  return f;
}

std::string number_text(double v) { return detail::js_number(v); }

// Entities by EntityAttributes.guid and by id (localId in prefabs); the last one wins, as in the
// loader's maps.
struct EntityIds {
  std::map<std::string, std::size_t> by_guid;
  std::map<double, std::size_t> by_id;
};

// The id maps; duplicate guids and ids are reported.
EntityIds index_entities(const Scene& scene, Reader& r) {
  const bool prefab = scene.flavor == SceneFlavor::Prefab;
  EntityIds ids;
  for (std::size_t i = 0; i < scene.entities.size(); ++i) {
    const SceneEntity& e = scene.entities[i];
    if (const SceneTrait* attrs = e.trait("EntityAttributes")) {
      const TraitField* g = attrs->field("guid");
      if (g && g->kind == FieldKind::String && !g->text.empty()) {
        if (auto it = ids.by_guid.find(g->text); it != ids.by_guid.end()) {
          r.report(Severity::Error, "scene.entity.guid.duplicate",
                   "entity guid \"" + g->text + "\" is also used by " + scene.entities[it->second].pointer +
                       "; parent links by guid become ambiguous (the last one wins): give each entity its own guid",
                   g->pointer);
        }
        ids.by_guid[g->text] = i;
      }
    }
    if (e.id) {
      if (auto it = ids.by_id.find(*e.id); it != ids.by_id.end()) {
        r.report(Severity::Warning, "scene.entity.id.duplicate",
                 std::string(prefab ? "localId " : "entity id ") + number_text(*e.id) + " is also used by " +
                     scene.entities[it->second].pointer + ": ids must be unique within a file",
                 e.pointer + (prefab ? "/localId" : "/id"));
      }
      ids.by_id[*e.id] = i;
    }
  }
  return ids;
}

// Entity i's EntityAttributes.parentId: sets its parent link kind and index, or reports why it is a root.
void link_parent(Scene& scene, std::size_t i, const EntityIds& ids, Reader& r) {
  const bool prefab = scene.flavor == SceneFlavor::Prefab;
  SceneEntity& e = scene.entities[i];
  const SceneTrait* attrs = e.trait("EntityAttributes");
  const TraitField* link = attrs ? attrs->field("parentId") : nullptr;
  if (!link) return;
  std::optional<std::size_t> target;
  if (link->kind == FieldKind::String) {
    if (link->text.empty()) return;
    e.parent_link = ParentLink::Guid;
    e.parent_guid = link->text;
    if (auto it = ids.by_guid.find(link->text); it != ids.by_guid.end()) target = it->second;
  } else if (link->kind == FieldKind::Number) {
    e.parent_number = link->number;
    if (link->number == 0) return;
    if (link->number > 0) {
      e.parent_link = prefab ? ParentLink::LocalId : ParentLink::FileId;
      if (auto it = ids.by_id.find(link->number); it != ids.by_id.end()) target = it->second;
    } else {
      e.parent_link = ParentLink::Invalid;
    }
  } else {
    e.parent_link = ParentLink::Invalid;
  }
  if (e.parent_link == ParentLink::Invalid) {
    r.report(Severity::Warning, "scene.parent.invalid",
             "parentId must be the parent's guid string (\"\" for root) or, in legacy files, its numeric id "
             "(0 for root); this value makes the entity a root",
             link->pointer);
    return;
  }
  if (!target) {
    e.parent_dangling = true;
    r.report(Severity::Warning, "scene.parent.dangling",
             "parentId names no entity in this file, so the engine makes this entity a root: fix the link or "
             "use \"\" for a root entity",
             link->pointer);
    return;
  }
  if (*target == i) {
    r.report(Severity::Error, "scene.parent.self", "entity is its own parent: use \"\" for a root entity",
             link->pointer);
    return;
  }
  e.parent = static_cast<std::int64_t>(*target);
}

// Breaks parent cycles so every walk up terminates: a colour walk; each cycle is reported once, at
// its lowest-index member, which becomes a root.
void break_cycles(Scene& scene, Reader& r) {
  std::vector<int> state(scene.entities.size(), 0);  // 0 new, 1 on the current path, 2 done
  for (std::size_t start = 0; start < scene.entities.size(); ++start) {
    if (state[start] != 0) continue;
    std::vector<std::size_t> trail;
    std::int64_t cur = static_cast<std::int64_t>(start);
    while (cur >= 0 && state[static_cast<std::size_t>(cur)] == 0) {
      state[static_cast<std::size_t>(cur)] = 1;
      trail.push_back(static_cast<std::size_t>(cur));
      cur = scene.entities[static_cast<std::size_t>(cur)].parent;
    }
    if (cur >= 0 && state[static_cast<std::size_t>(cur)] == 1) {
      const auto first = std::find(trail.begin(), trail.end(), static_cast<std::size_t>(cur));
      const std::size_t lowest = *std::min_element(first, trail.end());
      SceneEntity& breaker = scene.entities[lowest];
      r.report(Severity::Error, "scene.parent.cycle",
               "parent links form a cycle through this entity (" + std::to_string(trail.end() - first) +
                   " entities): an entity cannot be its own ancestor",
               breaker.pointer + "/traits/EntityAttributes/parentId");
      breaker.parent = -1;
    }
    for (const std::size_t t : trail) state[t] = 2;
  }
}

// Resolves EntityAttributes.parentId links, then breaks cycles so every walk up terminates.
void resolve_parents(Scene& scene, Reader& r) {
  const EntityIds ids = index_entities(scene, r);
  for (std::size_t i = 0; i < scene.entities.size(); ++i) link_parent(scene, i, ids, r);
  break_cycles(scene, r);
}

}  // namespace

const TraitField* SceneTrait::field(std::string_view field_name) const {
  for (const TraitField& f : fields) {
    if (f.name == field_name) return &f;
  }
  return nullptr;
}

const SceneTrait* SceneEntity::trait(std::string_view trait_name) const {
  for (const SceneTrait& t : traits) {
    if (t.name == trait_name) return &t;
  }
  return nullptr;
}

std::vector<std::size_t> Scene::children(std::int64_t index) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < entities.size(); ++i) {
    if (entities[i].parent == index) out.push_back(i);
  }
  return out;
}

namespace {

// "resources": [{type, path}], each entry checked.
void read_resources(const Json& resources, Scene& scene, Reader& r) {
  if (!resources.is_array()) {
    r.report(Severity::Error, "scene.resources",
             std::string("\"resources\" must be an array of {type, path}, not ") + json_type_name(resources), "/resources");
  } else {
    for (std::size_t i = 0; i < resources.size(); ++i) {
      const Json& res = resources[i];
      const std::string ptr = "/resources/" + std::to_string(i);
      if (!res.is_object() || !res.contains("type") || !res["type"].is_string() || !res.contains("path") ||
          !res["path"].is_string()) {
        r.report(Severity::Error, "scene.resources",
                 "a resource entry must be an object {\"type\": string, \"path\": string}", ptr);
        continue;
      }
      scene.resources.push_back({res["type"].get<std::string>(), res["path"].get<std::string>(), ptr});
    }
  }
}

// An entity's "traits" object: tag traits (true) and traits with fields.
void read_traits(const Json& traits, SceneEntity& e, Reader& r) {
  if (!traits.is_object()) {
    r.report(Severity::Error, "scene.traits",
             std::string("\"traits\" must be an object {TraitName: {field: value} | true}, not ") +
                 json_type_name(traits),
             e.pointer + "/traits");
  } else {
    for (auto t = traits.begin(); t != traits.end(); ++t) {
      SceneTrait trait;
      trait.name = t.key();
      trait.pointer = e.pointer + "/traits/" + detail::pointer_token(t.key());
      if (t->is_boolean() && t->get<bool>()) {
        trait.tag = true;
      } else if (t->is_object()) {
        for (auto f = t->begin(); f != t->end(); ++f) {
          trait.fields.push_back(read_field(f.key(), *f, trait.pointer + "/" + detail::pointer_token(f.key())));
        }
      } else {
        r.report(Severity::Error, "scene.trait.type",
                 "trait \"" + t.key() + "\" must be an object of fields, or true for a tag trait, not " +
                     json_type_name(*t),
                 trait.pointer);
        continue;
      }
      e.traits.push_back(std::move(trait));
    }
  }
}

// One entry of "entities"; a non-object is reported and kept (empty), so indices match the file.
SceneEntity read_entity(const Json& ej, std::size_t i, const char* id_key, Reader& r) {
  SceneEntity e;
  e.pointer = "/entities/" + std::to_string(i);
  if (!ej.is_object()) {
    r.report(Severity::Error, "scene.entity",
             std::string("an entity must be an object {id, name, traits}, not ") + json_type_name(ej), e.pointer);
    return e;
  }
  if (auto it = ej.find(id_key); it != ej.end() && it->is_number()) e.id = it->get<double>();
  if (auto it = ej.find("name"); it != ej.end() && it->is_string()) e.name = it->get<std::string>();
  if (auto it = ej.find("traits"); it != ej.end()) read_traits(*it, e, r);
  return e;
}

}  // namespace

SceneRead read_scene(std::string_view text, const std::string& path, SceneFlavor flavor) {
  SceneRead result;
  Reader r{text, path, result.diagnostics};
  auto parsed = detail::parse_json(text, path);
  if (!parsed) {
    const Error& e = parsed.error();
    result.diagnostics.push_back(Diagnostic{Severity::Error, e.code, e.message, e.where});
    return result;
  }
  const Json& root = *parsed;
  if (!root.is_object()) {
    r.report(Severity::Error, "scene.root",
             std::string("a scene file must be a JSON object with \"entities\", not ") + json_type_name(root), "");
    return result;
  }
  Scene scene;
  scene.flavor = flavor;
  if (auto it = root.find("id"); it != root.end() && it->is_string()) scene.id = it->get<std::string>();
  if (auto it = root.find("version"); it != root.end() && it->is_number()) scene.version = it->get<double>();

  if (auto it = root.find("resources"); it != root.end()) read_resources(*it, scene, r);
  const auto ents = root.find("entities");
  if (ents == root.end() || !ents->is_array()) {
    r.report(Severity::Error, "scene.entities",
             ents == root.end() ? std::string("missing \"entities\": a scene lists its entities in an array")
                                : std::string("\"entities\" must be an array, not ") + json_type_name(*ents),
             ents == root.end() ? "" : "/entities");
    result.scene = std::move(scene);
    return result;
  }
  const char* id_key = flavor == SceneFlavor::Prefab ? "localId" : "id";
  for (std::size_t i = 0; i < ents->size(); ++i) scene.entities.push_back(read_entity((*ents)[i], i, id_key, r));
  resolve_parents(scene, r);
  result.scene = std::move(scene);
  return result;
}

TransformFields transform_of(const SceneEntity& entity) {
  TransformFields t;
  const SceneTrait* tr = entity.trait("Transform");
  if (!tr) return t;
  const auto num = [&](const char* name, double& dst) {
    if (const TraitField* f = tr->field(name); f && f->kind == FieldKind::Number) dst = f->number;
  };
  num("x", t.x);
  num("y", t.y);
  num("z", t.z);
  num("rx", t.rx);
  num("ry", t.ry);
  num("rz", t.rz);
  num("sx", t.sx);
  num("sy", t.sy);
  num("sz", t.sz);
  return t;
}

std::optional<SkinnedSprite2DFields> skinned_sprite_of(const SceneEntity& entity) {
  const SceneTrait* tr = entity.trait("SkinnedSprite2D");
  if (!tr) return std::nullopt;
  SkinnedSprite2DFields s;
  const auto boolean = [&](const char* name, bool& dst) {
    if (const TraitField* f = tr->field(name); f && f->kind == FieldKind::Bool) dst = f->boolean;
  };
  if (const TraitField* f = tr->field("rig"); f && f->kind == FieldKind::String) s.rig = f->text;
  if (const TraitField* f = tr->field("color"); f && f->kind == FieldKind::Number && std::isfinite(f->number)) {
    // The engine stores colors as `v | 0` (ToInt32) and masks channels with 0xff.
    s.color = static_cast<std::uint32_t>(static_cast<std::int64_t>(std::trunc(std::fmod(f->number, 4294967296.0)))) &
              0xFFFFFFu;
  }
  if (const TraitField* f = tr->field("opacity"); f && f->kind == FieldKind::Number) s.opacity = f->number;
  boolean("flipX", s.flip_x);
  boolean("flipY", s.flip_y);
  boolean("isVisible", s.is_visible);
  return s;
}

std::optional<std::string> bone2d_name_of(const SceneEntity& entity) {
  const SceneTrait* tr = entity.trait("Bone2D");
  if (!tr) return std::nullopt;
  const TraitField* f = tr->field("name");
  return f && f->kind == FieldKind::String ? f->text : std::string();
}

std::string attribute_name_of(const SceneEntity& entity) {
  const SceneTrait* tr = entity.trait("EntityAttributes");
  const TraitField* f = tr ? tr->field("name") : nullptr;
  return f && f->kind == FieldKind::String ? f->text : std::string();
}

}  // namespace rig2d
