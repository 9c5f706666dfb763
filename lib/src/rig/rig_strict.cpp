// SPDX-License-Identifier: Apache-2.0
// The strict .rig2d.json reader used by validation. It walks the whole document and reports every
// defect it finds (never only the first) with a stable code; docs/rig-format.md lists the codes.
// Values are kept exactly as written, so the model it returns writes back to the same text.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "json/json_util.h"
#include "rig/js_values.h"
#include "rig/rig_doc.h"
#include "rig/rig_json_internal.h"
#include "rig2d/core/limits.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d {
namespace {

using detail::Json;
using detail::json_type_name;

// Where a finding is reported: the pointer it names, and (for a missing member) the pointer of the
// object that lacks it, whose line:col is given instead.
struct Pending {
  Diagnostic diagnostic;
  std::string locate_at;
};

std::string join(const std::string& base, std::string_view token) { return base + "/" + detail::pointer_token(token); }
std::string join(const std::string& base, std::size_t index) { return base + "/" + std::to_string(index); }

std::string num_text(double x) { return detail::js_number(x); }

// J is the parsed value's type: Json, or DocValue for the checked write's RigDoc.
template <class J>
class StrictReader {
 public:
  StrictReader(std::string_view text, const std::string& path, const StrictOptions& options)
      : text_(text), path_(path), options_(options) {}

  // `root` must be what text_ parses to: the text is read again only to place diagnostics.
  StrictRig run(const J& root) {
    StrictRig out;
    Rig rig;
    read_root(root, rig);
    out.diagnostics = finish();
    bool has_error = false;
    for (const Diagnostic& d : out.diagnostics) has_error = has_error || d.severity == Severity::Error;
    if (!has_error) out.rig = std::move(rig);
    return out;
  }

 private:
  // --- reporting ---------------------------------------------------------------------------------

  void report(Severity severity, std::string code, const std::string& pointer, std::string message,
              std::string locate_at) {
    pending_.push_back({Diagnostic{severity, std::move(code), std::move(message), {path_, pointer, 0, 0}},
                        std::move(locate_at)});
  }
  void error(std::string code, const std::string& pointer, std::string message) {
    report(Severity::Error, std::move(code), pointer, std::move(message), pointer);
  }
  void warning(std::string code, const std::string& pointer, std::string message) {
    report(Severity::Warning, std::move(code), pointer, std::move(message), pointer);
  }
  void missing(const std::string& object_pointer, std::string_view key, const std::string& what) {
    const std::string pointer = join(object_pointer, key);
    report(Severity::Error, "rig.field.missing", pointer, "missing \"" + std::string(key) + "\": add " + what,
           object_pointer);
  }
  void wrong_type(const std::string& pointer, const J& v, const std::string& expected) {
    error("rig.field.type", pointer, "must be " + expected + ", not " + json_type_name(v));
  }

  std::vector<Diagnostic> finish() {
    if (pending_.empty()) return {};  // nothing to place: skip the scan of the text
    std::vector<std::string> where;
    where.reserve(pending_.size());
    for (const Pending& p : pending_) where.push_back(p.locate_at);
    const auto positions = detail::locate_pointers(text_, where);
    std::vector<Diagnostic> out;
    out.reserve(pending_.size());
    for (std::size_t k = 0; k < pending_.size(); ++k) {
      Diagnostic d = std::move(pending_[k].diagnostic);
      d.where.line = positions[k].first;
      d.where.column = positions[k].second;
      out.push_back(std::move(d));
    }
    return out;
  }

  // --- generic field readers ---------------------------------------------------------------------

  void unknown_keys(const J& object, const std::string& pointer, std::initializer_list<std::string_view> known,
                    const char* where) {
    for (auto it = object.begin(); it != object.end(); ++it) {
      bool ok = false;
      for (const std::string_view k : known) ok = ok || it.key() == k;
      if (!ok) {
        warning("rig.key.unknown", join(pointer, it.key()),
                "unknown key \"" + it.key() + "\" in " + where + " (the engine ignores it; check the spelling)");
      }
    }
  }

