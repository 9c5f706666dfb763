// SPDX-License-Identifier: Apache-2.0
// The skins of a Spine skeleton, combined as the runtimes combine them (private to the library).
// Spine shows a slot's attachment from the active skin, else from the default skin; skins added to
// one another (Skin.addSkin) override earlier ones attachment by attachment (slot + name). A linked
// mesh is the mesh Spine builds from it at load time: its parent's geometry with its own region.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "interop/common.h"

namespace rig2d::interop {

// An attachment the combined skin holds for a slot.
struct SpineSkinAttachment {
  const detail::Json* json = nullptr;  // as its skin holds it: its type, name, path, colour
  std::string pointer;
  std::string type;  // "region" (the default), "mesh", ...; a resolved linked mesh is "mesh"
  // Where its vertices, uvs and triangles live: the attachment itself, or the parent mesh of a
  // linked mesh (followed through linked meshes to the mesh that holds them).
  const detail::Json* geometry = nullptr;
  std::string geometry_pointer;
};

class SpineSkins {
 public:
  // Reads "skins" (4.x: an array of {name, attachments}; 3.x: an object of skins by name) and
  // activates `active` in order over the default skin. Errors (thrown as ConvertFailure):
  // spine.skin (a skin that is not an object), spine.type, spine.skin.unknown (an active name the
  // file lacks: the message lists the skins it has). With no active skin, the other skins are named
  // in one convert.spine.skin warning.
  SpineSkins(const detail::Json& root, const JsonSource& src, const std::vector<std::string>& active,
             std::vector<Diagnostic>& diagnostics);

  // How many attachments the slot has across the active skins and the default skin.
  std::size_t count(const std::string& slot) const;
  // The attachment `name` of `slot` as Skeleton.getAttachment finds it: the active skins (the last
  // given that has it), else the default skin. False when none has it.
  bool find(const std::string& slot, const std::string& name, SpineSkinAttachment& out) const;
  // Gives a linked mesh its parent's geometry (the parent named by "parent" in the skin named by
  // "skin", else the default skin, same slot; chains of linked meshes followed). False, with a
  // convert.spine.linkedmesh warning naming the attachment, when there is no such mesh or the
  // chain loops. Other attachments are left as they are (true).
  bool resolve(const std::string& slot, SpineSkinAttachment& att);
  // For "which is not in ...": "the default skin", or "skins "a" + "b" or the default skin".
  std::string described() const;

 private:
  struct Skin {
    std::string name;
    std::string pointer;  // of its attachments object
    const detail::Json* attachments = nullptr;
  };
  const Skin* skin_named(const std::string& name) const;
  const detail::Json* attachment_in(const Skin& skin, const std::string& slot, const std::string& name,
                                    std::string& pointer) const;
  void warn(std::string code, std::string message, const std::string& pointer);

  const JsonSource& src_;
  std::vector<Diagnostic>& diagnostics_;
  std::vector<Skin> skins_;            // every skin of the file, in file order
  const Skin* default_ = nullptr;
  std::vector<const Skin*> active_;    // in the order given
};

// "\"a\", \"b\" and 3 more": the first `most` names, quoted, for messages.
std::string quoted_list(const std::vector<std::string>& names, std::size_t most);

// The names of the skins of a Spine skeleton, in file order ({} when it has none).
std::vector<std::string> spine_skin_names_of(const detail::Json& root);

}  // namespace rig2d::interop
