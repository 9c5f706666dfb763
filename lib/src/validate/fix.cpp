// SPDX-License-Identifier: Apache-2.0
// Each fix writes back the value the engine's normalizeRig2D reads (§1.2), so a fixed rig renders
// exactly like the original did, but validates and diffs cleanly.
#include "rig2d/validate/fix.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "json/json_util.h"
#include "rig/js_values.h"
#include "rig2d/core/limits.h"
#include "rig2d/core/types.h"

namespace rig2d {
namespace {

using detail::Json;

// Unknown content is kept as written: integers beyond 2^53 are not rounded to a double's digits.
constexpr bool kExactIntegers = true;

struct Fixer {
  const std::string& path;
  double tolerance;
  std::vector<Diagnostic> changes;

  void note(std::string code, std::string message, std::string pointer) {
    changes.push_back(Diagnostic{Severity::Note, std::move(code), std::move(message), Location{path, std::move(pointer)}});
  }
};

double engine_number(const Json* v) { return detail::js_number_or_zero(v); }
bool is_js_integer(const Json& v) { return detail::js_is_integer(v); }
bool truthy(const Json& v) { return detail::js_truthy(v); }

// Inserts `key` into an object after the closest preceding key of `order` that exists (so a filled
// default lands where the engine's writer puts it, and existing keys keep their order).
void insert_ordered(Json& obj, const std::string& key, Json value, const std::vector<std::string>& order) {
  std::size_t pos = 0;  // before the first existing key when no predecessor exists
  for (const std::string& k : order) {
    if (k == key) break;
    std::size_t i = 0;
    for (auto it = obj.begin(); it != obj.end(); ++it, ++i) {
      if (it.key() == k) pos = std::max(pos, i + 1);
    }
  }
  Json rebuilt = Json::object();
  std::size_t i = 0;
  for (auto it = obj.begin(); it != obj.end(); ++it, ++i) {
    if (i == pos) rebuilt[key] = value;
    rebuilt[it.key()] = it.value();
  }
  if (pos >= obj.size()) rebuilt[key] = std::move(value);
  obj = std::move(rebuilt);
}

const std::vector<std::string> kBoneOrder = {"name", "parent", "x", "y", "rot", "noScale"};
const std::vector<std::string> kPartOrder = {"name", "sprite", "mesh", "skinIndices", "skinWeights", "order", "visible"};
const std::vector<std::string> kV1Order = {"id", "version", "sprite", "bones", "mesh", "skinIndices", "skinWeights"};
const std::vector<std::string> kMeshOrder = {"verts", "uvs", "tris"};

void fix_bones(Json& root, Fixer& f) {
  const auto it = root.find("bones");
  if (it == root.end() || !it->is_array()) return;
  Json& bones = *it;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const std::string ptr = "/bones/" + std::to_string(i);
    Json& b = bones[i];
    if (!b.is_object()) {
      b = Json{{"name", "bone" + std::to_string(i)}, {"parent", -1}, {"x", 0}, {"y", 0}, {"rot", 0}};
      f.note("fix.bone", "bone was not an object: replaced by the loader's default bone", ptr);
      continue;
    }
    const auto name = b.find("name");
    if (name == b.end() || !name->is_string() || name->get_ref<const std::string&>().empty()) {
      const std::string filled = "bone" + std::to_string(i);
      if (name == b.end()) insert_ordered(b, "name", filled, kBoneOrder);
      else *name = filled;
      f.note("fix.bone", "bone name set to the loader's default \"" + filled + "\"", ptr + "/name");
    }
    const auto parent = b.find("parent");
    if (parent == b.end() || !is_js_integer(*parent)) {
      if (parent == b.end()) insert_ordered(b, "parent", -1, kBoneOrder);
      else *parent = -1;
      f.note("fix.bone", "bone parent set to -1 (root), which is what the loader uses", ptr + "/parent");
    }
    for (const char* key : {"x", "y", "rot"}) {
      const auto v = b.find(key);
      if (v != b.end() && v->is_number()) continue;
      const double value = engine_number(v == b.end() ? nullptr : &*v);
      if (!std::isfinite(value)) continue;  // "1e999" reads as Infinity, which no JSON number we write says
      if (v == b.end()) insert_ordered(b, key, value, kBoneOrder);
      else *v = value;
      f.note("fix.bone", std::string("bone ") + key + " set to " + detail::js_number(value) + " (the loader's reading)",
             ptr + "/" + key);
    }
    if (const auto ns = b.find("noScale"); ns != b.end() && !ns->is_boolean()) {
      if (truthy(*ns)) {
        *ns = true;
        f.note("fix.bone", "noScale set to true (the value was truthy)", ptr + "/noScale");
      } else {
        b.erase(ns);
        f.note("fix.bone", "noScale removed (the value was falsy, which means inherit scale)", ptr + "/noScale");
      }
    }
  }
}

// Coerces an [x, y] pair list to `count` pairs the way the loader reads them.
void fix_pairs(Json& mesh, const char* key, std::size_t count, const std::string& base, Fixer& f) {
  auto it = mesh.find(key);
  if (it == mesh.end() || !it->is_array()) {
    if (it == mesh.end()) insert_ordered(mesh, key, Json::array(), kMeshOrder);
    else *it = Json::array();
    it = mesh.find(key);
    if (count == 0) {
      f.note("fix.mesh", std::string("mesh.") + key + " set to []", base + "/" + key);
      return;
    }
  }
  Json& arr = *it;
  std::size_t coerced = 0;
  for (std::size_t v = 0; v < arr.size() && v < count; ++v) {
    Json& p = arr[v];
    const bool ok = p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number();
    if (ok) continue;
    double x = 0, y = 0;
    if (p.is_array()) {
      x = p.size() > 0 ? engine_number(&p[0]) : 0;
      y = p.size() > 1 ? engine_number(&p[1]) : 0;
    }
    if (!std::isfinite(x) || !std::isfinite(y)) continue;  // left as written, like a bone's Infinity
    p = Json::array({x, y});
    ++coerced;
  }
  if (coerced > 0) {
    f.note("fix.mesh", std::to_string(coerced) + std::string(" entries of mesh.") + key +
                           " rewritten as [x, y] numbers (the loader's reading)",
           base + "/" + key);
  }
  if (arr.size() != count) {
    const std::size_t was = arr.size();
    while (arr.size() > count) arr.erase(arr.size() - 1);
    while (arr.size() < count) arr.push_back(Json::array({0, 0}));
    f.note("fix.mesh", std::string("mesh.") + key + " resized from " + std::to_string(was) + " to " + std::to_string(count) +
                           " entries to match the vertex count (missing entries are [0, 0], as the loader reads them)",
           base + "/" + key);
  }
}

// The mesh object with verts, uvs (one per vertex) and tris; returns the vertex count.
std::size_t fix_mesh(Json& owner, const std::string& base, const std::vector<std::string>& order, Fixer& f) {
  auto mesh_it = owner.find("mesh");
  if (mesh_it == owner.end() || !mesh_it->is_object()) {
    const bool missing = mesh_it == owner.end();
    if (missing) insert_ordered(owner, "mesh", Json{{"verts", Json::array()}, {"uvs", Json::array()}, {"tris", Json::array()}}, order);
    else *mesh_it = Json{{"verts", Json::array()}, {"uvs", Json::array()}, {"tris", Json::array()}};
    f.note("fix.mesh", missing ? "empty mesh added" : "mesh was not an object: replaced by an empty mesh", base + "/mesh");
    mesh_it = owner.find("mesh");
  }
  Json& mesh = *mesh_it;
  const auto verts_it = mesh.find("verts");
  const std::size_t n = verts_it != mesh.end() && verts_it->is_array() ? verts_it->size() : 0;
  fix_pairs(mesh, "verts", n, base + "/mesh", f);
  fix_pairs(mesh, "uvs", n, base + "/mesh", f);
  if (mesh.find("tris") == mesh.end()) {
    insert_ordered(mesh, "tris", Json::array(), kMeshOrder);
    f.note("fix.mesh", "mesh.tris set to []", base + "/mesh/tris");
  }
  return n;
}

// skinIndices: the stored index of every slot (non-integers and out-of-range indices read as 0).
void fix_skin_indices(Json& owner, const std::string& base, std::size_t n, std::size_t bone_count,
                      const std::vector<std::string>& order, Fixer& f) {
  const std::size_t slots = n * 4;
  auto idx_it = owner.find("skinIndices");
  const bool idx_array = idx_it != owner.end() && idx_it->is_array();
  Json indices = Json::array();
  std::size_t clamped = 0;
  for (std::size_t o = 0; o < slots; ++o) {
    std::int64_t bi = 0;
    if (idx_array && o < idx_it->size()) {
      const Json& v = (*idx_it)[o];
      if (is_js_integer(v)) bi = detail::js_to_int32(detail::js_number_value(v));
      const std::int64_t stored = bi >= 0 && bi < static_cast<std::int64_t>(bone_count) ? bi : 0;
      if (!v.is_number() || !is_js_integer(v) || stored != v.get<double>()) ++clamped;
      bi = stored;
    }
    indices.push_back(bi);
  }
  if (!idx_array) {
    if (idx_it == owner.end()) insert_ordered(owner, "skinIndices", indices, order);
    else *idx_it = indices;
    f.note("fix.indices", "skinIndices filled with 0 (4 per vertex), as the loader reads a missing array", base + "/skinIndices");
  } else if (clamped > 0 || idx_it->size() != slots) {
    const std::size_t was = idx_it->size();
    *idx_it = indices;
    std::string msg;
    if (clamped > 0) msg = std::to_string(clamped) + " skin indices that are not integers in 0.." + std::to_string(bone_count) +
                           " set to 0 (the loader's clamp; check which bone they meant)";
    if (was != slots) msg += std::string(msg.empty() ? "" : "; ") + "resized from " + std::to_string(was) + " to " +
                             std::to_string(slots) + " (4 per vertex)";
    f.note("fix.indices", msg, base + "/skinIndices");
  }
}

// Vertex v's 4 stored weights into w. Returns true (dirty) when one is not a finite w >= 0 or the
// sum is off by more than `tolerance`: w is then renormalized, or [1, 0, 0, 0] for a zero sum. A
// weight past float32's range is left as written (false): the loader stores it as Infinity, which
// no renormalized weight says, so validation reports the vertex for a hand fix instead.
bool vertex_weights(const Json& stored, std::size_t v, double tolerance, double (&w)[4]) {
  bool dirty = false;
  double sum = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const std::size_t o = 4 * v + k;
    double x = 0;
    if (o < stored.size()) {
      const Json& j = stored[o];
      if (j.is_number() && std::isfinite(j.get<double>())) x = j.get<double>();
      else dirty = true;
      if (std::isinf(round_to_float(x))) return false;
    } else {
      dirty = true;
    }
    if (x < 0) {
      x = 0;
      dirty = true;
    }
    w[k] = x;
    sum += x;
  }
  if (sum == 0) {
    w[0] = 1;
    dirty = true;
  } else if (dirty || std::fabs(sum - 1) > tolerance) {
    for (double& x : w) x = x / sum;
    dirty = true;
  }
  return dirty;
}

