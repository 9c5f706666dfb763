// SPDX-License-Identifier: Apache-2.0
// The registry of validate/scene finding codes: docs/validate.md documents exactly these, and the
// invalid corpus has a file for each (tests/unit/validate/test_corpus.cpp checks both).
#include "rig2d/validate/validate.h"

namespace rig2d {

const std::vector<CodeInfo>& validation_codes() {
  using S = Severity;
  static const std::vector<CodeInfo> codes = {
      // rigs, beyond the rig reader
      {"rig.id.missing", S::Error, "the rig has no id, so scenes cannot reference it"},
      {"rig.id.guid", S::Error, "the rig id is not a GUID"},
      {"rig.sprite.empty", S::Warning, "a part (or v1 rig) has no sprite, which hides the whole rig in 2D"},
      {"rig.sprite.url", S::Warning, "a sprite ref is an external URL, outside the asset pipeline"},
      {"rig.sprite.path", S::Error, "a sprite ref is a literal path instead of a GUID"},
      {"rig.sprite.guid", S::Error, "a sprite ref is neither a GUID, a path nor a URL"},
      {"rig.sprite.unresolved", S::Error, "a sprite GUID resolves to no sidecar under the asset root"},
      {"rig.sprite.texture", S::Error, "a v2 part sprite is a raw texture GUID (sprites-only rule)"},
      {"rig.sprite.texture.v1", S::Warning, "the v1 sprite is a raw texture GUID instead of its sprite GUID"},
      {"rig.sprite.not_sprite", S::Error, "a sprite GUID belongs to an asset that is not a sprite"},
      {"rig.sprite.sheet_whole", S::Warning, "a sprite is the whole image of a texture that has slices"},
      {"rig.mesh.tri.degenerate", S::Warning, "a triangle has repeated or collinear vertices"},
      {"rig.mesh.tri.duplicate", S::Warning, "a triangle repeats an earlier triangle's vertices"},
      // sidecars
      {"meta.root", S::Error, "the sidecar is not a JSON object"},
      {"meta.version", S::Error, "the sidecar version is missing or not 2"},
      {"meta.id.missing", S::Error, "the sidecar has no id"},
      {"meta.id.guid", S::Error, "the sidecar id is not a GUID"},
      {"meta.type", S::Error, "the texture type is not 2d, ui or 3d"},
      {"meta.texture", S::Error, "texture import settings are not an object"},
      {"meta.texture.format", S::Warning, "unknown texture format"},
      {"meta.sprite_sheet", S::Error, "spriteSheet is not {width, height} with positive numbers"},
      {"meta.sprite_sheet.missing", S::Warning, "slices without spriteSheet dims sample the whole texture"},
      {"meta.sprites", S::Error, "sprites is not an array"},
      {"meta.slice", S::Error, "a slice is not an object"},
      {"meta.slice.guid", S::Error, "a slice has no GUID"},
      {"meta.slice.name", S::Warning, "a slice has no name, or a name another slice uses"},
      {"meta.slice.rect", S::Error, "a slice rect is missing, not numeric, or empty"},
      {"meta.slice.bounds", S::Error, "a slice rect reaches outside the spriteSheet"},
      {"meta.slice.pivot", S::Error, "a slice pivot is not {x, y} within 0..1"},
      {"meta.asset.missing", S::Warning, "the file the sidecar describes does not exist"},
      {"meta.rig2d", S::Error, "the rig2d key is not {\"template\": string}"},
      {"meta.rig2d.template", S::Error, "the rig2d template names no bundled template or readable template file"},
      // scenes and prefabs: structure (scene reader)
      {"scene.root", S::Error, "the scene is not a JSON object"},
      {"scene.entities", S::Error, "entities is missing or not an array"},
      {"scene.entity", S::Error, "an entity is not an object"},
      {"scene.traits", S::Error, "an entity's traits is not an object"},
      {"scene.trait.type", S::Error, "a trait is neither an object of fields nor true"},
      {"scene.resources", S::Error, "resources is not an array of {type, path}"},
      {"scene.entity.guid.duplicate", S::Error, "two entities share an EntityAttributes.guid"},
      {"scene.entity.id.duplicate", S::Warning, "two entities share an id (localId in prefabs)"},
      {"scene.parent.invalid", S::Warning, "parentId is neither a guid string nor a non-negative id"},
      {"scene.parent.dangling", S::Warning, "parentId names no entity, so the entity becomes a root"},
      {"scene.parent.self", S::Error, "an entity is its own parent"},
      {"scene.parent.cycle", S::Error, "parent links form a cycle"},
      // scenes and prefabs: content
      {"scene.id.missing", S::Error, "the scene has no string id"},
      {"scene.id.guid", S::Error, "the scene id is not a GUID"},
      {"prefab.id.missing", S::Error, "the prefab has no string id"},
      {"prefab.id.guid", S::Error, "the prefab id is not a GUID"},
      {"scene.version", S::Warning, "the scene version is newer than the engine's 9"},
      {"scene.trait.scalar", S::Error, "a trait field is an array or object (trait scalar guard)"},
      {"scene.field.type", S::Error, "a known trait field has the wrong type"},
      {"scene.field.range", S::Error, "a trait field is out of range (opacity, pixelsPerUnit, color, ...)"},
      {"scene.field.enum", S::Error, "a trait field is not one of its enum options"},
      {"scene.field.unknown", S::Warning, "a known trait has a field it does not declare"},
      {"scene.3d.both", S::Error, "an entity has both Billboard3D and FlatSprite3D"},
      {"scene.3d.alone", S::Error, "Billboard3D or FlatSprite3D without SkinnedSprite2D"},
      {"scene.rig.empty", S::Warning, "SkinnedSprite2D has no rig"},
      {"scene.rig.url", S::Warning, "SkinnedSprite2D.rig is an external URL"},
      {"scene.rig.guid", S::Error, "SkinnedSprite2D.rig is not a GUID (e.g. a literal path)"},
      {"scene.rig.unresolved", S::Error, "SkinnedSprite2D.rig resolves to no asset"},
      {"scene.rig.not_rig", S::Error, "SkinnedSprite2D.rig is the GUID of something other than a rig"},
      {"scene.rig.unreadable", S::Error, "the referenced rig cannot be read"},
      {"scene.bone.unknown", S::Error, "a Bone2D name is not a bone of the rig"},
      {"scene.bone.duplicate", S::Warning, "two Bone2D entities of one rig share a name"},
      {"scene.bone.parent", S::Error, "a Bone2D's parent does not mirror the rig hierarchy"},
      {"scene.bone.missing", S::Warning, "rig bones have no Bone2D entity"},
      {"scene.bone.orphan", S::Warning, "a Bone2D has no SkinnedSprite2D ancestor"},
      {"scene.animator.clips", S::Error, "Animator.clips is not a JSON string holding a clip bank"},
      {"scene.animator.clip.guid", S::Error, "an Animator bank clip is not a GUID"},
      {"scene.animator.clip.unresolved", S::Error, "an Animator bank clip resolves to no .anim.json"},
      {"scene.animator.clip.unknown", S::Warning, "Animator.clip names no entry of the bank"},
      // across files
      {"guid.duplicate", S::Error, "a GUID is claimed by more than one file"},
      {"validate.findings.truncated", S::Note, "more findings than the per-file listing limit"},
  };
  return codes;
}

}  // namespace rig2d
