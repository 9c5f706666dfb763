// SPDX-License-Identifier: Apache-2.0
#include "rig2d/preview/pose_input.h"

#include <charconv>
#include <cmath>

#include "json/json_util.h"
#include "rig2d/raster/canvas.h"

namespace rig2d {
namespace {

using detail::Json;

std::string bone_list(const Rig& rig) {
  if (rig.bones.empty()) return "the rig has no bones";
  std::string names = "the rig's bones are: ";
  for (std::size_t i = 0; i < rig.bones.size(); ++i) names += (i ? ", " : "") + rig.bones[i].name;
  return names;
}

// Sets one BoneLocal field; false for an unknown field name.
bool set_field(BoneLocal& local, std::string_view field, double value) {
  if (field == "x") local.x = value;
  else if (field == "y") local.y = value;
  else if (field == "rot" || field == "rz") local.rot = value;
  else if (field == "sx") local.sx = value;
  else if (field == "sy") local.sy = value;
  else return false;
  return true;
}

constexpr const char* kFields = "x, y (px), rot (radians), sx, sy";

std::optional<double> parse_number(std::string_view s) {
  double v = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || ptr != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

Result<std::size_t> find_bone(const Rig& rig, std::string_view name) {
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < rig.bones.size(); ++i) {
    if (rig.bones[i].name == name) found = i;  // last wins
  }
  if (!found) return make_error("pose.bone", "no bone named \"" + std::string(name) + "\"; " + bone_list(rig));
  return *found;
}

Result<void> apply_pose_assignment(const Rig& rig, std::string_view assignment, RigPose& pose) {
  const std::size_t eq = assignment.find('=');
  const std::size_t dot = eq == std::string_view::npos ? std::string_view::npos : assignment.rfind('.', eq);
  if (eq == std::string_view::npos || dot == std::string_view::npos || dot == 0) {
    return make_error("pose.syntax", "\"" + std::string(assignment) + "\" is not BONE.FIELD=VALUE (e.g. mid.rot=0.5)");
  }
  const std::string_view name = assignment.substr(0, dot);
  const std::string_view field = assignment.substr(dot + 1, eq - dot - 1);
  const auto value = parse_number(assignment.substr(eq + 1));
  auto bone = find_bone(rig, name);
  if (!bone) return Unexpected{bone.error()};
  if (pose.bones.size() < rig.bones.size()) pose.bones.resize(rig.bones.size());
  if (!value) {
    return make_error("pose.value", "\"" + std::string(assignment.substr(eq + 1)) + "\" is not a finite number");
  }
  if (!set_field(pose.bones[*bone], field, *value)) {
    return make_error("pose.field", "unknown pose field \"" + std::string(field) + "\"; the fields are " + kFields);
  }
  return {};
}

Result<void> apply_pose_file(const Rig& rig, std::string_view text, const std::string& path, RigPose& pose) {
  auto json = detail::parse_json(text, path);
  if (!json) return Unexpected{json.error()};
  auto fail = [&](const char* code, std::string message, const std::string& pointer) {
    const auto [line, col] = detail::locate_pointer(text, pointer);
    return make_error(code, std::move(message), Location{path, pointer, line, col});
  };
  if (!json->is_object()) return fail("pose.file", "a pose file must be an object {\"bones\": {...}}", "");
  if (pose.bones.size() < rig.bones.size()) pose.bones.resize(rig.bones.size());
  if (const auto bones = json->find("bones"); bones != json->end()) {
    if (!bones->is_object()) return fail("pose.file", "\"bones\" must map bone names to {x, y, rot, sx, sy}", "/bones");
    for (const auto& [name, fields] : bones->items()) {
      const std::string bp = "/bones/" + detail::pointer_token(name);
      auto bone = find_bone(rig, name);
      if (!bone) return fail("pose.bone", bone.error().message, bp);
      if (!fields.is_object()) return fail("pose.file", "a bone's pose must be an object {x, y, rot, sx, sy}", bp);
      for (const auto& [field, value] : fields.items()) {
        const std::string fp = bp + "/" + detail::pointer_token(field);
        if (!value.is_number() || !std::isfinite(value.get<double>())) {
          return fail("pose.value", "\"" + field + "\" must be a finite number", fp);
        }
        if (!set_field(pose.bones[*bone], field, value.get<double>())) {
          return fail("pose.field", "unknown pose field \"" + field + "\"; the fields are " + kFields, fp);
        }
      }
    }
  }
  if (const auto sprite = json->find("sprite"); sprite != json->end()) {
    if (!sprite->is_object()) return fail("pose.file", "\"sprite\" must be an object", "/sprite");
    for (const auto& [field, value] : sprite->items()) {
      const std::string fp = "/sprite/" + detail::pointer_token(field);
      if (field == "color") {
        if (value.is_string()) {
          auto c = parse_color(value.get<std::string>());
          if (!c) return fail("pose.value", c.error().message, fp);
          pose.sprite.color = (std::uint32_t(c->r) << 16) | (std::uint32_t(c->g) << 8) | c->b;
        } else if (value.is_number_integer() && value.get<std::int64_t>() >= 0 && value.get<std::int64_t>() <= 0xffffff) {
          pose.sprite.color = static_cast<std::uint32_t>(value.get<std::int64_t>());
        } else {
          return fail("pose.value", "\"color\" must be \"#RRGGBB\" or an integer 0..16777215", fp);
        }
      } else if (field == "opacity") {
        if (!value.is_number() || !std::isfinite(value.get<double>())) return fail("pose.value", "\"opacity\" must be a number", fp);
        pose.sprite.opacity = value.get<double>();
      } else if (field == "flipX" || field == "flipY" || field == "visible") {
        if (!value.is_boolean()) return fail("pose.value", "\"" + field + "\" must be true or false", fp);
        (field == "flipX" ? pose.sprite.flip_x : field == "flipY" ? pose.sprite.flip_y : pose.sprite.visible) = value.get<bool>();
      } else {
        return fail("pose.field", "unknown sprite field \"" + field + "\"; the fields are color, opacity, flipX, flipY, visible", fp);
      }
    }
  }
  return {};
}

std::string vertices_json(const Rig& rig, std::span<const VertexFrame> frames) {
  Json root = Json::object();
  Json list = Json::array();
  for (const VertexFrame& frame : frames) {
    Json f = Json::object();
    if (frame.time) f["time"] = *frame.time;
    Json parts = Json::array();
    for (std::size_t p = 0; p < frame.parts.size(); ++p) {
      Json part = Json::object();
      part["name"] = p < rig.parts.size() ? rig.parts[p].name.value_or("part" + std::to_string(p)) : "part" + std::to_string(p);
      Json positions = Json::array();
      for (const Vec2& v : frame.parts[p]) positions.push_back(Json::array({v.x, v.y}));
      part["positions"] = std::move(positions);
      parts.push_back(std::move(part));
    }
    f["parts"] = std::move(parts);
    list.push_back(std::move(f));
  }
  root["frames"] = std::move(list);
  return detail::to_js_json(root);
}

}  // namespace rig2d
