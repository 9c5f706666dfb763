// SPDX-License-Identifier: Apache-2.0
#include "common/cli_docs.h"

#include <cstdio>
#include <sstream>
#include <vector>

#include "common/cli_common.h"

namespace rig2d::cli {
namespace {

// One option as the generators see it, read from CLI11's table.
struct OptionDoc {
  std::vector<std::string> shorts, longs;  // "-o", "--output"
  std::string positional;                  // the positional's name, else empty
  std::string type;                        // the value's type name, "" for a flag
  std::vector<std::string> choices;        // a CLI::IsMember check's values
  std::vector<std::string> kinds;          // file kinds: FILE, DIR, PATH, PNG, PSD, ORA, RIG, JSON, CLIP
  std::string description, default_value;
  bool repeatable = false;
};

struct Section {
  std::string title, description;
  std::vector<OptionDoc> options;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

bool is_kind(const std::string& word) {
  for (const char* kind : {"FILE", "DIR", "PATH", "PNG", "PSD", "ORA", "RIG", "JSON", "CLIP"}) {
    if (word == kind) return true;
  }
  return false;
}

// CLI11's full type name is the type, then ":" and each check's description ("TEXT:{grid,outline}",
// "TEXT:DIR" for CLI::ExistingDirectory, "INT:INT in [2 - 6]").
OptionDoc describe(const CLI::Option& opt) {
  OptionDoc d;
  for (const std::string& s : opt.get_snames()) d.shorts.push_back("-" + s);
  for (const std::string& l : opt.get_lnames()) d.longs.push_back("--" + l);
  if (opt.get_positional()) d.positional = opt.get_name(true, false);
  d.description = opt.get_description();
  d.default_value = opt.get_default_str();
  d.repeatable = opt.get_expected_max() > 1;
  const std::vector<std::string> parts = split(opt.get_type_name(), ':');
  if (opt.get_type_size() == 0 || parts.empty()) return d;  // a flag: --help shows no type either
  d.type = parts.front();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (i > 0 && p.size() > 2 && p.front() == '{' && p.back() == '}') d.choices = split(p.substr(1, p.size() - 2), ',');
    for (const std::string& word : split(p, '|')) {
      if (is_kind(word)) d.kinds.push_back(word);
    }
  }
  return d;
}

// The options of `app` in --help's groups: positionals, then each group in order of first use; option
// groups (CLI11 sub-apps without a name) follow as sections of their own. Hidden options (no group) are
// left out.
std::vector<Section> sections(CLI::App& app) {
  std::vector<Section> out;
  auto section = [&out](const std::string& title) -> Section& {
    for (Section& s : out) {
      if (s.title == title) return s;
    }
    out.push_back({title, "", {}});
    return out.back();
  };
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional()) section("Positionals").options.push_back(describe(*opt));
  }
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->get_positional() && !opt->get_group().empty()) section(opt->get_group()).options.push_back(describe(*opt));
  }
  for (CLI::App* group : app.get_subcommands([](CLI::App* a) { return a->get_name().empty(); })) {
    Section& s = section(group->get_group());
    s.description = group->get_description();
    for (const CLI::Option* opt : group->get_options()) {
      if (!opt->get_group().empty()) s.options.push_back(describe(*opt));
    }
  }
  if (!out.empty() && out.front().title == "Positionals") out.front().title = "Arguments";
  return out;
}

std::vector<OptionDoc> all_options(CLI::App& app) {
  std::vector<OptionDoc> all;
  for (const Section& s : sections(app)) all.insert(all.end(), s.options.begin(), s.options.end());
  return all;
}

// ---- man page

// Text for roff: backslashes doubled as \e, and a line that would start with a control character
// ('.' or '\'') made literal.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') out += "\\e";
    else if (c == '\n') out += "\n.br\n";
    else out += c;
    line_start = c == '\n';
  }
  return out;
}

// "--output" as \-\-output (a real hyphen, which a reader can copy into a shell).
std::string roff_name(const std::string& name) {
  std::string out;
  for (const char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

std::string man_option(const OptionDoc& d) {
  std::string head;
  if (!d.positional.empty()) {
    head = "\\fI" + roff(d.positional) + "\\fR" + (d.repeatable ? " ..." : "");
  } else {
    std::vector<std::string> names = d.shorts;
    names.insert(names.end(), d.longs.begin(), d.longs.end());
    for (const std::string& n : names) head += (head.empty() ? "" : ", ") + std::string("\\fB") + roff_name(n) + "\\fR";
    if (!d.type.empty()) head += " \\fI" + roff(d.type) + "\\fR";
  }
  std::string body = roff(d.description);
  if (!d.choices.empty()) {
    std::string values;
    for (const std::string& c : d.choices) values += (values.empty() ? "" : ", ") + c;
    body += " (one of: " + roff(values) + ")";
  }
  if (!d.default_value.empty()) body += " [default: " + roff(d.default_value) + "]";
  return ".TP\n" + head + "\n" + body + "\n";
}

std::string man_synopsis(CLI::App& app) {
  std::string s = ".B " + app.get_name() + "\n[\\fIOPTIONS\\fR]";
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->get_positional()) continue;
    const std::string name = "\\fI" + roff(opt->get_name(true, false)) + "\\fR" +
                             (opt->get_expected_max() > 1 ? " ..." : "");
    s += opt->get_required() ? " " + name : " [" + name + "]";
  }
  return s + "\n";
}