  const J* find(const J& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  // A finite number; reports and returns false otherwise.
  // `what` is a literal: the message text is built only when something is reported.
  bool number(const J& v, const std::string& pointer, const char* what, double& out) {
    if (!v.is_number()) {
      wrong_type(pointer, v, std::string("a number (") + what + ")");
      return false;
    }
    out = detail::js_number_value(v);
    if (!std::isfinite(out)) {
      error("rig.number.finite", pointer,
            std::string("must be a finite number (") + what + "); the value overflows a double");
      return false;
    }
    return true;
  }

  bool required_number(const J& object, const std::string& pointer, const char* key, const char* what, double& out) {
    const J* v = find(object, key);
    if (v == nullptr) {
      missing(pointer, key, what);
      return false;
    }
    if (const auto d = clean_number(*v)) {  // the common case, without building the pointer
      out = *d;
      return true;
    }
    return number(*v, join(pointer, key), what, out);
  }

  // An integer-valued JSON number (5 and 5.0 both qualify).
  bool integer(const J& v, const std::string& pointer, const char* what, std::int64_t& out) {
    if (!detail::js_is_integer(v)) {
      if (v.is_number() && !std::isfinite(detail::js_number_value(v))) {
        error("rig.number.finite", pointer, std::string("must be a finite integer (") + what + ")");
      } else {
        wrong_type(pointer, v, std::string("an integer (") + what + ")");
      }
      return false;
    }
    const double d = detail::js_number_value(v);
    if (v.is_number_integer())
      out = v.template get<std::int64_t>();
    else if (d >= 9.2233720368547758e18) out = std::numeric_limits<std::int64_t>::max();
    else if (d <= -9.2233720368547758e18) out = std::numeric_limits<std::int64_t>::min();
    else out = static_cast<std::int64_t>(d);
    return true;
  }

  // --- fast paths: an element that draws no diagnostic is read without building its JSON pointer ----

  static constexpr std::size_t kNoBound = std::numeric_limits<std::size_t>::max();

  // A non-negative integer below `bound`, exactly as integer() and the range checks would accept it.
  static std::optional<std::uint32_t> clean_index(const J& v, std::size_t bound) {
    if (!v.is_number_unsigned()) return std::nullopt;
    const std::uint64_t u = v.template get<std::uint64_t>();
    if (u > std::numeric_limits<std::uint32_t>::max() || u >= bound) return std::nullopt;
    return static_cast<std::uint32_t>(u);
  }

  // A finite number, exactly as number() would accept it silently.
  static std::optional<double> clean_number(const J& v) {
    if (!v.is_number()) return std::nullopt;
    const double d = detail::js_number_value(v);
    return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
  }

  // A bone's parent: -1 or an index below `bone_count`, exactly as integer() and the range check
  // would accept it silently.
  static std::optional<std::int64_t> clean_parent(const J& v, std::size_t bone_count) {
    if (!v.is_number_integer()) return std::nullopt;
    if (v.is_number_unsigned()) {
      const std::uint64_t u = v.template get<std::uint64_t>();
      return u < bone_count ? std::optional<std::int64_t>(static_cast<std::int64_t>(u)) : std::nullopt;
    }
    const std::int64_t p = v.template get<std::int64_t>();
    const bool ok = p == -1 || (p >= 0 && static_cast<std::uint64_t>(p) < bone_count);
    return ok ? std::optional<std::int64_t>(p) : std::nullopt;
  }

  // A pair of finite numbers (inside 0..1 for uvs), exactly as read_pairs would accept it silently.
  static std::optional<Vec2> clean_pair(const J& p, bool uvs) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) return std::nullopt;
    const double x = detail::js_number_value(p[0]), y = detail::js_number_value(p[1]);
    if (!std::isfinite(x) || !std::isfinite(y)) return std::nullopt;
    if (uvs && (x < 0 || x > 1 || y < 0 || y > 1)) return std::nullopt;
    return Vec2{x, y};
  }

  // --- the document ------------------------------------------------------------------------------

