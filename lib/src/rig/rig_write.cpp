// SPDX-License-Identifier: Apache-2.0
// The .rig2d.json writer: the object the engine's writers build, printed as JSON.stringify(v, null, 2).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "rig/rig_json_internal.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d::detail {
namespace {

// An empty object with room for `keys` members. ordered_json keeps its members in a vector of
// pair<const string, Json>, which copies (not moves) every member when it grows: without the room,
// adding "uvs" would deep-copy the whole vertex array, "skinIndices" the whole mesh.
Json object_with_room(std::size_t keys) {
  Json out = Json::object();
  out.get_ref<Json::object_t&>().reserve(keys);
  return out;
}

// What JSON.stringify then JSON.parse makes of a double: NaN/Infinity -> null, -0 -> 0.
Json number(double x) {
  if (!std::isfinite(x)) return nullptr;
  if (x == 0) return 0;
  return x;
}

// The arrays are filled through their array_t, element by element in place: the same values as
// push_back(Json::array({...})), without the initializer-list copies (the checked write builds this
// value for every rig it writes).
Json pairs(const std::vector<Vec2>& points) {
  Json out = Json::array();
  auto& items = out.get_ref<Json::array_t&>();
  items.reserve(points.size());
  for (const Vec2& p : points) {
    Json& pair = items.emplace_back(Json::value_t::array);
    auto& xy = pair.get_ref<Json::array_t&>();
    xy.reserve(2);
    xy.emplace_back(number(p.x));
    xy.emplace_back(number(p.y));
  }
  return out;
}

template <typename T>
Json integers(const std::vector<T>& values) {
  Json out = Json::array();
  auto& items = out.get_ref<Json::array_t&>();
  items.reserve(values.size());
  for (const T v : values) items.emplace_back(v);
  return out;
}

Json doubles(const std::vector<double>& values) {
  Json out = Json::array();
  auto& items = out.get_ref<Json::array_t&>();
  items.reserve(values.size());
  for (const double v : values) items.emplace_back(number(v));
  return out;
}

Json bone_json(const Bone& bone) {
  Json out = object_with_room(6);
  out["name"] = bone.name;
  out["parent"] = bone.parent;
  out["x"] = number(bone.x);
  out["y"] = number(bone.y);
  out["rot"] = number(bone.rot);
  if (bone.no_scale) out["noScale"] = true;
  return out;
}

Json mesh_json(const Mesh& mesh) {
  Json out = object_with_room(3);
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
  out.get_ref<Json::array_t&>().reserve(rig.bones.size());
  for (const Bone& bone : rig.bones) out.push_back(bone_json(bone));
  return out;
}

}  // namespace

