// SPDX-License-Identifier: Apache-2.0
#include "rig/rig_doc.h"

#include <cmath>

namespace rig2d::detail {
namespace {

// Member keys live here: a node points at its key.
struct Keys {
  const std::string id = "id", version = "version", sprite = "sprite", bones = "bones", parts = "parts";
  const std::string name = "name", parent = "parent", x = "x", y = "y", rot = "rot", no_scale = "noScale";
  const std::string mesh = "mesh", verts = "verts", uvs = "uvs", tris = "tris";
  const std::string skin_indices = "skinIndices", skin_weights = "skinWeights", order = "order", visible = "visible";
  const std::string none;
};
const Keys kKeys;

}  // namespace

const std::string& DocValue::const_iterator::key() const { return at_->key_ != nullptr ? *at_->key_ : kKeys.none; }

DocValue::const_iterator DocValue::find(std::string_view key) const {
  if (!is_object()) return end();
  for (std::uint32_t k = 0; k < count_; ++k)
    if (*children_[k].key_ == key) return const_iterator(children_ + k);
  return end();
}

DocValue DocValue::string_value(const std::string& s) {
  DocValue v;
  v.type_ = value_t::string;
  v.string_ = &s;
  return v;
}

DocValue DocValue::integer_value(std::int64_t i) {
  DocValue v;
  v.type_ = value_t::number_integer;
  v.number_.i = i;
  return v;
}

// Mirrors rig_to_json (rig_write.cpp) member for member. Nodes are addressed by index while the
// vector grows; a container's children are appended together, so they sit side by side.
class RigDoc::Builder {
  using value_t = DocValue::value_t;

 public:
  explicit Builder(std::vector<DocValue>& nodes) : nodes_(nodes) {}

  void rig(const Rig& rig) {
    nodes_.assign(1, DocValue{});
    static const Part kEmpty;
    const bool v1 = rig.layout == Layout::V1;
    const std::size_t members = (rig.id ? 1 : 0) + (rig.version ? 1 : 0) + (v1 ? 5 : 2);
    std::uint32_t at = open(0, value_t::object, members);
    if (rig.id) string(member(at++, kKeys.id), *rig.id);
    if (rig.version) number(member(at++, kKeys.version), *rig.version);
    if (v1) {
      const Part& part = rig.parts.empty() ? kEmpty : rig.parts.front();
      string(member(at++, kKeys.sprite), part.sprite);
      bones(member(at++, kKeys.bones), rig.bones);
      part_body(at, part);
      return;
    }
    bones(member(at++, kKeys.bones), rig.bones);
    const std::uint32_t parts = member(at, kKeys.parts);
    std::uint32_t p = open(parts, value_t::array, rig.parts.size());
    for (const Part& part : rig.parts) this->part(p++, part);
  }

 private:
  std::uint32_t open(std::uint32_t node, value_t type, std::size_t children) {
    const auto first = static_cast<std::uint32_t>(nodes_.size());
    nodes_[node].type_ = type;
    nodes_[node].first_ = first;
    nodes_[node].count_ = static_cast<std::uint32_t>(children);
    nodes_.resize(nodes_.size() + children);
    return first;
  }
  std::uint32_t member(std::uint32_t node, const std::string& key) {
    nodes_[node].key_ = &key;
    return node;
  }
  void string(std::uint32_t node, const std::string& s) {
    nodes_[node].type_ = value_t::string;
    nodes_[node].string_ = &s;
  }
  // rig_write.cpp's number(): NaN/infinities -> null, zeros -> the integer 0, the rest a double.
  void number(std::uint32_t node, double x) {
    DocValue& v = nodes_[node];
    if (!std::isfinite(x)) {
      v.type_ = value_t::null;
    } else if (x == 0) {
      v.type_ = value_t::number_integer;
      v.number_.i = 0;
    } else {
      v.type_ = value_t::number_float;
      v.number_.f = x;
    }
  }
  void boolean(std::uint32_t node, bool b) {
    nodes_[node].type_ = value_t::boolean;
    nodes_[node].boolean_ = b;
  }

  void bones(std::uint32_t node, const std::vector<Bone>& bones) {
    std::uint32_t b = open(node, value_t::array, bones.size());
    for (const Bone& bone : bones) {
      std::uint32_t at = open(b++, value_t::object, bone.no_scale ? 6 : 5);
      string(member(at++, kKeys.name), bone.name);
      DocValue& parent = nodes_[member(at++, kKeys.parent)];
      parent.type_ = value_t::number_integer;
      parent.number_.i = bone.parent;
      number(member(at++, kKeys.x), bone.x);
      number(member(at++, kKeys.y), bone.y);
      number(member(at++, kKeys.rot), bone.rot);
      if (bone.no_scale) boolean(member(at, kKeys.no_scale), true);
    }
  }
  void pairs(std::uint32_t node, const std::vector<Vec2>& points) {
    std::uint32_t p = open(node, value_t::array, points.size());
    for (const Vec2& point : points) {
      const std::uint32_t xy = open(p++, value_t::array, 2);
      number(xy, point.x);
      number(xy + 1, point.y);
    }
  }
  void indices(std::uint32_t node, const std::vector<std::uint32_t>& values) {
    std::uint32_t at = open(node, value_t::array, values.size());
    for (const std::uint32_t i : values) {
      nodes_[at].type_ = value_t::number_unsigned;
      nodes_[at++].number_.u = i;
    }
  }
  void doubles(std::uint32_t node, const std::vector<double>& values) {
    std::uint32_t at = open(node, value_t::array, values.size());
    for (const double x : values) number(at++, x);
  }
  void mesh(std::uint32_t node, const Mesh& mesh) {
    const std::uint32_t at = open(node, value_t::object, 3);
    pairs(member(at, kKeys.verts), mesh.verts);
    pairs(member(at + 1, kKeys.uvs), mesh.uvs);
    indices(member(at + 2, kKeys.tris), mesh.tris);
  }
  // mesh, skinIndices, skinWeights from node `at` on.
  void part_body(std::uint32_t at, const Part& part) {
    mesh(member(at, kKeys.mesh), part.mesh);
    indices(member(at + 1, kKeys.skin_indices), part.skin_indices);
    doubles(member(at + 2, kKeys.skin_weights), part.skin_weights);
  }
  void part(std::uint32_t node, const Part& part) {
    const std::size_t members = (part.name ? 1 : 0) + 4 + (part.order ? 1 : 0) + (part.visible ? 1 : 0);
    std::uint32_t at = open(node, value_t::object, members);
    if (part.name) string(member(at++, kKeys.name), *part.name);
    string(member(at++, kKeys.sprite), part.sprite);
    part_body(at, part);
    at += 3;
    if (part.order) number(member(at++, kKeys.order), *part.order);
    if (part.visible) boolean(member(at, kKeys.visible), *part.visible);
  }

  std::vector<DocValue>& nodes_;
};

RigDoc::RigDoc(const Rig& rig) {
  std::size_t estimate = 16 + 7 * rig.bones.size();  // reserve about enough to copy the nodes once at most
  for (const Part& part : rig.parts) {
    estimate += 16 + 3 * (part.mesh.verts.size() + part.mesh.uvs.size()) + part.mesh.tris.size() +
                part.skin_indices.size() + part.skin_weights.size();
  }
  nodes_.reserve(estimate);
  Builder(nodes_).rig(rig);
  for (DocValue& v : nodes_)  // the vector is final: indices become pointers
    if (v.type_ == DocValue::value_t::array || v.type_ == DocValue::value_t::object)
      v.children_ = nodes_.data() + v.first_;
}

}  // namespace rig2d::detail
