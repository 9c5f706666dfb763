// SPDX-License-Identifier: Apache-2.0
// The journal of a multi-file write. write_files_atomic renames its files one at a time; before the
// first rename it writes ".NAME.journal.PID.N" beside the first target (NAME its file name), naming
// every target with its temp file, its undo link and its new content's SHA-256, and it removes the
// journal after the last rename. A writer killed between two renames leaves its journal behind, with
// some targets new and others old: the next run that writes into that folder settles the set.
#pragma once

#include <string>
#include <vector>

#include "rig2d/export.h"

namespace rig2d {

struct WriteRecovery {
  enum class Outcome {
    Completed,   // every file of the set now has its new content (the temps still waiting were renamed)
    RolledBack,  // every file of the set has its old content again (or, if it was new, is gone)
    Stuck,       // neither was possible (a temp and an undo link are both missing): files left as found
  };
  std::string journal;             // the journal's path
  Outcome outcome = Outcome::Stuck;
  std::vector<std::string> files;  // the set's targets, in the order they were written
  std::string detail;              // Stuck: which files are new and which could not be settled
};

// Settles the journals that writers no longer running left in the folders of `outputs`: completes a
// set when every file not yet renamed still has its temp file, else rolls it back when every file
// already renamed still has its undo link (or did not exist before), else reports it as stuck. The
// journal is removed in every case, and so are the temps and undo links of a set completed or rolled
// back. A live writer's journal is never touched. Sorted by journal path; none when nothing was left.
RIG2D_EXPORT std::vector<WriteRecovery> recover_interrupted_writes(const std::vector<std::string>& outputs);

}  // namespace rig2d
