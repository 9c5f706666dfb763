// SPDX-License-Identifier: Apache-2.0
// Settling a multi-file write that was killed between its renames (write_journal.h). The journal is
// written only once every temp file is complete, so a set can always be completed while its waiting
// temps are there; a file counts as renamed when its temp is gone and it holds the new content.
#include "rig2d/io/write_journal.h"

#include <cstdio>
#include <filesystem>
#include <set>
#include <system_error>

#include "io/write_internal.h"
#include "rig2d/core/limits.h"
#include "rig2d/core/sha256.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace io_internal {

// Fields are "LENGTH:BYTES\n", so any byte a path may hold (a newline included) reads back as it was.
namespace {

constexpr std::string_view kJournalHeader = "rig2d write journal 1\n";

void put_field(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
  out += '\n';
}

std::optional<std::string> take_field(std::string_view text, std::size_t& at) {
  const std::size_t colon = text.find(':', at);
  if (colon == std::string_view::npos || colon == at || colon - at > 12) return std::nullopt;
  std::size_t length = 0;
  for (std::size_t i = at; i < colon; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    length = length * 10 + static_cast<std::size_t>(text[i] - '0');
  }
  if (length > text.size() - colon - 1 || colon + 1 + length >= text.size() || text[colon + 1 + length] != '\n')
    return std::nullopt;
  std::string field(text.substr(colon + 1, length));
  at = colon + 2 + length;
  return field;
}

}  // namespace

void (*g_commit_hook)(std::size_t) = nullptr;

std::string journal_text(const std::vector<JournalEntry>& entries) {
  std::string out(kJournalHeader);
  for (const JournalEntry& e : entries) {
    for (std::string_view f : {std::string_view(e.target), std::string_view(e.temp), std::string_view(e.backup),
                               std::string_view(e.sha256), std::string_view(e.existed ? "1" : "0")})
      put_field(out, f);
  }
  return out;
}

std::optional<std::vector<JournalEntry>> parse_journal(std::string_view text) {
  if (text.substr(0, kJournalHeader.size()) != kJournalHeader) return std::nullopt;
  std::vector<JournalEntry> out;
  std::size_t at = kJournalHeader.size();
  while (at < text.size()) {
    JournalEntry e;
    std::string* fields[] = {&e.target, &e.temp, &e.backup, &e.sha256};
    for (std::string* f : fields) {
      auto got = take_field(text, at);
      if (!got) return std::nullopt;
      *f = std::move(*got);
    }
    auto existed = take_field(text, at);
    if (!existed || (*existed != "0" && *existed != "1") || e.target.empty() || e.temp.empty()) return std::nullopt;
    e.existed = *existed == "1";
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace io_internal

namespace {

using io_internal::JournalEntry;

bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(path, ec));
}

// The file's content is the new content the journal records.
bool holds_new_content(const JournalEntry& e) {
  std::error_code ec;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(e.target, ec))) {
    // A link output: its SHA-256 is the link's text.
    return sha256_hex(std::filesystem::read_symlink(e.target, ec).string()) == e.sha256 && !ec;
  }
  auto bytes = read_file(e.target, kMaxPngFileBytes);
  return bytes && sha256_hex(*bytes) == e.sha256;
}

WriteRecovery settle(const std::string& journal, const std::vector<JournalEntry>& entries) {
  WriteRecovery r;
  r.journal = journal;
  std::vector<bool> waiting(entries.size()), renamed(entries.size());
  std::string lost;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    r.files.push_back(entries[i].target);
    waiting[i] = exists(entries[i].temp);
    renamed[i] = !waiting[i] && holds_new_content(entries[i]);
    if (!waiting[i] && !renamed[i]) lost += (lost.empty() ? "" : ", ") + entries[i].target;
  }
  if (lost.empty()) {  // complete: every file is new or has its new content waiting
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (waiting[i]) {
        if (std::rename(entries[i].temp.c_str(), entries[i].target.c_str()) != 0) lost += entries[i].target;
        else waiting[i] = false, renamed[i] = true;
      }
    if (lost.empty()) {
      for (const JournalEntry& e : entries)
        if (!e.backup.empty()) std::remove(e.backup.c_str());
      r.outcome = WriteRecovery::Outcome::Completed;
      return r;
    }
  }
  bool undoable = true;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (renamed[i] && entries[i].existed && !exists(entries[i].backup)) undoable = false;
  if (!undoable) {
    r.detail = "no new content for " + lost + " and no old content for the files already replaced";
    return r;
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const JournalEntry& e = entries[i];
    if (renamed[i] && e.existed) std::rename(e.backup.c_str(), e.target.c_str());
    else if (renamed[i]) std::remove(e.target.c_str());
    if (waiting[i]) std::remove(e.temp.c_str());
    if (!e.backup.empty() && exists(e.backup)) std::remove(e.backup.c_str());
  }
  r.outcome = WriteRecovery::Outcome::RolledBack;
  return r;
}

}  // namespace

std::vector<WriteRecovery> recover_interrupted_writes(const std::vector<std::string>& outputs) {
  std::set<std::string> folders, journals;
  for (const std::string& out : outputs) {
    const std::filesystem::path parent = std::filesystem::path(out).parent_path();
    folders.insert(parent.empty() ? "." : parent.string());
  }
  for (const std::string& folder : folders) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const long pid = io_internal::hidden_sibling_pid(it->path().filename().string(), ".journal.");
      if (pid != 0 && io_internal::process_gone(pid)) journals.insert(it->path().string());
    }
  }
  std::vector<WriteRecovery> out;
  for (const std::string& journal : journals) {
    auto text = read_file(journal, kMaxJsonFileBytes);
    auto entries = text ? io_internal::parse_journal(*text) : std::nullopt;
    if (!entries) {
      WriteRecovery r;
      r.journal = journal;
      r.detail = "the journal cannot be read; its files were left as they are";
      out.push_back(std::move(r));
    } else {
      out.push_back(settle(journal, *entries));
    }
    std::remove(journal.c_str());
  }
  return out;
}

}  // namespace rig2d
