// SPDX-License-Identifier: Apache-2.0
// Reading *.rig2d-template.json files: every error names the file, the JSON pointer and line:col.
#include <algorithm>
#include <cmath>
#include <map>

#include "json/json_util.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/skeleton/template.h"

namespace rig2d {
namespace {

using detail::Json;

// One file's text and path, so every check can say where it failed.
struct Reader {
  std::string_view text;
  const std::string& path;

  Unexpected fail(std::string code, std::string message, std::string pointer) const {
    return detail::located_error(std::move(code), std::move(message), text, path, std::move(pointer));
  }

  // A misspelt key ("lenght") would otherwise be ignored without a word.
  Result<void> known_keys(const Json& j, std::initializer_list<std::string_view> keys, const std::string& at) const {
    for (const auto& [key, value] : j.items()) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        std::string list;
        for (auto k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
        return fail("template.key", "unknown key \"" + key + "\" (known: " + list + ")", at + "/" +
                                                                                         detail::pointer_token(key));
      }
    }
    return {};
  }

  // A number or [min, max]. `code` names what is wrong with a bad value.
  Result<TemplateRange> range(const Json& v, const std::string& at, const std::string& code, double lo) const {
    TemplateRange r;
    auto number = [&](const Json& n, const std::string& p, double& out) -> Result<void> {
      if (!n.is_number()) return fail("template.type", std::string("must be a number, not ") + detail::json_type_name(n), p);
      out = n.get<double>();
      if (!std::isfinite(out)) return fail(code, "must be finite", p);
      if (out < lo) return fail(code, "must be at least " + detail::js_number(lo) + ", not " + detail::js_number(out), p);
      return {};
    };
    if (v.is_array()) {
      if (v.size() != 2) return fail("template.type", "a range is [min, max]", at);
      if (auto ok = number(v[0], at + "/0", r.min); !ok) return Unexpected{ok.error()};
      if (auto ok = number(v[1], at + "/1", r.max); !ok) return Unexpected{ok.error()};
      if (r.min > r.max) return fail(code, "min is above max", at);
      return r;
    }
    if (auto ok = number(v, at, r.min); !ok) return Unexpected{ok.error()};
    r.max = r.min;
    return r;
  }

  Result<bool> flag(const Json& v, const std::string& at) const {
    if (!v.is_boolean()) return fail("template.type", std::string("must be true or false, not ") + detail::json_type_name(v), at);
    return v.get<bool>();
  }
};

bool good_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
  });
}

struct RawBone {
  TemplateBone bone;
  std::string parent;  // "" = root
  std::string at;      // its JSON pointer
};

Result<RawBone> read_bone(const Reader& r, const Json& j, std::size_t index) {
  RawBone raw;
  raw.at = "/bones/" + std::to_string(index);
  const std::string& at = raw.at;
  if (!j.is_object()) return r.fail("template.type", "a bone must be an object {name, parent, length, direction}", at);
  if (auto ok = r.known_keys(j, {"name", "parent", "length", "direction", "rest", "extent", "optional", "over_body", "tip", "narrow", "spot"}, at); !ok)
    return Unexpected{ok.error()};
  const auto name = j.find("name");
  if (name == j.end() || !name->is_string() || !good_name(name->get<std::string>()))
    return r.fail("template.bone.name", "a bone needs a \"name\" of 1-64 letters, digits, '_', '.' or '-'",
                  name == j.end() ? at : at + "/name");
  raw.bone.name = name->get<std::string>();
  if (const auto p = j.find("parent"); p != j.end() && !p->is_null()) {
    if (!p->is_string()) return r.fail("template.type", "\"parent\" must be a bone name or null", at + "/parent");
    raw.parent = p->get<std::string>();
  }
  if (const auto v = j.find("length"); v != j.end()) {
    auto len = r.range(*v, at + "/length", "template.bone.length", 0);
    if (!len) return Unexpected{len.error()};
    raw.bone.length = *len;
  }
  if (const auto v = j.find("extent"); v != j.end()) {
    auto ext = r.range(*v, at + "/extent", "template.bone.length", 0);
    if (!ext) return Unexpected{ext.error()};
    raw.bone.extent = *ext;
  }
  if (const auto v = j.find("direction"); v != j.end()) {
    auto dir = r.range(*v, at + "/direction", "template.bone.direction", -720);
    if (!dir) return Unexpected{dir.error()};
    if (dir->max > 720 || dir->max - dir->min > 360)
      return r.fail("template.bone.direction", "a direction range is at most 360 degrees wide, within -720..720",
                    at + "/direction");
    raw.bone.direction = *dir;
  }
  raw.bone.rest = 0.5 * (raw.bone.direction.min + raw.bone.direction.max);
  if (const auto v = j.find("rest"); v != j.end()) {
    auto rest = r.range(*v, at + "/rest", "template.bone.direction", -720);
    if (!rest) return Unexpected{rest.error()};
    if (v->is_array() || rest->min < raw.bone.direction.min || rest->min > raw.bone.direction.max)
      return r.fail("template.bone.direction", "\"rest\" is one angle within \"direction\"", at + "/rest");
    raw.bone.rest = rest->min;
  }
  for (const auto& [key, field] : {std::pair{"optional", &raw.bone.optional}, std::pair{"over_body", &raw.bone.over_body},
                                   std::pair{"tip", &raw.bone.tip},
                                   std::pair{"narrow", &raw.bone.narrow}, std::pair{"spot", &raw.bone.spot}}) {
    if (const auto v = j.find(key); v != j.end()) {
      auto b = r.flag(*v, at + "/" + key);
      if (!b) return Unexpected{b.error()};
      *field = *b;
    }
  }
  if (raw.bone.spot && (raw.parent.empty() || raw.bone.tip || !raw.bone.optional))
    return r.fail("template.bone.spot", "a \"spot\" bone (an eye) is an optional leaf inside its parent's part: it needs a parent, \"optional\": true and no \"tip\"", at + "/spot");
  return raw;
}

