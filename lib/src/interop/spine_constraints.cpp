// SPDX-License-Identifier: Apache-2.0
// Spine constraints applied once to the setup pose, as the 4.2 runtimes (and so the Spine editor in
// setup mode) apply them: the update cache of Skeleton.updateCache, then IkConstraint, TransformConstraint
// and PathConstraint as they change world transforms. Physics constraints are at rest: no change.
#include "interop/spine_constraints.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "rig2d/core/limits.h"

namespace rig2d::interop {
namespace {

using detail::Json;

enum class ConstraintKind { Ik, Transform, Path, Physics };
const char* const kKindKeys[] = {"ik", "transform", "path", "physics"};
constexpr std::size_t kMaxConstraints = 4 * kMaxBones;  // far above any rig; bounds the setup solve

enum class PositionMode { Fixed, Percent };
enum class SpacingMode { Length, Fixed, Percent, Proportional };
enum class RotateMode { Tangent, Chain, ChainScale };

// A path attachment: its vertices (in threes: handle in, point, handle out), each a list of bone
// influences (an unweighted vertex is one influence of weight 1 on the slot's bone).
struct PathInfluence {
  int bone = 0;
  double x = 0, y = 0, weight = 1;
};
struct SpinePath {
  bool closed = false, constant_speed = true;
  std::vector<double> lengths;  // cumulative length at the end of each curve, as the editor stored it
  std::vector<std::vector<PathInfluence>> vertices;
  std::string ptr;
};

struct SpineConstraint {
  ConstraintKind kind = ConstraintKind::Ik;
  std::string name, ptr;
  double order = 0;
  bool skin_required = false;
  std::vector<int> bones;
  int target = -1;  // the target bone; a path's is its slot's bone
  // IK
  double mix = 1, softness = 0, bend = 1;
  bool compress = false, stretch = false, uniform = false;
  // Transform
  bool local = false, relative = false;
  double offset_rotation = 0, offset_x = 0, offset_y = 0, offset_scale_x = 0, offset_scale_y = 0, offset_shear_y = 0;
  double mix_rotate = 1, mix_x = 1, mix_y = 1, mix_scale_x = 1, mix_scale_y = 1, mix_shear_y = 1;
  // Path (offset_rotation, mix_rotate, mix_x and mix_y shared with transform)
  PositionMode position_mode = PositionMode::Percent;
  SpacingMode spacing_mode = SpacingMode::Length;
  RotateMode rotate_mode = RotateMode::Tangent;
  double position = 0, spacing = 0;
  std::string slot;
  std::optional<SpinePath> path;  // none: the slot shows no path attachment, and the constraint does nothing
};

double wrap_pi(double r) {
  if (r > kPi) return r - 2 * kPi;
  if (r < -kPi) return r + 2 * kPi;
  return r;
}
double wrap_180(double deg) {
  if (deg > 180) return deg - 360;
  if (deg < -180) return deg + 360;
  return deg;
}

// Reads constraints from the skeleton JSON, failing with a located error on anything malformed.
class ConstraintReader {
 public:
  explicit ConstraintReader(const SpineSetupContext& ctx) : ctx_(ctx) {}

  [[noreturn]] void fail(std::string code, std::string message, const std::string& ptr) const {
    throw ConvertFailure{ctx_.src.fail(std::move(code), std::move(message), ptr).error};
  }
  double number(const Json& o, const char* key, double fallback, const std::string& ptr) const {
    const auto it = o.find(key);
    if (it == o.end()) return fallback;
    if (!it->is_number() || !std::isfinite(it->get<double>())) {
      fail("spine.type", std::string("\"") + key + "\" must be a finite number, not " + detail::json_type_name(*it), ptr + "/" + key);
    }
    return it->get<double>();
  }
  bool boolean(const Json& o, const char* key, bool fallback, const std::string& ptr) const {
    const auto it = o.find(key);
    if (it == o.end()) return fallback;
    if (!it->is_boolean()) fail("spine.type", std::string("\"") + key + "\" must be true or false, not " + detail::json_type_name(*it), ptr + "/" + key);
    return it->get<bool>();
  }
  std::string string(const Json& o, const char* key, const std::string& ptr, bool required) const {
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) {
      if (required) fail("spine.missing", std::string("missing \"") + key + "\"", ptr);
      return "";
    }
    if (!it->is_string()) fail("spine.type", std::string("\"") + key + "\" must be a string, not " + detail::json_type_name(*it), ptr + "/" + key);
    return it->get<std::string>();
  }
  int bone(const std::string& name, const std::string& what, const std::string& ptr) const {
    const auto it = ctx_.bone_index.find(name);
    if (it == ctx_.bone_index.end()) fail("spine.constraint.bone", what + " \"" + name + "\" is not a bone", ptr);
    return it->second;
  }
  // Spine reads mode names with the first letter in either case ("chainScale" or "ChainScale").
  template <typename E>
  E mode(const Json& o, const char* key, E fallback, std::initializer_list<std::pair<const char*, E>> names, const std::string& ptr) const {
    std::string s = string(o, key, ptr, false);
    if (o.find(key) == o.end()) return fallback;
    std::string list;
    for (const auto& [n, v] : names) {
      std::string lower = s;
      if (!lower.empty()) lower[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(lower[0])));
      if (lower == n) return v;
      list += std::string(list.empty() ? "" : ", ") + n;
    }
    fail("spine.constraint.mode", std::string("\"") + key + "\" is \"" + s + "\", not one of " + list, ptr + "/" + key);
  }

  SpineConstraint read(ConstraintKind kind, const Json& j, const std::string& ptr) const;

 private:
  void read_ik(SpineConstraint& c, const Json& j) const;
  void read_transform(SpineConstraint& c, const Json& j) const;
  void read_path(SpineConstraint& c, const Json& j) const;
  std::optional<SpinePath> read_path_attachment(const std::string& slot, int slot_bone, const std::string& attachment) const;
  const Json* find_attachment(const std::string& slot, const std::string& name, std::string& ptr) const;

  const SpineSetupContext& ctx_;
};

SpineConstraint ConstraintReader::read(ConstraintKind kind, const Json& j, const std::string& ptr) const {
  if (!j.is_object()) fail("spine.constraint", "a constraint must be an object", ptr);
  SpineConstraint c;
  c.kind = kind, c.ptr = ptr;
  c.name = string(j, "name", ptr, true);
  c.order = number(j, "order", 0, ptr);
  c.skin_required = boolean(j, "skin", false, ptr);
  if (kind == ConstraintKind::Physics) {
    c.bones = {bone(string(j, "bone", ptr, true), "bone", ptr + "/bone")};
    c.target = c.bones[0];
    return c;
  }
  const auto bones = j.find("bones");
  if (bones == j.end() || !bones->is_array()) fail("spine.missing", "a constraint needs a \"bones\" array", ptr);
  for (std::size_t i = 0; i < bones->size(); ++i) {
    const std::string at = ptr + "/bones/" + std::to_string(i);
    if (!(*bones)[i].is_string()) fail("spine.type", "a constrained bone must be named by a string", at);
    c.bones.push_back(bone((*bones)[i].get<std::string>(), "constrained bone", at));
  }
  if (kind == ConstraintKind::Ik) read_ik(c, j);
  else if (kind == ConstraintKind::Transform) read_transform(c, j);
  else read_path(c, j);
  return c;
}

