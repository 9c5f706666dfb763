// SPDX-License-Identifier: Apache-2.0
// The output-safety rule every rig2d tool follows: before anything is written, each output path is
// compared with every file the run reads and with every other output of the run, and a clash is
// refused. Two paths name the same file when they resolve to the same device and inode (symlinks and
// hard links included), or, for a path that does not exist yet, to the same canonical path.
#pragma once

#include <span>
#include <string>

#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

// Refuses the run's outputs when one of them is one of `inputs` (io.output.is_input) or the same file
// as an earlier output (io.output.collision). The error names the output in where.file and the other
// path in the message. A file that is deliberately rewritten in place (validate --fix, autorig
// --write-meta) is an output only, not an input. Reads file metadata only; never creates a file.
RIG2D_EXPORT Result<void> check_output_paths(std::span<const std::string> inputs,
                                             std::span<const std::string> outputs);

// The file a write to `path` lands in: a symlink (chain) is followed to its target, so a rewrite
// keeps the link and updates what it points to. A path that is not a symlink is returned as is.
// Errors: io.write (a symlink loop or a chain over 40 links).
RIG2D_EXPORT Result<std::string> resolve_write_target(const std::string& path);

}  // namespace rig2d