// skinWeights: per vertex, renormalized when the sum is off or a slot is not a finite w >= 0.
void fix_skin_weights(Json& owner, const std::string& base, std::size_t n, const std::vector<std::string>& order,
                      Fixer& f) {
  const std::size_t slots = n * 4;
  auto w_it = owner.find("skinWeights");
  const bool w_array = w_it != owner.end() && w_it->is_array();
  Json weights = Json::array();
  std::size_t renormalized = 0;
  std::string first_vertex;
  for (std::size_t v = 0; v < n; ++v) {
    double w[4] = {1, 0, 0, 0};
    const bool dirty = !w_array || vertex_weights(*w_it, v, f.tolerance, w);
    if (!dirty) {
      for (std::size_t k = 0; k < 4; ++k) weights.push_back((*w_it)[4 * v + k]);
      continue;
    }
    if (dirty && renormalized++ == 0) first_vertex = std::to_string(v);
    for (const double x : w) weights.push_back(x);
  }
  if (!w_array) {
    if (w_it == owner.end()) insert_ordered(owner, "skinWeights", weights, order);
    else *w_it = weights;
    f.note("fix.weights", "skinWeights filled with [1, 0, 0, 0] per vertex, as the loader reads a missing array",
           base + "/skinWeights");
  } else if (renormalized > 0 || w_it->size() != slots) {
    const std::size_t was = w_it->size();
    *w_it = weights;
    std::string msg;
    if (renormalized > 0) msg = "renormalized the weights of " + std::to_string(renormalized) + " vertices (first: vertex " +
                                first_vertex + ") to sum to 1";
    if (was != slots) msg += std::string(msg.empty() ? "" : "; ") + "resized from " + std::to_string(was) + " to " +
                             std::to_string(slots) + " (4 per vertex)";
    f.note("fix.weights", msg, base + "/skinWeights");
  }
}

