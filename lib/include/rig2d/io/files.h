// SPDX-License-Identifier: Apache-2.0
// File I/O with clear errors. Writes are atomic: the bytes go to a temp file in the target's folder,
// which is flushed, closed and renamed over the target; any failure removes the temp file and leaves
// the old target untouched.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>
#include <string_view>

#include "rig2d/core/result.h"
#include "rig2d/export.h"

namespace rig2d {

// Reads a whole file. Errors: io.not_found, io.not_a_file, io.too_large (over max_bytes, checked
// before reading), io.read.
RIG2D_EXPORT Result<std::string> read_file(const std::string& path, std::uint64_t max_bytes);

struct WriteOptions {
  // Replace an existing file that has no write permission bit (chmod a-w). Off: such a file is
  // refused with io.output.read_only, as `cp` would refuse it.
  bool replace_read_only = false;
  // Follow a symlink at the path and replace what it points to (the link stays). Off: the link itself
  // is replaced by the new file and its target is never touched (build stamps: a link planted in the
  // output folder must not redirect a write outside it).
  bool follow_symlinks = true;
};

// Writes `bytes` to `path` atomically. A rewrite keeps what the file was: its mode bits (and its
// owner and group where the process may set them), and a symlink stays a link while its target is
// replaced. A new file gets 0666 minus the umask. A character device or FIFO (`-o /dev/null`, a pipe)
// is written directly, never renamed over (a rename would replace the device by a regular file); a
// block device or socket is refused. Errors: io.write (with the OS reason; a folder; a FIFO without a
// reader), io.output.read_only (see WriteOptions), io.output.not_a_file.
RIG2D_EXPORT Result<void> write_file_atomic(const std::string& path, std::string_view bytes,
                                            const WriteOptions& options = {});

struct OutputFile {
  std::string path;
  std::string bytes;
  // Not empty: the output is a symbolic link holding this text (`bytes` unused). A file or link at the
  // path is replaced by the link, never followed.
  std::string symlink = {};
  // A symlink at the path is replaced by the new file instead of written through (follow_symlinks off
  // for this file alone): a copy placed where a link stood must not overwrite what the link named.
  bool replace_link = false;
};

// Writes several files all or nothing: every one goes to a temp file first, and the temps are
// renamed over their targets only when all were written. If a rename still fails, the targets
// already replaced get their old content back, so on any failure every file that existed before is
// unchanged and no new file is left. Device and FIFO outputs are written directly, before any rename. Same errors as write_file_atomic, for the first file that failed.
RIG2D_EXPORT Result<void> write_files_atomic(std::span<const OutputFile> files, const WriteOptions& options = {});

// Creates the missing parent folders of each output path, so "-o frames/walk.png" works without
// frames/. Errors: io.write (with the folder that could not be made).
RIG2D_EXPORT Result<void> create_parent_dirs(const std::vector<std::string>& outputs);

// Deletes the temp files of atomic writes still in progress and ends the process's writing: atomic
// writes that have not created their temp yet fail with io.write and leave nothing. For an interrupted
// run (old targets are untouched either way: a target is only ever replaced by rename). It takes a
// lock, so it is not async-signal-safe: call it from a thread that waits for the signal (sigwait).
RIG2D_EXPORT void remove_inflight_temp_files() noexcept;

// What a writer killed outright (kill -9, a lost machine) leaves in `folder`: the hidden temp files
// ".NAME.tmp.PID.N" of writes it had not renamed yet and the hard links ".NAME.old.PID.N" it kept to
// undo a multi-file write, whose process PID is no longer running. A live writer's files are never
// listed. Sorted; none when the folder cannot be read.
RIG2D_EXPORT std::vector<std::string> find_write_leftovers(const std::string& folder);

}  // namespace rig2d