void ConstraintReader::read_ik(SpineConstraint& c, const Json& j) const {
  c.target = bone(string(j, "target", c.ptr, true), "target", c.ptr + "/target");
  if (c.bones.empty() || c.bones.size() > 2) {
    fail("spine.constraint.bones", "an IK constraint moves 1 or 2 bones, not " + std::to_string(c.bones.size()), c.ptr + "/bones");
  }
  const SpineBone& first = ctx_.bones[static_cast<std::size_t>(c.bones[0])];
  if (first.parent < 0) fail("spine.constraint.bones", "IK bone \"" + first.name + "\" is the root: it has no parent to turn in", c.ptr + "/bones/0");
  if (c.bones.size() == 2) {
    const SpineBone& child = ctx_.bones[static_cast<std::size_t>(c.bones[1])];
    if (child.parent != c.bones[0]) {
      fail("spine.constraint.bones", "two-bone IK: \"" + child.name + "\" is not a child of \"" + first.name + "\"", c.ptr + "/bones/1");
    }
  }
  c.mix = number(j, "mix", 1, c.ptr), c.softness = number(j, "softness", 0, c.ptr);
  c.bend = boolean(j, "bendPositive", true, c.ptr) ? 1 : -1;
  c.compress = boolean(j, "compress", false, c.ptr), c.stretch = boolean(j, "stretch", false, c.ptr);
  c.uniform = boolean(j, "uniform", false, c.ptr);
}

void ConstraintReader::read_transform(SpineConstraint& c, const Json& j) const {
  c.target = bone(string(j, "target", c.ptr, true), "target", c.ptr + "/target");
  c.local = boolean(j, "local", false, c.ptr), c.relative = boolean(j, "relative", false, c.ptr);
  c.offset_rotation = number(j, "rotation", 0, c.ptr);
  c.offset_x = number(j, "x", 0, c.ptr), c.offset_y = number(j, "y", 0, c.ptr);
  c.offset_scale_x = number(j, "scaleX", 0, c.ptr), c.offset_scale_y = number(j, "scaleY", 0, c.ptr);
  c.offset_shear_y = number(j, "shearY", 0, c.ptr);
  c.mix_rotate = number(j, "mixRotate", 1, c.ptr);
  c.mix_x = number(j, "mixX", 1, c.ptr), c.mix_y = number(j, "mixY", c.mix_x, c.ptr);
  c.mix_scale_x = number(j, "mixScaleX", 1, c.ptr), c.mix_scale_y = number(j, "mixScaleY", c.mix_scale_x, c.ptr);
  c.mix_shear_y = number(j, "mixShearY", 1, c.ptr);
}

void ConstraintReader::read_path(SpineConstraint& c, const Json& j) const {
  c.slot = string(j, "target", c.ptr, true);
  const auto slots = ctx_.root.find("slots");
  const Json* slot = nullptr;
  if (slots != ctx_.root.end() && slots->is_array()) {
    for (const Json& s : *slots) {
      if (s.is_object() && s.contains("name") && s["name"] == c.slot) slot = &s;
    }
  }
  if (!slot || !slot->contains("bone") || !(*slot)["bone"].is_string()) {
    fail("spine.constraint.target", "target \"" + c.slot + "\" is not a slot", c.ptr + "/target");
  }
  c.target = bone((*slot)["bone"].get<std::string>(), "the target slot's bone", c.ptr + "/target");
  c.position_mode = mode(j, "positionMode", PositionMode::Percent, {{"fixed", PositionMode::Fixed}, {"percent", PositionMode::Percent}}, c.ptr);
  c.spacing_mode = mode(j, "spacingMode", SpacingMode::Length,
                        {{"length", SpacingMode::Length}, {"fixed", SpacingMode::Fixed}, {"percent", SpacingMode::Percent},
                         {"proportional", SpacingMode::Proportional}},
                        c.ptr);
  c.rotate_mode = mode(j, "rotateMode", RotateMode::Tangent,
                       {{"tangent", RotateMode::Tangent}, {"chain", RotateMode::Chain}, {"chainScale", RotateMode::ChainScale}}, c.ptr);
  c.offset_rotation = number(j, "rotation", 0, c.ptr);
  c.position = number(j, "position", 0, c.ptr), c.spacing = number(j, "spacing", 0, c.ptr);
  c.mix_rotate = number(j, "mixRotate", 1, c.ptr);
  c.mix_x = number(j, "mixX", 1, c.ptr), c.mix_y = number(j, "mixY", c.mix_x, c.ptr);
  const std::string shown = slot->contains("attachment") && (*slot)["attachment"].is_string() ? (*slot)["attachment"].get<std::string>() : "";
  if (!shown.empty()) c.path = read_path_attachment(c.slot, c.target, shown);
}

// The skins' attachments maps, 4.x ([{name, attachments}]) or 3.x ({name: attachments}).
const Json* skin_attachments(const Json& root, const std::string& skin, std::string& ptr) {
  const auto skins = root.find("skins");
  if (skins == root.end()) return nullptr;
  if (skins->is_array()) {
    for (std::size_t i = 0; i < skins->size(); ++i) {
      const Json& s = (*skins)[i];
      if (s.is_object() && s.contains("name") && s["name"] == skin && s.contains("attachments") && s["attachments"].is_object()) {
        ptr = "/skins/" + std::to_string(i) + "/attachments";
        return &s["attachments"];
      }
    }
  } else if (skins->is_object()) {
    if (auto it = skins->find(skin); it != skins->end() && it->is_object()) {
      ptr = "/skins/" + detail::pointer_token(skin);
      return &*it;
    }
  }
  return nullptr;
}

const Json* ConstraintReader::find_attachment(const std::string& slot, const std::string& name, std::string& ptr) const {
  std::vector<std::string> order(ctx_.skins.rbegin(), ctx_.skins.rend());
  order.push_back("default");
  for (const std::string& skin : order) {
    std::string skin_ptr;
    const Json* atts = skin_attachments(ctx_.root, skin, skin_ptr);
    if (!atts) continue;
    const auto s = atts->find(slot);
    if (s == atts->end() || !s->is_object()) continue;
    if (auto a = s->find(name); a != s->end()) {
      ptr = skin_ptr + "/" + detail::pointer_token(slot) + "/" + detail::pointer_token(name);
      return &*a;
    }
  }
  return nullptr;
}

