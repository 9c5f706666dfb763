// SPDX-License-Identifier: Apache-2.0
// Godot 4 .tscn -> rig2d. Godot 2D is +y down with clockwise-positive radians, like rig2d, so nothing
// is flipped. Bones come from the Bone2D rests (local to the parent bone); vertices are taken into the
// Skeleton2D's frame, which is the rig's texture space. Polygon2D uv are texture pixels.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "interop/common.h"
#include "interop/godot_text.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/affine.h"
#include "rig2d/core/limits.h"
#include "rig2d/interop/godot.h"
#include "rig2d/asset/sprite_meta.h"

namespace rig2d {
namespace {

using godot::Section;
using godot::Value;

struct Node {
  const Section* section = nullptr;
  std::string name, type, path;  // path from the scene root: "" for the root, "Skeleton2D/hip" below it
  int parent = -1;
  Affine2 local;                 // position / rotation / scale / skew
};

class GodotImporter {
 public:
  GodotImporter(const std::string& path, const GodotImportOptions& options) : path_(path), options_(options) {}
  ImportResult run(const std::vector<Section>& sections);

 private:
  [[noreturn]] void fail(std::string code, std::string message, int line, int column = 1) const {
    throw interop::ConvertFailure{Error{std::move(code), std::move(message), Location{path_, "", line, column}}};
  }
  void warn(std::string code, std::string message, int line) {
    interop::warn(result_.diagnostics, std::move(code), std::move(message), Location{path_, "", line, 1});
  }
  std::vector<double> numbers(const Value& v, const char* what, std::size_t multiple) const {
    std::vector<double> out;
    const bool finite = v.numbers(out) && std::all_of(out.begin(), out.end(), [](double x) { return std::isfinite(x); });
    if (!finite || out.size() % multiple != 0) fail("godot.polygon." + std::string(what), std::string(what) + " must be a packed array of numbers", v.line, v.column);
    return out;
  }
  std::string text_of(const Value* v) const {
    if (!v) return "";
    if (v->kind == Value::Kind::String) return v->text;
    if (v->kind == Value::Kind::Call && v->text == "NodePath" && !v->items.empty()) return v->items[0].text;
    return "";
  }
  double number_of(const Section& s, const char* key, double fallback) const {
    const Value* v = s.property(key);
    return v && v->kind == Value::Kind::Number ? v->number : fallback;
  }

  void build_nodes(const std::vector<Section>& sections);
  Affine2 node_local(const Section& s) const;
  Affine2 global(int node) const;
  void read_bones(int skeleton);
  void read_polygon(const Node& node, int skeleton, std::size_t tree_index);
  void polygon_uvs(const Node& node, const std::vector<double>& pts, Part& part);
  void polygon_triangles(const Section& s, Part& part);
  void polygon_weights(const Section& s, Part& part);
  std::string sheet_sprite(const std::string& resource, int width, int height);
  void triangulate(const std::vector<std::uint32_t>& ring, Mesh& mesh, int line);

