// SPDX-License-Identifier: Apache-2.0
// Private plumbing shared by the validate module's checkers.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ascii.h"
#include "json/json_util.h"
#include "rig2d/rig/rig.h"
#include "rig2d/scene/scene.h"
#include "rig2d/validate/validate.h"

namespace rig2d::detail {

// Findings per file beyond which the rest are summarized (a hostile file must not make a report of
// millions of lines).
inline constexpr std::size_t kMaxFindingsPerFile = 1000;
// Findings of one kind in one mesh (e.g. degenerate triangles) listed individually.
inline constexpr std::size_t kMaxListedPerMesh = 10;

// The bones of a rig a scene references, as the engine's loader reads them (§1.2).
struct RigBones {
  std::string file;
  std::vector<std::string> names;      // "bone"+i for a missing name
  std::vector<std::int64_t> parents;   // as stored; out-of-range = root
};
// Loads the rig owning a GUID through the asset index; nullopt + message when it cannot be read.
using RigLookup = std::function<const RigBones*(const AssetEntry& entry, std::string& why)>;

struct Checker {
  std::string_view text;
  const std::string& path;
  const AssetIndex* assets;
  const ValidateOptions& options;
  FileReport& report;
  std::size_t suppressed = 0;

  // Adds a finding; its line:col is filled in by finish().
  void add(Severity severity, std::string code, std::string message, std::string pointer);
  // Records a GUID the file owns (for the duplicate-GUID batch check).
  void own(const std::string& guid, std::string pointer);
  // Fills line:col of every finding and appends the truncation note.
  void finish();
};

// The same checks from the JSON (any rig) or from the strict reader's model (a rig without errors,
// which saves a second parse of a large file).
void check_rig(const Json& root, Checker& c);
void check_rig(const Rig& rig, Checker& c);
void check_sidecar(const Json& root, Checker& c);
void check_scene(const Scene& scene, Checker& c, const RigLookup& rigs);

// Helpers shared by the checkers.
// The member `key` of an object, or nullptr (also when `obj` is not an object).
const Json* member(const Json& obj, const char* key);
bool is_url(std::string_view s);         // http:, https:, data:, blob: (the engine's pass-through)
bool looks_like_path(std::string_view s);  // has a / or \, or ends in a file extension
std::string quote(std::string_view s);   // "s" with control characters escaped, capped at 80 chars

}  // namespace rig2d::detail