Json rig_to_json(const Rig& rig) {
  Json out = object_with_room(7);
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
    Json p = object_with_room(7);
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

namespace rig2d::detail {
namespace {

// Streams the same bytes as to_js_json(rig_to_json(rig)) without building the DOM first (about 3x
// faster on big meshes). Keys are fixed ASCII, so only string values need escaping.
class RigText {
 public:
  std::string out;

  // One object member: the separator, the indent and `"key": `; first/last bookkeeping in Members.
  struct Members {
    RigText& w;
    int indent;
    bool first = true;
    void key(const char* k) {
      w.out += first ? "\n" : ",\n";
      first = false;
      w.pad(indent + 2);
      w.out += '"';
      w.out += k;
      w.out += "\": ";
    }
  };

  void pad(int n) { out.append(static_cast<std::size_t>(n), ' '); }
  // JSON.stringify's number: NaN and infinities print as null.
  static char* put_number(char* t, double x) {
    return std::isfinite(x) ? write_js_number(t, x) : std::copy_n("null", 4, t);
  }
  void string(const std::string& s) { out += to_js_json(Json(s)); }
  void number(double x) {
    char text[kMaxJsNumberChars];
    out.append(text, static_cast<std::size_t>(put_number(text, x) - text));
  }

  template <typename Body>
  void object(int indent, Body&& body) {
    out += '{';
    Members m{*this, indent};
    body(m);
    close(m.first, indent, '}');
  }

  template <typename Element>
  void array(int indent, std::size_t n, Element&& element) {
    out += '[';
    for (std::size_t k = 0; k < n; ++k) {
      out += k ? ",\n" : "\n";
      pad(indent + 2);
      element(k, indent + 2);
    }
    close(n == 0, indent, ']');
  }

  // The mesh and skin arrays hold nearly all of a rig's text: their elements are written straight
  // into `out`, a chunk of them at a time, into room made for each chunk's longest text and then cut
  // to what was written: the same bytes array() and number() would append piece by piece, without a
  // call per piece. The longest element is a pair: its separator, four indents of at most indent + 4
  // and two numbers (`most` is the longest element's text, by kind), plus kSpaceRun bytes, as
  // spaces() may write that many for fewer.
  static constexpr int kSpaceRun = 16;
  static constexpr std::size_t kChunk = 256;  // elements per chunk: bounds the room made beyond the text
  static char* spaces(char* t, int n) {
    static constexpr char kRun[kSpaceRun + 1] = "                ";
    if (n > kSpaceRun) return std::fill_n(t, n, ' ');
    std::memcpy(t, kRun, kSpaceRun);  // one store, not a call for a few bytes
    return t + n;
  }
  // `element` writes element k's text (after its separator and indent) at t and returns the end.
  template <typename Element>
  void lines(int indent, std::size_t n, std::size_t most, Element&& element) {
    most += 2 + static_cast<std::size_t>(indent + 2) + kSpaceRun;  // the separator, the indent, the slack
    out += '[';
    for (std::size_t k = 0; k < n;) {
      const std::size_t at = out.size(), chunk = std::min(n - k, kChunk);
      out.resize(at + chunk * most);
      char* const start = out.data();
      char* t = start + at;
      for (const std::size_t end = k + chunk; k < end; ++k) {
        if (k) *t++ = ',';
        *t++ = '\n';
        t = element(spaces(t, indent + 2), k, indent + 2);
      }
      out.resize(static_cast<std::size_t>(t - start));
    }
    close(n == 0, indent, ']');
  }

  void pairs(int indent, const std::vector<Vec2>& points) {
    lines(indent, points.size(), 3 * static_cast<std::size_t>(indent + 4) + 6 + 2 * kMaxJsNumberChars,
          [&](char* t, std::size_t k, int in) {
      *t++ = '[';
      *t++ = '\n';
      t = put_number(spaces(t, in + 2), points[k].x);
      *t++ = ',';
      *t++ = '\n';
      t = put_number(spaces(t, in + 2), points[k].y);
      *t++ = '\n';
      t = spaces(t, in);
      *t++ = ']';
      return t;
    });
  }
  void indices(int indent, const std::vector<std::uint32_t>& values) {
    lines(indent, values.size(), 16, [&](char* t, std::size_t k, int) { return std::to_chars(t, t + 16, values[k]).ptr; });
  }
  void doubles(int indent, const std::vector<double>& values) {
    lines(indent, values.size(), kMaxJsNumberChars, [&](char* t, std::size_t k, int) { return put_number(t, values[k]); });
  }

  void bones(int indent, const std::vector<Bone>& bones) {
    array(indent, bones.size(), [&](std::size_t k, int in) {
      const Bone& b = bones[k];
      object(in, [&](Members& m) {
        m.key("name");
        string(b.name);
        m.key("parent");
        append_js_number(out, static_cast<double>(b.parent));
        m.key("x");
        number(b.x);
        m.key("y");
        number(b.y);
        m.key("rot");
        number(b.rot);
        if (b.no_scale) {
          m.key("noScale");
          out += "true";
        }
      });
    });
  }

  void mesh(int indent, const Mesh& mesh) {
    object(indent, [&](Members& m) {
      m.key("verts");
      pairs(m.indent + 2, mesh.verts);
      m.key("uvs");
      pairs(m.indent + 2, mesh.uvs);
      m.key("tris");
      indices(m.indent + 2, mesh.tris);
    });
  }

  // mesh, skinIndices, skinWeights: shared by the v1 top level and v2 parts.
  void part_body(Members& m, const Part& part) {
    m.key("mesh");
    mesh(m.indent + 2, part.mesh);
    m.key("skinIndices");
    indices(m.indent + 2, part.skin_indices);
    m.key("skinWeights");
    doubles(m.indent + 2, part.skin_weights);
  }

  void rig(const Rig& rig) {
    object(0, [&](Members& m) {
      if (rig.id) {
        m.key("id");
        string(*rig.id);
      }
      if (rig.version) {
        m.key("version");
        number(*rig.version);
      }
      if (rig.layout == Layout::V1) {
        static const Part kEmpty;
        const Part& part = rig.parts.empty() ? kEmpty : rig.parts.front();
        m.key("sprite");
        string(part.sprite);
        m.key("bones");
        bones(2, rig.bones);
        part_body(m, part);
        return;
      }
      m.key("bones");
      bones(2, rig.bones);
      m.key("parts");
      array(2, rig.parts.size(), [&](std::size_t k, int in) {
        const Part& part = rig.parts[k];
        object(in, [&](Members& pm) {
          if (part.name) {
            pm.key("name");
            string(*part.name);
          }
          pm.key("sprite");
          string(part.sprite);
          part_body(pm, part);
          if (part.order) {
            pm.key("order");
            number(*part.order);
          }
          if (part.visible) {
            pm.key("visible");
            out += *part.visible ? "true" : "false";
          }
        });
      });
    });
  }

 private:
  void close(bool empty, int indent, char bracket) {
    if (!empty) {
      out += '\n';
      pad(indent);
    }
    out += bracket;
  }
};

}  // namespace
}  // namespace rig2d::detail

namespace rig2d {

namespace {

// About the room lines() makes for a rig's text (a pair's longest text is under 160 bytes at the
// depths a rig nests to, an index's or weight's under 64), so the text is not regrown and copied
// a dozen times on the way.
std::size_t text_room(const Rig& rig) {
  std::size_t room = 256 + 256 * rig.bones.size();
  for (const Part& part : rig.parts) {
    room += 256 + part.sprite.size() + 160 * (part.mesh.verts.size() + part.mesh.uvs.size()) +
            64 * (part.mesh.tris.size() + part.skin_indices.size() + part.skin_weights.size());
  }
  return room;
}

}  // namespace

std::string write_rig(const Rig& rig) {
  detail::RigText text;
  text.out.reserve(text_room(rig));
  text.rig(rig);
  return std::move(text.out);
}

}  // namespace rig2d
