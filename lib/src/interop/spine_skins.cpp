// SPDX-License-Identifier: Apache-2.0
// Spine skins: which attachment a slot shows once skins are combined, and linked meshes resolved to
// the mesh they share (spine_skins.h).
#include "interop/spine_skins.h"

#include <algorithm>
#include <set>
#include <utility>

namespace rig2d::interop {

using detail::Json;

namespace {

[[noreturn]] void skins_fail(const JsonSource& src, std::string code, std::string message, const std::string& pointer) {
  throw ConvertFailure{src.fail(std::move(code), std::move(message), pointer).error};
}

// "region" when absent; a type that is not a string is an error at the attachment's "type".
std::string attachment_type(const JsonSource& src, const Json& att, const std::string& pointer) {
  if (!att.is_object()) skins_fail(src, "spine.attachment", "an attachment must be an object", pointer);
  const auto it = att.find("type");
  if (it == att.end() || it->is_null()) return "region";
  if (!it->is_string()) {
    skins_fail(src, "spine.type", std::string("\"type\" must be a string, not ") + detail::json_type_name(*it), pointer + "/type");
  }
  return it->get<std::string>();
}

}  // namespace

std::string quoted_list(const std::vector<std::string>& names, std::size_t most) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < most; ++i) out += (i ? ", \"" : "\"") + names[i] + "\"";
  if (names.size() > most) out += " and " + std::to_string(names.size() - most) + " more";
  return out;
}

std::vector<std::string> spine_skin_names_of(const Json& root) {
  std::vector<std::string> names;
  const auto skins = root.find("skins");
  if (skins == root.end()) return names;
  if (skins->is_array()) {
    for (const Json& skin : *skins) {
      if (!skin.is_object()) continue;
      const auto name = skin.find("name");
      names.push_back(name != skin.end() && name->is_string() ? name->get<std::string>() : "");
    }
  } else if (skins->is_object()) {
    for (const auto& item : skins->items()) names.push_back(item.key());
  }
  return names;
}

SpineSkins::SpineSkins(const Json& root, const JsonSource& src, const std::vector<std::string>& active,
                       std::vector<Diagnostic>& diagnostics)
    : src_(src), diagnostics_(diagnostics) {
  const auto skins = root.find("skins");
  if (skins != root.end() && skins->is_array()) {  // 4.x: [{name, attachments}]
    for (std::size_t i = 0; i < skins->size(); ++i) {
      const Json& skin = (*skins)[i];
      const std::string ptr = "/skins/" + std::to_string(i);
      if (!skin.is_object()) skins_fail(src, "spine.skin", "a skin must be an object", ptr);
      Skin s{"", ptr + "/attachments", nullptr};
      if (const auto name = skin.find("name"); name != skin.end() && !name->is_null()) {
        if (!name->is_string()) skins_fail(src, "spine.type", "\"name\" must be a string", ptr + "/name");
        s.name = name->get<std::string>();
      }
      if (const auto atts = skin.find("attachments"); atts != skin.end()) {
        if (!atts->is_object()) skins_fail(src, "spine.type", "\"attachments\" must be an object", ptr + "/attachments");
        s.attachments = &*atts;
      }
      skins_.push_back(std::move(s));
    }
  } else if (skins != root.end() && skins->is_object()) {  // 3.x: {name: {slot: {attachment}}}
    for (const auto& item : skins->items()) {
      const std::string ptr = "/skins/" + detail::pointer_token(item.key());
      if (!item.value().is_object()) skins_fail(src, "spine.skin", "a skin must be an object", ptr);
      skins_.push_back({item.key(), ptr, &item.value()});
    }
  } else if (skins != root.end()) {
    skins_fail(src, "spine.type", "\"skins\" must be an array", "/skins");
  }
  default_ = skin_named("default");
  std::vector<std::string> names;
  for (const Skin& s : skins_) names.push_back(s.name);
  for (const std::string& name : active) {
    const Skin* s = skin_named(name);
    if (!s) {
      skins_fail(src, "spine.skin.unknown",
                 "no skin named \"" + name + "\": the skeleton's skins are " +
                     (names.empty() ? std::string("none") : quoted_list(names, names.size())),
                 skins != root.end() ? "/skins" : "");
    }
    active_.push_back(s);
  }
  std::vector<std::string> others;
  for (const std::string& name : names) {
    if (name != "default") others.push_back(name);
  }
  if (active.empty() && !others.empty()) {
    warn("convert.spine.skin",
         std::to_string(others.size()) + " skin(s) besides \"default\" are not imported (" + quoted_list(others, 8) +
             "): only the default skin is; choose skins with rig2d-convert --skin NAME, or --skin each",
         "/skins");
  }
}

