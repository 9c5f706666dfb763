// SPDX-License-Identifier: Apache-2.0
// What files.cpp (the atomic writes) and write_journal.cpp (settling a killed multi-file write)
// share: the hidden file names beside a target and the journal's text. Private to the library.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rig2d::io_internal {

// ".NAME" + kind + "PID.N" beside `target` (kind ".tmp.", ".old." or ".journal."), N counting up.
std::string hidden_sibling(const std::filesystem::path& target, const char* kind);

// The PID in a hidden sibling's file name of that kind, 0 when `file` is not one.
long hidden_sibling_pid(const std::string& file, std::string_view kind);

// No process has that id (a writer killed outright).
bool process_gone(long pid);

// One file of a multi-file write, as its journal records it. Paths are absolute.
struct JournalEntry {
  std::string target;  // the file the rename replaces
  std::string temp;    // its new content, until renamed
  std::string backup;  // a hard link to the old target ("" when there was none)
  std::string sha256;  // of the new content
  bool existed = false;
};

std::string journal_text(const std::vector<JournalEntry>& entries);
std::optional<std::vector<JournalEntry>> parse_journal(std::string_view text);

// Fault injection for tests: when set, called after each rename of a journaled commit with the number
// of files renamed so far (a test's hook may _exit the process there, as a kill -9 would).
extern void (*g_commit_hook)(std::size_t renamed);

}  // namespace rig2d::io_internal
