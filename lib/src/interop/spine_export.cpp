// SPDX-License-Identifier: Apache-2.0
// rig2d -> Spine 4.2 skeleton JSON. rig2d bones are rigid, so each Spine bone is x, -y, -rotation in
// degrees (y up) with scale 1 and no shear, and Spine's world transforms equal the rig's bind pose
// flipped. Every part becomes a slot with a weighted mesh: each influence's bone-local position is the
// bind vertex brought into that bone's world frame, so Spine's setup pose draws the bind vertices.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "interop/common.h"
#include "rig2d/interop/atlas.h"
#include "rig2d/interop/spine.h"

namespace rig2d {
namespace {

using detail::Json;
using interop::RigidPose;

// The version the Spine 4.2 editor writes into its exports (major.minor.patch, the patch that of the
// editor release): a released 4.2 editor, so the file also imports into that editor. The runtimes read
// any 4.2.x the same way; 4.1 and 4.3 read other formats, so 4.2 is the only format written.
constexpr const char* kSpineExportVersion = "4.2.43";

// The .atlas is read line by line, a line with a ':' being a "key: value" line and leading and
// trailing blanks trimmed: a name holding a newline could add or redefine regions. Control bytes and
// ':' become '_', as do blanks at either end. True when the name changed.
bool atlas_safe_name(std::string& name) {
  bool changed = false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    const bool edge_blank = (c == ' ') && (i == 0 || i + 1 == name.size());
    if (c < 0x20 || c == 0x7f || c == ':' || edge_blank) name[i] = '_', changed = true;
  }
  return changed;
}

// A page names a file: a name the atlas cannot hold is an error (the file would have to be renamed).
std::optional<std::string> atlas_page_fault(const std::string& page) {
  std::string safe = page;
  if (page.empty()) return "an empty file name";
  if (atlas_safe_name(safe)) return "a file name holding a control byte, a ':' or blanks at either end";
  return std::nullopt;
}

// The file name part of an image path ("../in/raptor.png" -> "raptor.png").
std::string bare_file_name(const std::string& image) {
  const std::size_t slash = image.find_last_of("/\\");
  return slash == std::string::npos ? image : image.substr(slash + 1);
}

std::string lower_ascii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A region per distinct sprite, grouped by page image.
struct AtlasBuilder {
  Atlas atlas;
  std::vector<ExportPage> pages;  // parallel to atlas.pages; pages[i].name is set by name_pages
  std::map<std::string, std::string> region_of_sprite;  // sprite GUID -> region name
  std::set<std::string> names;

  std::string add(const std::string& guid, const ExportSprite& s, std::vector<Diagnostic>& diagnostics) {
    if (auto it = region_of_sprite.find(guid); it != region_of_sprite.end()) return it->second;
    std::string base = s.name.empty() ? "sprite" : s.name;
    if (atlas_safe_name(base)) {
      interop::warn(diagnostics, "convert.spine.export.name",
                    "sprite " + guid + ": its name holds a control byte, a ':' or blanks at either end, which an "
                    ".atlas cannot hold; its region is named \"" + base + "\"",
                    {});
    }
    std::string name = base;
    for (int n = 2; names.count(name); ++n) name = base + "-" + std::to_string(n);
    names.insert(name);
    auto page = std::find_if(pages.begin(), pages.end(), [&](const ExportPage& p) { return p.image == s.image; });
    if (page == pages.end()) {
      atlas.pages.push_back({s.image, s.sheet_w, s.sheet_h, {}, 0});
      pages.push_back({"", s.image, s.file});
      page = pages.end() - 1;
    }
    AtlasRegion r;
    r.name = name;
    r.x = s.x, r.y = s.y, r.width = s.w, r.height = s.h;
    r.original_width = s.w, r.original_height = s.h;
    atlas.pages[static_cast<std::size_t>(page - pages.begin())].regions.push_back(r);
    region_of_sprite[guid] = name;
    return name;
  }