std::optional<SpinePath> ConstraintReader::read_path_attachment(const std::string& slot, int slot_bone, const std::string& attachment) const {
  SpinePath path;
  const Json* att = find_attachment(slot, attachment, path.ptr);
  if (!att || !att->is_object() || string(*att, "type", path.ptr, false) != "path") return std::nullopt;
  const std::string& ptr = path.ptr;
  path.closed = boolean(*att, "closed", false, ptr);
  path.constant_speed = boolean(*att, "constantSpeed", true, ptr);
  const double count_d = number(*att, "vertexCount", -1, ptr);
  const std::size_t curves = static_cast<std::size_t>(std::max(0.0, count_d)) / 3;
  if (count_d != std::floor(count_d) || count_d > double(kMaxVertices) || std::fmod(count_d, 3) != 0 || curves < (path.closed ? 1u : 2u)) {
    fail("spine.attachment.path", "a path's \"vertexCount\" must be a multiple of 3, at least " + std::string(path.closed ? "3" : "6"),
         ptr + (att->contains("vertexCount") ? "/vertexCount" : ""));
  }
  const std::size_t n = curves * 3;
  const auto num = [&](const Json& arr, std::size_t i, const char* key) {
    if (i >= arr.size() || !arr[i].is_number() || !std::isfinite(arr[i].get<double>())) {
      fail("spine.attachment.path", std::string("\"") + key + "\" is too short or holds a non-number at " + std::to_string(i),
           ptr + "/" + key + (i < arr.size() ? "/" + std::to_string(i) : ""));
    }
    return arr[i].get<double>();
  };
  const auto verts_it = att->find("vertices");
  const auto lengths_it = att->find("lengths");
  if (verts_it == att->end() || !verts_it->is_array()) fail("spine.attachment.path", "a path needs a \"vertices\" array", ptr);
  if (lengths_it == att->end() || !lengths_it->is_array()) fail("spine.attachment.path", "a path needs a \"lengths\" array", ptr);
  for (std::size_t i = 0; i < curves; ++i) path.lengths.push_back(num(*lengths_it, i, "lengths"));
  const Json& verts = *verts_it;
  if (verts.size() == 2 * n) {
    for (std::size_t v = 0; v < n; ++v) path.vertices.push_back({{slot_bone, num(verts, 2 * v, "vertices"), num(verts, 2 * v + 1, "vertices"), 1}});
    return path;
  }
  std::size_t at = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const double k = num(verts, at++, "vertices");
    if (k < 1 || k != std::floor(k) || k > double(ctx_.bones.size())) {
      fail("spine.attachment.path", "path vertex " + std::to_string(v) + " has a bad bone count", ptr + "/vertices/" + std::to_string(at - 1));
    }
    std::vector<PathInfluence>& out = path.vertices.emplace_back();
    for (std::size_t i = 0; i < static_cast<std::size_t>(k); ++i, at += 4) {
      const double b = num(verts, at, "vertices");
      if (b < 0 || b >= double(ctx_.bones.size()) || b != std::floor(b)) {
        fail("spine.attachment.path", "bone index " + detail::js_number(b) + " is not a bone", ptr + "/vertices/" + std::to_string(at));
      }
      out.push_back({static_cast<int>(b), num(verts, at + 1, "vertices"), num(verts, at + 2, "vertices"), num(verts, at + 3, "vertices")});
    }
  }
  if (at != verts.size()) fail("spine.attachment.path", "\"vertices\" does not match \"vertexCount\" " + std::to_string(n), ptr + "/vertices");
  return path;
}

// Two-bone IK with a uniformly scaled parent: the child's angle a2 by the law of cosines (bend picks
// its sign), the parent's a1 so the tip points at (tx, ty). Returns the target's distance over the
// chain's full reach (above 1: out of reach, the chain held straight).
double law_of_cosines(double tx, double ty, double dd, double l1, double l2, double bend, double& a1, double& a2) {
  double cosine = (dd - l1 * l1 - l2 * l2) / (2 * l1 * l2);
  if (cosine < -1) {
    cosine = -1, a2 = kPi * bend;
  } else if (cosine > 1) {
    cosine = 1, a2 = 0;
  } else {
    a2 = std::acos(cosine) * bend;
  }
  const double a = l1 + l2 * cosine, b = l2 * std::sin(a2);
  a1 = std::atan2(ty * a - tx * b, tx * a + ty * b);
  return std::sqrt(dd) / (l1 + l2);
}

// Two-bone IK with a non-uniformly scaled parent: the child's tip draws an ellipse; the point of it on
// the target's circle, else (out of reach) its nearest or farthest point, as the runtimes solve it.
void on_ellipse(double tx, double ty, double dd, double l1, double l2, double psx, double psy, double bend, double& a1, double& a2) {
  const double a = psx * l2, b = psy * l2;
  const double aa = a * a, bb = b * b, ta = std::atan2(ty, tx);
  double c = bb * l1 * l1 + aa * dd - aa * bb;
  const double c1 = -2 * bb * l1, c2 = bb - aa;
  double d = c1 * c1 - 4 * c2 * c;
  if (d >= 0) {
    double q = std::sqrt(d);
    if (c1 < 0) q = -q;
    q = -(c1 + q) * 0.5;
    const double r0 = q / c2, r1 = c / q, r = std::abs(r0) < std::abs(r1) ? r0 : r1;
    const double rest = dd - r * r;
    if (rest >= 0) {
      const double y = std::sqrt(rest) * bend;
      a1 = ta - std::atan2(y, r);
      a2 = std::atan2(y / psy, (r - l1) / psx);
      return;
    }
  }
  double min_angle = kPi, min_x = l1 - a, min_dist = min_x * min_x, min_y = 0;
  double max_angle = 0, max_x = l1 + a, max_dist = max_x * max_x, max_y = 0;
  c = -a * l1 / (aa - bb);
  if (c >= -1 && c <= 1) {
    c = std::acos(c);
    const double x = a * std::cos(c) + l1, y = b * std::sin(c);
    d = x * x + y * y;
    if (d < min_dist) min_angle = c, min_dist = d, min_x = x, min_y = y;
    if (d > max_dist) max_angle = c, max_dist = d, max_x = x, max_y = y;
  }
  if (dd <= (min_dist + max_dist) * 0.5) {
    a1 = ta - std::atan2(min_y * bend, min_x), a2 = min_angle * bend;
  } else {
    a1 = ta - std::atan2(max_y * bend, max_x), a2 = max_angle * bend;
  }
}

// One constrained bone's change, for the note.
struct BoneMove {
  int bone = 0;
  double moved = 0, turned = 0, scaled = 1;  // px, degrees (Spine's, counter-clockwise), x-axis length ratio
};

class SetupSolver {
 public:
  SetupSolver(SpineSetupContext& ctx, std::vector<SpineConstraint> constraints)
      : ctx_(ctx), bones_(ctx.bones), cons_(std::move(constraints)) {}

  void run();

 private:
  SpineBone& bone(int i) { return bones_[static_cast<std::size_t>(i)]; }
  SpineBone* parent_of(int i) { return bone(i).parent >= 0 ? &bone(bone(i).parent) : nullptr; }
  void world(int i, const SpineLocal& l) { spine_update_world(bone(i), parent_of(i), l); }
  void applied_from_world(int i) { spine_update_applied(bone(i), parent_of(i)); }

  void read_skins();
  void build_cache();
  void sort_bone(int b);
  void sort_reset(const std::vector<int>& list);
  bool is_active(const SpineConstraint& c) const;
  void apply(const SpineConstraint& c);
  void ik1(int b, double tx, double ty, bool compress, bool stretch, bool uniform, double alpha);
  void ik2(int parent, int child, double tx, double ty, double bend, bool stretch, bool uniform, double softness, double alpha);
  void transform_world(const SpineConstraint& c);
  void transform_local(const SpineConstraint& c);
  void path(const SpineConstraint& c);
  std::vector<double> path_positions(const SpineConstraint& c, const std::vector<double>& spaces, bool tangents);
  void report(const SpineConstraint& c, const std::vector<BoneMove>& moves);

  SpineSetupContext& ctx_;
  std::vector<SpineBone>& bones_;
  std::vector<SpineConstraint> cons_;
  std::vector<double> length_;
  std::vector<bool> bone_skin_;
  std::set<std::pair<int, std::string>> listed_;  // (kind, name) of constraints the active skins list
  std::vector<std::vector<int>> children_;
  std::vector<char> sorted_, active_;
  std::vector<std::pair<bool, int>> cache_;  // (is a constraint, index)
  std::vector<const SpineConstraint*> unmoved_, inactive_;
};

