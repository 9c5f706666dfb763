// SPDX-License-Identifier: Apache-2.0
// Uses the installed library through its public headers only: reads a rig the way the engine does,
// skins it at bind pose, writes it back. With `PNG RIG [engine]`, also rigs the PNG the way
// rig2d-autorig does, from the library's preset of the tool's defaults (or, with "engine", from a
// default-constructed AutorigOptions), and writes the rig's text to RIG.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "rig2d/autorig/autorig.h"
#include "rig2d/autorig/autorig_file.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/skin/skeleton.h"

namespace {

int rig_png(const char* png, const char* rig_path, bool engine_defaults) {
  const rig2d::AutorigOptions options =
      engine_defaults ? rig2d::AutorigOptions{} : rig2d::AutorigOptions::tool_defaults();
  auto made = rig2d::autorig_file({.png_path = png, .rig_path = rig_path}, options);
  if (!made) {
    std::printf("consumer: autorig_file failed: %s\n", rig2d::format_error(made.error()).c_str());
    return 1;
  }
  std::ofstream(rig_path, std::ios::binary) << made->rig_text;
  std::printf("consumer: rigged %s\n", png);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3) return rig_png(argv[1], argv[2], argc > 3 && std::string(argv[3]) == "engine");
  const char* text = R"({"sprite":"s","bones":[{"name":"root","parent":-1,"x":0,"y":0,"rot":0},
    {"name":"arm","parent":0,"x":10,"y":0,"rot":0}],
    "mesh":{"verts":[[0,0],[20,0]],"uvs":[[0,0],[1,0]],"tris":[]},
    "skinIndices":[0,0,0,0,1,9,0,0],"skinWeights":[1,0,0,0,0.1,0.2,0.3,0.3]})";
  auto rig = rig2d::read_rig_normalized(text, "consumer.rig2d.json");
  if (!rig) {
    std::printf("consumer: read failed: %s\n", rig2d::format_error(rig.error()).c_str());
    return 1;
  }
  const rig2d::Part& part = rig->parts.at(0);
  // Spec vector: [0.1,0.2,0.3,0.3] renormalizes through float32 to 0.1111111119389534, and the
  // out-of-range bone index 9 is clamped to 0.
  if (part.skin_weights.at(4) != 0.1111111119389534 || part.skin_indices.at(5) != 0) {
    std::printf("consumer: unexpected normalization\n");
    return 1;
  }
  const rig2d::BindMatrices bind = rig2d::derive_bind_matrices(rig->bones);
  if (bind.inv_bind.at(1).e != -10) {
    std::printf("consumer: unexpected inverse bind\n");
    return 1;
  }
  const rig2d::StrictRig strict = rig2d::read_rig_strict(rig2d::write_rig(*rig), "written.rig2d.json");
  if (!strict.rig || !strict.diagnostics.empty()) {
    std::printf("consumer: the written rig does not read back cleanly\n");
    return 1;
  }
  std::printf("consumer: ok (%zu bones, %zu parts)\n", rig->bones.size(), rig->parts.size());
  return 0;
}
