// SPDX-License-Identifier: Apache-2.0
// Spine skeleton JSON (4.x) -> rig2d. Bones get Spine's setup-pose world transforms (the runtimes'
// updateWorldTransform, per inherit mode); the rig keeps each bone's world position and the direction
// of its x axis, and every vertex is baked to where Spine draws it, then y is flipped (Spine is y up).
#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <map>
#include <optional>

#include "interop/common.h"
#include "interop/spine_anim.h"
#include "interop/spine_bones.h"
#include "interop/spine_constraints.h"
#include "interop/spine_skins.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/interop/spine.h"
#include "rig2d/asset/sprite_meta.h"

namespace rig2d {
namespace {

using detail::Json;
using interop::JsonSource;

using interop::cos_deg;
using interop::sin_deg;
using interop::SpineBone;
using Inherit = interop::SpineInherit;

// Spine world point (y up) -> rig space (+y down).
Vec2 to_rig(double x, double y) { return {x, -y}; }

Vec2 bone_point(const SpineBone& b, double x, double y) { return {b.a * x + b.b * y + b.wx, b.c * x + b.d * y + b.wy}; }

// A Spine weighted vertex stores its position once per bone. Spine poses each copy with its bone and
// blends the results; rig2d keeps one bind position (the blend at the setup pose), which poses the same
// only while the copies agree. The spread is the largest distance between two copies of one vertex.
struct BindSpread {
  static constexpr double kTolerance = 0.01;  // px: below any visible difference
  std::size_t count = 0;
  double largest = 0;
  std::string where;

  void add(const std::vector<Vec2>& copies, const std::string& pointer) {
    double d = 0;
    for (std::size_t i = 0; i < copies.size(); ++i)
      for (std::size_t j = i + 1; j < copies.size(); ++j)
        d = std::max(d, double(std::hypot(copies[i].x - copies[j].x, copies[i].y - copies[j].y)));
    if (d <= kTolerance) return;
    ++count;
    if (d > largest) largest = d, where = pointer;
  }
};

class SpineImporter {
 public:
  SpineImporter(JsonSource src, const Atlas* atlas, const SpineImportOptions& options)
      : src_(std::move(src)), atlas_(atlas), options_(options) {}

  ImportResult run(const Json& root);

 private:
  [[noreturn]] void fail(std::string code, std::string message, const std::string& pointer) const {
    throw interop::ConvertFailure{src_.fail(std::move(code), std::move(message), pointer).error};
  }
  void warn(std::string code, std::string message, const std::string& pointer) {
    interop::warn(result_.diagnostics, std::move(code), std::move(message), src_.at(pointer));
  }
  // Values that are finite in the file can still overflow once combined (1e308 + 1e308): an error
  // at the value's pointer, never a null coordinate in the rig.
  void require_finite(std::initializer_list<double> values, const std::string& what, const std::string& ptr) const {
    for (double v : values)
      if (!std::isfinite(v))
        fail("spine.overflow", what + " overflows: its values are too large to combine (" + detail::js_number(v) + ")", ptr);
  }
  // Weights Spine blends as given but rig2d cannot keep: counted, the first one's pointer kept.
  struct WeightNote {
    std::size_t count = 0;
    std::string first;
  };
  void note_weights(const std::vector<interop::Influence>& influences, const std::string& ptr);
  void report_weights();
  double number_field(const Json& obj, const char* key, double fallback, const std::string& ptr) const;
  std::string string_field(const Json& obj, const char* key, const std::string& ptr, bool required) const;
  const Json& array_field(const Json& obj, const char* key, const std::string& ptr) const;

  void read_bones(const Json& root);
  void build_rig_bones();
  void read_slots_and_skins(const Json& root);
  void import_attachment(const std::string& slot_name, int slot_bone, const interop::SpineSkinAttachment& att,
                         const std::string& att_name, std::size_t order);
  void region_part(Part& part, const SpineBone& bone, const Json& att, const std::string& ptr, const AtlasRegion* region);
  void mesh_part(Part& part, int slot_bone, const Json& att, const std::string& ptr, const AtlasRegion* region);
  const AtlasRegion* find_region(const std::string& name, const std::string& ptr, std::string& sprite);
  Vec2 slice_uv(const AtlasRegion* region, Vec2 region_uv) const;
  SliceOut* find_slice(const std::string& guid, const TextureSheet** sheet);
  void grow_slice(SliceOut& slice, const TextureSheet& sheet, const std::string& ptr);
  void fit_uvs_to_sprites();