// v2 part fields the loader defaults: name, visible, order.
void fix_part_fields(Json& owner, const std::string& base, Fixer& f) {
  const auto name = owner.find("name");
  if (name == owner.end() || !name->is_string() || name->get_ref<const std::string&>().empty()) {
    // the loader names it after its original index
    const std::string filled = "part" + base.substr(base.rfind('/') + 1);
    if (name == owner.end()) insert_ordered(owner, "name", filled, kPartOrder);
    else *name = filled;
    f.note("fix.part", "part name set to the loader's default \"" + filled + "\"", base + "/name");
  }
  if (const auto vis = owner.find("visible"); vis != owner.end() && !vis->is_boolean()) {
    owner.erase(vis);
    f.note("fix.part", "visible removed: only a literal false hides a part", base + "/visible");
  }
  if (const auto ord = owner.find("order");
      ord != owner.end() && !(ord->is_number() && std::isfinite(ord->get<double>()))) {
    *ord = std::stod(base.substr(base.rfind('/') + 1));
    f.note("fix.part", "order set to the part's index, which the loader uses for a non-number", base + "/order");
  }
}

void fix_part(Json& owner, const std::string& base, std::size_t bone_count, bool v2, Fixer& f) {
  const std::vector<std::string>& order = v2 ? kPartOrder : kV1Order;
  const std::size_t n = fix_mesh(owner, base, order, f);
  fix_skin_indices(owner, base, n, bone_count, order, f);
  fix_skin_weights(owner, base, n, order, f);
  if (v2) fix_part_fields(owner, base, f);
  const auto sprite = owner.find("sprite");
  if (sprite == owner.end() || !sprite->is_string()) {
    if (sprite == owner.end()) insert_ordered(owner, "sprite", "", order);
    else *sprite = "";
    f.note("fix.part", "sprite set to \"\" (the loader's reading); set it to a sprite GUID", base + "/sprite");
  }
}