void SetupSolver::read_skins() {
  const Json& jbones = ctx_.root["bones"];
  const ConstraintReader reader(ctx_);
  for (std::size_t i = 0; i < bones_.size(); ++i) {
    const std::string ptr = "/bones/" + std::to_string(i);
    length_.push_back(reader.number(jbones[i], "length", 0, ptr));
    bone_skin_.push_back(reader.boolean(jbones[i], "skin", false, ptr));
  }
  sorted_.assign(bones_.size(), 0), active_.assign(bones_.size(), 1);
  children_.assign(bones_.size(), {});
  for (std::size_t i = 0; i < bones_.size(); ++i) {
    if (bones_[i].parent >= 0) children_[static_cast<std::size_t>(bones_[i].parent)].push_back(int(i));
    sorted_[i] = bone_skin_[i], active_[i] = !bone_skin_[i];
  }
  const auto skins = ctx_.root.find("skins");
  if (skins == ctx_.root.end() || !skins->is_array()) return;  // 3.x skins list neither bones nor constraints
  for (const std::string& name : ctx_.skins) {
    for (const Json& s : *skins) {
      if (!s.is_object() || !s.contains("name") || s["name"] != name) continue;
      for (int k = 0; k < 4; ++k) {
        if (auto list = s.find(kKindKeys[k]); list != s.end() && list->is_array()) {
          for (const Json& n : *list)
            if (n.is_string()) listed_.insert({k, n.get<std::string>()});
        }
      }
      if (auto list = s.find("bones"); list != s.end() && list->is_array()) {
        for (const Json& n : *list) {
          const auto it = n.is_string() ? ctx_.bone_index.find(n.get<std::string>()) : ctx_.bone_index.end();
          for (int b = it == ctx_.bone_index.end() ? -1 : it->second; b >= 0; b = bone(b).parent)
            sorted_[static_cast<std::size_t>(b)] = 0, active_[static_cast<std::size_t>(b)] = 1;
        }
      }
    }
  }
}

void SetupSolver::sort_bone(int b) {
  if (b < 0 || sorted_[static_cast<std::size_t>(b)]) return;
  sort_bone(bone(b).parent);
  sorted_[static_cast<std::size_t>(b)] = 1;
  cache_.push_back({false, b});
}

void SetupSolver::sort_reset(const std::vector<int>& list) {
  for (int b : list) {
    if (!active_[static_cast<std::size_t>(b)]) continue;
    if (sorted_[static_cast<std::size_t>(b)]) sort_reset(children_[static_cast<std::size_t>(b)]);
    sorted_[static_cast<std::size_t>(b)] = 0;
  }
}

bool SetupSolver::is_active(const SpineConstraint& c) const {
  if (!active_[static_cast<std::size_t>(c.target)]) return false;
  return !c.skin_required || listed_.count({static_cast<int>(c.kind), c.name}) > 0;
}

// Skeleton.updateCache: the i-th constraint is the first (IK, then transform, path, physics, each in
// file order) whose "order" is i; each is preceded by the bones it reads and followed by the bones
// below the ones it moves.
void SetupSolver::build_cache() {
  std::map<double, std::size_t> first_of_order;  // cons_ is in Spine's search order: IK, transform, path, physics
  for (std::size_t k = 0; k < cons_.size(); ++k) first_of_order.try_emplace(cons_[k].order, k);
  std::vector<bool> used(cons_.size(), false);
  for (std::size_t i = 0; i < cons_.size(); ++i) {
    const auto it = first_of_order.find(double(i));
    if (it == first_of_order.end()) continue;
    const std::size_t k = it->second;
    used[k] = true;
    SpineConstraint& c = cons_[k];
    if (!is_active(c)) {
      inactive_.push_back(&c);
      continue;
    }
    const std::vector<int>& cb = c.bones;
    if (c.kind == ConstraintKind::Ik) {
      sort_bone(c.target);
      sort_bone(cb.front());
      if (cb.size() == 2) sort_bone(cb.back());
      cache_.push_back({true, int(k)});
      sort_reset(children_[static_cast<std::size_t>(cb.front())]);
      if (cb.size() == 2) sorted_[static_cast<std::size_t>(cb.back())] = 1;
      continue;
    }
    if (c.kind == ConstraintKind::Physics) {
      sort_bone(c.target);
      cache_.push_back({true, int(k)});
      sort_reset(children_[static_cast<std::size_t>(c.target)]);
      sorted_[static_cast<std::size_t>(c.target)] = 1;
      continue;
    }
    if (c.kind == ConstraintKind::Transform) {
      sort_bone(c.target);
      for (int b : cb) {
        if (c.local) sort_bone(bone(b).parent);
        sort_bone(b);
      }
    } else {
      // The path's bones (or its slot's bone) are computed before the path is read.
      if (!c.path) sort_bone(c.target);
      else
        for (const auto& v : c.path->vertices)
          for (const PathInfluence& in : v) sort_bone(in.bone);
      for (int b : cb) sort_bone(b);
    }
    cache_.push_back({true, int(k)});
    for (int b : cb) sort_reset(children_[static_cast<std::size_t>(b)]);
    for (int b : cb) sorted_[static_cast<std::size_t>(b)] = 1;
  }
  for (std::size_t i = 0; i < bones_.size(); ++i) sort_bone(int(i));
  for (std::size_t k = 0; k < cons_.size(); ++k) {
    if (used[k]) continue;
    warn(ctx_.diagnostics, "convert.spine.constraint.order",
         std::string(kKindKeys[static_cast<int>(cons_[k].kind)]) + " constraint \"" + cons_[k].name + "\" has order " +
             detail::js_number(cons_[k].order) + ", which another constraint takes or which is outside 0.." +
             std::to_string(cons_.size() - 1) + ": Spine never applies it, and neither does this import",
         ctx_.src.at(cons_[k].ptr));
  }
}

void SetupSolver::run() {
  read_skins();
  build_cache();
  for (SpineBone& b : bones_) b.applied = b.setup();
  for (const auto& [is_constraint, i] : cache_) {
    if (!is_constraint) {
      world(i, bone(i).applied);
      continue;
    }
    const SpineConstraint& c = cons_[static_cast<std::size_t>(i)];
    std::vector<SpineBone> before;
    for (int b : c.bones) before.push_back(bone(b));
    apply(c);
    std::vector<BoneMove> moves;
    for (std::size_t k = 0; k < c.bones.size(); ++k) {
      const SpineBone& a = bone(c.bones[k]);
      const SpineBone& p = before[k];
      const double turned = wrap_180(rad_to_deg(std::atan2(a.c, a.a) - std::atan2(p.c, p.a)));
      const double l0 = std::hypot(p.a, p.c);
      moves.push_back({c.bones[k], std::hypot(a.wx - p.wx, a.wy - p.wy), turned, l0 > 0 ? std::hypot(a.a, a.c) / l0 : 1});
    }
    report(c, moves);
  }
  const auto names = [](const std::vector<const SpineConstraint*>& list) {
    std::string out;
    for (const SpineConstraint* c : list) out += (out.empty() ? "\"" : ", \"") + c->name + "\"";
    return out;
  };
  if (!unmoved_.empty()) {
    ctx_.diagnostics.push_back({Severity::Note, "convert.spine.constraint.applied",
                                std::to_string(unmoved_.size()) + " constraint(s) applied to the setup pose moved no bone (the setup "
                                "pose already meets them): " + names(unmoved_) + "; rig2d keeps no constraint",
                                ctx_.src.at(unmoved_.front()->ptr)});
  }
  if (!inactive_.empty()) {
    ctx_.diagnostics.push_back({Severity::Note, "convert.spine.constraint.skin",
                                std::to_string(inactive_.size()) + " constraint(s) belong to a skin that is not shown, or act from a "
                                "bone only a skin has, so Spine does not apply them in this setup pose: " + names(inactive_),
                                ctx_.src.at(inactive_.front()->ptr)});
  }
}