  JsonSource src_;
  const Atlas* atlas_;
  const SpineImportOptions& options_;
  ImportResult result_;
  std::vector<SpineBone> bones_;
  std::map<std::string, int> bone_index_;
  interop::WeightStats weight_stats_;
  std::map<std::string, std::size_t> sheet_of_page_;
  std::vector<std::string> part_pointers_;  // each part's attachment, for warnings
  WeightNote negative_weights_, zero_weights_, unnormalized_weights_;
};

void SpineImporter::note_weights(const std::vector<interop::Influence>& influences, const std::string& ptr) {
  bool negative = false;
  double positive = 0;
  for (const interop::Influence& in : influences) {
    negative = negative || in.weight < 0;
    if (in.weight > 0) positive += in.weight;
  }
  const auto note = [&](WeightNote& n) {
    if (n.count++ == 0) n.first = ptr;
  };
  if (negative) note(negative_weights_);
  if (!(positive > 0)) note(zero_weights_);
  else if (std::abs(positive - 1) > 1e-6) note(unnormalized_weights_);
}

void SpineImporter::report_weights() {
  const auto say = [&](const WeightNote& n, const char* code, const std::string& what) {
    if (n.count == 0) return;
    warn(code, std::to_string(n.count) + " weighted vertices " + what + " (the first at " + n.first + ")", n.first);
  };
  say(negative_weights_, "convert.weights.negative",
      "have negative weights: rig2d drops them and renormalizes the rest, so posed vertices differ from Spine, which "
      "blends them as given");
  say(zero_weights_, "convert.weights.zero", "have no positive weight: each is bound to its slot's bone alone");
  say(unnormalized_weights_, "convert.weights.renormalized",
      "have positive weights not summing to 1: renormalized, so posed vertices differ from Spine, which blends them "
      "as given");
}

double SpineImporter::number_field(const Json& obj, const char* key, double fallback, const std::string& ptr) const {
  const auto it = obj.find(key);
  if (it == obj.end()) return fallback;
  if (!it->is_number()) {
    fail("spine.type", std::string("\"") + key + "\" must be a number, not " + detail::json_type_name(*it), ptr + "/" + key);
  }
  const double v = it->get<double>();
  if (!std::isfinite(v)) fail("spine.type", std::string("\"") + key + "\" must be finite", ptr + "/" + key);
  return v;
}

std::string SpineImporter::string_field(const Json& obj, const char* key, const std::string& ptr, bool required) const {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) {
    if (required) fail("spine.missing", std::string("missing \"") + key + "\"", ptr);
    return "";
  }
  if (!it->is_string()) {
    fail("spine.type", std::string("\"") + key + "\" must be a string, not " + detail::json_type_name(*it), ptr + "/" + key);
  }
  return it->get<std::string>();
}

const Json& SpineImporter::array_field(const Json& obj, const char* key, const std::string& ptr) const {
  static const Json empty = Json::array();
  const auto it = obj.find(key);
  if (it == obj.end()) return empty;
  if (!it->is_array()) {
    fail("spine.type", std::string("\"") + key + "\" must be an array, not " + detail::json_type_name(*it), ptr + "/" + key);
  }
  return *it;
}

void SpineImporter::read_bones(const Json& root) {
  const Json& bones = array_field(root, "bones", "");
  if (bones.size() > kMaxBones) fail("spine.limit", "more than " + std::to_string(kMaxBones) + " bones", "/bones");
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const std::string ptr = "/bones/" + std::to_string(i);
    const Json& jb = bones[i];
    if (!jb.is_object()) fail("spine.bone", "a bone must be an object", ptr);
    SpineBone b;
    b.name = string_field(jb, "name", ptr, true);
    if (bone_index_.count(b.name)) fail("spine.bone.name", "two bones are named \"" + b.name + "\"", ptr + "/name");
    const std::string parent = string_field(jb, "parent", ptr, false);
    if (!parent.empty()) {
      const auto it = bone_index_.find(parent);
      if (it == bone_index_.end()) {
        fail("spine.bone.parent", "parent \"" + parent + "\" is not a bone listed before this one", ptr + "/parent");
      }
      b.parent = it->second;
    } else if (i > 0 && jb.contains("parent")) {
      fail("spine.bone.parent", "parent must name a bone", ptr + "/parent");
    }
    b.x = number_field(jb, "x", 0, ptr), b.y = number_field(jb, "y", 0, ptr), b.rotation = number_field(jb, "rotation", 0, ptr);
    b.scale_x = number_field(jb, "scaleX", 1, ptr), b.scale_y = number_field(jb, "scaleY", 1, ptr);
    b.shear_x = number_field(jb, "shearX", 0, ptr), b.shear_y = number_field(jb, "shearY", 0, ptr);
    const bool has_inherit = jb.contains("inherit");
    const std::string mode = string_field(jb, has_inherit ? "inherit" : "transform", ptr, false);
    static const std::map<std::string, Inherit> kModes = {
        {"", Inherit::Normal}, {"normal", Inherit::Normal}, {"onlyTranslation", Inherit::OnlyTranslation},
        {"noRotationOrReflection", Inherit::NoRotationOrReflection}, {"noScale", Inherit::NoScale},
        {"noScaleOrReflection", Inherit::NoScaleOrReflection}};
    const auto m = kModes.find(mode);
    if (m == kModes.end()) {
      fail("spine.bone.inherit", "unknown inherit mode \"" + mode + "\"", ptr + (has_inherit ? "/inherit" : "/transform"));
    }
    b.inherit = m->second;
    if (b.inherit == Inherit::OnlyTranslation || b.inherit == Inherit::NoRotationOrReflection) {
      warn("convert.spine.bone.inherit",
           "bone \"" + b.name + "\" inherits \"" + mode +
               "\": its bind pose is exact, but rig2d bones always inherit rotation, so posed children differ",
           ptr);
    }
    if (b.scale_x != 1 || b.scale_y != 1 || b.shear_x != 0 || b.shear_y != 0) {
      warn("convert.spine.bone.scale",
           "bone \"" + b.name + "\" has scale or shear in its setup pose: rig2d bones have none, so the vertices "
           "are baked in place and the bone keeps only its position and x-axis direction",
           ptr);
    }
    interop::spine_update_world(b, b.parent >= 0 ? &bones_[static_cast<std::size_t>(b.parent)] : nullptr);
    require_finite({b.a, b.b, b.c, b.d, b.wx, b.wy}, "bone \"" + b.name + "\"'s setup transform", ptr);
    bone_index_[b.name] = static_cast<int>(bones_.size());
    bones_.push_back(std::move(b));
  }
  if (bones_.empty()) fail("spine.bone", "the skeleton has no bones", "/bones");
}

