// SPDX-License-Identifier: Apache-2.0
// Pieces shared by the rig readers and the writer (private to the library, exported for tests).
#pragma once

#include <string_view>

#include "json/json_util.h"
#include "rig/rig_doc.h"
#include "rig2d/core/result.h"
#include "rig2d/rig/rig.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d::detail {

// The JSON value write_rig prints: keys in the engine writer's order, NaN/infinities as null and -0 as 0,
// so it is exactly what JSON.parse would give back for the written text.
Json rig_to_json(const Rig& rig);

// normalizeRig2D over an already parsed value (any JSON, including non-objects).
Rig normalize_json(const Json& root);

// parse_json plus the size limit, and one relaxation the engine's JSON.parse has: a number too large
// for a double (1e999) parses as +-infinity instead of failing.
Result<Json> parse_rig_json(std::string_view text, const std::string& path);

// The two readers after their shared parse, for a caller that parses once and reads twice: exactly
// read_rig_normalized and read_rig_strict given the value parse_rig_json(text) returned. The strict
// reader reads `text` again only to place its diagnostics. Internal: not exported.
Result<Rig> read_rig_normalized_parsed(const Json& root, const std::string& path);
StrictRig read_rig_strict_parsed(const Json& root, std::string_view text, const std::string& path,
                                 const StrictOptions& options = {});
// The same readers over a RigDoc (rig/rig_doc.h), the value rig_to_json would build: `text` must be
// what that value prints (write_rig of the same rig).
// WeightValues::count_only leaves the weights 0 (as many as the engine's): for a caller that compares
// them only by count, as the checked write does.
enum class WeightValues { read, count_only };
Result<Rig> read_rig_normalized_parsed(const DocValue& root, const std::string& path,
                                       WeightValues weights = WeightValues::read);
StrictRig read_rig_strict_parsed(const DocValue& root, std::string_view text, const std::string& path,
                                 const StrictOptions& options = {});

}  // namespace rig2d::detail