  // Spine's packer writes each page beside the atlas under its bare file name, and loaders look for it
  // there. Two textures of one name in different folders: the later gets "-2" before the extension
  // (then "-3"...), compared without case so they stay apart on case-blind file systems. A texture
  // already beside the export (named bare) keeps its name, so its page is that very file.
  void name_pages(std::vector<Diagnostic>& diagnostics) {
    std::set<std::string> taken;
    const auto claim = [&](ExportPage& page) {
      const std::string bare = bare_file_name(page.image);
      const std::size_t dot = bare.rfind('.');
      const std::string stem = dot == std::string::npos || dot == 0 ? bare : bare.substr(0, dot);
      const std::string ext = bare.substr(stem.size());
      std::string name = bare;
      for (int n = 2; taken.count(lower_ascii(name)); ++n) name = stem + "-" + std::to_string(n) + ext;
      taken.insert(lower_ascii(name));
      page.name = name;
      if (name != bare) {
        interop::warn(diagnostics, "convert.spine.export.page.renamed",
                      "texture \"" + page.image + "\" is written beside the atlas as \"" + name +
                          "\": another texture is already named \"" + bare + "\"",
                      {});
      }
    };
    for (ExportPage& page : pages)
      if (bare_file_name(page.image) == page.image) claim(page);
    for (ExportPage& page : pages)
      if (page.name.empty()) claim(page);
    for (std::size_t i = 0; i < pages.size(); ++i) atlas.pages[i].name = pages[i].name;
  }
};

std::uint32_t dominant_bone(const Part& part) {
  std::map<std::uint32_t, double> total;
  for (std::size_t i = 0; i < part.skin_weights.size() && i < part.skin_indices.size(); ++i) {
    total[part.skin_indices[i]] += part.skin_weights[i];
  }
  std::uint32_t best = 0;
  double best_w = -1;
  for (const auto& [bone, w] : total) {
    if (w > best_w) best = bone, best_w = w;
  }
  return best;
}

// Spine's `hull` counts the mesh's first vertices, which must run in order around its outline (the
// editor draws and edits that polygon). The outline here is the longest loop of boundary edges (edges
// of one triangle). Returns the export order of the vertices, that loop first and then the rest as
// they were, and the loop's length.
std::vector<std::uint32_t> hull_first_order(const Mesh& mesh, std::size_t& hull) {
  const std::size_t n = mesh.verts.size();
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> uses;  // undirected edge -> triangles using it
  const auto edge = [](std::uint32_t a, std::uint32_t b) { return std::make_pair(std::min(a, b), std::max(a, b)); };
  for (std::size_t t = 0; t + 2 < mesh.tris.size(); t += 3)
    for (int k = 0; k < 3; ++k) ++uses[edge(mesh.tris[t + k], mesh.tris[t + (k + 1) % 3])];
  std::multimap<std::uint32_t, std::uint32_t> next;  // boundary edges, directed as their triangle winds
  for (std::size_t t = 0; t + 2 < mesh.tris.size(); t += 3)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = mesh.tris[t + k], b = mesh.tris[t + (k + 1) % 3];
      if (uses[edge(a, b)] == 1) next.emplace(a, b);
    }
  std::vector<std::uint32_t> longest;
  while (!next.empty()) {
    std::vector<std::uint32_t> loop;
    auto at = next.begin();
    const std::uint32_t start = at->first;
    while (at != next.end()) {
      loop.push_back(at->first);
      const std::uint32_t to = at->second;
      next.erase(at);
      if (to == start) break;
      at = next.find(to);
    }
    if (loop.size() > longest.size()) longest = std::move(loop);
  }
  // Start at the loop's lowest index, heading to its lower neighbour, so a mesh that already lists its
  // outline first (as Spine's own meshes, imported, do) keeps its order.
  if (!longest.empty()) {
    std::rotate(longest.begin(), std::min_element(longest.begin(), longest.end()), longest.end());
    if (longest.size() > 2 && longest.back() < longest[1]) std::reverse(longest.begin() + 1, longest.end());
  }
  std::vector<std::uint32_t> order;
  std::vector<bool> placed(n, false);
  for (std::uint32_t v : longest)
    if (v < n && !placed[v]) order.push_back(v), placed[v] = true;
  hull = order.size();
  for (std::uint32_t v = 0; v < n; ++v)
    if (!placed[v]) order.push_back(v);
  return order;
}