  void read_root(const J& root, Rig& rig) {
    if (!root.is_object()) {
      error("rig.root.type", "", std::string("a rig must be a JSON object, not ") + json_type_name(root));
      return;
    }
    // "$schema" points editors at schemas/rig2d.schema.json, as docs/validate.md suggests.
    unknown_keys(root, "",
                 {"$schema", "id", "version", "bones", "parts", "sprite", "mesh", "skinIndices", "skinWeights"},
                 "the rig");
    if (const J* schema = find(root, "$schema"); schema != nullptr && !schema->is_string()) {
      wrong_type("/$schema", *schema, "a string (the JSON Schema URI)");
    }
    if (const J* id = find(root, "id")) {
      if (id->is_string())
        rig.id = id->template get<std::string>();
      else wrong_type("/id", *id, "a string (the rig's GUID)");
    }
    if (const J* version = find(root, "version")) {
      double v = 0;
      if (number(*version, "/version", "1 or 2", v)) {
        if (v == 1 || v == 2) rig.version = v;
        else error("rig.version.unknown", "/version", "unknown version " + num_text(v) + ": use 1 (v1) or 2 (parts), or omit it");
      }
    }
    read_bones(root, rig);

    const J* parts = find(root, "parts");
    const char* v1_keys[] = {"sprite", "mesh", "skinIndices", "skinWeights"};
    bool has_v1_fields = false;
    for (const char* k : v1_keys) has_v1_fields = has_v1_fields || find(root, k) != nullptr;

    if (parts != nullptr && !parts->is_array()) {
      wrong_type("/parts", *parts, "an array of parts");
      return;
    }
    if (parts != nullptr && parts->empty()) {
      warning("rig.parts.empty", "/parts",
              has_v1_fields ? "\"parts\" is empty, so the engine uses the top-level v1 fields: drop \"parts\""
                            : "\"parts\" is empty: the engine draws one empty part; add a part or drop the key");
    }
    if (parts != nullptr && (!parts->empty() || !has_v1_fields)) {
      rig.layout = Layout::V2;
      for (const char* k : v1_keys) {
        if (find(root, k) != nullptr) {
          error("rig.layout.mixed", join("", k),
                std::string("top-level \"") + k + "\" next to \"parts\": the engine ignores it; move it into a part");
        }
      }
      if (rig.version && *rig.version == 1) {
        warning("rig.version.layout", "/version", "version 1 but the rig has \"parts\" (v2): set version to 2");
      }
      read_parts(*parts, rig);
      return;
    }
    rig.layout = Layout::V1;
    if (rig.version && *rig.version == 2) {
      warning("rig.version.layout", "/version", "version 2 but the rig has no \"parts\" (v1 layout): set version to 1");
    }
    Part part;
    read_part_body(root, "", rig.bones.size(), part);
    rig.parts.push_back(std::move(part));
  }