void SpineImporter::build_rig_bones() {
  std::vector<interop::RigidPose> world(bones_.size());
  for (std::size_t i = 0; i < bones_.size(); ++i) {
    const SpineBone& sb = bones_[i];
    const Vec2 p = to_rig(sb.wx, sb.wy);
    // The x axis (a, c) in y-up becomes (a, -c); a collapsed x axis falls back to the y axis turned back 90 degrees.
    const double rot = std::hypot(sb.a, sb.c) > 1e-12 ? std::atan2(-sb.c, sb.a) : std::atan2(-sb.d, sb.b) + interop::kPi / 2;
    world[i] = {p.x, p.y, rot};
    Bone bone;
    bone.name = sb.name;
    bone.parent = sb.parent;
    bone.no_scale = sb.inherit == Inherit::NoScale || sb.inherit == Inherit::NoScaleOrReflection;
    if (sb.parent < 0) {
      bone.x = p.x, bone.y = p.y, bone.rot = rot;
    } else {
      const interop::RigidPose& pw = world[static_cast<std::size_t>(sb.parent)];
      const double dx = p.x - pw.x, dy = p.y - pw.y, c = std::cos(pw.rot), s = std::sin(pw.rot);
      bone.x = c * dx + s * dy;
      bone.y = -s * dx + c * dy;
      bone.rot = std::remainder(rot - pw.rot, 2 * interop::kPi);
    }
    require_finite({bone.x, bone.y, bone.rot}, "bone \"" + sb.name + "\"'s position relative to its parent",
                   "/bones/" + std::to_string(i));
    result_.rig.bones.push_back(std::move(bone));
  }
}