bool counts_within_limits(const Json& root) {
  const auto within = [](const Json& owner) {
    const auto mesh = owner.find("mesh");
    if (mesh == owner.end() || !mesh->is_object()) return true;
    const auto verts = mesh->find("verts");
    return verts == mesh->end() || !verts->is_array() || verts->size() <= kMaxVertices;
  };
  if (const auto bones = root.find("bones"); bones != root.end() && bones->is_array() && bones->size() > kMaxBones) return false;
  const auto parts = root.find("parts");
  if (parts != root.end() && parts->is_array() && !parts->empty()) {
    if (parts->size() > kMaxParts) return false;
    for (const Json& p : *parts) {
      if (p.is_object() && !within(p)) return false;
    }
    return true;
  }
  return within(root);
}

}  // namespace

Result<FixResult> fix_rig(std::string_view text, const std::string& path, const FixOptions& options) {
  auto parsed = detail::parse_json(text, path);
  if (!parsed) return Unexpected{parsed.error()};
  Json root = std::move(*parsed);
  if (!root.is_object()) return make_error("fix.root", "a rig must be a JSON object; nothing to fix", {path});
  if (!counts_within_limits(root)) {
    return make_error("fix.too_large", "the rig is over the bone, part or vertex limits of core/limits.h", {path});
  }
  Fixer f{path, options.weight_tolerance, {}};
  fix_bones(root, f);
  const auto bones = root.find("bones");
  const std::size_t bone_count = bones != root.end() && bones->is_array() ? bones->size() : 0;
  const auto parts = root.find("parts");
  if (parts != root.end() && parts->is_array() && !parts->empty()) {
    for (std::size_t i = 0; i < parts->size(); ++i) {
      const std::string base = "/parts/" + std::to_string(i);
      if (!(*parts)[i].is_object()) {
        (*parts)[i] = Json::object();
        f.note("fix.part", "part was not an object: replaced by the loader's default part", base);
      }
      fix_part((*parts)[i], base, bone_count, true, f);
    }
  } else {
    fix_part(root, "", bone_count, false, f);
  }

  FixResult result;
  result.text = std::string(text);
  if (f.changes.empty()) return result;
  const bool newline = !text.empty() && text.back() == '\n';
  std::string original_layout = detail::to_js_json(*detail::parse_json(text, path), kExactIntegers);
  if (newline) original_layout += '\n';
  if (original_layout != text) {
    f.note("fix.layout", "the file is rewritten in the engine's JSON layout (JSON.stringify with a 2-space indent)", "");
  }
  result.text = detail::to_js_json(root, kExactIntegers);
  if (newline) result.text += '\n';
  result.changed = result.text != text;
  for (Diagnostic& d : f.changes) {
    const auto [line, col] = detail::locate_pointer(result.text, d.where.json_pointer);
    d.where.line = line;
    d.where.column = col;
  }
  result.changes = std::move(f.changes);
  return result;
}

}  // namespace rig2d