  void read_bones(const J& root, Rig& rig) {
    const J* bones = find(root, "bones");
    if (bones == nullptr) {
      missing("", "bones", "the bone array (at least a root bone {\"name\":\"root\",\"parent\":-1,...})");
      return;
    }
    if (!bones->is_array()) {
      wrong_type("/bones", *bones, "an array of bones");
      return;
    }
    if (bones->size() > kMaxBones) {
      error("rig.limit.bones", "/bones",
            std::to_string(bones->size()) + " bones; the limit is " + std::to_string(kMaxBones));
      return;
    }
    bones_known_ = true;
    if (bones->empty()) warning("rig.bones.empty", "/bones", "no bones: every vertex collapses to the origin; add a root bone");
    rig.bones.resize(bones->size());
    std::vector<bool> parent_ok(bones->size(), false);
    for (std::size_t i = 0; i < bones->size(); ++i) {
      const J& b = (*bones)[i];
      const std::string at = join("/bones", i);
      if (!b.is_object()) {
        wrong_type(at, b, "a bone object {name, parent, x, y, rot}");
        continue;
      }
      unknown_keys(b, at, {"name", "parent", "x", "y", "rot", "noScale"}, "a bone");
      Bone& bone = rig.bones[i];
      if (const J* name = find(b, "name"); name == nullptr) {
        missing(at, "name", "a unique bone name");
      } else if (!name->is_string()) {
        wrong_type(join(at, "name"), *name, "a string (the bone name)");
      } else if (name->template get_ref<const std::string&>().empty()) {
        error("rig.bone.name.empty", join(at, "name"), "bone name is empty: animation tracks address bones by name");
      } else {
        bone.name = name->template get<std::string>();
      }
      if (const J* parent = find(b, "parent"); parent == nullptr) {
        missing(at, "parent", "the parent bone index (-1 for a root)");
      } else if (const auto p = clean_parent(*parent, bones->size())) {  // without building the pointer
        bone.parent = *p;
        parent_ok[i] = true;
      } else if (integer(*parent, join(at, "parent"), "a bone index, -1 for a root", bone.parent)) {
        const auto n = static_cast<std::int64_t>(bones->size());
        if (bone.parent != -1 && (bone.parent < 0 || bone.parent >= n)) {
          error("rig.bone.parent.range", join(at, "parent"),
                "parent " + std::to_string(bone.parent) + " is not a bone index (0.." + std::to_string(n - 1) +
                    ") or -1 for a root");
        } else {
          parent_ok[i] = true;
        }
      }
      required_number(b, at, "x", "the bind x, px local to the parent", bone.x);
      required_number(b, at, "y", "the bind y, px local to the parent", bone.y);
      required_number(b, at, "rot", "the bind rotation, radians", bone.rot);
      if (const J* no_scale = find(b, "noScale")) {
        if (no_scale->is_boolean())
          bone.no_scale = no_scale->template get<bool>();
        else wrong_type(join(at, "noScale"), *no_scale, "a boolean");
      }
    }

    std::map<std::string, std::size_t> first_with_name;
    for (std::size_t i = 0; i < rig.bones.size(); ++i) {
      const std::string& name = rig.bones[i].name;
      if (name.empty()) continue;
      const auto [it, inserted] = first_with_name.emplace(name, i);
      if (!inserted) {
        error("rig.bone.name.duplicate", join(join("/bones", i), "name"),
              "bone name \"" + name + "\" is already used by bone " + std::to_string(it->second) +
                  ": names must be unique (the engine matches bones by name, last one wins)");
      }
    }
    report_cycles(rig.bones, parent_ok);
  }

  // Each parent cycle once, at its lowest bone index.
  void report_cycles(const std::vector<Bone>& bones, const std::vector<bool>& parent_ok) {
    const std::size_t n = bones.size();
    std::vector<int> state(n, 0);  // 0 unvisited, 1 on the current path, 2 done
    for (std::size_t start = 0; start < n; ++start) {
      std::vector<std::size_t> path;
      std::size_t i = start;
      bool closed = false;
      while (true) {
        if (state[i] == 1) {
          closed = true;  // `i` is on the current path: it starts the loop
          break;
        }
        if (state[i] == 2) break;
        state[i] = 1;
        path.push_back(i);
        if (!parent_ok[i] || bones[i].parent < 0) break;
        i = static_cast<std::size_t>(bones[i].parent);
      }
      if (closed) {
        std::size_t lowest = i;
        std::string chain;
        for (auto it = std::find(path.begin(), path.end(), i); it != path.end(); ++it) {
          lowest = std::min(lowest, *it);
          chain += std::to_string(*it) + " -> ";
        }
        chain += std::to_string(i);
        error("rig.bone.parent.cycle", join(join("/bones", lowest), "parent"),
              "parent chain loops (" + chain + "): give the chain a root with parent -1");
      }
      for (const std::size_t k : path) state[k] = 2;
    }
  }