void SetupSolver::report(const SpineConstraint& c, const std::vector<BoneMove>& moves) {
  std::string what;
  std::set<int> moved;
  for (const BoneMove& m : moves) {
    const bool scaled = std::abs(m.scaled - 1) > 1e-4;
    if (m.moved < 1e-4 && std::abs(m.turned) < 1e-4 && !scaled) continue;
    moved.insert(m.bone);
    const auto round2 = [](double v) { return detail::js_number(std::round(v * 100) / 100); };
    std::string how;
    if (m.moved >= 1e-4) how = "moved " + round2(m.moved) + " px";
    if (std::abs(m.turned) >= 1e-4) how += (how.empty() ? "" : ", ") + std::string("turned ") + round2(m.turned) + " deg";
    if (scaled) how += (how.empty() ? "" : ", ") + std::string("scaled ") + round2(m.scaled) + "x";
    what += (what.empty() ? "\"" : ", \"") + bone(m.bone).name + "\" (" + how + ")";
  }
  if (moved.empty()) {
    unmoved_.push_back(&c);
    return;
  }
  std::size_t below = 0;  // bones that hang from a moved bone and follow it (parents come first in Spine)
  std::vector<char> follows(bones_.size(), 0);
  for (std::size_t i = 0; i < bones_.size(); ++i) {
    const int p = bones_[i].parent;
    follows[i] = p >= 0 && (moved.count(p) || follows[static_cast<std::size_t>(p)]);
    if (follows[i] && !moved.count(int(i))) ++below;
  }
  ctx_.diagnostics.push_back(
      {Severity::Note, "convert.spine.constraint.applied",
       std::string(kKindKeys[static_cast<int>(c.kind)]) + " constraint \"" + c.name + "\" is applied to the setup pose: it moved " + what +
           (below ? ", and the " + std::to_string(below) + " bone(s) below follow" : "") +
           " (degrees counter-clockwise, as Spine shows them). rig2d keeps no constraint: the bind pose is where the "
           "constraint put these bones, and clips are not re-solved (a clip that moves the target does not move them)",
       ctx_.src.at(c.ptr)});
}

void SetupSolver::apply(const SpineConstraint& c) {
  switch (c.kind) {
    case ConstraintKind::Ik: {
      if (c.mix == 0) return;
      const SpineBone& t = bone(c.target);
      if (c.bones.size() == 1) ik1(c.bones[0], t.wx, t.wy, c.compress, c.stretch, c.uniform, c.mix);
      else ik2(c.bones[0], c.bones[1], t.wx, t.wy, c.bend, c.stretch, c.uniform, c.softness, c.mix);
      return;
    }
    case ConstraintKind::Transform:
      if (c.mix_rotate == 0 && c.mix_x == 0 && c.mix_y == 0 && c.mix_scale_x == 0 && c.mix_scale_y == 0 && c.mix_shear_y == 0) return;
      if (c.local) transform_local(c);
      else transform_world(c);
      return;
    case ConstraintKind::Path:
      path(c);
      return;
    case ConstraintKind::Physics:
      return;  // at rest: no offset, no change
  }
}

// IkConstraint.apply for one bone: turn it (and with compress or stretch, scale it) toward the target.
void SetupSolver::ik1(int bi, double target_x, double target_y, bool compress, bool stretch, bool uniform, double alpha) {
  SpineBone& b = bone(bi);
  const SpineBone& p = *parent_of(bi);
  const SpineLocal l = b.applied;
  double pa = p.a, pb = p.b, pc = p.c, pd = p.d;
  double rotation_ik = -l.shear_x - l.rotation, tx = 0, ty = 0;
  if (b.inherit == SpineInherit::OnlyTranslation) {
    tx = target_x - b.wx, ty = target_y - b.wy;
  } else {
    if (b.inherit == SpineInherit::NoRotationOrReflection) {
      const double s = std::abs(pa * pd - pb * pc) / std::max(0.0001, pa * pa + pc * pc);
      pb = -pc * s, pd = pa * s;
      rotation_ik += rad_to_deg(std::atan2(pc, pa));
    }
    const double x = target_x - p.wx, y = target_y - p.wy, det = pa * pd - pb * pc;
    if (std::abs(det) > 0.0001) tx = (x * pd - y * pb) / det - l.x, ty = (y * pa - x * pc) / det - l.y;
  }
  rotation_ik += rad_to_deg(std::atan2(ty, tx));
  if (l.scale_x < 0) rotation_ik += 180;
  rotation_ik = wrap_180(rotation_ik);
  double sx = l.scale_x, sy = l.scale_y;
  if (compress || stretch) {
    if (b.inherit == SpineInherit::NoScale || b.inherit == SpineInherit::NoScaleOrReflection) tx = target_x - b.wx, ty = target_y - b.wy;
    const double len = length_[static_cast<std::size_t>(bi)] * sx;
    if (len > 0.0001) {
      const double dd = tx * tx + ty * ty;
      if ((compress && dd < len * len) || (stretch && dd > len * len)) {
        const double s = (std::sqrt(dd) / len - 1) * alpha + 1;
        sx *= s;
        if (uniform) sy *= s;
      }
    }
  }
  world(bi, {l.x, l.y, l.rotation + rotation_ik * alpha, sx, sy, l.shear_x, l.shear_y});
}