  std::string path_;
  const GodotImportOptions& options_;
  ImportResult result_;
  std::vector<Node> nodes_;
  std::map<std::string, std::string> resources_;      // ext_resource id -> path
  std::map<std::string, int> resource_lines_;         // ext_resource id -> its line
  std::map<std::string, std::size_t> bone_of_path_;   // path relative to the Skeleton2D -> rig bone
  interop::WeightStats stats_;
  std::size_t ngons_ = 0;
};

Affine2 GodotImporter::node_local(const Section& s) const {
  std::vector<double> pos;
  double x = 0, y = 0, sx = 1, sy = 1;
  if (const Value* p = s.property("position"); p && p->numbers(pos) && pos.size() == 2) x = pos[0], y = pos[1];
  if (const Value* p = s.property("scale"); p && p->numbers(pos) && pos.size() == 2) sx = pos[0], sy = pos[1];
  Affine2 m = compose(x, y, number_of(s, "rotation", 0), sx, sy);
  if (const double skew = number_of(s, "skew", 0); skew != 0) {
    // Godot's skew turns the y axis by `skew` radians, keeping its length.
    const double rot = number_of(s, "rotation", 0);
    m.c = -std::sin(rot + skew) * sy, m.d = std::cos(rot + skew) * sy;
  }
  return m;
}

void GodotImporter::build_nodes(const std::vector<Section>& sections) {
  std::map<std::string, int> by_path;
  for (const Section& s : sections) {
    if (s.tag == "ext_resource") {
      resources_[s.attribute_text("id")] = s.attribute_text("path");
      resource_lines_[s.attribute_text("id")] = s.line;
      continue;
    }
    if (s.tag != "node") continue;
    Node n;
    n.section = &s;
    n.name = s.attribute_text("name");
    n.type = s.attribute_text("type");
    // Godot names every node, and node paths split at '/': such a name could only be misread.
    if (n.name.empty() || n.name.find('/') != std::string::npos) {
      fail("godot.syntax", "a node needs a name without '/' (name=\"" + n.name + "\")", s.line);
    }
    const Value* parent = s.attribute("parent");
    if (!parent) {
      if (!nodes_.empty()) fail("godot.syntax", "a second scene root (a node without parent)", s.line);
      n.path = "";
    } else {
      const std::string p = text_of(parent);
      const auto it = by_path.find(p == "." ? "" : p);
      if (it == by_path.end()) fail("godot.syntax", "parent \"" + p + "\" is not a node listed before", s.line);
      n.parent = it->second;
      n.path = p == "." ? n.name : p + "/" + n.name;
    }
    n.local = node_local(s);
    // Godot keeps sibling names unique; a second one would make NodePaths ambiguous.
    if (by_path.count(n.path))
      fail("godot.syntax", "two nodes are named \"" + n.path + "\" (sibling names must differ)", s.line);
    by_path[n.path] = static_cast<int>(nodes_.size());
    nodes_.push_back(std::move(n));
  }
}

Affine2 GodotImporter::global(int node) const {
  Affine2 m;
  for (int i = node; i >= 0; i = nodes_[static_cast<std::size_t>(i)].parent) m = multiply(nodes_[static_cast<std::size_t>(i)].local, m);
  return m;
}

void GodotImporter::read_bones(int skeleton) {
  const std::string prefix = nodes_[static_cast<std::size_t>(skeleton)].path.empty() ? "" : nodes_[static_cast<std::size_t>(skeleton)].path + "/";
  std::vector<Affine2> rest_world;
  std::vector<interop::RigidPose> rigid;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    if (n.type != "Bone2D" || n.path.rfind(prefix, 0) != 0 || static_cast<int>(i) == skeleton) continue;
    const Node& parent = nodes_[static_cast<std::size_t>(n.parent)];
    const bool under_skeleton = n.parent == skeleton;
    if (!under_skeleton && parent.type != "Bone2D") {
      fail("godot.bone", "Bone2D \"" + n.name + "\" must be a child of the Skeleton2D or of another Bone2D", n.section->line);
    }
    if (result_.rig.bones.size() >= kMaxBones) fail("godot.limit", "more than " + std::to_string(kMaxBones) + " bones", n.section->line);
    Affine2 rest;  // Godot writes rest only when it is not the identity
    std::vector<double> r;
    if (const Value* v = n.section->property("rest")) {
      const bool ok = v->numbers(r) && r.size() == 6 && std::all_of(r.begin(), r.end(), [](double x) { return std::isfinite(x); });
      if (!ok) fail("godot.bone", "rest must be Transform2D(6 finite numbers)", v->line, v->column);
      rest = {r[0], r[1], r[2], r[3], r[4], r[5]};
    }
    const std::int64_t parent_bone = under_skeleton ? -1 : static_cast<std::int64_t>(bone_of_path_.at(parent.path.substr(prefix.size())));
    const Affine2 world = parent_bone < 0 ? rest : multiply(rest_world[static_cast<std::size_t>(parent_bone)], rest);
    const double sx = std::hypot(world.a, world.b), sy = std::hypot(world.c, world.d);
    const double det = world.a * world.d - world.b * world.c;
    if (std::abs(sx - 1) > 1e-6 || std::abs(sy - 1) > 1e-6 || std::abs(det - 1) > 1e-6) {
      warn("convert.godot.bone.scale", "Bone2D \"" + n.name + "\" rest has scale or skew: rig2d bones keep its position and x-axis direction only",
           n.section->line);
    }
    // Each rest is finite, but their products and sums can overflow: an error, never a null in the rig.
    const int rest_line = n.section->property("rest") ? n.section->property("rest")->line : n.section->line;
    if (!std::isfinite(world.a) || !std::isfinite(world.b) || !std::isfinite(world.c) || !std::isfinite(world.d) ||
        !std::isfinite(world.e) || !std::isfinite(world.f)) {
      fail("godot.overflow", "Bone2D \"" + n.name + "\": its rest combined with its parents' overflows (numbers too large)",
           rest_line);
    }
    const double rot = std::atan2(world.b, world.a);
    Bone bone;
    bone.name = text_of(n.section->property("metadata/rig2d_name"));
    if (bone.name.empty()) bone.name = n.name;
    bone.parent = parent_bone;
    if (parent_bone < 0) {
      bone.x = world.e, bone.y = world.f, bone.rot = rot;
    } else {
      const interop::RigidPose& p = rigid[static_cast<std::size_t>(parent_bone)];
      const double dx = world.e - p.x, dy = world.f - p.y, c = std::cos(p.rot), s = std::sin(p.rot);
      bone.x = c * dx + s * dy, bone.y = -s * dx + c * dy;
      bone.rot = std::remainder(rot - p.rot, 2 * interop::kPi);
    }
    if (!std::isfinite(bone.x) || !std::isfinite(bone.y) || !std::isfinite(bone.rot)) {
      fail("godot.overflow", "Bone2D \"" + n.name + "\": its offset from its parent overflows (numbers too large)",
           rest_line);
    }
    bone_of_path_[n.path.substr(prefix.size())] = result_.rig.bones.size();
    rest_world.push_back(world);
    rigid.push_back({world.e, world.f, rot});
    result_.rig.bones.push_back(std::move(bone));
  }
  if (result_.rig.bones.empty()) {
    fail("godot.bone", "the Skeleton2D has no Bone2D: there is nothing to skin to",
         nodes_[static_cast<std::size_t>(skeleton)].section->line);
  }
}

std::string GodotImporter::sheet_sprite(const std::string& resource, int width, int height) {
  auto sheet = std::find_if(result_.sheets.begin(), result_.sheets.end(), [&](const TextureSheet& s) { return s.image == resource; });
  if (sheet == result_.sheets.end()) {
    TextureSheet fresh;
    fresh.image = resource;
    fresh.width = width, fresh.height = height;
    std::string known_slice;
    bool known_slices = false;
    for (const KnownSidecar& known : options_.sidecars) {
      if (known.image != resource) continue;
      if (auto doc = detail::parse_json(known.text, resource); doc && doc->is_object()) {
        if (auto id = doc->find("id"); id != doc->end() && id->is_string()) fresh.texture_guid = id->get<std::string>();
        if (auto sprites = doc->find("sprites"); sprites != doc->end() && sprites->is_array()) {
          known_slices = !sprites->empty();
          for (const auto& s : *sprites) {
            if (s.is_object() && s.value("name", "") == std::filesystem::path(resource).stem().string() && s.contains("guid")) {
              known_slice = s["guid"].get<std::string>();
            }
          }
        }
      }
    }
    if (fresh.texture_guid.empty()) fresh.texture_guid = interop::texture_guid_for(options_, resource);
    const std::string name = std::filesystem::path(resource).stem().string();
    if (!known_slices) {  // the whole texture is drawn: its own whole-image sprite, no slice
      fresh.whole_image = true;
      result_.sheets.push_back(std::move(fresh));
      return whole_image_sprite_guid(result_.sheets.back().texture_guid);
    }
    fresh.slices.push_back({known_slice.empty() ? interop::name_guid(fresh.texture_guid, "slice:" + name) : known_slice, name, 0, 0, width, height});
    result_.sheets.push_back(std::move(fresh));
    sheet = result_.sheets.end() - 1;
  }
  return sheet->whole_image ? whole_image_sprite_guid(sheet->texture_guid) : sheet->slices[0].guid;
}

// Ear clipping of one polygon ring (indices into mesh.verts): any simple n-gon, either winding.
void GodotImporter::triangulate(const std::vector<std::uint32_t>& ring, Mesh& mesh, int line) {
  if (ring.size() < 3) return;
  for (std::uint32_t i : ring) {
    if (i >= mesh.verts.size()) fail("godot.polygon.index", "polygon index " + std::to_string(i) + " is not a vertex", line);
  }
  if (ring.size() > 3) ++ngons_;
  std::vector<std::uint32_t> left = ring;
  double area = 0;
  for (std::size_t i = 0; i < left.size(); ++i) {
    const Vec2 a = mesh.verts[left[i]], b = mesh.verts[left[(i + 1) % left.size()]];
    area += a.x * b.y - b.x * a.y;
  }
  const double sign = area < 0 ? -1 : 1;
  const auto cross = [&](Vec2 a, Vec2 b, Vec2 c) { return ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) * sign; };
  std::size_t guard = 0;
  while (left.size() > 3 && guard++ < ring.size() * ring.size()) {
    bool clipped = false;
    for (std::size_t i = 0; i < left.size() && !clipped; ++i) {
      const std::size_t ip = (i + left.size() - 1) % left.size(), in = (i + 1) % left.size();
      const Vec2 a = mesh.verts[left[ip]], b = mesh.verts[left[i]], c = mesh.verts[left[in]];
      if (cross(a, b, c) <= 0) continue;  // reflex or degenerate corner
      bool empty = true;
      for (std::size_t j = 0; j < left.size() && empty; ++j) {
        if (j == ip || j == i || j == in) continue;
        const Vec2 p = mesh.verts[left[j]];
        empty = !(cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0);
      }
      if (!empty) continue;
      mesh.tris.insert(mesh.tris.end(), {left[ip], left[i], left[in]});
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(i));
      clipped = true;
    }
    if (!clipped) break;  // not simple: fall back to a fan for the rest
  }
  for (std::size_t i = 1; i + 1 < left.size(); ++i) mesh.tris.insert(mesh.tris.end(), {left[0], left[i], left[i + 1]});
}