const AtlasRegion* SpineImporter::find_region(const std::string& name, const std::string& ptr, std::string& sprite) {
  if (!atlas_) return nullptr;
  for (const AtlasPage& page : atlas_->pages) {
    for (const AtlasRegion& region : page.regions) {
      if (region.name != name) continue;
      auto [it, fresh] = sheet_of_page_.try_emplace(page.name, result_.sheets.size());
      if (fresh) {
        TextureSheet sheet;
        sheet.image = page.name;
        sheet.width = page.width, sheet.height = page.height;
        for (const KnownSidecar& known : options_.sidecars) {
          if (known.image != page.name) continue;
          if (auto doc = detail::parse_json(known.text, known.image); doc && doc->is_object()) {
            if (auto id = doc->find("id"); id != doc->end() && id->is_string()) sheet.texture_guid = id->get<std::string>();
            if (auto sprites = doc->find("sprites"); sprites != doc->end() && sprites->is_array()) {
              for (const Json& s : *sprites) {
                if (s.is_object() && s.contains("guid") && s["guid"].is_string() && s.contains("name") && s["name"].is_string()) {
                  sheet.slices.push_back({s["guid"].get<std::string>(), s["name"].get<std::string>(), -1, 0, 0, 0});
                }
              }
            }
          }
        }
        if (sheet.texture_guid.empty()) sheet.texture_guid = interop::texture_guid_for(options_, page.name);
        if (sheet.width <= 0 || sheet.height <= 0) {
          warn("convert.atlas.page_size", "atlas page \"" + page.name + "\" has no size: UVs cannot be placed", ptr);
        }
        result_.sheets.push_back(std::move(sheet));
      }
      TextureSheet& sheet = result_.sheets[it->second];
      const PixelRect rect = region_page_rect(region);
      const bool whole_page = page.regions.size() == 1 && rect.x == 0 && rect.y == 0 && rect.w == page.width && rect.h == page.height;
      if (whole_page && sheet.slices.empty()) {  // the texture's own whole-image sprite, no slice
        sheet.whole_image = true;
        sprite = whole_image_sprite_guid(sheet.texture_guid);
        return &region;
      }
      auto slice = std::find_if(sheet.slices.begin(), sheet.slices.end(), [&](const SliceOut& s) { return s.name == name; });
      if (slice == sheet.slices.end()) {
        sheet.slices.push_back({interop::name_guid(sheet.texture_guid, "slice:" + name), name, rect.x, rect.y, rect.w, rect.h});
        slice = sheet.slices.end() - 1;
      } else {
        slice->x = rect.x, slice->y = rect.y, slice->w = rect.w, slice->h = rect.h;  // known GUID, current rect
      }
      sprite = slice->guid;
      return &region;
    }
  }
  warn("convert.atlas.region", "no atlas region named \"" + name + "\": the part gets no sprite", ptr);
  return nullptr;
}

Vec2 SpineImporter::slice_uv(const AtlasRegion* region, Vec2 region_uv) const {
  if (!region) return region_uv;
  const Vec2 page = region_uv_to_page(*region, region_uv);
  const PixelRect r = region_page_rect(*region);
  return {r.w > 0 ? (page.x - r.x) / r.w : 0.0, r.h > 0 ? (page.y - r.y) / r.h : 0.0};
}

void SpineImporter::region_part(Part& part, const SpineBone& bone, const Json& att, const std::string& ptr,
                                const AtlasRegion* region) {
  const double x = number_field(att, "x", 0, ptr), y = number_field(att, "y", 0, ptr), rot = number_field(att, "rotation", 0, ptr);
  const double sx = number_field(att, "scaleX", 1, ptr), sy = number_field(att, "scaleY", 1, ptr);
  const double w = number_field(att, "width", region ? region->original_width : 32, ptr);
  const double h = number_field(att, "height", region ? region->original_height : 32, ptr);
  // The packed pixels as a sub-rect of the original image, in the region's own UVs (v down).
  double u0 = 0, u1 = 1, v0 = 0, v1 = 1;
  if (region && region->original_width > 0 && region->original_height > 0) {
    u0 = double(region->offset_x) / region->original_width;
    u1 = double(region->offset_x + region->width) / region->original_width;
    v0 = double(region->original_height - region->offset_y - region->height) / region->original_height;
    v1 = double(region->original_height - region->offset_y) / region->original_height;
  }
  const double cr = cos_deg(rot), sr = sin_deg(rot);
  const Vec2 corners[4] = {{u0, v0}, {u1, v0}, {u1, v1}, {u0, v1}};  // top-left, top-right, bottom-right, bottom-left
  for (const Vec2& uv : corners) {
    const double lx = (-w / 2 + uv.x * w) * sx, ly = (h / 2 - uv.y * h) * sy;  // attachment space, y up
    const Vec2 world = bone_point(bone, lx * cr - ly * sr + x, lx * sr + ly * cr + y);
    require_finite({world.x, world.y}, "the region's corner", ptr);
    part.mesh.verts.push_back(to_rig(world.x, world.y));
    part.mesh.uvs.push_back(slice_uv(region, uv));
  }
  part.mesh.tris = {0, 1, 2, 0, 2, 3};
  for (int v = 0; v < 4; ++v) interop::append_weights({{static_cast<std::uint32_t>(&bone - bones_.data()), 1.0}}, 0, part, weight_stats_);
}