// IkConstraint.apply for two bones: the law of cosines in the parent's parent's frame (or, for a
// parent with non-uniform scale, the ellipse the child's tip draws), then both bones turned.
void SetupSolver::ik2(int pi, int ci, double target_x, double target_y, double bend, bool stretch, bool uniform, double softness,
                      double alpha) {
  SpineBone& parent = bone(pi);
  SpineBone& child = bone(ci);
  if (parent.inherit != SpineInherit::Normal || child.inherit != SpineInherit::Normal) return;
  const SpineLocal pl = parent.applied, cl = child.applied;
  double px = pl.x, py = pl.y, psx = pl.scale_x, psy = pl.scale_y, sx = psx, sy = psy, csx = cl.scale_x;
  double os1 = 0, os2 = 0, s2 = 1;
  if (psx < 0) psx = -psx, os1 = 180, s2 = -1;
  if (psy < 0) psy = -psy, s2 = -s2;
  if (csx < 0) csx = -csx, os2 = 180;
  double cx = cl.x, cy = 0, cwx = 0, cwy = 0, a = parent.a, b = parent.b, c = parent.c, d = parent.d;
  const bool u = std::abs(psx - psy) <= 0.0001;
  if (!u || stretch) {
    cwx = a * cx + parent.wx, cwy = c * cx + parent.wy;
  } else {
    cy = cl.y;
    cwx = a * cx + b * cy + parent.wx, cwy = c * cx + d * cy + parent.wy;
  }
  const SpineBone& pp = *parent_of(pi);
  a = pp.a, b = pp.b, c = pp.c, d = pp.d;
  double id = a * d - b * c, x = cwx - pp.wx, y = cwy - pp.wy;
  id = std::abs(id) <= 0.0001 ? 0 : 1 / id;
  const double dx = (x * d - y * b) * id - px, dy = (y * a - x * c) * id - py;
  const double l1 = std::sqrt(dx * dx + dy * dy), l2 = length_[static_cast<std::size_t>(ci)] * csx;
  if (l1 < 0.0001) {
    ik1(pi, target_x, target_y, false, stretch, false, alpha);
    world(ci, {cx, cy, 0, cl.scale_x, cl.scale_y, cl.shear_x, cl.shear_y});
    return;
  }
  x = target_x - pp.wx, y = target_y - pp.wy;
  double tx = (x * d - y * b) * id - px, ty = (y * a - x * c) * id - py;
  double dd = tx * tx + ty * ty;
  if (softness != 0) {  // slow down as the chain nears full reach
    softness *= psx * (csx + 1) * 0.5;
    const double td = std::sqrt(dd), sd = td - l1 - l2 * psx + softness;
    if (sd > 0) {
      double p = std::min(1.0, sd / (softness * 2)) - 1;
      p = (sd - softness * (1 - p * p)) / td;
      tx -= p * tx, ty -= p * ty;
      dd = tx * tx + ty * ty;
    }
  }
  // The angles (radians, in the parent's parent's frame) of the parent and of the child against it.
  double a1 = 0, a2 = 0;
  if (u) {
    const double reach = law_of_cosines(tx, ty, dd, l1, l2 * psx, bend, a1, a2);
    if (reach > 1 && stretch) {
      const double s = (reach - 1) * alpha + 1;
      sx *= s;
      if (uniform) sy *= s;
    }
  } else {
    on_ellipse(tx, ty, dd, l1, l2, psx, psy, bend, a1, a2);
  }
  const double os = std::atan2(cy, cx) * s2;
  const double r1 = wrap_180(rad_to_deg(a1 - os) + os1 - pl.rotation);
  world(pi, {px, py, pl.rotation + r1 * alpha, sx, sy, 0, 0});
  const double r2 = wrap_180((rad_to_deg(a2 + os) - cl.shear_x) * s2 + os2 - cl.rotation);
  world(ci, {cx, cy, cl.rotation + r2 * alpha, cl.scale_x, cl.scale_y, cl.shear_x, cl.shear_y});
}

// TransformConstraint in world space, absolute (toward the target's world transform) or relative
// (adding the target's world transform).
void SetupSolver::transform_world(const SpineConstraint& c) {
  const SpineBone& t = bone(c.target);
  const double ta = t.a, tb = t.b, tc = t.c, td = t.d;
  const double deg_rad = ta * td - tb * tc > 0 ? kPi / 180 : -kPi / 180;  // a reflected target turns the offsets back
  const double offset_rotation = c.offset_rotation * deg_rad, offset_shear_y = c.offset_shear_y * deg_rad;
  for (int bi : c.bones) {
    SpineBone& b = bone(bi);
    if (c.mix_rotate != 0) {
      const double a = b.a, bb = b.b, cc = b.c, d = b.d;
      double r = std::atan2(tc, ta) + offset_rotation;
      if (!c.relative) r -= std::atan2(cc, a);
      r = wrap_pi(r) * c.mix_rotate;
      const double cs = std::cos(r), sn = std::sin(r);
      b.a = cs * a - sn * cc, b.b = cs * bb - sn * d;
      b.c = sn * a + cs * cc, b.d = sn * bb + cs * d;
    }
    if (c.mix_x != 0 || c.mix_y != 0) {
      // The offset point is read from the target as it is now: a target among the bones has just turned.
      const double ox = t.a * c.offset_x + t.b * c.offset_y + t.wx, oy = t.c * c.offset_x + t.d * c.offset_y + t.wy;
      if (c.relative) b.wx += ox * c.mix_x, b.wy += oy * c.mix_y;
      else b.wx += (ox - b.wx) * c.mix_x, b.wy += (oy - b.wy) * c.mix_y;
    }
    if (c.mix_scale_x != 0) {
      double s = std::hypot(b.a, b.c);
      if (c.relative) s = (std::hypot(ta, tc) - 1 + c.offset_scale_x) * c.mix_scale_x + 1;
      else if (s != 0) s = (s + (std::hypot(ta, tc) - s + c.offset_scale_x) * c.mix_scale_x) / s;
      b.a *= s, b.c *= s;
    }
    if (c.mix_scale_y != 0) {
      double s = std::hypot(b.b, b.d);
      if (c.relative) s = (std::hypot(tb, td) - 1 + c.offset_scale_y) * c.mix_scale_y + 1;
      else if (s != 0) s = (s + (std::hypot(tb, td) - s + c.offset_scale_y) * c.mix_scale_y) / s;
      b.b *= s, b.d *= s;
    }
    if (c.mix_shear_y > 0) {
      const double bb = b.b, d = b.d, by = std::atan2(d, bb);
      double r = 0;
      if (c.relative) {
        r = by + (wrap_pi(std::atan2(td, tb) - std::atan2(tc, ta)) - kPi / 2 + offset_shear_y) * c.mix_shear_y;
      } else {
        r = by + (wrap_pi(std::atan2(td, tb) - std::atan2(tc, ta) - (by - std::atan2(b.c, b.a))) + offset_shear_y) * c.mix_shear_y;
      }
      const double s = std::hypot(bb, d);
      b.b = std::cos(r) * s, b.d = std::sin(r) * s;
    }
    applied_from_world(bi);
  }
}

// TransformConstraint in local space: the bones' local transforms toward (absolute) or plus
// (relative) the target's.
void SetupSolver::transform_local(const SpineConstraint& c) {
  for (int bi : c.bones) {
    const SpineLocal t = bone(c.target).applied;  // as it is now: a target among the bones has moved
    const SpineLocal l = bone(bi).applied;
    SpineLocal n = l;
    if (c.relative) {
      n.rotation = l.rotation + (t.rotation + c.offset_rotation) * c.mix_rotate;
      n.x = l.x + (t.x + c.offset_x) * c.mix_x;
      n.y = l.y + (t.y + c.offset_y) * c.mix_y;
      n.scale_x = l.scale_x * ((t.scale_x - 1 + c.offset_scale_x) * c.mix_scale_x + 1);
      n.scale_y = l.scale_y * ((t.scale_y - 1 + c.offset_scale_y) * c.mix_scale_y + 1);
      n.shear_y = l.shear_y + (t.shear_y + c.offset_shear_y) * c.mix_shear_y;
    } else {
      if (c.mix_rotate != 0) n.rotation += (t.rotation - l.rotation + c.offset_rotation) * c.mix_rotate;
      n.x += (t.x - l.x + c.offset_x) * c.mix_x;
      n.y += (t.y - l.y + c.offset_y) * c.mix_y;
      // The 4.2 runtimes divide the mixed scale by the bone's own here; kept, so the pose matches them.
      if (c.mix_scale_x != 0 && l.scale_x != 0) n.scale_x = (l.scale_x + (t.scale_x - l.scale_x + c.offset_scale_x) * c.mix_scale_x) / l.scale_x;
      if (c.mix_scale_y != 0 && l.scale_y != 0) n.scale_y = (l.scale_y + (t.scale_y - l.scale_y + c.offset_scale_y) * c.mix_scale_y) / l.scale_y;
      if (c.mix_shear_y != 0) n.shear_y += (t.shear_y - l.shear_y + c.offset_shear_y) * c.mix_shear_y;
    }
    world(bi, n);
  }
}