// UVs: texture pixels (the polygon itself when uv is absent), back to 0..1 of the sprite rect; sets the sprite.
void GodotImporter::polygon_uvs(const Node& node, const std::vector<double>& pts, Part& part) {
  const Section& s = *node.section;
  const std::size_t n = pts.size() / 2;
  std::vector<double> uv = pts;
  if (const Value* v = s.property("uv"); v && !v->items.empty()) uv = numbers(*v, "uv", 2);
  if (uv.size() != pts.size()) fail("godot.polygon.uv", "uv must have one point per polygon vertex", s.line);
  double rx = 0, ry = 0, rw = 0, rh = 0;
  std::vector<double> rect;
  if (const Value* v = s.property("metadata/rig2d_uv_rect"); v && v->numbers(rect) && rect.size() == 4) {
    rx = rect[0], ry = rect[1], rw = rect[2], rh = rect[3];
  }
  part.sprite = text_of(s.property("metadata/rig2d_sprite"));
  const Value* texture = s.property("texture");
  if (texture && part.sprite.empty() && texture->kind == Value::Kind::Call && texture->text == "ExtResource" &&
      !texture->items.empty()) {
    const std::string id = texture->items[0].kind == Value::Kind::String ? texture->items[0].text : "";
    const std::string resource = resources_[id];
    // The texture's sidecar is written beside it: a path out of the project could land anywhere.
    if (!resource.empty() && !interop::stays_inside(resource)) {
      fail("godot.resource.path",
           "texture path \"" + resource + "\" leaves the project folder (absolute, or \"..\" above res://)",
           resource_lines_[id]);
    }
    const auto info = options_.resolve_texture ? options_.resolve_texture(resource) : std::nullopt;
    if (info && info->width > 0 && info->height > 0) {
      part.sprite = sheet_sprite(resource, info->width, info->height);
      rx = 0, ry = 0, rw = info->width, rh = info->height;
    } else {
      warn("convert.godot.texture", "texture \"" + resource + "\" could not be read: the part gets no sprite", s.line);
    }
  }
  if (!(rw > 0 && rh > 0)) {  // no texture size known: the UVs' own extent stands for the sprite
    double x1 = 0, y1 = 0;
    for (std::size_t i = 0; i < n; ++i) x1 = std::max(x1, uv[2 * i]), y1 = std::max(y1, uv[2 * i + 1]);
    rw = x1 > 0 ? x1 : 1, rh = y1 > 0 ? y1 : 1;
    warn("convert.godot.uv", "Polygon2D \"" + node.name + "\": texture size unknown, UVs scaled to their own extent", s.line);
  }
  for (const char* key : {"texture_offset", "texture_scale", "texture_rotation"}) {
    if (s.property(key)) {
      warn("convert.godot.texture_transform", std::string(key) + " is not carried over (rig2d UVs map the sprite directly)", s.line);
    }
  }
  for (std::size_t i = 0; i < n; ++i) part.mesh.uvs.push_back({(uv[2 * i] - rx) / rw, (uv[2 * i + 1] - ry) / rh});
  // rig uvs address the sprite (0..1); Godot clamps or repeats beyond the texture, rig2d cannot.
  if (const std::size_t moved = interop::clamp_uvs(part)) {
    warn("convert.godot.uv.clamped",
         "Polygon2D \"" + node.name + "\": " + std::to_string(moved) +
             " uvs lay outside the texture and were clamped into it",
         s.line);
  }
}

