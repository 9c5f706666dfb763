// SPDX-License-Identifier: Apache-2.0
#include "batch.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "common/cli_common.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/pipeline/autorig_inputs.h"

namespace rig2d::cli {
namespace {

namespace fs = std::filesystem;

bool has_png_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".png";
}

// "a/b.png" -> "a/b" (the engine's "<image path minus .png>" rule; other extensions are kept).
fs::path strip_png(const fs::path& p) { return has_png_extension(p) ? fs::path(p).replace_extension() : p; }

fs::path rig_for(const fs::path& stem) { return fs::path(stem.string() + ".rig2d.json"); }

Outcome run_one(const Job& job, const AutorigOptions& options, const RunFlags& flags) {
  Outcome out;
  if (!flags.force && autorig_output_up_to_date(job.request)) {
    out.status = Status::UpToDate;
    return out;
  }
  // The decode's peak memory comes out of the shared budget first (an unreadable header is left for
  // autorig_file to report).
  MemoryBudget::Lease lease;
  if (flags.budget) {
    if (auto info = read_png_info(job.request.png_path)) {
      auto taken = flags.budget->acquire(png_decode_peak_bytes(*info), job.request.png_path);
      if (!taken) {
        out.error = taken.error();
        out.exit_code = kBadInput;
        return out;
      }
      lease = std::move(*taken);
    }
  }
  auto result = autorig_file(job.request, options);
  if (!result) {
    out.error = result.error();
    out.exit_code = out.error.code == "autorig.verify" ? kInternal : kBadInput;
    return out;
  }
  out.result = std::move(*result);
  if (flags.dry_run) {
    out.status = Status::WouldWrite;
    return out;
  }
  const std::string meta_path = sidecar_path(job.request.png_path);
  std::error_code ec;
  const fs::path parent = fs::path(job.request.rig_path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) {
    out.error = {"io.write", "cannot create folder " + parent.string() + ": " + ec.message(), {job.request.rig_path}};
    out.exit_code = kWriteFailed;
    return out;
  }
  // The sidecar first: a rig must never reference a texture GUID that exists nowhere.
  if (out.result->meta_text) {
    if (auto ok = write_file_atomic(meta_path, *out.result->meta_text); !ok) {
      out.error = ok.error();
      out.exit_code = kWriteFailed;
      return out;
    }
  }
  if (auto ok = write_file_atomic(job.request.rig_path, out.result->rig_text); !ok) {
    out.error = ok.error();
    out.exit_code = kWriteFailed;
    return out;
  }
  out.status = Status::Written;
  return out;
}

}  // namespace

Result<std::vector<Job>> plan_jobs(const std::vector<std::string>& inputs, const std::optional<std::string>& output,
                                   const std::optional<std::string>& bones, bool keep_bones, bool write_meta) {
  std::vector<Job> jobs;
  std::error_code ec;
  const bool single_file = inputs.size() == 1 && fs::is_regular_file(inputs[0], ec);
  for (const std::string& input : inputs) {
    const fs::path in(input);
    if (fs::is_directory(in, ec)) {
      std::vector<fs::path> pngs;
      for (auto it = fs::recursive_directory_iterator(in, fs::directory_options::skip_permission_denied, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && has_png_extension(it->path())) pngs.push_back(it->path());
      }
      if (ec) return make_error("autorig.input", "cannot list folder: " + ec.message(), {input});
      std::sort(pngs.begin(), pngs.end());
      for (const fs::path& png : pngs) {
        const fs::path rel = png.lexically_relative(in);
        Job job;
        job.display = png.generic_string();
        job.request.png_path = png.string();
        job.request.rig_path = rig_for(output ? fs::path(*output) / strip_png(rel) : strip_png(png)).string();
        jobs.push_back(std::move(job));
      }
    } else if (fs::exists(in, ec)) {
      Job job;
      job.display = in.generic_string();
      job.request.png_path = in.string();
      fs::path rig = rig_for(strip_png(in));
      if (output) {
        const bool into_folder = !single_file || fs::is_directory(*output, ec) || output->back() == '/';
        rig = into_folder ? fs::path(*output) / rig.filename() : fs::path(*output);
      }
      job.request.rig_path = rig.string();
      jobs.push_back(std::move(job));
    } else {
      return make_error("autorig.input", "no such file or folder", {input});
    }
  }
  std::map<std::string, std::string> owner;  // normalized rig path -> PNG
  for (Job& job : jobs) {
    job.request.write_meta = write_meta;
    job.request.bones_path = bones;
    job.request.keep_bones = keep_bones;
    const std::string key = fs::absolute(job.request.rig_path, ec).lexically_normal().string();
    if (const auto [it, fresh] = owner.emplace(key, job.display); !fresh) {
      return make_error("autorig.output.duplicate", "both " + it->second + " and " + job.display + " would write it",
                        {job.request.rig_path});
    }
  }
  return jobs;
}

Result<void> check_job_outputs(const std::vector<Job>& jobs) {
  std::vector<std::string> inputs, outputs;
  for (const Job& job : jobs) {
    inputs.push_back(job.request.png_path);
    // A sidecar --write-meta may rewrite is an output; otherwise it is read only.
    (job.request.write_meta ? outputs : inputs).push_back(sidecar_path(job.request.png_path));
    if (job.request.bones_path) inputs.push_back(*job.request.bones_path);
    outputs.push_back(job.request.rig_path);
  }
  return check_output_paths(inputs, outputs);
}

void run_jobs(const std::vector<Job>& jobs, const AutorigOptions& options, const RunFlags& flags,
              const std::function<void(std::size_t, const Outcome&)>& report) {
  std::vector<Outcome> outcomes(jobs.size());
  std::vector<char> done(jobs.size(), 0);
  std::mutex mutex;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  // Each worker takes the next job index; results land in their job's slot, so what is written (and
  // reported) never depends on scheduling.
  auto worker = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      Outcome o;
      try {
        o = run_one(jobs[i], options, flags);
      } catch (const std::exception& e) {
        o.error = {"internal", std::string("internal error: ") + e.what(), {jobs[i].request.png_path}};
        o.exit_code = kInternal;
      }
      std::lock_guard lock(mutex);
      outcomes[i] = std::move(o);
      done[i] = 1;
      cv.notify_one();
    }
  };
  const unsigned n = std::max(1u, std::min<unsigned>(flags.threads, static_cast<unsigned>(jobs.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < n; ++t) pool.emplace_back(worker);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    std::unique_lock lock(mutex);
    cv.wait(lock, [&] { return done[i] != 0; });
    Outcome o = std::move(outcomes[i]);
    lock.unlock();
    report(i, o);
  }
  for (std::thread& t : pool) t.join();
}

}  // namespace rig2d::cli