const SpineSkins::Skin* SpineSkins::skin_named(const std::string& name) const {
  const auto it = std::find_if(skins_.begin(), skins_.end(), [&](const Skin& s) { return s.name == name; });
  return it == skins_.end() ? nullptr : &*it;  // Spine's findSkin: the first of that name
}

const Json* SpineSkins::attachment_in(const Skin& skin, const std::string& slot, const std::string& name,
                                      std::string& pointer) const {
  if (!skin.attachments) return nullptr;
  const auto atts = skin.attachments->find(slot);
  if (atts == skin.attachments->end() || !atts->is_object()) return nullptr;
  const auto att = atts->find(name);
  if (att == atts->end()) return nullptr;
  pointer = skin.pointer + "/" + detail::pointer_token(slot) + "/" + detail::pointer_token(name);
  return &*att;
}

std::size_t SpineSkins::count(const std::string& slot) const {
  std::set<std::string> names;
  std::vector<const Skin*> skins = active_;
  if (default_) skins.push_back(default_);
  for (const Skin* skin : skins) {
    if (!skin->attachments) continue;
    const auto atts = skin->attachments->find(slot);
    if (atts == skin->attachments->end() || !atts->is_object()) continue;
    for (const auto& item : atts->items()) names.insert(item.key());
  }
  return names.size();
}

bool SpineSkins::find(const std::string& slot, const std::string& name, SpineSkinAttachment& out) const {
  std::vector<const Skin*> order(active_.rbegin(), active_.rend());  // the last skin given wins
  if (default_) order.push_back(default_);
  for (const Skin* skin : order) {
    std::string ptr;
    if (const Json* att = attachment_in(*skin, slot, name, ptr)) {
      out = {att, ptr, attachment_type(src_, *att, ptr), att, ptr};
      return true;
    }
  }
  return false;
}

bool SpineSkins::resolve(const std::string& slot, SpineSkinAttachment& att) {
  if (att.type != "linkedmesh") return true;
  const Json* link = att.json;
  std::string link_ptr = att.pointer;
  std::set<std::string> seen{link_ptr};  // a chain that comes back to an attachment it passed loops
  for (;;) {
    const auto parent = link->find("parent");
    if (parent == link->end() || !parent->is_string()) {
      warn("convert.spine.linkedmesh", "slot \"" + slot + "\": the linked mesh names no \"parent\" mesh: not imported", link_ptr);
      return false;
    }
    std::string skin_name = "default";
    if (const auto skin = link->find("skin"); skin != link->end() && skin->is_string()) skin_name = skin->get<std::string>();
    const Skin* skin = skin_named(skin_name);
    std::string ptr;
    const Json* target = skin ? attachment_in(*skin, slot, parent->get<std::string>(), ptr) : nullptr;
    const std::string what = "slot \"" + slot + "\": the linked mesh's parent \"" + parent->get<std::string>() + "\" (skin \"" +
                             skin_name + "\")";
    if (!target) {
      warn("convert.spine.linkedmesh",
           what + (skin ? " is not an attachment of that skin for the slot" : " names no skin of the skeleton") +
               ": the linked mesh is not imported",
           link_ptr + "/parent");
      return false;
    }
    if (!seen.insert(ptr).second) {
      warn("convert.spine.linkedmesh", what + " leads back along a chain of linked meshes: not imported", link_ptr + "/parent");
      return false;
    }
    const std::string type = attachment_type(src_, *target, ptr);
    if (type == "mesh") {
      att.geometry = target, att.geometry_pointer = ptr, att.type = "mesh";
      return true;
    }
    if (type != "linkedmesh") {
      warn("convert.spine.linkedmesh", what + " is a " + type + " attachment, not a mesh: the linked mesh is not imported",
           link_ptr + "/parent");
      return false;
    }
    link = target, link_ptr = ptr;  // linked to a linked mesh: follow the chain
  }
}

std::string SpineSkins::described() const {
  std::string out = active_.size() > 1 ? "skins " : "skin ";
  for (std::size_t i = 0; i < active_.size(); ++i) out += (i ? " + \"" : "\"") + active_[i]->name + "\"";
  return active_.empty() ? "the default skin" : out + " or the default skin";
}

void SpineSkins::warn(std::string code, std::string message, const std::string& pointer) {
  interop::warn(diagnostics_, std::move(code), std::move(message), src_.at(pointer));
}

}  // namespace rig2d::interop