// Triangles: each polygons[] n-gon, or the outline (the vertices before the internal ones).
void GodotImporter::polygon_triangles(const Section& s, Part& part) {
  const std::size_t n = part.mesh.verts.size();
  const Value* polys = s.property("polygons");
  if (polys && polys->kind == Value::Kind::Array && !polys->items.empty()) {
    for (const Value& poly : polys->items) {
      const std::vector<double> idx = numbers(poly, "polygons", 1);
      std::vector<std::uint32_t> ring;
      for (double d : idx) {
        if (!(d >= 0 && d < double(n))) {
          fail("godot.polygon.index", "polygon index " + detail::js_number(d) + " is not a vertex (the polygon has " +
                                          std::to_string(n) + ")", poly.line);
        }
        ring.push_back(static_cast<std::uint32_t>(d));
      }
      if (ring.size() < 3) {
        warn("convert.godot.polygon.degenerate", "a polygon of " + std::to_string(ring.size()) +
                                                     " vertex indices has no triangle: skipped", poly.line);
      }
      triangulate(ring, part.mesh, poly.line);
    }
  } else {
    const auto internal = static_cast<std::size_t>(std::clamp(number_of(s, "internal_vertex_count", 0), 0.0, double(n)));
    if (n - internal < 3) {
      warn("convert.godot.polygon.degenerate", "without polygons the outline is the first " +
                                                   std::to_string(n - internal) + " vertices (internal_vertex_count " +
                                                   std::to_string(internal) + " of " + std::to_string(n) +
                                                   "): the part has no triangle", s.line);
    }
    std::vector<std::uint32_t> ring;
    for (std::size_t i = 0; i + internal < n; ++i) ring.push_back(static_cast<std::uint32_t>(i));
    triangulate(ring, part.mesh, s.line);
  }
  interop::fix_winding(part.mesh);
}