void SpineImporter::mesh_part(Part& part, int slot_bone, const Json& att, const std::string& ptr, const AtlasRegion* region) {
  const Json& uvs = array_field(att, "uvs", ptr);
  const Json& tris = array_field(att, "triangles", ptr);
  const Json& verts = array_field(att, "vertices", ptr);
  const std::size_t n = uvs.size() / 2;
  if (uvs.size() % 2 != 0) fail("spine.attachment.uvs", "\"uvs\" must hold u, v pairs", ptr + "/uvs");
  if (n > kMaxVertices) fail("spine.limit", "more than " + std::to_string(kMaxVertices) + " vertices", ptr + "/uvs");
  const auto num = [&](const Json& arr, std::size_t i, const std::string& key) {
    if (i >= arr.size() || !arr[i].is_number()) {
      fail("spine.attachment." + key, "\"" + key + "\" is too short or holds a non-number at " + std::to_string(i),
           ptr + "/" + key + (i < arr.size() ? "/" + std::to_string(i) : ""));
    }
    return arr[i].get<double>();
  };
  for (std::size_t v = 0; v < n; ++v) part.mesh.uvs.push_back(slice_uv(region, {num(uvs, 2 * v, "uvs"), num(uvs, 2 * v + 1, "uvs")}));
  const bool weighted = verts.size() != uvs.size();
  BindSpread spread;
  std::size_t at = 0;
  for (std::size_t v = 0; v < n; ++v) {
    if (!weighted) {
      const Vec2 w = bone_point(bones_[static_cast<std::size_t>(slot_bone)], num(verts, 2 * v, "vertices"),
                                num(verts, 2 * v + 1, "vertices"));
      require_finite({w.x, w.y}, "vertex " + std::to_string(v), ptr + "/vertices/" + std::to_string(2 * v));
      part.mesh.verts.push_back(to_rig(w.x, w.y));
      interop::append_weights({{static_cast<std::uint32_t>(slot_bone), 1.0}}, 0, part, weight_stats_);
      continue;
    }
    const std::size_t first = at;
    const double count_d = num(verts, at++, "vertices");
    if (count_d < 1 || count_d != std::floor(count_d) || count_d > double(bones_.size())) {
      fail("spine.attachment.vertices", "weighted vertex " + std::to_string(v) + " has a bad bone count",
           ptr + "/vertices/" + std::to_string(at - 1));
    }
    std::vector<interop::Influence> influences;
    std::vector<Vec2> bound;  // where each bone with weight puts the vertex, for the spread
    double wx = 0, wy = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(count_d); ++k) {
      const double bi = num(verts, at, "vertices");
      if (bi < 0 || bi >= double(bones_.size()) || bi != std::floor(bi)) {
        fail("spine.attachment.vertices", "bone index " + detail::js_number(bi) + " is not a bone",
             ptr + "/vertices/" + std::to_string(at));
      }
      const double bx = num(verts, at + 1, "vertices"), by = num(verts, at + 2, "vertices");
      const double weight = num(verts, at + 3, "vertices");
      at += 4;
      const Vec2 p = bone_point(bones_[static_cast<std::size_t>(bi)], bx, by);
      wx += p.x * weight, wy += p.y * weight;
      influences.push_back({static_cast<std::uint32_t>(bi), weight});
      if (weight > 0) bound.push_back(p);
    }
    spread.add(bound, ptr + "/vertices/" + std::to_string(first));
    require_finite({wx, wy}, "weighted vertex " + std::to_string(v), ptr + "/vertices/" + std::to_string(first));
    part.mesh.verts.push_back(to_rig(wx, wy));
    note_weights(influences, ptr + "/vertices/" + std::to_string(first));
    interop::append_weights(std::move(influences), static_cast<std::uint32_t>(slot_bone), part, weight_stats_);
  }
  if (weighted && at != verts.size()) {
    fail("spine.attachment.vertices", "\"vertices\" does not match the " + std::to_string(n) + " uvs", ptr + "/vertices");
  }
  if (spread.count > 0) {
    warn("convert.spine.bind.spread",
         std::to_string(spread.count) + " weighted vertices of this mesh have per-bone positions that disagree, by up to " +
             detail::js_number(std::round(spread.largest * 100) / 100) + " px (the largest here): rig2d binds each at their weighted mean, so bent away from the setup pose it lands up to about that "
             "far from where Spine draws it",
         spread.where);
  }
  if (tris.size() % 3 != 0) fail("spine.attachment.triangles", "\"triangles\" must hold index triples", ptr + "/triangles");
  for (std::size_t i = 0; i < tris.size(); ++i) {
    const double t = num(tris, i, "triangles");
    if (t < 0 || t >= double(n) || t != std::floor(t)) {
      fail("spine.attachment.triangles", "index " + detail::js_number(t) + " is not a vertex", ptr + "/triangles/" + std::to_string(i));
    }
    part.mesh.tris.push_back(static_cast<std::uint32_t>(t));
  }
}

