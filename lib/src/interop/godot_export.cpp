// SPDX-License-Identifier: Apache-2.0
// rig2d -> Godot 4 .tscn: Node2D root, Skeleton2D, nested Bone2D (rest = position/rotation = the bind
// pose), a Polygon2D per part skinned to the skeleton, and an AnimationPlayer with the clips
// (godot_anim.cpp). Metadata (rig2d_*) keeps what Godot has no field for, so import_godot gives the
// rig back.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "interop/common.h"
#include "interop/godot_anim.h"
#include "rig2d/interop/godot.h"

namespace rig2d {
namespace {

using detail::js_number;

std::string quote(const std::string& s) { return interop::godot_quote(s); }

// Godot node names cannot hold . : @ / " % (they would break NodePaths).
std::string node_name(const std::string& name) {
  std::string out = name.empty() ? "node" : name;
  for (char& c : out) {
    if (c == '.' || c == ':' || c == '@' || c == '/' || c == '"' || c == '%') c = '_';
  }
  return out;
}

std::string numbers(const char* type, const std::vector<double>& values) {
  std::string out = std::string(type) + "(";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + js_number(values[i]);
  return out + ")";
}

// Bone2D nodes, parents first; returns each bone's node path relative to the Skeleton2D.
std::vector<std::string> bone_nodes(const Rig& rig, std::string& nodes, std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> bone_path(rig.bones.size());
  for (std::size_t i : interop::parents_first(rig)) {
    const Bone& b = rig.bones[i];
    std::string name = node_name(b.name);
    const std::string parent = b.parent < 0 ? "Skeleton2D" : "Skeleton2D/" + bone_path[static_cast<std::size_t>(b.parent)];
    for (int n = 2; std::any_of(bone_path.begin(), bone_path.end(), [&](const std::string& p) {
           return p == (b.parent < 0 ? name : bone_path[static_cast<std::size_t>(b.parent)] + "/" + name);
         });
         ++n) {
      name = node_name(b.name) + "_" + std::to_string(n);
    }
    bone_path[i] = b.parent < 0 ? name : bone_path[static_cast<std::size_t>(b.parent)] + "/" + name;
    const double c = std::cos(b.rot), s = std::sin(b.rot);
    nodes += "\n[node name=" + quote(name) + " type=\"Bone2D\" parent=" + quote(parent) + "]\n";
    nodes += "position = " + numbers("Vector2", {b.x, b.y}) + "\n";
    if (b.rot != 0) nodes += "rotation = " + js_number(b.rot) + "\n";
    nodes += "rest = " + numbers("Transform2D", {c, s, -s, c, b.x, b.y}) + "\n";
    nodes += "auto_calculate_length_and_angle = false\nlength = 16.0\nbone_angle = 0.0\n";
    if (name != b.name) {
      nodes += "metadata/rig2d_name = " + quote(b.name) + "\n";
      interop::warn(diagnostics, "convert.godot.export.name", "bone \"" + b.name + "\" is named \"" + name + "\" in Godot", {});
    }
    if (b.no_scale) {
      interop::warn(diagnostics, "convert.godot.export.no_scale", "bone \"" + b.name + "\" noScale has no Godot counterpart", {});
    }
  }
  return bone_path;
}

// One Polygon2D skinned to the Skeleton2D; registers its texture in `resources`.
std::string polygon_node(const Rig& rig, const Part& part, const std::string& name, const std::string& original,
                         const std::vector<std::string>& bone_path, const ExportOptions& options, std::string& resources,
                         std::map<std::string, std::string>& resource_ids, std::vector<Diagnostic>& diagnostics) {
  std::string out;
  out += "\n[node name=" + quote(name) + " type=\"Polygon2D\" parent=\".\"]\n";
  const std::optional<ExportSprite> sprite =
      part.sprite.empty() || !options.resolve_sprite ? std::nullopt : options.resolve_sprite(part.sprite);
  double rx = 0, ry = 0, rw = 1, rh = 1;
  if (sprite) {
    auto [it, fresh] = resource_ids.try_emplace(sprite->image, std::to_string(resource_ids.size() + 1) + "_tex");
    if (fresh) resources += "[ext_resource type=\"Texture2D\" path=" + quote(sprite->image) + " id=" + quote(it->second) + "]\n";
    out += "texture = ExtResource(" + quote(it->second) + ")\n";
    rx = sprite->x, ry = sprite->y, rw = sprite->w, rh = sprite->h;
  } else {
    interop::warn(diagnostics, "convert.export.sprite", "part \"" + original + "\": sprite \"" + part.sprite +
                                                                   "\" does not resolve to a texture: the polygon has none", {});
  }
  out += "skeleton = NodePath(\"../Skeleton2D\")\n";
  std::vector<double> pts, uvs;
  for (std::size_t v = 0; v < part.mesh.verts.size(); ++v) {
    pts.push_back(part.mesh.verts[v].x), pts.push_back(part.mesh.verts[v].y);
    const Vec2 uv = v < part.mesh.uvs.size() ? part.mesh.uvs[v] : Vec2{};
    uvs.push_back(rx + uv.x * rw), uvs.push_back(ry + uv.y * rh);
  }
  out += "polygon = " + numbers("PackedVector2Array", pts) + "\n";
  out += "uv = " + numbers("PackedVector2Array", uvs) + "\n";
  std::string polys;
  for (std::size_t t = 0; t + 2 < part.mesh.tris.size(); t += 3) {
    polys += std::string(t ? ", " : "") + numbers("PackedInt32Array", {double(part.mesh.tris[t]), double(part.mesh.tris[t + 1]), double(part.mesh.tris[t + 2])});
  }
  out += "polygons = [" + polys + "]\n";
  // One weight array per bone that any vertex uses, in bone order.
  const std::size_t n = part.mesh.verts.size();
  std::map<std::uint32_t, std::vector<double>> per_bone;
  for (std::size_t v = 0; v < n; ++v) {
    for (int k = 0; k < kSlotsPerVertex; ++k) {
      const std::size_t slot = v * kSlotsPerVertex + static_cast<std::size_t>(k);
      if (slot >= part.skin_weights.size() || !(part.skin_weights[slot] > 0) || part.skin_indices[slot] >= rig.bones.size()) continue;
      auto& w = per_bone[part.skin_indices[slot]];
      w.resize(n, 0.0);
      w[v] += part.skin_weights[slot];
    }
  }
  std::string bones;
  for (const auto& [b, w] : per_bone) {
    bones += std::string(bones.empty() ? "" : ", ") + "NodePath(" + quote(bone_path[b]) + "), " + numbers("PackedFloat32Array", w);
  }
  out += "bones = [" + bones + "]\n";
  if (part.visible == false) out += "visible = false\n";
  if (!part.sprite.empty()) out += "metadata/rig2d_sprite = " + quote(part.sprite) + "\n";
  // The pixel rect the 0..1 UVs were mapped into (the unit rect when the sprite did not resolve).
  out += "metadata/rig2d_uv_rect = " + numbers("Rect2", {rx, ry, rw, rh}) + "\n";
  if (name != original) out += "metadata/rig2d_part = " + quote(original) + "\n";
  if (part.order) out += "metadata/rig2d_order = " + js_number(*part.order) + "\n";
  return out;
}

}  // namespace

Result<ExportResult> export_godot(const Rig& rig, const ExportOptions& options) {
  auto world = interop::rig_world_pose(rig);
  if (!world) return Unexpected{world.error()};
  if (const auto field = interop::first_non_finite(rig)) {
    return make_error("convert.overflow", "the rig's " + *field + " is not a finite number", Location{"", *field, 0, 0});
  }
  ExportResult result;
  std::string resources, nodes;
  std::map<std::string, std::string> resource_ids;  // image -> id
  const std::string root_name = node_name(options.name.empty() ? "rig" : options.name);
  nodes += "[node name=" + quote(root_name) + " type=\"Node2D\"]\n";
  if (rig.id) nodes += "metadata/rig2d_id = " + quote(*rig.id) + "\n";
  nodes += std::string("metadata/rig2d_layout = ") + (rig.layout == Layout::V1 ? "\"v1\"" : "\"v2\"") + "\n";
  nodes += "\n[node name=\"Skeleton2D\" type=\"Skeleton2D\" parent=\".\"]\n";
  const std::vector<std::string> bone_path = bone_nodes(rig, nodes, result.diagnostics);
  std::set<std::string> part_names = {"Skeleton2D"};
  if (!options.clips.empty()) part_names.insert("AnimationPlayer");
  for (std::size_t i = 0; i < rig.parts.size(); ++i) {
    const Part& part = rig.parts[i];
    const std::string original = part.name.value_or(rig.layout == Layout::V1 ? "main" : "part" + std::to_string(i));
    std::string name = node_name(original);
    for (int n = 2; part_names.count(name); ++n) name = node_name(original) + "_" + std::to_string(n);
    part_names.insert(name);
    nodes += polygon_node(rig, part, name, original, bone_path, options, resources, resource_ids, result.diagnostics);
  }
  const interop::GodotAnimations anims = interop::godot_animations(rig, bone_path, options.clips, result.diagnostics);
  nodes += anims.player;
  const std::size_t steps = resource_ids.size() + anims.count + 1;
  result.text = "[gd_scene load_steps=" + std::to_string(steps) + " format=3]\n\n" + (resources.empty() ? "" : resources + "\n") +
                anims.sub_resources + nodes;
  return result;
}

}  // namespace rig2d