// Weights: bones = [path, PackedFloat32Array(one weight per vertex), ...].
void GodotImporter::polygon_weights(const Section& s, Part& part) {
  const std::size_t n = part.mesh.verts.size();
  std::vector<std::vector<interop::Influence>> influences(n);
  if (const Value* bones = s.property("bones"); bones && bones->kind == Value::Kind::Array) {
    for (std::size_t k = 0; k + 1 < bones->items.size(); k += 2) {
      const Value& name = bones->items[k];
      const std::string bone_path = text_of(&name);
      const auto b = bone_of_path_.find(bone_path);
      const std::vector<double> w = numbers(bones->items[k + 1], "weights", 1);
      if (w.size() != n) {
        fail("godot.polygon.weights", "bone \"" + bone_path + "\" weights must have one value per vertex", bones->items[k + 1].line);
      }
      // Godot draws a scene whose bones[] names a Bone2D that was renamed or deleted (the editor keeps
      // such stale paths): the entry is skipped, and what weight it carried is said.
      if (b == bone_of_path_.end()) {
        const bool weighted = std::any_of(w.begin(), w.end(), [](double x) { return x != 0; });
        warn("godot.polygon.bone.missing",
             "bones[] names \"" + bone_path + "\", which is not a Bone2D of the skeleton: skipped (" +
                 (weighted ? "it carried weight; the vertex weights left are renormalized" : "all its weights are 0") + ")",
             name.line);
        continue;
      }
      for (std::size_t v = 0; v < n; ++v) influences[v].push_back({static_cast<std::uint32_t>(b->second), w[v]});
    }
  }
  for (std::size_t v = 0; v < n; ++v) interop::append_weights(std::move(influences[v]), 0, part, stats_);
}