void SpineImporter::import_attachment(const std::string& slot_name, int slot_bone, const interop::SpineSkinAttachment& skin_att,
                                      const std::string& att_name, std::size_t order) {
  const Json& att = *skin_att.json;
  const std::string& ptr = skin_att.pointer;
  const std::string& type = skin_att.type;  // a linked mesh arrives resolved, as "mesh"
  if (type != "region" && type != "mesh") {
    warn("convert.spine.attachment.type",
         "slot \"" + slot_name + "\": " + type + " attachments are not imported (only region and mesh)", ptr);
    return;
  }
  Part part;
  part.name = slot_name;
  part.order = double(order);
  // The region is "path", else the attachment's "name", else its key in the skin.
  const std::string named = att.contains("name") ? string_field(att, "name", ptr, false) : att_name;
  const std::string region_name = att.contains("path") ? string_field(att, "path", ptr, false) : named;
  const AtlasRegion* region = find_region(region_name, ptr, part.sprite);
  if (type == "region") region_part(part, bones_[static_cast<std::size_t>(slot_bone)], att, ptr, region);
  else mesh_part(part, slot_bone, *skin_att.geometry, skin_att.geometry_pointer, region);
  interop::fix_winding(part.mesh);
  result_.rig.parts.push_back(std::move(part));
  part_pointers_.push_back(ptr);
}

SliceOut* SpineImporter::find_slice(const std::string& guid, const TextureSheet** sheet) {
  for (TextureSheet& s : result_.sheets) {
    for (SliceOut& slice : s.slices) {
      if (slice.guid == guid && slice.x >= 0) return *sheet = &s, &slice;
    }
  }
  return nullptr;
}

// Grows `slice` over the page pixels its parts' uvs reach (clipped to the page) and re-expresses
// those uvs in the grown rect, so they sample the same pixels.
void SpineImporter::grow_slice(SliceOut& slice, const TextureSheet& sheet, const std::string& ptr) {
  const auto clip = [](double v, int hi) { return v >= 0 ? std::min(v, double(hi)) : 0.0; };
  double x0 = slice.x, y0 = slice.y, x1 = slice.x + slice.w, y1 = slice.y + slice.h;
  for (const Part& part : result_.rig.parts) {
    if (part.sprite != slice.guid) continue;
    for (const Vec2& uv : part.mesh.uvs) {
      const double px = clip(slice.x + uv.x * slice.w, sheet.width), py = clip(slice.y + uv.y * slice.h, sheet.height);
      x0 = std::min(x0, px), y0 = std::min(y0, py), x1 = std::max(x1, px), y1 = std::max(y1, py);
    }
  }
  const SliceOut grown{slice.guid,
                       slice.name,
                       int(std::floor(x0)),
                       int(std::floor(y0)),
                       int(std::ceil(x1)) - int(std::floor(x0)),
                       int(std::ceil(y1)) - int(std::floor(y0))};
  if (grown.w == slice.w && grown.h == slice.h) return;
  for (std::size_t p = 0; p < result_.rig.parts.size(); ++p) {
    Part& part = result_.rig.parts[p];
    if (part.sprite != slice.guid) continue;
    for (Vec2& uv : part.mesh.uvs) {
      uv = {(slice.x + uv.x * slice.w - grown.x) / grown.w, (slice.y + uv.y * slice.h - grown.y) / grown.h};
    }
  }
  warn("convert.spine.uv.slice",
       "region \"" + slice.name + "\": mesh uvs reach beyond its " + std::to_string(slice.w) + " x " +
           std::to_string(slice.h) + " packed pixels (into whitespace the packer stripped); its slice grows to " +
           std::to_string(grown.w) + " x " + std::to_string(grown.h) +
           " px of the page, the pixels Spine samples there",
       ptr);
  slice = grown;
}