// Parents first (depth-first in file order); a parent naming no bone or a cycle is an error at the
// bone that names it.
Result<std::vector<TemplateBone>> order_bones(const Reader& r, const std::vector<RawBone>& raw) {
  std::map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (!by_name.emplace(raw[i].bone.name, i).second)
      return r.fail("template.bone.name", "a second bone named \"" + raw[i].bone.name + "\"", raw[i].at + "/name");
  }
  std::vector<std::int64_t> parent(raw.size(), -1);
  std::size_t roots = 0;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i].parent.empty()) {
      if (++roots > 1)
        return r.fail("template.bone.root", "a second root bone \"" + raw[i].bone.name + "\": a template has one root",
                      raw[i].at);
      continue;
    }
    const auto p = by_name.find(raw[i].parent);
    if (p == by_name.end())
      return r.fail("template.bone.parent", "parent \"" + raw[i].parent + "\" names no bone", raw[i].at + "/parent");
    parent[i] = static_cast<std::int64_t>(p->second);
  }
  for (std::size_t i = 0; i < raw.size(); ++i) {  // a walk up longer than the bones is a cycle
    std::int64_t at = parent[i];
    for (std::size_t steps = 0; at >= 0; ++steps, at = parent[static_cast<std::size_t>(at)]) {
      if (steps > raw.size() || static_cast<std::size_t>(at) == i)
        return r.fail("template.bone.cycle", "bone \"" + raw[i].bone.name + "\" is its own ancestor", raw[i].at + "/parent");
    }
  }
  if (roots == 0) return r.fail("template.bone.root", "no root bone (one bone has no \"parent\")", "/bones");
  std::vector<std::size_t> order, stack;
  std::vector<std::int64_t> new_index(raw.size(), -1);
  for (std::size_t i = raw.size(); i-- > 0;)
    if (parent[i] < 0) stack.push_back(i);
  while (!stack.empty()) {
    const std::size_t b = stack.back();
    stack.pop_back();
    new_index[b] = static_cast<std::int64_t>(order.size());
    order.push_back(b);
    for (std::size_t c = raw.size(); c-- > 0;)
      if (parent[c] == static_cast<std::int64_t>(b)) stack.push_back(c);
  }
  std::vector<TemplateBone> bones;
  for (const std::size_t b : order) {
    TemplateBone bone = raw[b].bone;
    bone.parent = parent[b] < 0 ? -1 : new_index[static_cast<std::size_t>(parent[b])];
    bones.push_back(std::move(bone));
  }
  return bones;
}

Result<void> read_symmetry(const Reader& r, const Json& j, SkeletonTemplate& t) {
  if (!j.is_array()) return r.fail("template.type", "\"symmetry\" must be an array of [left, right] pairs", "/symmetry");
  std::vector<int> paired(t.bones.size(), 0);
  for (std::size_t k = 0; k < j.size(); ++k) {
    const std::string at = "/symmetry/" + std::to_string(k);
    const Json& pair = j[k];
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string())
      return r.fail("template.type", "a symmetry pair is [\"left bone\", \"right bone\"]", at);
    std::size_t idx[2];
    for (int s = 0; s < 2; ++s) {
      const std::string name = pair[s].get<std::string>();
      const auto it = std::find_if(t.bones.begin(), t.bones.end(), [&](const TemplateBone& b) { return b.name == name; });
      if (it == t.bones.end())
        return r.fail("template.symmetry", "\"" + name + "\" names no bone", at + "/" + std::to_string(s));
      idx[s] = static_cast<std::size_t>(it - t.bones.begin());
      if (t.bones[idx[s]].parent < 0)
        return r.fail("template.symmetry", "the root \"" + name + "\" has no mirror image", at + "/" + std::to_string(s));
      if (paired[idx[s]]++)
        return r.fail("template.symmetry", "\"" + name + "\" is in two symmetry pairs", at + "/" + std::to_string(s));
    }
    if (idx[0] == idx[1]) return r.fail("template.symmetry", "a bone paired with itself", at);
    t.symmetry.emplace_back(idx[0], idx[1]);
  }
  return {};
}