Json mesh_attachment(const Part& part, const std::vector<RigidPose>& world, const std::vector<std::size_t>& spine_index,
                     const std::string& region, const std::optional<ExportSprite>& sprite) {
  Json uvs = Json::array(), tris = Json::array(), verts = Json::array();
  const std::size_t n = part.mesh.verts.size();
  std::size_t hull = 0;
  const std::vector<std::uint32_t> order = hull_first_order(part.mesh, hull);
  std::vector<std::uint32_t> exported_as(n);
  for (std::size_t i = 0; i < n; ++i) exported_as[order[i]] = static_cast<std::uint32_t>(i);
  for (const std::uint32_t v : order) {
    const Vec2 uv = v < part.mesh.uvs.size() ? part.mesh.uvs[v] : Vec2{};
    uvs.push_back(uv.x);
    uvs.push_back(uv.y);
    const Vec2 p = part.mesh.verts[v];
    Json influences = Json::array();
    int count = 0;
    for (int k = 0; k < kSlotsPerVertex; ++k) {
      const std::size_t slot = v * kSlotsPerVertex + static_cast<std::size_t>(k);
      if (slot >= part.skin_weights.size() || !(part.skin_weights[slot] > 0)) continue;
      const std::uint32_t b = part.skin_indices[slot];
      if (b >= world.size()) continue;
      // Into the bone's Spine frame: y up, rotation -rot.
      const RigidPose& w = world[b];
      const double dx = p.x - w.x, dy = -(p.y - w.y), th = -w.rot;
      influences.push_back(spine_index[b]);
      influences.push_back(std::cos(th) * dx + std::sin(th) * dy);
      influences.push_back(-std::sin(th) * dx + std::cos(th) * dy);
      influences.push_back(part.skin_weights[slot]);
      ++count;
    }
    verts.push_back(count);
    for (Json& x : influences) verts.push_back(std::move(x));
  }
  // Spine triangles are wound in its y-up frame; the flip keeps them consistent.
  for (std::uint32_t t : part.mesh.tris) tris.push_back(t < n ? exported_as[t] : t);
  double w = sprite ? sprite->w : 0, h = sprite ? sprite->h : 0;
  if (!sprite && n > 0) {
    double x0 = part.mesh.verts[0].x, x1 = x0, y0 = part.mesh.verts[0].y, y1 = y0;
    for (const Vec2& p : part.mesh.verts) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    w = x1 - x0, h = y1 - y0;
  }
  return Json{{"type", "mesh"}, {"path", region}, {"uvs", std::move(uvs)}, {"triangles", std::move(tris)},
              {"vertices", std::move(verts)}, {"hull", hull}, {"width", w}, {"height", h}};
}

// A clip track's keys as a Spine timeline of one value (value = scale * (v - bind)).
Json timeline(const Track& track, double bind, double scale, const char* value_key) {
  Json frames = Json::array();
  const auto& keys = track.keys;
  if (!keys.empty() && keys[0].t > 0) frames.push_back({{"time", 0}, {value_key, scale * (keys[0].v - bind)}});
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Keyframe& a = keys[i];
    Json f = {{"time", a.t}, {value_key, scale * (a.v - bind)}};
    if (i + 1 < keys.size()) {
      const Keyframe& b = keys[i + 1];
      const double dt = b.t - a.t;
      if (a.out_tangent == kStepped) {
        f["curve"] = "stepped";
      } else if (dt > 0) {
        // The engine's weighted Bézier in (time, value), handles at wA and wB of the segment.
        double wa = std::clamp(a.out_weight.value_or(kDefaultTangentWeight), 0.0, 0.999);
        double wb = std::clamp(b.in_weight.value_or(kDefaultTangentWeight), 0.0, 0.999);
        if (wa + wb > 1) {
          const double s = 1 / (wa + wb);
          wa *= s, wb *= s;
        }
        const double ma = std::isfinite(a.out_tangent) ? a.out_tangent : 0, mb = std::isfinite(b.in_tangent) ? b.in_tangent : 0;
        const double slope = (b.v - a.v) / dt;
        const bool linear = std::abs(ma - slope) < 1e-9 && std::abs(mb - slope) < 1e-9 && wa == kDefaultTangentWeight &&
                            wb == kDefaultTangentWeight;
        if (!linear) {
          f["curve"] = Json::array({a.t + wa * dt, scale * (a.v + ma * wa * dt - bind), b.t - wb * dt,
                                    scale * (b.v - mb * wb * dt - bind)});
        }
      }
    }
    frames.push_back(std::move(f));
  }
  return frames;
}

Json animations(const Rig& rig, const std::vector<Clip>& clips, std::vector<Diagnostic>& diagnostics) {
  Json out = Json::object();
  const std::vector<std::string> paths = interop::bone_paths(rig);
  for (const Clip& clip : clips) {
    Json bones = Json::object();
    for (const Track& track : clip.tracks) {
      const auto it = std::find(paths.begin(), paths.end(), track.path);
      const bool movable = track.trait == "Transform" && (track.field == "rz" || track.field == "x" || track.field == "y");
      if (it == paths.end() || !movable || track.type != TrackType::Number) {
        interop::warn(diagnostics, "convert.spine.export.track",
                      "clip \"" + clip.name + "\": track \"" + track.path + "\" " + track.trait + "." + track.field +
                          " has no Spine counterpart (bone rz, x, y only): left out",
                      {});
        continue;
      }
      const Bone& bone = rig.bones[static_cast<std::size_t>(it - paths.begin())];
      Json& timelines = bones[bone.name];
      if (track.field == "rz") timelines["rotate"] = timeline(track, bone.rot, -interop::rad_to_deg(1), "value");
      if (track.field == "x") timelines["translatex"] = timeline(track, bone.x, 1, "value");
      if (track.field == "y") timelines["translatey"] = timeline(track, bone.y, -1, "value");
    }
    if (!clip.deform_tracks.empty()) {
      interop::warn(diagnostics, "convert.spine.export.deform", "clip \"" + clip.name + "\": deform tracks are not exported", {});
    }
    out[clip.name.empty() ? "animation" : clip.name] = Json{{"bones", std::move(bones)}};
  }
  return out;
}

}  // namespace