// rig uvs must lie in 0..1 of the part's sprite. Spine meshes may reach into whitespace the packer
// stripped, outside the packed rect the slice covers: such slices grow over the page. Whatever
// still lies outside (beyond the page, without an atlas, or a whole-page sprite) is clamped.
void SpineImporter::fit_uvs_to_sprites() {
  const auto outside = [](const Part& part) {
    return std::any_of(part.mesh.uvs.begin(), part.mesh.uvs.end(),
                       [](Vec2 uv) { return !(uv.x >= 0 && uv.x <= 1 && uv.y >= 0 && uv.y <= 1); });
  };
  for (std::size_t p = 0; p < result_.rig.parts.size(); ++p) {
    const Part& part = result_.rig.parts[p];
    const TextureSheet* sheet = nullptr;
    SliceOut* slice = part.sprite.empty() || !outside(part) ? nullptr : find_slice(part.sprite, &sheet);
    if (slice && sheet->width > 0 && sheet->height > 0) grow_slice(*slice, *sheet, part_pointers_[p]);
  }
  for (std::size_t p = 0; p < result_.rig.parts.size(); ++p) {
    if (const std::size_t moved = interop::clamp_uvs(result_.rig.parts[p])) {
      warn("convert.spine.uv.clamped",
           "slot \"" + result_.rig.parts[p].name.value_or("") + "\": " + std::to_string(moved) +
               " uvs lay outside the sprite and were clamped into it (the texture shifts on their triangles)",
           part_pointers_[p]);
    }
  }
}

void SpineImporter::read_slots_and_skins(const Json& root) {
  interop::SpineSkins skins(root, src_, options_.skins, result_.diagnostics);
  std::vector<std::string> absent;  // slots whose setup attachment no skin shown has
  std::string absent_ptr;
  const Json& slots = array_field(root, "slots", "");
  if (slots.size() > kMaxParts) fail("spine.limit", "more than " + std::to_string(kMaxParts) + " slots", "/slots");
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const std::string ptr = "/slots/" + std::to_string(i);
    const Json& slot = slots[i];
    if (!slot.is_object()) fail("spine.slot", "a slot must be an object", ptr);
    const std::string name = string_field(slot, "name", ptr, true);
    const std::string bone = string_field(slot, "bone", ptr, true);
    const auto bone_it = bone_index_.find(bone);
    if (bone_it == bone_index_.end()) fail("spine.slot.bone", "slot bone \"" + bone + "\" is not a bone", ptr + "/bone");
    if (slot.contains("blend") && string_field(slot, "blend", ptr, false) != "normal") {
      warn("convert.spine.slot.blend", "slot \"" + name + "\" blend mode is not carried over (rig2d draws normal)", ptr + "/blend");
    }
    const std::string att_name = string_field(slot, "attachment", ptr, false);
    const std::size_t count = skins.count(name);
    if (att_name.empty()) {
      if (count > 0) warn("convert.spine.slot.hidden", "slot \"" + name + "\" shows nothing in the setup pose: not imported", ptr);
      continue;
    }
    interop::SpineSkinAttachment att;
    if (!skins.find(name, att_name, att)) {
      // Spine finds a setup attachment in the active skins, then in the default one: one only
      // another skin has is not drawn (outfits name their parts in slots every skin shares).
      if (absent.empty()) absent_ptr = ptr + "/attachment";
      absent.push_back(name);
      continue;
    }
    if (count > 1) {
      warn("convert.spine.slot.attachments",
           "slot \"" + name + "\" has " + std::to_string(count) + " attachments: only the setup one, \"" + att_name + "\", is imported",
           ptr);
    }
    if (!skins.resolve(name, att)) continue;  // a linked mesh without its parent mesh (warned)
    const std::size_t before = result_.rig.parts.size();
    import_attachment(name, bone_it->second, att, att_name, before);
    // A fully transparent slot colour (alpha 00) is how a hidden part is exported.
    const std::string color = string_field(slot, "color", ptr, false);
    if (result_.rig.parts.size() > before && color.size() == 8 && color.substr(6) == "00") result_.rig.parts.back().visible = false;
  }
  if (!absent.empty()) {
    warn("convert.spine.slot.attachment",
         std::to_string(absent.size()) + " slot(s) show a setup attachment that is not in " + skins.described() +
             ", so Spine draws nothing there either: " + interop::quoted_list(absent, 8),
         absent_ptr);
  }
}