  void read_parts(const J& parts, Rig& rig) {
    if (parts.size() > kMaxParts) {
      error("rig.limit.parts", "/parts", std::to_string(parts.size()) + " parts; the limit is " + std::to_string(kMaxParts));
      return;
    }
    std::map<std::string, std::size_t> first_with_name;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const J& p = parts[i];
      const std::string at = join("/parts", i);
      if (!p.is_object()) {
        wrong_type(at, p, "a part object {name, sprite, mesh, skinIndices, skinWeights}");
        continue;
      }
      unknown_keys(p, at, {"name", "sprite", "mesh", "skinIndices", "skinWeights", "order", "visible"}, "a part");
      Part part;
      std::string effective = "part" + std::to_string(i);  // the engine's default name
      std::string name_pointer = at;
      if (const J* name = find(p, "name")) {
        name_pointer = join(at, "name");
        if (!name->is_string()) {
          wrong_type(name_pointer, *name, "a string (the part name)");
        } else if (name->template get_ref<const std::string&>().empty()) {
          error("rig.part.name.empty", name_pointer, "part name is empty: give it a name or drop the key");
        } else {
          part.name = name->template get<std::string>();
          effective = *part.name;
        }
      }
      const auto [it, inserted] = first_with_name.emplace(effective, i);
      if (!inserted) {
        error("rig.part.name.duplicate", name_pointer,
              "part name \"" + effective + "\" is already used by part " + std::to_string(it->second) +
                  ": deform tracks address parts by name");
      }
      read_part_body(p, at, rig.bones.size(), part);
      if (const J* order = find(p, "order")) {
        double v = 0;
        if (number(*order, join(at, "order"), "draw order, lower = behind", v)) part.order = v;
      }
      if (const J* visible = find(p, "visible")) {
        if (visible->is_boolean())
          part.visible = visible->template get<bool>();
        else wrong_type(join(at, "visible"), *visible, "a boolean");
      }
      rig.parts.push_back(std::move(part));
    }
  }

  // sprite, mesh, skinIndices, skinWeights: at the top level of a v1 rig or inside a v2 part.
  void read_part_body(const J& obj, const std::string& at, std::size_t bone_count, Part& part) {
    if (const J* sprite = find(obj, "sprite"); sprite == nullptr) {
      missing(at, "sprite", "the sprite GUID (\"\" when none is assigned yet)");
    } else if (sprite->is_string()) {
      part.sprite = sprite->template get<std::string>();
    } else {
      wrong_type(join(at, "sprite"), *sprite, "a string (the sprite GUID)");
    }

    std::size_t vert_count = 0;
    bool verts_known = false;  // counts are only compared against a readable vertex array
    const J* mesh = find(obj, "mesh");
    const std::string mesh_at = join(at, "mesh");
    if (mesh == nullptr) {
      missing(at, "mesh", "the mesh {verts, uvs, tris}");
    } else if (!mesh->is_object()) {
      wrong_type(mesh_at, *mesh, "a mesh object {verts, uvs, tris}");
    } else {
      unknown_keys(*mesh, mesh_at, {"verts", "uvs", "tris"}, "a mesh");
      verts_known = read_pairs(*mesh, mesh_at, "verts", part.mesh.verts, nullptr);
      vert_count = part.mesh.verts.size();
      if (verts_known) read_pairs(*mesh, mesh_at, "uvs", part.mesh.uvs, &vert_count);
      else read_pairs(*mesh, mesh_at, "uvs", part.mesh.uvs, nullptr);
      read_tris(*mesh, mesh_at, verts_known ? &vert_count : nullptr, part.mesh.tris);
    }
    read_indices(obj, at, verts_known ? &vert_count : nullptr, bone_count, part.skin_indices);
    read_weights(obj, at, verts_known ? &vert_count : nullptr, part.skin_weights);
  }

  // verts / uvs: arrays of [x, y] pairs of finite numbers. `expected_count` (uvs) is the vert count.
  bool read_pairs(const J& mesh, const std::string& mesh_at, const char* key, std::vector<Vec2>& out,
                  const std::size_t* expected_count) {
    const bool uvs = expected_count != nullptr || std::string_view(key) == "uvs";
    const J* arr = find(mesh, key);
    const std::string at = join(mesh_at, key);
    if (arr == nullptr) {
      missing(mesh_at, key, uvs ? "one [u, v] pair (0..1) per vertex" : "the vertex array [[x, y], ...] (px)");
      return false;
    }
    if (!arr->is_array()) {
      wrong_type(at, *arr, uvs ? "an array of [u, v] pairs" : "an array of [x, y] pairs");
      return false;
    }
    if (arr->size() > kMaxVertices) {
      error("rig.limit.verts", at, std::to_string(arr->size()) + " entries; the limit is " + std::to_string(kMaxVertices));
      return false;
    }
    if (expected_count != nullptr && arr->size() != *expected_count) {
      error("rig.mesh.uvs.count", at,
            std::to_string(arr->size()) + " uvs for " + std::to_string(*expected_count) +
                " verts: give exactly one [u, v] per vertex");
    }
    bool ok = true;
    out.resize(arr->size());
    for (std::size_t v = 0; v < arr->size(); ++v) {
      const J& p = (*arr)[v];
      if (const auto pair = clean_pair(p, uvs)) {  // the common case, without building the pointer
        out[v] = *pair;
        continue;
      }
      const std::string pat = join(at, v);
      if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) {
        error("rig.mesh.pair", pat, std::string("must be a pair of numbers ") + (uvs ? "[u, v]" : "[x, y]") + ", not " +
                                        (p.is_array() ? "an array of " + std::to_string(p.size()) + " values"
                                                      : std::string(json_type_name(p))));
        ok = false;
        continue;
      }
      double x = 0, y = 0;
      const bool fx = number(p[0], join(pat, 0), uvs ? "u" : "x, px", x);
      const bool fy = number(p[1], join(pat, 1), uvs ? "v" : "y, px", y);
      out[v] = {x, y};
      if (!fx || !fy) {
        ok = false;
        continue;
      }
      if (uvs && (x < 0 || x > 1 || y < 0 || y > 1)) {
        error("rig.mesh.uvs.range", pat,
              "uv (" + num_text(x) + ", " + num_text(y) + ") is outside 0..1 (the part's sprite, v down)");
      }
    }
    return ok || !uvs;  // a vertex array with bad entries still has a known length
  }

  void read_tris(const J& mesh, const std::string& mesh_at, const std::size_t* vert_count,
                 std::vector<std::uint32_t>& out) {
    const J* tris = find(mesh, "tris");
    const std::string at = join(mesh_at, "tris");
    if (tris == nullptr) {
      missing(mesh_at, "tris", "the triangle index array (3 per triangle)");
      return;
    }
    if (!tris->is_array()) {
      wrong_type(at, *tris, "an array of vertex indices");
      return;
    }
    if (tris->size() > kMaxTriangleIndices) {
      error("rig.limit.tris", at,
            std::to_string(tris->size()) + " indices; the limit is " + std::to_string(kMaxTriangleIndices));
      return;
    }
    if (tris->size() % 3 != 0) {
      error("rig.mesh.tris.count", at,
            std::to_string(tris->size()) + " indices is not a multiple of 3 (3 per triangle)");
    }
    out.resize(tris->size());
    for (std::size_t k = 0; k < tris->size(); ++k) {
      if (const auto i = clean_index((*tris)[k], vert_count ? *vert_count : kNoBound)) {
        out[k] = *i;
        continue;
      }
      std::int64_t idx = 0;
      if (!integer((*tris)[k], join(at, k), "a vertex index", idx)) continue;
      if (idx < 0 || (vert_count != nullptr && static_cast<std::uint64_t>(idx) >= *vert_count)) {
        error("rig.mesh.tris.range", join(at, k),
              "vertex index " + std::to_string(idx) + " is out of range (" +
                  (vert_count ? std::to_string(*vert_count) : std::string("?")) + " verts)");
        continue;
      }
      out[k] = static_cast<std::uint32_t>(idx);
    }
  }

  const J* skin_array(const J& obj, const std::string& at, const char* key, const char* what) {
    const J* arr = find(obj, key);
    if (arr == nullptr) {
      missing(at, key, what);
      return nullptr;
    }
    if (!arr->is_array()) {
      wrong_type(join(at, key), *arr, "an array (4 per vertex)");
      return nullptr;
    }
    return arr;
  }

  bool skin_count(const J& arr, const std::string& pointer, const std::size_t* vert_count, const char* code) {
    if (vert_count == nullptr) return arr.size() <= std::size_t{kMaxVertices} * kSlotsPerVertex;
    const std::size_t want = *vert_count * kSlotsPerVertex;
    if (arr.size() == want) return true;
    error(code, pointer,
          std::to_string(arr.size()) + " entries for " + std::to_string(*vert_count) + " verts: need exactly " +
              std::to_string(want) + " (4 slots per vertex, unused slots 0)");
    return arr.size() <= std::size_t{kMaxVertices} * kSlotsPerVertex;
  }

  void read_indices(const J& obj, const std::string& at, const std::size_t* vert_count, std::size_t bone_count,
                    std::vector<std::uint32_t>& out) {
    const J* arr = skin_array(obj, at, "skinIndices", "4 bone indices per vertex");
    if (arr == nullptr) return;
    const std::string pointer = join(at, "skinIndices");
    if (!skin_count(*arr, pointer, vert_count, "rig.indices.count")) return;
    out.resize(arr->size());
    for (std::size_t o = 0; o < arr->size(); ++o) {
      if (const auto i = clean_index((*arr)[o], bones_known_ ? bone_count : kNoBound)) {
        out[o] = *i;
        continue;
      }
      std::int64_t idx = 0;
      if (!integer((*arr)[o], join(pointer, o), "a bone index", idx)) continue;
      if (idx < 0 || (bones_known_ && static_cast<std::uint64_t>(idx) >= bone_count)) {
        error("rig.indices.range", join(pointer, o),
              "bone index " + std::to_string(idx) + " is out of range (" + std::to_string(bone_count) +
                  " bones); the engine would silently use bone 0");
        continue;
      }
      out[o] = static_cast<std::uint32_t>(idx);
    }
  }

  void read_weights(const J& obj, const std::string& at, const std::size_t* vert_count, std::vector<double>& out) {
    const J* arr = skin_array(obj, at, "skinWeights", "4 weights per vertex, summing to 1");
    if (arr == nullptr) return;
    const std::string pointer = join(at, "skinWeights");
    const bool count_ok = vert_count != nullptr && arr->size() == *vert_count * kSlotsPerVertex;
    if (!skin_count(*arr, pointer, vert_count, "rig.weights.count")) return;
    out.resize(arr->size());
    std::vector<bool> good(arr->size(), false);
    for (std::size_t o = 0; o < arr->size(); ++o) {
      if (const J& e = (*arr)[o]; e.is_number()) {  // the common case, without building the pointer
        const double x = detail::js_number_value(e);
        if (std::isfinite(x) && x >= 0) {
          out[o] = x;
          good[o] = true;
          continue;
        }
      }
      double w = 0;
      if (!number((*arr)[o], join(pointer, o), "a weight, 0..1", w)) continue;
      out[o] = w;
      if (w < 0) {
        error("rig.weights.negative", join(pointer, o), "weight " + num_text(w) + " is negative: use 0 for an unused slot");
        continue;
      }
      good[o] = true;
    }
    if (!count_ok) return;
    for (std::size_t v = 0; v < *vert_count; ++v) {
      const std::size_t base = v * kSlotsPerVertex;
      double sum = 0;
      bool readable = true;
      for (int k = 0; k < kSlotsPerVertex; ++k) {
        readable = readable && good[base + static_cast<std::size_t>(k)];
        sum += out[base + static_cast<std::size_t>(k)];
      }
      if (readable && !(std::fabs(sum - 1) <= options_.weight_tolerance)) {
        error("rig.weights.sum", join(pointer, base),
              "vertex " + std::to_string(v) + " weights sum to " + num_text(sum) + ", not 1 (tolerance " +
                  num_text(options_.weight_tolerance) + "): renormalize them");
      }
    }
  }

  std::string_view text_;
  const std::string& path_;
  StrictOptions options_;
  std::vector<Pending> pending_;
  bool bones_known_ = false;  // index ranges are checked only against a readable bone array
};

}  // namespace

StrictRig read_rig_strict(std::string_view text, const std::string& path, const StrictOptions& options) {
  auto parsed = detail::parse_rig_json(text, path);
  if (!parsed) {
    const Error& e = parsed.error();
    StrictRig out;
    out.diagnostics.push_back({Severity::Error, e.code, e.message, e.where});
    return out;
  }
  return StrictReader<Json>(text, path, options).run(*parsed);
}

namespace detail {

StrictRig read_rig_strict_parsed(const Json& root, std::string_view text, const std::string& path,
                                 const StrictOptions& options) {
  return StrictReader<Json>(text, path, options).run(root);
}

StrictRig read_rig_strict_parsed(const DocValue& root, std::string_view text, const std::string& path,
                                 const StrictOptions& options) {
  return StrictReader<DocValue>(text, path, options).run(root);
}

}  // namespace detail

}  // namespace rig2d