Result<ExportResult> export_spine(const Rig& rig, const ExportOptions& options) {
  auto world = interop::rig_world_pose(rig);
  if (!world) return Unexpected{world.error()};
  ExportResult result;
  const std::vector<std::size_t> order = interop::parents_first(rig);
  std::vector<std::size_t> spine_index(rig.bones.size());
  for (std::size_t i = 0; i < order.size(); ++i) spine_index[order[i]] = i;
  Json bones = Json::array();
  std::size_t roots = 0;
  for (std::size_t i : order) {
    const Bone& b = rig.bones[i];
    Json jb = {{"name", b.name}};
    if (b.parent >= 0) jb["parent"] = rig.bones[static_cast<std::size_t>(b.parent)].name;
    else ++roots;
    if (b.x != 0) jb["x"] = b.x;
    if (b.y != 0) jb["y"] = -b.y;
    if (b.rot != 0) jb["rotation"] = -interop::rad_to_deg(b.rot);
    if (b.no_scale) jb["inherit"] = "noScale";
    bones.push_back(std::move(jb));
  }
  if (roots > 1) {
    interop::warn(result.diagnostics, "convert.spine.export.roots",
                  std::to_string(roots) + " root bones: the Spine editor expects a single root bone", {});
  }
  std::vector<const Part*> parts;
  for (const Part& p : rig.parts) parts.push_back(&p);
  std::stable_sort(parts.begin(), parts.end(), [](const Part* a, const Part* b) { return a->order.value_or(0) < b->order.value_or(0); });
  Json slots = Json::array(), attachments = Json::object();
  AtlasBuilder atlas;
  std::set<std::string> slot_names;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Part& part = *parts[i];
    std::string name = part.name.value_or(rig.layout == Layout::V1 ? "main" : "part" + std::to_string(i));
    for (int n = 2; slot_names.count(name); ++n) name = part.name.value_or("part") + "-" + std::to_string(n);
    slot_names.insert(name);
    std::optional<ExportSprite> sprite;
    if (!part.sprite.empty() && options.resolve_sprite) sprite = options.resolve_sprite(part.sprite);
    std::string region = name;
    if (sprite) {
      if (const auto fault = atlas_page_fault(bare_file_name(sprite->image))) {
        return make_error("convert.spine.export.page", "part \"" + name + "\": texture \"" + sprite->image + "\" has " +
                                                           *fault + ", which an .atlas cannot name; rename the file");
      }
      region = atlas.add(part.sprite, *sprite, result.diagnostics);
    }
    else interop::warn(result.diagnostics, "convert.export.sprite", "part \"" + name + "\": sprite \"" + part.sprite +
                                                                       "\" does not resolve to a texture: no atlas region", {});
    const std::uint32_t slot_bone = rig.bones.empty() ? 0 : dominant_bone(part);
    Json slot = {{"name", name}, {"bone", rig.bones.empty() ? "" : rig.bones[slot_bone].name}, {"attachment", name}};
    if (part.visible == false) slot["color"] = "ffffff00";  // hidden: drawn fully transparent
    slots.push_back(std::move(slot));
    attachments[name] = Json{{name, mesh_attachment(part, *world, spine_index, region, sprite)}};
  }
  Json doc = {{"skeleton", {{"hash", ""}, {"spine", kSpineExportVersion}, {"images", "./"}, {"audio", ""}}},
              {"bones", std::move(bones)},
              {"slots", std::move(slots)},
              {"skins", Json::array({Json{{"name", "default"}, {"attachments", std::move(attachments)}}})}};
  if (!options.clips.empty()) doc["animations"] = animations(rig, options.clips, result.diagnostics);
  // Finite rig numbers can still overflow once combined (a bone chain's world position, a vertex in
  // its bone's frame): an error, never a null in the skeleton.
  if (const auto at = interop::first_non_finite_json(doc)) {
    return make_error("convert.overflow", "the Spine skeleton's " + *at +
                                              " overflows (not a finite number): the rig's values are too large to "
                                              "combine");
  }
  result.text = detail::to_js_json(doc) + "\n";
  if (!atlas.atlas.pages.empty()) {
    atlas.name_pages(result.diagnostics);
    result.atlas = write_spine_atlas(atlas.atlas);
    result.pages = std::move(atlas.pages);
  }
  return result;
}

}  // namespace rig2d