void GodotImporter::read_polygon(const Node& node, int skeleton, std::size_t tree_index) {
  const Section& s = *node.section;
  Part part;
  part.name = text_of(s.property("metadata/rig2d_part"));
  if (part.name->empty()) part.name = node.name;
  // Into the skeleton's frame: skeleton^-1 * polygon global, plus the Polygon2D offset.
  const Affine2 to_skeleton = multiply(invert(global(skeleton)), global(static_cast<int>(&node - nodes_.data())));
  std::vector<double> offset;
  Vec2 off{};
  if (const Value* v = s.property("offset"); v && v->numbers(offset) && offset.size() == 2) off = {offset[0], offset[1]};
  const Value* polygon = s.property("polygon");
  if (!polygon) fail("godot.polygon.points", "Polygon2D \"" + node.name + "\" has no polygon", s.line);
  const std::vector<double> pts = numbers(*polygon, "points", 2);
  const std::size_t n = pts.size() / 2;
  if (n > kMaxVertices) fail("godot.limit", "more than " + std::to_string(kMaxVertices) + " vertices", s.line);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 v = apply(to_skeleton, {pts[2 * i] + off.x, pts[2 * i + 1] + off.y});
    if (!std::isfinite(v.x) || !std::isfinite(v.y)) {
      fail("godot.overflow", "Polygon2D \"" + node.name + "\": vertex " + std::to_string(i) +
                                 " overflows once placed in the skeleton (numbers too large)", polygon->line);
    }
    part.mesh.verts.push_back(v);
  }
  polygon_uvs(node, pts, part);
  polygon_triangles(s, part);
  polygon_weights(s, part);
  if (const Value* v = s.property("visible"); v && v->kind == Value::Kind::Bool && !v->boolean) part.visible = false;
  part.order = number_of(s, "metadata/rig2d_order", double(tree_index));
  result_.rig.parts.push_back(std::move(part));
}

