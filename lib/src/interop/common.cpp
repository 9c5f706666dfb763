// SPDX-License-Identifier: Apache-2.0
#include "interop/common.h"

#include <algorithm>
#include <cmath>

#include "rig2d/asset/guid.h"

namespace rig2d::interop {

Location JsonSource::at(const std::string& pointer) const {
  const auto [line, column] = detail::locate_pointer(text, pointer);
  return Location{path, pointer, line, column};
}

Unexpected JsonSource::fail(std::string code, std::string message, const std::string& pointer) const {
  return make_error(std::move(code), std::move(message), at(pointer));
}

void warn(std::vector<Diagnostic>& out, std::string code, std::string message, Location where) {
  out.push_back({Severity::Warning, std::move(code), std::move(message), std::move(where)});
}

void append_weights(std::vector<Influence> influences, std::uint32_t fallback, Part& part, WeightStats& stats) {
  // Merge repeated bones, keeping the order of first appearance (the source's slot order).
  std::vector<Influence> merged;
  for (const Influence& in : influences) {
    if (!(in.weight > 0)) continue;  // zero, negative and NaN weights carry no influence
    auto same = std::find_if(merged.begin(), merged.end(), [&](const Influence& m) { return m.bone == in.bone; });
    if (same != merged.end()) same->weight += in.weight;
    else merged.push_back(in);
  }
  if (merged.size() > kSlotsPerVertex) {
    std::stable_sort(merged.begin(), merged.end(), [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
    ++stats.vertices_trimmed;
    for (std::size_t i = kSlotsPerVertex; i < merged.size(); ++i) {
      stats.largest_dropped = std::max(stats.largest_dropped, merged[i].weight);
    }
    merged.resize(kSlotsPerVertex);
  }
  double sum = 0;
  for (const Influence& in : merged) sum += in.weight;
  if (!(sum > 0) || !std::isfinite(sum)) {
    ++stats.zero_sum;
    merged = {{fallback, 1.0}};
    sum = 1;
  } else if (std::abs(sum - 1) > 1e-6) {
    ++stats.renormalized;
  }
  for (int k = 0; k < kSlotsPerVertex; ++k) {
    const bool used = static_cast<std::size_t>(k) < merged.size();
    part.skin_indices.push_back(used ? merged[static_cast<std::size_t>(k)].bone : 0);
    part.skin_weights.push_back(used ? merged[static_cast<std::size_t>(k)].weight / sum : 0.0);
  }
}

std::size_t clamp_uvs(Part& part) {
  const auto unit = [](double v) { return v >= 0 ? std::min(v, 1.0) : 0.0; };
  std::size_t moved = 0;
  for (Vec2& uv : part.mesh.uvs) {
    const Vec2 in = {unit(uv.x), unit(uv.y)};
    if (in.x != uv.x || in.y != uv.y) ++moved;
    uv = in;
  }
  return moved;
}

std::size_t fix_winding(Mesh& mesh) {
  std::size_t flipped = 0;
  for (std::size_t t = 0; t + 2 < mesh.tris.size(); t += 3) {
    const std::uint32_t i0 = mesh.tris[t], i1 = mesh.tris[t + 1], i2 = mesh.tris[t + 2];
    if (i0 >= mesh.verts.size() || i1 >= mesh.verts.size() || i2 >= mesh.verts.size()) continue;
    const Vec2 a = mesh.verts[i0], b = mesh.verts[i1], c = mesh.verts[i2];
    const double shoelace = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
    if (shoelace > 0) {
      std::swap(mesh.tris[t + 1], mesh.tris[t + 2]);
      ++flipped;
    }
  }
  return flipped;
}

std::vector<std::string> bone_paths(const Rig& rig) {
  const std::size_t n = rig.bones.size();
  std::vector<std::string> paths(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::string path = rig.bones[i].name;
    std::int64_t p = rig.bones[i].parent;
    std::size_t guard = 0;
    while (p >= 0 && static_cast<std::size_t>(p) < n && guard++ < n) {
      path = rig.bones[static_cast<std::size_t>(p)].name + "/" + path;
      p = rig.bones[static_cast<std::size_t>(p)].parent;
    }
    paths[i] = path;
  }
  return paths;
}

std::string name_guid(std::string_view namespace_guid, std::string_view name) { return uuid_v5(namespace_guid, name); }

bool stays_inside(std::string_view path) {
  if (path.starts_with("res://")) path.remove_prefix(6);
  if (path.empty() || path.front() == '/' || path.front() == '\\') return false;
  if (path.find("://") != std::string_view::npos || (path.size() > 1 && path[1] == ':')) return false;
  int depth = 0;
  while (!path.empty()) {
    const std::size_t cut = path.find_first_of("/\\");
    const std::string_view part = path.substr(0, cut);
    if (part == "..") {
      if (--depth < 0) return false;
    } else if (!part.empty() && part != ".") {
      ++depth;
    }
    path = cut == std::string_view::npos ? std::string_view() : path.substr(cut + 1);
  }
  return true;
}

std::string texture_guid_for(const ImportOptions& options, const std::string& image) {
  const auto named = options.texture_names.find(image);
  return name_guid(kRigIdNamespace, "texture:" + (named != options.texture_names.end() ? named->second : image));
}

std::vector<Keyframe> keys_from_breakpoints(const std::vector<Breakpoint>& points) {
  std::vector<Keyframe> keys;
  for (const Breakpoint& p : points) {
    if (keys.empty()) {
      keys.push_back({p.t, p.right, 0, 0, {}, {}});
      continue;
    }
    if (p.left == keys.back().v && p.right != p.left) {
      keys.back().out_tangent = kStepped;  // constant up to a jump: a stepped segment
    } else if (p.left != p.right) {
      keys.push_back({p.t, p.left, 0, 0, {}, {}});  // a linear segment ending in a jump: two keys at p.t
    }
    keys.push_back({p.t, p.right, 0, 0, {}, {}});
  }
  // Linear segments: each key's tangents are the slopes of its neighbouring segments.
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    if (keys[i].out_tangent == kStepped) continue;
    const double dt = keys[i + 1].t - keys[i].t;
    const double slope = dt > 0 ? (keys[i + 1].v - keys[i].v) / dt : 0;
    keys[i].out_tangent = slope;
    keys[i + 1].in_tangent = slope;
  }
  return keys;
}

Result<std::vector<RigidPose>> rig_world_pose(const Rig& rig) {
  const std::size_t n = rig.bones.size();
  std::vector<RigidPose> world(n);
  for (std::size_t i : parents_first(rig)) {
    const Bone& b = rig.bones[i];
    if (b.parent < -1 || b.parent >= static_cast<std::int64_t>(n)) {
      return make_error("convert.rig.bones", "bone \"" + b.name + "\" has parent " + std::to_string(b.parent) +
                                                 ", which is not a bone of the rig",
                        Location{"", "/bones/" + std::to_string(i) + "/parent", 0, 0});
    }
    if (b.parent < 0) {
      world[i] = {b.x, b.y, b.rot};
      continue;
    }
    const RigidPose& p = world[static_cast<std::size_t>(b.parent)];
    const double c = std::cos(p.rot), s = std::sin(p.rot);
    world[i] = {p.x + c * b.x - s * b.y, p.y + s * b.x + c * b.y, p.rot + b.rot};
  }
  // parents_first leaves cycle members in place; detect them here.
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t p = rig.bones[i].parent;
    std::size_t steps = 0;
    while (p >= 0 && static_cast<std::size_t>(p) < n && steps <= n) p = rig.bones[static_cast<std::size_t>(p)].parent, ++steps;
    if (steps > n) {
      return make_error("convert.rig.bones", "bone \"" + rig.bones[i].name + "\" is part of a parent cycle",
                        Location{"", "/bones/" + std::to_string(i) + "/parent", 0, 0});
    }
  }
  return world;
}

std::vector<std::size_t> parents_first(const Rig& rig) {
  const std::size_t n = rig.bones.size();
  std::vector<std::size_t> order;
  std::vector<char> placed(n, 0);
  // Repeated passes keep the file order among bones whose parents are placed (n is small).
  for (bool progress = true; progress && order.size() < n;) {
    progress = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (placed[i]) continue;
      const std::int64_t p = rig.bones[i].parent;
      const bool root = p < 0 || p >= static_cast<std::int64_t>(n);
      if (root || placed[static_cast<std::size_t>(p)]) {
        placed[i] = 1;
        order.push_back(i);
        progress = true;
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!placed[i]) order.push_back(i);  // in a cycle: callers report it
  }
  return order;
}

std::optional<std::string> first_non_finite(const Rig& rig, const std::vector<Clip>& clips) {
  const auto bad = [](double v) { return !std::isfinite(v); };
  for (std::size_t b = 0; b < rig.bones.size(); ++b) {
    const Bone& bone = rig.bones[b];
    const std::string at = "/bones/" + std::to_string(b) + "/";
    if (bad(bone.x)) return at + "x";
    if (bad(bone.y)) return at + "y";
    if (bad(bone.rot)) return at + "rot";
  }
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    const Part& part = rig.parts[p];
    const std::string at = "/parts/" + std::to_string(p) + "/";
    for (std::size_t v = 0; v < part.mesh.verts.size(); ++v)
      if (bad(part.mesh.verts[v].x) || bad(part.mesh.verts[v].y)) return at + "mesh/verts/" + std::to_string(v);
    for (std::size_t v = 0; v < part.mesh.uvs.size(); ++v)
      if (bad(part.mesh.uvs[v].x) || bad(part.mesh.uvs[v].y)) return at + "mesh/uvs/" + std::to_string(v);
    for (std::size_t w = 0; w < part.skin_weights.size(); ++w)
      if (bad(part.skin_weights[w])) return at + "skinWeights/" + std::to_string(w);
    if (part.order && bad(*part.order)) return at + "order";
  }
  for (const Clip& clip : clips) {
    const std::string name = "clip \"" + clip.name + "\" ";
    if (bad(clip.duration)) return name + "/duration";
    for (std::size_t t = 0; t < clip.tracks.size(); ++t) {
      for (std::size_t k = 0; k < clip.tracks[t].keys.size(); ++k) {
        const Keyframe& key = clip.tracks[t].keys[k];
        // A tangent of kStepped (+infinity) is how a hold is kept; it is written as a word.
        const auto bad_tangent = [&](double m) { return bad(m) && m != kStepped; };
        if (bad(key.t) || bad(key.v) || bad_tangent(key.in_tangent) || bad_tangent(key.out_tangent))
          return name + "/tracks/" + std::to_string(t) + "/keys/" + std::to_string(k);
      }
    }
  }
  return std::nullopt;
}

namespace {

std::optional<std::string> non_finite_below(const detail::Json& v, const std::string& at) {
  if (v.is_number_float()) return std::isfinite(v.get<double>()) ? std::nullopt : std::optional<std::string>(at);
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (auto found = non_finite_below(v[i], at + "/" + std::to_string(i))) return found;
  } else if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      if (auto found = non_finite_below(it.value(), at + "/" + detail::pointer_token(it.key()))) return found;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> first_non_finite_json(const detail::Json& doc) { return non_finite_below(doc, ""); }

}  // namespace rig2d::interop
