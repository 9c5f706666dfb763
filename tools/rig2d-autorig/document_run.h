// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig hero.psd|.psb|.ora: one multi-part (v2) rig from a layered document, its part images
// packed into an atlas (or one PNG per layer with --layers-out), with the build plumbing of layouts:
// stamp, restat, --check, --dry-run, --depfile, --list-inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "rig2d/autorig/autorig_document.h"

namespace rig2d::cli {

struct DocumentRun {
  std::string document;
  std::optional<std::string> output;   // -o (default: beside the document, <stem>.rig2d.json)
  std::optional<std::string> bones;
  std::optional<std::string> depfile;
  bool list_inputs = false, check = false, dry_run = false, force = false;
  bool list_null = false;  // --null
  std::string options_key;             // every option that shapes the rig or its textures
  GroupMode groups = GroupMode::Parts;
  std::optional<std::string> layers_out;
  AtlasOptions atlas;
  std::uint64_t memory_budget = 2048ull << 20;
  std::optional<std::string> template_file;  // --template FILE: an input like the document
};

// Returns the exit code (kOk, kFindings for --check drift, kUsage, kBadInput, kWriteFailed, kInternal).
int run_document(const DocumentRun& run, const AutorigOptions& options);

}  // namespace rig2d::cli