ImportResult GodotImporter::run(const std::vector<Section>& sections) {
  build_nodes(sections);
  int skeleton = -1;
  for (std::size_t i = 0; i < nodes_.size() && skeleton < 0; ++i) {
    if (nodes_[i].type == "Skeleton2D") skeleton = static_cast<int>(i);
  }
  if (skeleton < 0) fail("godot.skeleton", "the scene has no Skeleton2D node", 1);
  read_bones(skeleton);
  const std::string skeleton_path = nodes_[static_cast<std::size_t>(skeleton)].path;
  std::size_t tree_index = 0;
  for (const Node& node : nodes_) {
    if (node.type != "Polygon2D") continue;
    // skeleton is a NodePath relative to the polygon.
    const std::string rel = text_of(node.section->property("skeleton"));
    std::filesystem::path target = std::filesystem::path(node.path) / rel;
    std::string resolved = target.lexically_normal().generic_string();
    if (resolved == ".") resolved = "";  // the scene root
    if (rel.empty() || (resolved != skeleton_path && resolved != skeleton_path + "/")) {
      warn("convert.godot.polygon.unskinned", "Polygon2D \"" + node.name + "\" is not skinned to the Skeleton2D: not imported", node.section->line);
      continue;
    }
    if (result_.rig.parts.size() >= kMaxParts) fail("godot.limit", "more than " + std::to_string(kMaxParts) + " polygons", node.section->line);
    read_polygon(node, skeleton, tree_index++);
  }
  // A rig without parts draws nothing and the engine reads it as one empty part; rig2d-validate
  // rejects it, so it is not written.
  if (result_.rig.parts.empty()) {
    fail("godot.polygon.none", "no Polygon2D is skinned to the Skeleton2D (its skeleton NodePath): nothing to import",
         nodes_[static_cast<std::size_t>(skeleton)].section->line);
  }
  if (stats_.vertices_trimmed) {
    warn("convert.weights.trimmed", std::to_string(stats_.vertices_trimmed) + " vertices had more than 4 bone weights: kept the 4 largest "
         "and renormalized; the largest weight dropped was " + detail::js_number(stats_.largest_dropped), 0);
  }
  if (stats_.renormalized) {
    warn("convert.weights.renormalized", std::to_string(stats_.renormalized) + " vertices had weights not summing to 1: renormalized", 0);
  }
  if (stats_.zero_sum) {
    warn("convert.weights.zero", std::to_string(stats_.zero_sum) + " vertices had no bone weight: bound to the first bone", 0);
  }
  if (ngons_) warn("convert.godot.ngon", std::to_string(ngons_) + " polygons with more than 3 corners were triangulated", 0);
  Rig& rig = result_.rig;
  const Section& root = *nodes_[0].section;
  const std::string id = text_of(root.property("metadata/rig2d_id"));
  if (!id.empty() && !is_guid(id)) {
    warn("convert.godot.metadata", "metadata/rig2d_id \"" + id + "\" is not a GUID: the rig gets an id of its own", root.line);
  }
  if (!id.empty() && is_guid(id)) rig.id = id;
  else if (!options_.rig_id.empty()) rig.id = options_.rig_id;
  const std::string layout = text_of(root.property("metadata/rig2d_layout"));
  const bool v1 = layout == "v1" || (layout.empty() && rig.parts.size() == 1 && rig.parts[0].name == "main");
  rig.layout = v1 ? Layout::V1 : Layout::V2;
  rig.version = v1 ? 1 : 2;
  if (v1) {
    for (Part& p : rig.parts) p.order.reset();
  }
  if (const auto field = interop::first_non_finite(rig)) {
    fail("godot.overflow", "a number overflows once converted (the rig's " + *field + " is not finite): the scene's "
                           "values are too large", 1);
  }
  return std::move(result_);
}

}  // namespace

Result<ImportResult> import_godot(std::string_view text, const std::string& path, const GodotImportOptions& options) {
  auto sections = godot::parse_tscn(text, path);
  if (!sections) return Unexpected{sections.error()};
  try {
    return GodotImporter(path, options).run(*sections);
  } catch (const interop::ConvertFailure& f) {
    return Unexpected{f.error};
  }
}

}  // namespace rig2d
