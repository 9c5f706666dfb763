#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The man pages and shell completions of the tools against the tools themselves.
# Usage: tool_docs_check.sh TOOL_DIR... -- MAN_DIR BASH_DIR ZSH_DIR
#   TOOL_DIR: folders holding rig2d-* executables (the build tree's tools/<tool>/ or /usr/bin);
#   MAN_DIR holds <tool>.1.gz, BASH_DIR <tool>, ZSH_DIR _<tool> (the build's tool-docs/ or an install).
# For every tool: `man -l` renders its page without warnings, with NAME, SYNOPSIS and every long option
# --help lists; the bash script loads (`complete -p` names its function) and offers every long option,
# each choice of --color, and files by kind; zsh (when installed) loads the function through compinit.
set -euo pipefail

tool_dirs=()
while [ "$1" != "--" ]; do tool_dirs+=("$1"); shift; done
shift
man_dir=$(realpath "$1") bash_dir=$(realpath "$2") zsh_dir=$(realpath "$3")
fail() { echo "FAIL: $*" >&2; exit 1; }

find_tool() {
  local d
  for d in "${tool_dirs[@]}"; do [ -x "$d/$1" ] && { realpath "$d/$1"; return; }; done
  fail "no $1 in ${tool_dirs[*]}"
}

# The long options --help lists (lines that start with options, after the usage line).
help_options() { "$1" --help | grep -oE '^ +(-[a-zA-Z],)?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+' | sort -u; }

# complete_words TOOL WORD...: what the bash completion offers for the last word.
complete_words() {
  local tool=$1
  shift
  bash -c '
    source "$1"; shift
    fn=$(complete -p "$1" | grep -oE -- "-F [^ ]+" | cut -d" " -f2)
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    "$fn"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$bash_dir/$tool" "$tool" "$@"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/art/sub"
touch "$work/art/a.png" "$work/art/b.json" "$work/art/c.rig2d.json" "$work/art/d.txt" "$work/art/e.psd"

for tool in rig2d-autorig rig2d-validate rig2d-pose rig2d-convert; do
  exe=$(find_tool "$tool")
  options=$(help_options "$exe")
  [ -n "$options" ] || fail "$tool --help lists no options"

  # Man page: renders cleanly (groff warnings are errors here) and documents every option.
  page="$man_dir/$tool.1.gz"
  [ -f "$page" ] || fail "no man page $page"
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings -l "$page" 2>&1 >/dev/null || true)
  [ -z "$warnings" ] || fail "man -l $page warns: $warnings"
  text=$(LC_ALL=C.UTF-8 MANWIDTH=100 MAN_KEEP_FORMATTING=0 man -l "$page" 2>/dev/null | col -b)
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" "SEE ALSO"; do
    grep -q "^$section" <<<"$text" || fail "$tool.1 has no $section section"
  done
  for opt in $options; do
    grep -qe "$opt" <<<"$text" || fail "$tool.1 does not document $opt"
  done

  # bash: loads, registers, offers every option and --color's choices.
  [ -f "$bash_dir/$tool" ] || fail "no bash completion $bash_dir/$tool"
  registered=$(bash -c 'source "$1"; complete -p "$2"' _ "$bash_dir/$tool" "$tool") ||
    fail "sourcing $bash_dir/$tool registers no completion for $tool"
  grep -q -- "-F _" <<<"$registered" || fail "unexpected registration: $registered"
  offered=$(complete_words "$tool" --)
  for opt in $options; do
    grep -qx -- "$opt" <<<"$offered" || fail "bash completion of $tool does not offer $opt"
  done
  # Every option with a choice check (--help shows "--mesh TEXT:{outline,grid}") completes exactly its choices.
  while read -r opt choices; do
    want=$(tr ',' '\n' <<<"$choices" | sort | tr '\n' ' ')
    got=$(complete_words "$tool" "$opt" "" | sort | tr '\n' ' ')
    [ "$got" = "$want" ] || fail "bash completion of $tool $opt offers '$got', not '$want'"
  done < <("$exe" --help | grep -oE -- '--[a-z0-9-]+ [A-Z|]+:\{[^}]*\}' | sed -E 's/ [A-Z|]+:\{(.*)\}/ \1/')

  # zsh: the function file parses and compinit binds it to the command.
  if command -v zsh >/dev/null; then
    bound=$(cd "$work" && HOME=$work zsh -fc "fpath=('$zsh_dir' \$fpath); autoload -Uz compinit;
      compinit -u -d '$work/zcompdump'; print -r -- \${_comps[$tool]}")
    [ "$bound" = "_$tool" ] || fail "zsh compinit binds $tool to '$bound', not _$tool"
  fi
done

# Values by kind: --mesh's choices; --bones a .json (or a folder), positionals PNGs (or folders).
cd "$work/art"
[ "$(complete_words rig2d-autorig --mesh "" | sort | tr '\n' ' ')" = "grid outline " ] || fail "--mesh values"
[ "$(complete_words rig2d-autorig --mesh = o | tr '\n' ' ')" = "outline " ] || fail "--mesh=o"
[ "$(complete_words rig2d-autorig --mes | tr '\n' ' ')" = "--mesh " ] || fail "--mes does not complete to --mesh"
[ "$(complete_words rig2d-autorig --bones "" | sort | tr '\n' ' ')" = "b.json c.rig2d.json sub " ] || fail "--bones files"
[ "$(complete_words rig2d-autorig "" | sort | tr '\n' ' ')" = "a.png e.psd sub " ] || fail "autorig inputs"
[ "$(complete_words rig2d-pose "" | sort | tr '\n' ' ')" = "c.rig2d.json sub " ] || fail "pose rigs"
[ "$(complete_words rig2d-autorig --base "" | tr '\n' ' ')" = "sub " ] || fail "--base offers folders only"
echo "tool docs: ok"