// The point (and, with `tangent`, the direction) at t of a cubic Bézier, as PathConstraint.addCurvePosition.
void curve_position(double t, const double* w, double* out, bool tangent) {
  const double x1 = w[0], y1 = w[1], cx1 = w[2], cy1 = w[3], cx2 = w[4], cy2 = w[5], x2 = w[6], y2 = w[7];
  if (t == 0 || std::isnan(t)) {
    out[0] = x1, out[1] = y1, out[2] = std::atan2(cy1 - y1, cx1 - x1);
    return;
  }
  const double tt = t * t, ttt = tt * t, u = 1 - t, uu = u * u, uuu = uu * u;
  const double ut = u * t, ut3 = ut * 3, uut3 = u * ut3, utt3 = ut3 * t;
  const double x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt, y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt;
  out[0] = x, out[1] = y;
  if (!tangent) return;
  if (t < 0.001) out[2] = std::atan2(cy1 - y1, cx1 - x1);
  else out[2] = std::atan2(y - (y1 * uu + cy1 * ut * 2 + cy2 * tt), x - (x1 * uu + cx1 * ut * 2 + cx2 * tt));
}

// Beyond the ends of an open path: along the line through the end point and its handle.
void before_start(double p, const double* w, double* out) {
  const double r = std::atan2(w[3] - w[1], w[2] - w[0]);
  out[0] = w[0] + p * std::cos(r), out[1] = w[1] + p * std::sin(r), out[2] = r;
}
void after_end(double p, const double* w, double* out) {
  const double r = std::atan2(w[3] - w[1], w[2] - w[0]);
  out[0] = w[2] + p * std::cos(r), out[1] = w[3] + p * std::sin(r), out[2] = r;
}

// Which of the cumulative `ends` holds p, from `at` on, and p as a fraction of it (PathConstraint's
// curve and segment search; `at` carries over between spaces as the runtimes' does).
double locate_along(double p, const double* ends, std::size_t count, std::size_t& at) {
  while (at + 1 < count && p > ends[at]) ++at;
  if (at == 0) return p / ends[0];
  return (p - ends[at - 1]) / (ends[at] - ends[at - 1]);
}

// Forward differencing of a Bézier's length in `steps` equal steps of t (4 for a whole curve's
// length, 10 for its segments), as the runtimes measure it; writes the running lengths.
void bezier_lengths(const double* w, int steps, double* running) {
  const double x1 = w[0], y1 = w[1], cx1 = w[2], cy1 = w[3], cx2 = w[4], cy2 = w[5], x2 = w[6], y2 = w[7];
  const double k1 = steps == 4 ? 0.1875 : 0.03, k2 = steps == 4 ? 0.09375 : 0.006, k3 = steps == 4 ? 0.75 : 0.3;
  const double tmpx = (x1 - cx1 * 2 + cx2) * k1, tmpy = (y1 - cy1 * 2 + cy2) * k1;
  const double dddfx = ((cx1 - cx2) * 3 - x1 + x2) * k2, dddfy = ((cy1 - cy2) * 3 - y1 + y2) * k2;
  double ddfx = tmpx * 2 + dddfx, ddfy = tmpy * 2 + dddfy;
  double dfx = (cx1 - x1) * k3 + tmpx + dddfx * 0.16666667, dfy = (cy1 - y1) * k3 + tmpy + dddfy * 0.16666667;
  double length = std::sqrt(dfx * dfx + dfy * dfy);
  running[0] = length;
  for (int i = 1; i < steps - 2; ++i) {
    dfx += ddfx, dfy += ddfy, ddfx += dddfx, ddfy += dddfy;
    length += std::sqrt(dfx * dfx + dfy * dfy);
    running[i] = length;
  }
  dfx += ddfx, dfy += ddfy;
  length += std::sqrt(dfx * dfx + dfy * dfy);
  running[steps - 2] = length;
  dfx += ddfx + dddfx, dfy += ddfy + dddfy;
  length += std::sqrt(dfx * dfx + dfy * dfy);
  running[steps - 1] = length;
}

// What PathConstraint.computeWorldPositions walks: the path's world vertices (x, y pairs, in threes:
// handle in, point, handle out) and where along it the spaces fall.
struct PathWalk {
  const std::vector<double>& world;
  bool closed = false;
  const SpineConstraint& c;
  const std::vector<double>& spaces;
  bool tangents = false;

  double multiplier(double path_length) const {
    if (c.spacing_mode == SpacingMode::Percent) return path_length;
    if (c.spacing_mode == SpacingMode::Proportional) return path_length / double(spaces.size());
    return 1.0;
  }
  double start(double path_length) const { return c.position_mode == PositionMode::Percent ? c.position * path_length : c.position; }
};

// Along the curve lengths the editor stored (constantSpeed false): each space's (x, y, direction).
std::vector<double> walk_stored_lengths(const PathWalk& walk, const std::vector<double>& lengths) {
  const double* W = walk.world.data();
  const std::size_t vl = walk.world.size(), curves = vl / 6 - (walk.closed ? 1 : 2), count = walk.spaces.size();
  std::vector<double> out(count * 3 + 2, 0.0);
  const double path_length = lengths[curves], mult = walk.multiplier(path_length);
  double position = walk.start(path_length), world[8] = {};
  std::size_t curve = 0;
  long prev = -1;  // the curve in `world`: -2 before the start, -3 after the end
  for (std::size_t i = 0; i < count; ++i) {
    const double space = walk.spaces[i] * mult;
    position += space;
    double p = position;
    double* o = &out[3 * i];
    if (walk.closed) {
      p = std::fmod(p, path_length);
      if (p < 0) p += path_length;
      curve = 0;
    } else if (p < 0) {
      if (prev != -2) prev = -2, std::copy(W + 2, W + 6, world);
      before_start(p, world, o);
      continue;
    } else if (p > path_length) {
      if (prev != -3) prev = -3, std::copy(W + vl - 6, W + vl - 2, world);
      after_end(p - path_length, world, o);
      continue;
    }
    p = locate_along(p, lengths.data(), curves + 1, curve);
    if (long(curve) != prev) {
      prev = long(curve);
      if (walk.closed && curve == curves) {
        std::copy(W + vl - 4, W + vl, world);
        std::copy(W, W + 4, world + 4);
      } else {
        std::copy(W + curve * 6 + 2, W + curve * 6 + 10, world);
      }
    }
    curve_position(p, world, o, walk.tangents || (i > 0 && space == 0));
  }
  return out;
}

