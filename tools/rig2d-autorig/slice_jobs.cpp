// SPDX-License-Identifier: Apache-2.0
#include "slice_jobs.h"

#include "rig2d/pipeline/autorig_inputs.h"
#include "rig2d/pipeline/slices.h"

namespace rig2d::cli {

Result<void> expand_slice_jobs(std::vector<Job>& jobs, const std::optional<std::string>& only) {
  std::vector<Job> expanded;
  for (Job& job : jobs) {
    const std::string meta = sidecar_path(job.request.png_path);
    auto slices = read_sprite_slices(meta);
    if (!slices || slices->empty()) {
      if (only && slices)
        return make_error("autorig.slice", "--slice " + *only + ": the sidecar lists no \"sprites\" slices", {meta});
      expanded.push_back(std::move(job));
      continue;
    }
    const std::vector<std::string> stems = slice_file_stems(*slices);
    bool found = false;
    for (std::size_t i = 0; i < slices->size(); ++i) {
      if (only && (*slices)[i].name != *only) continue;
      found = true;
      Job one = job;
      one.request.slice = i;
      one.request.rig_path = slice_rig_path(job.request.rig_path, stems[i]);
      one.display = job.display + " [" + (*slices)[i].name + "]";
      expanded.push_back(std::move(one));
    }
    if (only && !found)
      return make_error("autorig.slice", "--slice " + *only + ": no slice of that name in the sidecar", {meta, "/sprites"});
  }
  jobs = std::move(expanded);
  return {};
}

}  // namespace rig2d::cli
