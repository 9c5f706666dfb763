// SPDX-License-Identifier: Apache-2.0
// Reader for the engine's scene JSON (ENGINE-SPEC §1.8) and prefab JSON: entities, their traits and
// fields as written, and the parent hierarchy resolved from any of the three parent-link encodings
// (guid string, legacy numeric file id, prefab localId; §6 #27). Shared by rig2d-validate and the
// pose tool. The reader is tolerant like the engine's loader: structural problems become diagnostics
// and the offending entity/trait/field is skipped; only non-JSON input fails.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/export.h"

namespace rig2d {

enum class FieldKind { Null, Bool, Number, String, Array, Object };

// One trait field as written. Structured values (arrays, objects) are not kept: only their kind,
// since every trait field the engine persists must be scalar (the trait scalar guard, §4.1).
struct TraitField {
  std::string name;
  FieldKind kind = FieldKind::Null;
  bool boolean = false;  // kind == Bool
  double number = 0;     // kind == Number (integers too)
  std::string text;      // kind == String
  std::string pointer;   // JSON pointer of the value
};

struct SceneTrait {
  std::string name;
  bool tag = false;                // written as `true` (a tag trait)
  std::vector<TraitField> fields;  // file order; a duplicate key keeps the last value
  std::string pointer;             // JSON pointer of the trait value

  // The field named `name`, or nullptr.
  RIG2D_EXPORT const TraitField* field(std::string_view field_name) const;
};

// How an entity names its parent (EntityAttributes.parentId).
enum class ParentLink {
  None,     // no EntityAttributes/parentId, "" or 0: a root entity
  Guid,     // a string: the parent's EntityAttributes.guid (current scenes)
  FileId,   // a number > 0 in a scene: the parent's numeric entity `id` (legacy scenes)
  LocalId,  // a number > 0 in a prefab: the parent's `localId`
  Invalid,  // any other value (negative or fractional number, bool, ...): the engine uses root
};

struct SceneEntity {
  std::optional<double> id;        // scene: `id` (the ECS id at save time); prefab: `localId`
  std::string name;                // decorative `name` (EntityAttributes.name is the real one)
  std::vector<SceneTrait> traits;  // file order
  std::string pointer;             // "/entities/<i>"

  ParentLink parent_link = ParentLink::None;
  std::string parent_guid;         // ParentLink::Guid
  double parent_number = 0;        // ParentLink::FileId / LocalId / Invalid (if numeric)
  // Resolved parent: index into Scene::entities, or -1 for root (also for an unknown or
  // self-referencing link, which the engine treats as root).
  std::int64_t parent = -1;
  bool parent_dangling = false;    // the link names no entity (so the engine uses root)

  // The trait named `name`, or nullptr.
  RIG2D_EXPORT const SceneTrait* trait(std::string_view trait_name) const;
  bool has(std::string_view trait_name) const { return trait(trait_name) != nullptr; }
};

struct SceneResource {
  std::string type;
  std::string path;  // a GUID or URL
  std::string pointer;
};

enum class SceneFlavor { Scene, Prefab };

struct Scene {
  SceneFlavor flavor = SceneFlavor::Scene;
  std::optional<std::string> id;   // the scene/prefab GUID, when a string
  std::optional<double> version;   // when a number
  std::vector<SceneEntity> entities;
  std::vector<SceneResource> resources;

  // Children of entity `index` (-1 = the roots), in file order.
  RIG2D_EXPORT std::vector<std::size_t> children(std::int64_t index) const;
};

struct SceneRead {
  std::optional<Scene> scene;           // set unless the text is not JSON or the root is not an object
  std::vector<Diagnostic> diagnostics;  // structural problems met while reading (see docs/validate.md)
};

// Reads a scene (or prefab) from JSON text. Never throws; `path` is only used in diagnostics.
// Diagnostics: json.syntax / json.too_deep / json.too_large, scene.root, scene.entities,
// scene.entity, scene.traits, scene.trait.type, scene.resources, plus parent-link findings
// (scene.parent.dangling, scene.parent.self, scene.parent.invalid, scene.parent.cycle,
// scene.entity.guid.duplicate, scene.entity.id.duplicate), each with a JSON pointer and line:col.
RIG2D_EXPORT SceneRead read_scene(std::string_view text, const std::string& path,
                                  SceneFlavor flavor = SceneFlavor::Scene);

// Typed views with the loader's defaults for missing fields (§1.8). Wrong-typed values count as
// missing. Units: Transform x/y/z in scene units (pixels for 2D bones), rotations in radians.
struct TransformFields {
  double x = 0, y = 0, z = 0, rx = 0, ry = 0, rz = 0, sx = 1, sy = 1, sz = 1;
};
struct SkinnedSprite2DFields {
  std::string rig;                // rig2d GUID
  std::uint32_t color = 0xFFFFFF; // 0xRRGGBB tint
  double opacity = 1;             // 0..1
  bool flip_x = false, flip_y = false, is_visible = true;
};
RIG2D_EXPORT TransformFields transform_of(const SceneEntity& entity);
RIG2D_EXPORT std::optional<SkinnedSprite2DFields> skinned_sprite_of(const SceneEntity& entity);
// Bone2D.name, or nullopt when the entity has no Bone2D trait.
RIG2D_EXPORT std::optional<std::string> bone2d_name_of(const SceneEntity& entity);
// EntityAttributes.name ("" when absent).
RIG2D_EXPORT std::string attribute_name_of(const SceneEntity& entity);

}  // namespace rig2d
