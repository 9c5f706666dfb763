// SPDX-License-Identifier: Apache-2.0
// GUIDs as the engine uses them (ENGINE-SPEC §1.5).
#pragma once

#include <string>
#include <string_view>

#include "rig2d/export.h"

namespace rig2d {

// 8-4-4-4-12 hex digits, case-insensitive, no trimming; version/variant nibbles are not checked.
RIG2D_EXPORT bool is_guid(std::string_view s);

// The engine's deriveGuid(seed): four FNV-1a 32-bit hashes over the UTF-16 code units of
// "n:" + seed (n = 0..3), as lowercase hex in 8-4-4-4-12 form. The whole-image sprite of a texture is
// derive_guid("sprite:" + texture_guid). `seed` is UTF-8; invalid UTF-8 bytes hash as U+FFFD.
RIG2D_EXPORT std::string derive_guid(std::string_view seed);

// RFC 4122 name-based UUID, version 5 (SHA-1), lowercase. `namespace_guid` must be a GUID.
RIG2D_EXPORT std::string uuid_v5(std::string_view namespace_guid, std::string_view name);

// The namespace rig2d derives rig ids in: uuid_v5(kRigIdNamespace, sprite_guid).
inline constexpr std::string_view kRigIdNamespace = "5d0c7a8e-2f4b-5b7e-9a31-6c2d1e0f4a9b";

}  // namespace rig2d