std::string upper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

// ---- completion

// Names of every option, in table order.
std::vector<std::string> option_names(const std::vector<OptionDoc>& options) {
  std::vector<std::string> names;
  for (const OptionDoc& d : options) {
    names.insert(names.end(), d.longs.begin(), d.longs.end());
    names.insert(names.end(), d.shorts.begin(), d.shorts.end());
  }
  return names;
}

std::string join(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

// A file kind's name pattern ("" for any file).
std::string kind_glob(const std::string& kind) {
  if (kind == "PNG") return "*.png";
  if (kind == "PSD") return "*.ps[db]";
  if (kind == "ORA") return "*.ora";
  if (kind == "RIG") return "*.rig2d.json";
  if (kind == "JSON") return "*.json";
  if (kind == "CLIP") return "*.anim.json";
  return "";
}

// The bash words that complete a value of `d`: `compgen -W` over its choices, or the file helper with
// each kind's pattern ("dir" for folders only). Empty when nothing can be offered (a number, a name).
std::string bash_value(const OptionDoc& d, const std::string& fn) {
  if (!d.choices.empty()) return "COMPREPLY=($(compgen -W '" + join(d.choices, " ") + "' -- \"$cur\"))";
  if (d.kinds.empty()) return "COMPREPLY=()";
  std::vector<std::string> globs;
  bool dirs_only = true;
  for (const std::string& k : d.kinds) {
    if (k == "DIR") continue;
    dirs_only = false;
    globs.push_back(kind_glob(k).empty() ? "'*'" : "'" + kind_glob(k) + "'");
  }
  return fn + "_files " + (dirs_only ? std::string("dir") : join(globs, " "));
}

// A zsh _arguments ":label:action" for a value of `d`.
std::string zsh_value(const OptionDoc& d, const std::string& label) {
  if (!d.choices.empty()) return ":" + label + ":(" + join(d.choices, " ") + ")";
  if (d.kinds.empty()) return ":" + label + ": ";
  std::vector<std::string> globs;
  bool dirs_only = true, any_file = false;
  for (const std::string& k : d.kinds) {
    if (k == "DIR") continue;
    dirs_only = false;
    if (kind_glob(k).empty()) any_file = true;
    else globs.push_back(kind_glob(k));
  }
  if (dirs_only) return ":" + label + ":_files -/";
  if (any_file || globs.empty()) return ":" + label + ":_files";
  return ":" + label + ":_files -g \"" + join(globs, " ") + "\"";
}

// The first sentence of an option's help, with the characters _arguments treats specially escaped.
std::string zsh_help(const std::string& text) {
  std::string first = text.substr(0, text.find(". "));
  if (first.size() > 100) first = first.substr(0, 97) + "...";
  std::string out;
  for (const char c : first) {
    if (c == '\'') out += "'\\''";
    else if (c == '[' || c == ']' || c == ':' || c == '\\') out += std::string("\\") + c;
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string function_name(const std::string& tool) {
  std::string name = "_" + tool;
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

}  // namespace

std::string man_page(CLI::App& app, const std::string& summary, const std::string& version) {
  const std::string tool = app.get_name();
  std::string page = ".\\\" Generated by " + tool + " --man-page from its option table; do not edit.\n";
  page += ".TH " + upper(tool) + " 1 \"\" \"rig2d " + version + "\" \"User Commands\"\n";
  page += ".SH NAME\n" + roff_name(tool) + " \\- " + roff(summary) + "\n";
  page += ".SH SYNOPSIS\n" + man_synopsis(app);
  page += ".SH DESCRIPTION\n" + roff(app.get_description()) + "\n";
  for (const Section& s : sections(app)) {
    page += ".SH " + upper(roff(s.title)) + "\n";
    if (!s.description.empty()) page += roff(s.description) + "\n";
    for (const OptionDoc& d : s.options) page += man_option(d);
  }
  page += ".SH EXIT STATUS\n";
  const std::pair<int, const char*> codes[] = {
      {kOk, "Success."},
      {kFindings, "Validation findings, or some inputs of a batch failed (each is reported)."},
      {kUsage, "A bad command line."},
      {kBadInput, "An input is unreadable or malformed; the message names the file and where in it."},
      {kWriteFailed, "An output could not be written; nothing partial is left behind."},
      {kInternal, "An internal error (a bug): please report it."}};
  for (const auto& [code, text] : codes) page += ".TP\n.B " + std::to_string(code) + "\n" + text + "\n";
  page += ".SH SEE ALSO\n";
  std::string see;
  for (const char* other : {"rig2d-autorig", "rig2d-validate", "rig2d-pose", "rig2d-convert"}) {
    if (tool != other) see += (see.empty() ? "" : ",\n") + std::string(".BR ") + roff_name(other) + " (1)";
  }
  page += see + "\n";
  return page;
}

std::string bash_completion(CLI::App& app) {
  const std::string tool = app.get_name();
  const std::string fn = function_name(tool);
  const std::vector<OptionDoc> options = all_options(app);
  std::string s = "# bash completion for " + tool + ", generated by `" + tool +
                  " --completion bash` from its option table.\n";
  // Folders always (to descend into them), then the files whose names match one of the patterns.
  s += fn + "_files() {\n"
        "  local IFS=$'\\n' f g\n"
        "  COMPREPLY=()\n"
        "  compopt -o filenames 2>/dev/null\n"
        "  for f in $(compgen -d -- \"$cur\"); do COMPREPLY+=(\"$f\"); done\n"
        "  [ \"$1\" = dir ] && return\n"
        "  for g in \"$@\"; do\n"
        "    for f in $(compgen -f -X \"!$g\" -- \"$cur\"); do [ -d \"$f\" ] || COMPREPLY+=(\"$f\"); done\n"
        "  done\n"
        "}\n";
  s += fn + "() {\n"
        "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
        "  # --name=value: bash splits at '=', so the option is two words back.\n"
        "  if [ \"$cur\" = = ]; then cur=; elif [ \"$prev\" = = ]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n"
        "  case $prev in\n";
  for (const OptionDoc& d : options) {
    if (!d.positional.empty() || d.type.empty()) continue;
    std::vector<std::string> names = d.shorts;
    names.insert(names.end(), d.longs.begin(), d.longs.end());
    s += "    " + join(names, "|") + ") " + bash_value(d, fn) + "; return ;;\n";
  }
  s += "  esac\n";
  s += "  if [[ $cur == -* ]]; then\n"
       "    COMPREPLY=($(compgen -W '" +
       join(option_names(options), " ") +
       "' -- \"$cur\"))\n"
       "    return\n"
       "  fi\n";
  OptionDoc positional;
  for (const OptionDoc& d : options) {
    if (!d.positional.empty()) positional = d;  // the tools take one positional list at most
  }
  s += "  " + bash_value(positional, fn) + "\n}\n";
  s += "complete -F " + fn + " " + tool + "\n";
  return s;
}

std::string zsh_completion(CLI::App& app) {
  const std::string tool = app.get_name();
  std::string s = "#compdef " + tool + "\n# zsh completion for " + tool + ", generated by `" + tool +
                  " --completion zsh` from its option table.\n";
  s += "_arguments -s -S \\\n";
  for (const OptionDoc& d : all_options(app)) {
    if (!d.positional.empty()) {
      s += "  '" + std::string(d.repeatable ? "*" : "1") + zsh_value(d, d.positional) + "' \\\n";
      continue;
    }
    std::vector<std::string> names = d.shorts;
    names.insert(names.end(), d.longs.begin(), d.longs.end());
    const std::string value = d.type.empty() ? "" : zsh_value(d, d.type);
    const std::string help = "[" + zsh_help(d.description) + "]";
    for (const std::string& n : names) {
      // The other spellings of the same option are excluded once one is given (unless repeatable).
      const std::string exclusion = names.size() > 1 && !d.repeatable ? "(" + join(names, " ") + ")" : "";
      const std::string equals = !d.type.empty() && n.rfind("--", 0) == 0 ? "=" : "";
      s += "  '" + exclusion + (d.repeatable ? "*" : "") + n + equals + help + value + "' \\\n";
    }
  }
  s += "  && return 0\n";
  return s;
}

void add_docs_options(CLI::App& app, const std::string& summary) {
  // Hidden (no group) and not configurable, so --help and the options that shape outputs stay as they were.
  app.add_flag_callback(
         "--man-page",
         [&app, summary] {
           std::fputs(man_page(app, summary, RIG2D_VERSION).c_str(), stdout);
           throw CLI::Success();
         },
         "Print the man page and exit")
      ->group("")
      ->configurable(false);
  app.add_option_function<std::string>(
         "--completion",
         [&app](const std::string& shell) {
           std::fputs((shell == "zsh" ? zsh_completion(app) : bash_completion(app)).c_str(), stdout);
           throw CLI::Success();
         },
         "Print the bash or zsh completion script and exit")
      ->check(CLI::IsMember({"bash", "zsh"}))
      ->group("")
      ->configurable(false);
}

}  // namespace rig2d::cli
