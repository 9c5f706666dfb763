// SPDX-License-Identifier: Apache-2.0
// rig2d-autorig --layout: one multi-part (v2) rig from a layout file or a folder of layers, with the
// same build plumbing as sprites: stamp, restat, --check, --dry-run, --depfile, --list-inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "rig2d/autorig/autorig.h"

namespace rig2d::cli {

struct LayoutRun {
  std::string layout;                  // --layout FILE|DIR
  std::optional<std::string> output;   // -o (default: beside the layout, see layout_rig_path)
  std::optional<std::string> bones;    // --bones FILE
  std::optional<std::string> depfile;
  bool list_inputs = false, check = false, dry_run = false, force = false;
  std::string options_key;             // every option that shapes the rig, for the digest
  std::optional<std::string> template_file;  // --template FILE: an input like the layout
  std::uint64_t memory_budget = 2048ull << 20;  // --memory-budget, bytes
  bool list_null = false;              // --null
};

// Runs it; returns the exit code (kOk, kFindings for --check drift, kUsage, kBadInput, kWriteFailed,
// kInternal for autorig.verify).
int run_layout(const LayoutRun& run, const AutorigOptions& options);

}  // namespace rig2d::cli
