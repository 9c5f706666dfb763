// SPDX-License-Identifier: Apache-2.0
// A tool's man page and its bash and zsh completion, generated from the CLI11 option tables that --help
// prints, so none of them can drift from the tool. The build runs `<tool> --man-page` and
// `<tool> --completion bash|zsh` and installs what they print.
//
// Value kinds for completion come from the tables too: a choice check (CLI::IsMember) completes its
// values, and these type names complete files by kind: FILE (any file), DIR (a folder), PATH (either),
// PNG (*.png), PSD (*.psd, *.psb), ORA (*.ora), RIG (*.rig2d.json), JSON (*.json), CLIP (*.anim.json),
// and alternatives such as PNG|DIR.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace rig2d::cli {

// Adds the hidden --man-page and --completion bash|zsh, which print the page or script and exit 0.
// `summary` is the man page's NAME line (what the tool does, in a few words).
void add_docs_options(CLI::App& app, const std::string& summary);

// The man page (roff, section 1) of `app`: NAME, SYNOPSIS, DESCRIPTION, OPTIONS (by --help's groups,
// with defaults and choices), EXIT STATUS, SEE ALSO.
std::string man_page(CLI::App& app, const std::string& summary, const std::string& version);

// A bash completion script: `complete -F _<tool> <tool>` over option names, choices and file kinds.
std::string bash_completion(CLI::App& app);

// A zsh completion function (#compdef <tool>) with the same content, for a folder on $fpath.
std::string zsh_completion(CLI::App& app);

}  // namespace rig2d::cli
