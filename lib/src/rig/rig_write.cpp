// SPDX-License-Identifier: Apache-2.0
// The .rig2d.json writer: the object the engine's writers build, printed as JSON.stringify(v, null, 2).
#include <cmath>

#include "rig/rig_json_internal.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d::detail {
namespace {

// What JSON.stringify then JSON.parse makes of a double: NaN/Infinity -> null, -0 -> 0.
Json number(double x) {
  if (!std::isfinite(x)) return nullptr;
  if (x == 0) return 0;
  return x;
}

Json pairs(const std::vector<Vec2>& points) {
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(points.size());
  for (const Vec2& p : points) out.push_back(Json::array({number(p.x), number(p.y)}));
  return out;
}

template <typename T>
Json integers(const std::vector<T>& values) {
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(values.size());
  for (const T v : values) out.push_back(v);
  return out;
}

Json doubles(const std::vector<double>& values) {
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(values.size());
  for (const double v : values) out.push_back(number(v));
  return out;
}

Json bone_json(const Bone& bone) {
  Json out = Json::object();
  out["name"] = bone.name;
  out["parent"] = bone.parent;
  out["x"] = number(bone.x);
  out["y"] = number(bone.y);
  out["rot"] = number(bone.rot);
  if (bone.no_scale) out["noScale"] = true;
  return out;
}

Json mesh_json(const Mesh& mesh) {
  Json out = Json::object();
  out["verts"] = pairs(mesh.verts);
  out["uvs"] = pairs(mesh.uvs);
  out["tris"] = integers(mesh.tris);
  return out;
}

void add_header(Json& out, const Rig& rig) {
  if (rig.id) out["id"] = *rig.id;
  if (rig.version) out["version"] = number(*rig.version);
}

Json bones_json(const Rig& rig) {
  Json out = Json::array();
  for (const Bone& bone : rig.bones) out.push_back(bone_json(bone));
  return out;
}

}  // namespace

Json rig_to_json(const Rig& rig) {
  Json out = Json::object();
  add_header(out, rig);
  if (rig.layout == Layout::V1) {
    static const Part kEmpty;
    const Part& part = rig.parts.empty() ? kEmpty : rig.parts.front();
    out["sprite"] = part.sprite;
    out["bones"] = bones_json(rig);
    out["mesh"] = mesh_json(part.mesh);
    out["skinIndices"] = integers(part.skin_indices);
    out["skinWeights"] = doubles(part.skin_weights);
    return out;
  }
  out["bones"] = bones_json(rig);
  Json parts = Json::array();
  for (const Part& part : rig.parts) {
    Json p = Json::object();
    if (part.name) p["name"] = *part.name;
    p["sprite"] = part.sprite;
    p["mesh"] = mesh_json(part.mesh);
    p["skinIndices"] = integers(part.skin_indices);
    p["skinWeights"] = doubles(part.skin_weights);
    if (part.order) p["order"] = number(*part.order);
    if (part.visible) p["visible"] = *part.visible;
    parts.push_back(std::move(p));
  }
  out["parts"] = std::move(parts);
  return out;
}

}  // namespace rig2d::detail

namespace rig2d {

std::string write_rig(const Rig& rig) { return detail::to_js_json(detail::rig_to_json(rig)); }

}  // namespace rig2d