Result<void> read_root(const Reader& r, const Json& j, SkeletonTemplate& t) {
  if (!j.is_object()) return r.fail("template.type", "\"root\" must be an object {x, y}", "/root");
  if (auto ok = r.known_keys(j, {"x", "y"}, "/root"); !ok) return ok;
  for (const auto& [key, field] : {std::pair{"x", &t.root_x}, std::pair{"y", &t.root_y}}) {
    if (const auto v = j.find(key); v != j.end()) {
      auto range = r.range(*v, std::string("/root/") + key, "template.root", 0);
      if (!range) return Unexpected{range.error()};
      if (range->max > 1) return r.fail("template.root", "a fraction of the bounding box, 0..1", std::string("/root/") + key);
      *field = *range;
    }
  }
  return {};
}

}  // namespace

Result<SkeletonTemplate> read_skeleton_template(std::string_view text, const std::string& path) {
  auto parsed = detail::parse_json(text, path);
  if (!parsed) return Unexpected{parsed.error()};
  const Json& j = *parsed;
  const Reader r{text, path};
  if (!j.is_object()) return r.fail("template.root", "a template file is an object {template, bones, ...}", "");
  if (auto ok = r.known_keys(j, {"$schema", "template", "description", "measure", "root", "ground", "bones", "symmetry"}, "");
      !ok)
    return Unexpected{ok.error()};
  SkeletonTemplate t;
  const auto name = j.find("template");
  if (name == j.end() || !name->is_string() || !good_name(name->get<std::string>()))
    return r.fail("template.name", "\"template\" must name the template: 1-64 letters, digits, '_', '.' or '-'",
                  name == j.end() ? "" : "/template");
  t.name = name->get<std::string>();
  if (const auto v = j.find("description"); v != j.end()) {
    if (!v->is_string()) return r.fail("template.type", "\"description\" must be a string", "/description");
    t.description = v->get<std::string>();
  }
  if (const auto v = j.find("measure"); v != j.end()) {
    const std::string m = v->is_string() ? v->get<std::string>() : "";
    if (m == "height") t.measure = TemplateMeasure::Height;
    else if (m == "width") t.measure = TemplateMeasure::Width;
    else if (m == "long") t.measure = TemplateMeasure::Long;
    else return r.fail("template.type", "\"measure\" is \"height\", \"width\" or \"long\"", "/measure");
  }
  if (const auto v = j.find("root"); v != j.end())
    if (auto ok = read_root(r, *v, t); !ok) return Unexpected{ok.error()};
  const auto bones = j.find("bones");
  if (bones == j.end() || !bones->is_array() || bones->empty() || bones->size() > kMaxTemplateBones)
    return r.fail("template.type", "\"bones\" must be an array of 1.." + std::to_string(kMaxTemplateBones) + " bones",
                  bones == j.end() ? "" : "/bones");
  std::vector<RawBone> raw;
  for (std::size_t i = 0; i < bones->size(); ++i) {
    auto b = read_bone(r, (*bones)[i], i);
    if (!b) return Unexpected{b.error()};
    raw.push_back(std::move(*b));
  }
  auto ordered = order_bones(r, raw);
  if (!ordered) return Unexpected{ordered.error()};
  t.bones = std::move(*ordered);
  if (const auto v = j.find("symmetry"); v != j.end())
    if (auto ok = read_symmetry(r, *v, t); !ok) return Unexpected{ok.error()};
  if (const auto v = j.find("ground"); v != j.end()) {
    const std::string g = v->is_string() ? v->get<std::string>() : "";
    const bool taken = std::any_of(t.bones.begin(), t.bones.end(), [&](const TemplateBone& b) { return b.name == g; });
    if (!good_name(g) || taken)
      return r.fail("template.ground",
                    "\"ground\" names the bone placed where the figure stands: 1-64 letters, digits, '_', '.' or '-', "
                    "and no other bone's name",
                    "/ground");
    t.ground = g;
  }
  return t;
}

Result<SkeletonTemplate> load_skeleton_template(const std::string& path) {
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return Unexpected{text.error()};
  return read_skeleton_template(*text, path);
}

Result<SkeletonTemplate> resolve_skeleton_template(const std::string& spec) {
  if (spec.find_first_of("/\\.") == std::string::npos) return bundled_template(spec);
  return load_skeleton_template(spec);
}

}  // namespace rig2d