ImportResult SpineImporter::run(const Json& root) {
  if (!root.is_object()) fail("spine.root", "a Spine skeleton must be a JSON object", "");
  if (auto sk = root.find("skeleton"); sk != root.end() && sk->is_object()) {
    if (auto v = sk->find("spine"); v != sk->end() && v->is_string() && v->get<std::string>().rfind("4.", 0) != 0) {
      warn("convert.spine.version", "exported by Spine " + v->get<std::string>() + ": this importer follows the 4.x format",
           "/skeleton/spine");
    }
  }
  read_bones(root);
  // The setup pose as Spine shows it: constraints applied once, before bones and vertices are baked.
  interop::SpineSetupContext setup{src_, root, bones_, bone_index_, result_.diagnostics, options_.skins};
  interop::apply_setup_constraints(setup);
  build_rig_bones();
  read_slots_and_skins(root);
  if (result_.rig.parts.empty()) {
    fail("spine.attachment.none", "no slot shows a region or mesh attachment in the setup pose: nothing to import",
         "/slots");
  }
  fit_uvs_to_sprites();
  report_weights();
  if (weight_stats_.vertices_trimmed > 0) {
    warn("convert.weights.trimmed",
         std::to_string(weight_stats_.vertices_trimmed) + " vertices had more than 4 bone influences: kept the 4 largest "
         "and renormalized; the largest weight dropped was " + detail::js_number(weight_stats_.largest_dropped),
         "/skins");
  }
  Rig& rig = result_.rig;
  if (options_.rig_id.size()) rig.id = options_.rig_id;
  const bool single_main = rig.parts.size() == 1 && rig.parts[0].name == "main";
  rig.layout = single_main ? Layout::V1 : Layout::V2;
  rig.version = single_main ? 1 : 2;
  if (single_main) rig.parts[0].order.reset();
  if (auto anims = root.find("animations"); anims != root.end()) {
    if (!anims->is_object()) fail("spine.type", "\"animations\" must be an object", "/animations");
    interop::SpineAnimContext ctx{src_, rig, bone_index_, result_.diagnostics};
    for (std::size_t i = 0; i < bones_.size(); ++i) {
      const SpineBone& b = bones_[i];
      const SpineBone* p = b.parent >= 0 ? &bones_[static_cast<std::size_t>(b.parent)] : nullptr;
      ctx.parent_linear.push_back(p ? std::array<double, 4>{p->a, p->b, p->c, p->d} : std::array<double, 4>{1, 0, 0, 1});
      const bool rigid = std::abs(b.a * b.d - b.b * b.c - 1) < 1e-9 && std::abs(std::hypot(b.a, b.c) - 1) < 1e-9;
      ctx.rigid.push_back(rigid);
    }
    double fps = 30;  // Spine's default dopesheet rate; "fps" is nonessential data
    if (auto sk = root.find("skeleton"); sk != root.end() && sk->is_object()) fps = number_field(*sk, "fps", 30, "/skeleton");
    for (const auto& [name, anim] : anims->items()) {
      result_.clips.push_back(interop::spine_animation_to_clip(ctx, name, anim, options_.rig_id));
      if (fps > 0) result_.clips.back().frame_rate = fps;
    }
  }
  if (const auto field = interop::first_non_finite(result_.rig, result_.clips)) {
    fail("spine.overflow", "a number overflows once converted (the rig's " + *field +
                               " is not finite): the skeleton's values are too large", "");
  }
  return std::move(result_);
}

}  // namespace

bool looks_like_spine_json(std::string_view text) {
  auto doc = detail::parse_json(text, "");
  // Too deep to read (or too large): the Spine reader says so, with the place, rather than "not Spine".
  if (!doc) return doc.error().code != "json.syntax";
  return doc->is_object() && doc->contains("skeleton") && doc->contains("bones");
}

Result<std::vector<std::string>> spine_skin_names(std::string_view text, const std::string& path) {
  auto doc = detail::parse_json(text, path);
  if (!doc) return Unexpected{doc.error()};
  return interop::spine_skin_names_of(*doc);
}

Result<ImportResult> import_spine(std::string_view text, const std::string& path, const Atlas* atlas,
                                  const SpineImportOptions& options) {
  auto doc = detail::parse_json(text, path);
  if (!doc) return Unexpected{doc.error()};
  try {
    return SpineImporter(JsonSource{text, path}, atlas, options).run(*doc);
  } catch (const interop::ConvertFailure& f) {
    return Unexpected{f.error};
  }
}

Result<std::vector<ImportResult>> import_spine_each(std::string_view text, const std::string& path, const Atlas* atlas,
                                                    const std::vector<SpineImportOptions>& options) {
  auto doc = detail::parse_json(text, path);
  if (!doc) return Unexpected{doc.error()};
  std::vector<ImportResult> results;
  try {
    for (const SpineImportOptions& o : options) results.push_back(SpineImporter(JsonSource{text, path}, atlas, o).run(*doc));
  } catch (const interop::ConvertFailure& f) {
    return Unexpected{f.error};
  }
  return results;
}

}  // namespace rig2d
