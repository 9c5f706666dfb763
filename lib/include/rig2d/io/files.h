// SPDX-License-Identifier: Apache-2.0
// File I/O with clear errors. Writes are atomic: the bytes go to a temp file in the target's folder,
// which is flushed, closed and renamed over the target; any failure removes the temp file and leaves
// the old target untouched.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

// Reads a whole file. Errors: io.not_found, io.not_a_file, io.too_large (over max_bytes, checked
// before reading), io.read.
RIG2D_EXPORT Result<std::string> read_file(const std::string& path, std::uint64_t max_bytes);

// Writes `bytes` to `path` atomically. Errors: io.write (with the OS reason).
RIG2D_EXPORT Result<void> write_file_atomic(const std::string& path, std::string_view bytes);

// Deletes the temp files of atomic writes still in progress. Async-signal-safe: call it from a
// SIGINT/SIGTERM handler so an interrupted run leaves no temp files behind (old targets are untouched
// either way, since a target is only ever replaced by rename).
RIG2D_EXPORT void remove_inflight_temp_files() noexcept;

}  // namespace rig2d