// At constant speed: the curves measured from the world vertices (an open path's first handle and
// last handle dropped), each space placed by arc length within its curve's 10 segments.
std::vector<double> walk_constant_speed(const PathWalk& walk) {
  const double* W = walk.world.data();
  const std::size_t vl = walk.world.size(), count = walk.spaces.size();
  std::vector<double> out(count * 3 + 2, 0.0), world;
  std::size_t curves = vl / 6;
  if (walk.closed) {
    world.assign(W + 2, W + vl);
    world.insert(world.end(), W, W + 4);
  } else {
    --curves;
    world.assign(W + 2, W + vl - 2);
  }
  std::vector<double> ends(curves);
  double path_length = 0, running[4];
  for (std::size_t i = 0; i < curves; ++i) {
    bezier_lengths(&world[6 * i], 4, running);
    path_length += running[3];
    ends[i] = path_length;
  }
  const double mult = walk.multiplier(path_length);
  double position = walk.start(path_length), segments[10] = {}, curve_length = 0;
  std::size_t curve = 0, segment = 0;
  long prev = -1;
  for (std::size_t i = 0; i < count; ++i) {
    const double space = walk.spaces[i] * mult;
    position += space;
    double p = position;
    double* o = &out[3 * i];
    if (walk.closed) {
      p = std::fmod(p, path_length);
      if (p < 0) p += path_length;
      curve = 0;
    } else if (p < 0) {
      before_start(p, world.data(), o);
      continue;
    } else if (p > path_length) {
      after_end(p - path_length, world.data() + world.size() - 4, o);
      continue;
    }
    p = locate_along(p, ends.data(), curves, curve);
    if (long(curve) != prev) {
      prev = long(curve);
      bezier_lengths(&world[6 * curve], 10, segments);
      curve_length = segments[9];
      segment = 0;
    }
    const double f = locate_along(p * curve_length, segments, 10, segment);
    p = segment == 0 ? f : double(segment) + f;
    curve_position(p * 0.1, &world[6 * curve], o, walk.tangents || (i > 0 && space == 0));
  }
  return out;
}

// PathConstraint.computeWorldPositions: where along the path each space lands (x, y, direction).
std::vector<double> SetupSolver::path_positions(const SpineConstraint& c, const std::vector<double>& spaces, bool tangents) {
  const SpinePath& path = *c.path;
  std::vector<double> world(2 * path.vertices.size(), 0.0);
  for (std::size_t v = 0; v < path.vertices.size(); ++v) {
    for (const PathInfluence& in : path.vertices[v]) {
      const SpineBone& b = bone(in.bone);
      world[2 * v] += (in.x * b.a + in.y * b.b + b.wx) * in.weight;
      world[2 * v + 1] += (in.x * b.c + in.y * b.d + b.wy) * in.weight;
    }
  }
  const PathWalk walk{world, path.closed, c, spaces, tangents};
  return path.constant_speed ? walk_constant_speed(walk) : walk_stored_lengths(walk, path.lengths);
}

// PathConstraint.update: the bones placed at the spaces along the path and turned along it (chain
// modes: toward the next space; chainScale also stretches them to reach it).
void SetupSolver::path(const SpineConstraint& c) {
  if (!c.path || (c.mix_rotate == 0 && c.mix_x == 0 && c.mix_y == 0)) return;
  constexpr double kEpsilon = 0.00001;
  const bool tangents = c.rotate_mode == RotateMode::Tangent, scale = c.rotate_mode == RotateMode::ChainScale;
  const std::size_t bone_count = c.bones.size(), spaces_count = tangents ? bone_count : bone_count + 1;
  std::vector<double> spaces(spaces_count, 0.0), lengths(bone_count, 0.0);
  double sum = 0;
  for (std::size_t i = 0; i + 1 < spaces_count; ++i) {
    const SpineBone& b = bone(c.bones[i]);
    const double setup_length = length_[static_cast<std::size_t>(c.bones[i])];
    const double length = std::hypot(setup_length * b.a, setup_length * b.c);
    if (scale) lengths[i] = c.spacing_mode != SpacingMode::Percent && setup_length < kEpsilon ? 0 : length;
    if (c.spacing_mode == SpacingMode::Percent) {
      spaces[i + 1] = c.spacing;
    } else if (setup_length < kEpsilon) {
      spaces[i + 1] = c.spacing;
    } else if (c.spacing_mode == SpacingMode::Proportional) {
      spaces[i + 1] = length, sum += length;
    } else {
      spaces[i + 1] = (c.spacing_mode == SpacingMode::Length ? setup_length + c.spacing : c.spacing) * length / setup_length;
    }
  }
  if (c.spacing_mode == SpacingMode::Proportional && sum > 0) {
    const double k = double(spaces_count) / sum * c.spacing;
    for (std::size_t i = 1; i < spaces_count; ++i) spaces[i] *= k;
  }
  const std::vector<double> positions = path_positions(c, spaces, tangents);
  double bone_x = positions[0], bone_y = positions[1], offset_rotation = c.offset_rotation;
  bool tip = false;
  if (offset_rotation == 0) {
    tip = c.rotate_mode == RotateMode::Chain;
  } else {
    const SpineBone& p = bone(c.target);
    offset_rotation *= p.a * p.d - p.b * p.c > 0 ? kPi / 180 : -kPi / 180;
  }
  for (std::size_t i = 0, p = 3; i < bone_count; ++i, p += 3) {
    const int bi = c.bones[i];
    SpineBone& b = bone(bi);
    b.wx += (bone_x - b.wx) * c.mix_x;
    b.wy += (bone_y - b.wy) * c.mix_y;
    const double x = positions[p], y = positions[p + 1], dx = x - bone_x, dy = y - bone_y;
    if (scale && lengths[i] != 0) {
      const double s = (std::sqrt(dx * dx + dy * dy) / lengths[i] - 1) * c.mix_rotate + 1;
      b.a *= s, b.c *= s;
    }
    bone_x = x, bone_y = y;
    if (c.mix_rotate > 0) {
      const double a = b.a, bb = b.b, cc = b.c, d = b.d;
      double r = tangents ? positions[p - 1] : spaces[i + 1] == 0 ? positions[p + 2] : std::atan2(dy, dx);
      r -= std::atan2(cc, a);
      if (tip) {  // the chain's tip follows the turned bone, not the path
        const double cs = std::cos(r), sn = std::sin(r), len = length_[static_cast<std::size_t>(bi)];
        bone_x += (len * (cs * a - sn * cc) - dx) * c.mix_rotate;
        bone_y += (len * (sn * a + cs * cc) - dy) * c.mix_rotate;
      } else {
        r += offset_rotation;
      }
      r = wrap_pi(r) * c.mix_rotate;
      const double cs = std::cos(r), sn = std::sin(r);
      b.a = cs * a - sn * cc, b.b = cs * bb - sn * d;
      b.c = sn * a + cs * cc, b.d = sn * bb + cs * d;
    }
    applied_from_world(bi);
  }
}

}  // namespace

void apply_setup_constraints(SpineSetupContext& ctx) {
  const ConstraintReader reader(ctx);
  std::vector<SpineConstraint> constraints;
  for (int k = 0; k < 4; ++k) {
    const auto list = ctx.root.find(kKindKeys[k]);
    if (list == ctx.root.end()) continue;
    const std::string ptr = std::string("/") + kKindKeys[k];
    if (!list->is_array()) reader.fail("spine.type", std::string("\"") + kKindKeys[k] + "\" must be an array", ptr);
    if (list->size() + constraints.size() > kMaxConstraints) {
      reader.fail("spine.limit", "more than " + std::to_string(kMaxConstraints) + " constraints", ptr);
    }
    for (std::size_t i = 0; i < list->size(); ++i)
      constraints.push_back(reader.read(static_cast<ConstraintKind>(k), (*list)[i], ptr + "/" + std::to_string(i)));
  }
  if (constraints.empty()) return;
  SetupSolver(ctx, std::move(constraints)).run();
}

}  // namespace rig2d::interop
