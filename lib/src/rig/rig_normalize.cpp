// SPDX-License-Identifier: Apache-2.0
// The engine's loader, normalizeRig2D (ENGINE-SPEC §1.2), rule for rule. Property access on anything
// that is not an object yields "undefined", as it does in JS for numbers, strings and arrays. The
// functions are templates over the parsed value's type: Json, or DocValue (rig/rig_doc.h).
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "rig/js_values.h"
#include "rig/rig_doc.h"
#include "rig/rig_json_internal.h"
#include "rig2d/core/limits.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d::detail {
namespace {

template <class J>
const J* member(const J* object, const char* key) {
  if (object == nullptr || !object->is_object()) return nullptr;
  const auto it = object->find(key);
  return it == object->end() ? nullptr : &*it;
}

template <class J>
const J* element(const J* array, std::size_t i) {
  if (array == nullptr || !array->is_array() || i >= array->size()) return nullptr;
  return &(*array)[i];
}

template <class J>
bool is_array(const J* v) {
  return v != nullptr && v->is_array();
}

template <class J>
std::string non_empty_string_or(const J* v, std::string fallback) {
  if (v != nullptr && v->is_string() && !v->template get_ref<const std::string&>().empty()) {
    return v->template get<std::string>();
  }
  return fallback;
}

// Number.isInteger(parent) ? parent : -1, held in an int64 (saturating beyond its range).
template <class J>
std::int64_t parent_index(const J* v) {
  if (v == nullptr || !js_is_integer(*v)) return -1;
  if (v->is_number_integer()) return v->template get<std::int64_t>();
  const double p = js_number_value(*v);
  if (p >= 9.2233720368547758e18) return std::numeric_limits<std::int64_t>::max();
  if (p <= -9.2233720368547758e18) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(p);
}

// ToInt32 of an integer-valued number; an unsigned one below 2^31 (every index a writer produces) is
// itself, without the double round trip and fmod.
template <class J>
std::int32_t index_to_int32(const J& v) {
  if (v.is_number_unsigned()) {
    const std::uint64_t u = v.template get<std::uint64_t>();
    if (u < (std::uint64_t{1} << 31)) return static_cast<std::int32_t>(u);
  }
  return js_to_int32(js_number_value(v));
}

// A verts/uvs entry: [x, y] with ToNumber coercion, (0,0) for anything that is not an array.
template <class J>
Vec2 coerce_pair(const J* p) {
  if (!is_array(p)) return {};
  const double x = round_to_float(js_number_or_zero(element(p, 0)));
  const double y = round_to_float(js_number_or_zero(element(p, 1)));
  return {x, y};
}

template <class J>
struct PartSource {
  const J* name = nullptr;
  const J* sprite = nullptr;
  const J* mesh = nullptr;
  const J* skin_indices = nullptr;
  const J* skin_weights = nullptr;
  const J* order = nullptr;
  const J* visible = nullptr;
};

// Slot o's bone index: an integer in range, else 0.
template <class J>
std::uint32_t skin_index(const PartSource<J>& src, std::size_t o, std::size_t bone_count) {
  std::int64_t bi = 0;
  if (is_array(src.skin_indices)) {
    const J* raw = element(src.skin_indices, o);
    if (raw != nullptr && js_is_integer(*raw)) bi = index_to_int32(*raw);
  }
  return (bi >= 0 && static_cast<std::uint64_t>(bi) < bone_count) ? static_cast<std::uint32_t>(bi) : 0u;
}

template <class J>
void normalize_skin(const PartSource<J>& src, std::size_t vert_count, std::size_t bone_count, Part& out,
                    WeightValues weights) {
  out.skin_indices.resize(vert_count * kSlotsPerVertex);
  out.skin_weights.assign(vert_count * kSlotsPerVertex, 0.0);
  if (weights == WeightValues::count_only) {
    for (std::size_t o = 0; o < out.skin_indices.size(); ++o) out.skin_indices[o] = skin_index(src, o, bone_count);
    return;
  }
  const bool has_weights = is_array(src.skin_weights);
  for (std::size_t v = 0; v < vert_count; ++v) {
    double sum = 0;
    for (int k = 0; k < kSlotsPerVertex; ++k) {
      const std::size_t o = v * kSlotsPerVertex + static_cast<std::size_t>(k);
      out.skin_indices[o] = skin_index(src, o, bone_count);
      double w = 0;
      if (has_weights) {
        const J* raw = element(src.skin_weights, o);
        if (raw != nullptr && js_is_finite_number(*raw)) w = js_number_value(*raw);
      } else {
        w = k == 0 ? 1.0 : 0.0;
      }
      if (w < 0) w = 0;
      out.skin_weights[o] = round_to_float(w);  // Float32Array store; the sum keeps the double
      sum += w;
    }
    const std::size_t base = v * kSlotsPerVertex;
    if (sum == 0) {
      // Degenerate vertex: all weight to slot 0, which keeps its (clamped) index, not bone 0.
      out.skin_weights[base] = 1;
      continue;
    }
    for (int k = 0; k < kSlotsPerVertex; ++k) {
      const std::size_t o = base + static_cast<std::size_t>(k);
      out.skin_weights[o] = round_to_float(out.skin_weights[o] / sum);
    }
  }
}

template <class J>
Part normalize_part(const PartSource<J>& src, std::size_t index, std::size_t bone_count, WeightValues weights) {
  Part out;
  out.name = non_empty_string_or(src.name, "part" + std::to_string(index));
  out.sprite = (src.sprite != nullptr && src.sprite->is_string()) ? src.sprite->template get<std::string>() : "";
  const J* verts = member(src.mesh, "verts");
  const J* uvs = member(src.mesh, "uvs");
  const J* tris = member(src.mesh, "tris");
  const std::size_t vert_count = is_array(verts) ? verts->size() : 0;
  out.mesh.verts.resize(vert_count);
  out.mesh.uvs.resize(vert_count);  // the vert count, not uvs.length: missing (0,0), extras dropped
  for (std::size_t v = 0; v < vert_count; ++v) {
    out.mesh.verts[v] = coerce_pair(element(verts, v));
    out.mesh.uvs[v] = coerce_pair(element(uvs, v));
  }
  if (is_array(tris)) {
    // Only finite JS numbers survive (numeric strings are dropped), then ToInt32 into a Uint32Array.
    std::size_t kept = 0;
    for (const J& t : *tris) kept += js_is_finite_number(t) ? 1 : 0;
    out.mesh.tris.reserve(kept);
    for (const J& t : *tris) {
      if (js_is_finite_number(t)) out.mesh.tris.push_back(static_cast<std::uint32_t>(index_to_int32(t)));
    }
  }
  normalize_skin(src, vert_count, bone_count, out, weights);
  out.order = (src.order != nullptr && js_is_finite_number(*src.order)) ? js_number_value(*src.order)
                                                                       : static_cast<double>(index);
  out.visible = !(src.visible != nullptr && src.visible->is_boolean() && !src.visible->template get<bool>());
  return out;
}

// The v1 part's synthesized name and order, as values of the document type.
template <class J>
const J& v1_main_name() {
  if constexpr (std::is_same_v<J, Json>) {
    static const Json v = "main";
    return v;
  } else {
    static const std::string text = "main";
    static const DocValue v = DocValue::string_value(text);
    return v;
  }
}
template <class J>
const J& v1_order() {
  if constexpr (std::is_same_v<J, Json>) {
    static const Json v = 0;
    return v;
  } else {
    static const DocValue v = DocValue::integer_value(0);
    return v;
  }
}

template <class J>
Rig normalize_value(const J& root, WeightValues weights = WeightValues::read) {
  Rig rig;
  if (const J* id = member(&root, "id"); id != nullptr && id->is_string()) rig.id = id->template get<std::string>();
  if (const J* version = member(&root, "version"); version != nullptr && js_is_finite_number(*version)) {
    rig.version = js_number_value(*version);
  }

  if (const J* bones = member(&root, "bones"); is_array(bones)) {
    rig.bones.reserve(bones->size());
    for (std::size_t i = 0; i < bones->size(); ++i) {
      const J* b = &(*bones)[i];
      Bone bone;
      bone.name = non_empty_string_or(member(b, "name"), "bone" + std::to_string(i));
      bone.parent = parent_index(member(b, "parent"));
      bone.x = js_number_or_zero(member(b, "x"));
      bone.y = js_number_or_zero(member(b, "y"));
      bone.rot = js_number_or_zero(member(b, "rot"));
      const J* no_scale = member(b, "noScale");
      bone.no_scale = no_scale != nullptr && js_truthy(*no_scale);
      rig.bones.push_back(std::move(bone));
    }
  }

  const J* parts = member(&root, "parts");
  if (is_array(parts) && !parts->empty()) {
    rig.layout = Layout::V2;
    rig.parts.reserve(parts->size());
    for (std::size_t i = 0; i < parts->size(); ++i) {
      const J* p = &(*parts)[i];
      const PartSource<J> src{member(p, "name"),        member(p, "sprite"),      member(p, "mesh"),
                              member(p, "skinIndices"), member(p, "skinWeights"), member(p, "order"),
                              member(p, "visible")};
      rig.parts.push_back(normalize_part(src, i, rig.bones.size(), weights));
    }
  } else {
    // v1 (also `parts: []`): one synthesized part named "main" at order 0.
    const PartSource<J> src{&v1_main_name<J>(),
                            member(&root, "sprite"),
                            member(&root, "mesh"),
                            member(&root, "skinIndices"),
                            member(&root, "skinWeights"),
                            &v1_order<J>(),
                            nullptr};
    rig.layout = Layout::V1;
    rig.parts.push_back(normalize_part(src, 0, rig.bones.size(), weights));
  }
  std::stable_sort(rig.parts.begin(), rig.parts.end(),
                   [](const Part& a, const Part& b) { return *a.order < *b.order; });
  return rig;
}

template <class J>
Result<void> check_normalized_limits(const J& root, const std::string& path) {
  const auto over = [&](const J* array, std::size_t limit, const char* code, const std::string& pointer,
                        const char* what) -> Result<void> {
    if (!is_array(array) || array->size() <= limit) return {};
    return make_error(code,
                      std::to_string(array->size()) + " " + what + "; the limit is " + std::to_string(limit),
                      {path, pointer});
  };
  if (auto r = over(member(&root, "bones"), kMaxBones, "rig.limit.bones", "/bones", "bones"); !r) return r;
  const J* parts = member(&root, "parts");
  if (auto r = over(parts, kMaxParts, "rig.limit.parts", "/parts", "parts"); !r) return r;
  const auto check_mesh = [&](const J* mesh, const std::string& at) -> Result<void> {
    if (auto r = over(member(mesh, "verts"), kMaxVertices, "rig.limit.verts", at + "/verts", "vertices"); !r) return r;
    return over(member(mesh, "tris"), kMaxTriangleIndices, "rig.limit.tris", at + "/tris", "triangle indices");
  };
  if (is_array(parts) && !parts->empty()) {
    for (std::size_t i = 0; i < parts->size(); ++i) {
      if (auto r = check_mesh(member(&(*parts)[i], "mesh"), "/parts/" + std::to_string(i) + "/mesh"); !r) return r;
    }
    return {};
  }
  return check_mesh(member(&root, "mesh"), "/mesh");
}

template <class J>
Result<Rig> read_normalized(const J& root, const std::string& path, WeightValues weights = WeightValues::read) {
  if (auto limits = check_normalized_limits(root, path); !limits) return Unexpected{limits.error()};
  return normalize_value(root, weights);
}

}  // namespace

Rig normalize_json(const Json& root) { return normalize_value(root); }

}  // namespace rig2d::detail

namespace rig2d {

namespace detail {

Result<Rig> read_rig_normalized_parsed(const Json& root, const std::string& path) {
  return read_normalized(root, path);
}
Result<Rig> read_rig_normalized_parsed(const DocValue& root, const std::string& path, WeightValues weights) {
  return read_normalized(root, path, weights);
}

}  // namespace detail

Result<Rig> read_rig_normalized(std::string_view text, const std::string& path) {
  auto root = detail::parse_rig_json(text, path);
  if (!root) return Unexpected{root.error()};
  return detail::read_rig_normalized_parsed(*root, path);
}

Rig normalize_rig(const Rig& rig) {
  const detail::RigDoc doc(rig);  // rig_to_json's value, without building it
  return detail::normalize_value(doc.root());
}

}  // namespace rig2d
