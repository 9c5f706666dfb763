// SPDX-License-Identifier: Apache-2.0
// rig2d-convert hero.psd|.psb|.ora -o hero.layout.json: the document's parts as a layout file and one
// PNG (with its sidecar) per part, for hand edits before `rig2d-autorig --layout`.
#include <cstdio>

#include "convert_run.h"
#include "rig2d/layered/document.h"
#include "rig2d/autorig/autorig_document.h"

namespace rig2d::convert {

int Run::run_layered() {
  if (o.output.size() < 12 || o.output.compare(o.output.size() - 12, 12, ".layout.json") != 0)
    return usage("a layered document converts to a layout file: -o NAME.layout.json (to rig it directly: "
                 "rig2d-autorig " + o.input + ")",
                 "convert.output.kind");
  const GroupMode groups = o.groups == "flatten" ? GroupMode::Flatten : GroupMode::Parts;
  auto res = document_to_layout(o.input, o.output, groups);
  if (!res) return fail_input(res.error());
  for (const Diagnostic& d : res->warnings) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  std::vector<std::string> outputs;
  for (const OutputFile& f : res->files) outputs.push_back(f.path);
  const int code = cli::write_checked_outputs({o.input}, outputs, res->files);
  if (code == kOk)
    std::fprintf(stderr, "rig2d-convert: wrote %s and %zu layer images\n", printable(o.output).c_str(),
                 (outputs.size() - 1) / 2);
  return code;
}

}  // namespace rig2d::convert
