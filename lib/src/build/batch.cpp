// SPDX-License-Identifier: Apache-2.0
#include "rig2d/build/batch.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "rig2d/build/build_files.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/slices.h"
#include "rig2d/core/exit_codes.h"
#include "rig2d/build/stamp.h"

namespace rig2d {
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

Outcome failure(Error error, int exit_code) {
  Outcome out;
  out.error = std::move(error);
  out.exit_code = exit_code;
  return out;
}

// What a worker holds of the PNG its last job rigged. A sheet's slices are consecutive jobs of one
// PNG, so a worker reads, hashes, decodes and parses a sheet and its sidecar once rather than once per
// slice (each of those repeated per slice made a sheet's run quadratic in its slice count); it drops
// them as soon as it moves on to another PNG. A stamp still names exactly the bytes its rig was made
// from: every slice is rigged from the bytes read here.
struct WorkerSheet {
  std::string png_path;
  std::optional<InputBytes> inputs;      // nullopt: the PNG or the bones file could not be read
  std::string digest_of, digest;         // the inputs' digest, and the options and template it is for
  std::optional<Image> image;            // the sheet decoded, for its slices
  std::optional<ParsedSidecar> sidecar;  // its sidecar parsed (meta and slices), for its slices
};
thread_local WorkerSheet t_sheet;

// The job's input bytes, read now, or kept from the worker's previous slice of the same sheet.
WorkerSheet& worker_sheet(const Job& job) {
  if (!job.request.slice || t_sheet.png_path != job.request.png_path || !t_sheet.inputs) {
    t_sheet = {};
    t_sheet.png_path = job.request.png_path;
    t_sheet.inputs = read_input_bytes(job.request);
  }
  return t_sheet;
}

// The sidecar this run wrote is what the sheet's next slices are rigged from.
void replace_sidecar(WorkerSheet& sheet, const std::string& text) {
  sheet.inputs->sidecar = text;
  sheet.digest_of.clear();
  sheet.sidecar.reset();
}

const std::string& sheet_digest(WorkerSheet& sheet, const std::string& template_key, const RunFlags& flags) {
  std::string of = flags.options_key + '\n' + flags.version + '\n' + template_key;
  if (sheet.digest_of != of) {
    sheet.inputs->template_key = template_key;
    sheet.digest = input_digest(*sheet.inputs, flags.options_key, flags.version);
    sheet.digest_of = std::move(of);
  }
  return sheet.digest;
}

// The request rigged from the sheet's bytes (a slice also from its decode and parse, when they work:
// else autorig_file decodes or parses again and reports why).
AutorigFileRequest request_from(const Job& job, WorkerSheet& sheet) {
  AutorigFileRequest request = job.request;
  if (!sheet.inputs) return request;
  request.png_bytes = sheet.inputs->png;
  if (sheet.inputs->sidecar) request.sidecar_text = *sheet.inputs->sidecar;
  if (!request.slice) return request;
  if (!sheet.image)
    if (auto image = decode_png(sheet.inputs->png, request.png_path)) sheet.image = std::move(*image);
  if (sheet.inputs->sidecar && !sheet.sidecar) {
    const std::string meta_path = sidecar_path(request.png_path);
    auto meta = parse_sprite_meta(*sheet.inputs->sidecar, meta_path);
    auto slices = parse_sprite_slices(*sheet.inputs->sidecar, meta_path);
    if (meta && slices) sheet.sidecar = ParsedSidecar{std::move(*meta), std::move(*slices)};
  }
  request.decoded = sheet.image ? &*sheet.image : nullptr;
  request.parsed_sidecar = sheet.sidecar ? &*sheet.sidecar : nullptr;
  return request;
}

Outcome rig_in_memory(const AutorigFileRequest& request, const AutorigOptions& options, MemoryBudget* budget) {
  // The decode's peak memory comes out of the shared budget first (an unreadable header is left for
  // autorig_file to report).
  MemoryBudget::Lease lease;
  if (budget) {
    auto info = request.png_bytes ? png_info(*request.png_bytes, request.png_path) : read_png_info(request.png_path);
    if (info) {
      auto taken = budget->acquire(png_decode_peak_bytes(*info), request.png_path);
      if (!taken) return failure(taken.error(), kBadInput);
      lease = std::move(*taken);
    }
  }
  auto result = autorig_file(request, options);
  if (!result) return failure(result.error(), result.error().code == "autorig.verify" ? kInternal : kBadInput);
  Outcome out;
  out.result = std::move(*result);
  return out;
}

// The job's options with its template choice (flags.templates), and the choice's stamp key.
Result<AutorigOptions> job_options(const Job& job, const AutorigOptions& options, const RunFlags& flags,
                                   std::optional<std::string_view> sidecar_text, std::string& key,
                                   std::string& reason) {
  AutorigOptions o = options;
  if (!flags.templates) return o;
  auto choice = choose_template(job.request.png_path, sidecar_text, *flags.templates);
  if (!choice) return Unexpected{choice.error()};
  apply_template_spec(choice->spec, o);
  key = choice->spec.stamp_key();
  if (choice->from != TemplateChoice::From::Option) reason = choice->reason();
  return o;
}

// -v's note says where a per-sprite choice came from.
void note_reason(Outcome& out, const std::string& reason) {
  if (!out.result || reason.empty()) return;
  std::string& note = out.result->stats.template_note;
  note = (note.empty() ? std::string("no template") : note) + "; chosen by " + reason;
}

// --check: the outputs a run would change, found by regenerating them (stamps are not trusted here:
// this is the drift check CI runs on a fresh checkout).
Outcome check_one(const Job& job, const AutorigOptions& base, const RunFlags& flags) {
  // Rigged from bytes read once, as a run does, so a sheet's slices share one decode and one parse.
  const AutorigFileRequest request = request_from(job, worker_sheet(job));
  std::string key, reason;
  auto options = job_options(job, base, flags, std::nullopt, key, reason);
  if (!options) return failure(options.error(), kBadInput);
  Outcome out = rig_in_memory(request, *options, flags.budget);
  note_reason(out, reason);
  if (!out.result) return out;
  std::error_code ec;
  if (out.result->meta_text) {
    const std::string meta = sidecar_path(job.request.png_path);
    out.changes.push_back((fs::exists(meta, ec) ? "stale " : "missing ") + meta);
  }
  if (!file_has_bytes(job.request.rig_path, out.result->rig_text)) {
    out.changes.push_back((fs::exists(job.request.rig_path, ec) ? "stale " : "missing ") + job.request.rig_path);
  }
  out.status = out.changes.empty() ? Status::UpToDate : Status::WouldWrite;
  return out;
}

Result<bool> write_outputs(const Job& job, const AutorigFileResult& result, const std::optional<std::string>& digest) {
  std::error_code ec;
  const fs::path parent = fs::path(job.request.rig_path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) {
    return make_error("io.write", "cannot create folder " + parent.string() + ": " + ec.message(),
                      {job.request.rig_path});
  }
  bool wrote = false;
  // The sidecar first: a rig must never reference a texture GUID that exists nowhere.
  if (result.meta_text) {
    auto meta = write_if_changed(sidecar_path(job.request.png_path), *result.meta_text);
    if (!meta) return Unexpected{meta.error()};
    wrote = *meta;
  }
  auto rig = write_if_changed(job.request.rig_path, result.rig_text);
  if (!rig) return Unexpected{rig.error()};
  wrote = wrote || *rig;
  // The stamp last: an interrupted run leaves the old stamp, which no longer matches, so the next
  // run re-rigs. No digest (an input vanished mid-run): no stamp, the next run re-rigs.
  if (digest) {
    std::optional<bool> sheet;  // a whole image's sheet guess, for the next --slice-sheets
    if (!job.request.slice)
      sheet = std::any_of(result.warnings.begin(), result.warnings.end(),
                          [](const Diagnostic& d) { return d.code == "autorig.sheet"; });
    auto stamp = write_if_changed(stamp_path(job.request.rig_path), stamp_text(*digest, result.rig_text, sheet),
                                  kStampWrite);
    if (!stamp) return Unexpected{stamp.error()};
  } else {
    fs::remove(stamp_path(job.request.rig_path), ec);
  }
  return wrote;
}

Outcome run_one(const Job& job, const AutorigOptions& base, const RunFlags& flags) {
  if (flags.check) return check_one(job, base, flags);
  // The bytes are read once, before rigging, and rigged from: the stamp names exactly the bytes the
  // rig was made from, and if a file changes mid-run the next run sees the change.
  WorkerSheet& sheet = worker_sheet(job);
  const bool readable = sheet.inputs.has_value();
  std::string reason;
  std::string key;
  std::optional<std::string_view> sidecar_text;
  if (readable && sheet.inputs->sidecar) sidecar_text = *sheet.inputs->sidecar;
  auto chosen = job_options(job, base, flags, readable ? sidecar_text : std::nullopt, key, reason);
  if (!chosen) return failure(chosen.error(), kBadInput);
  const AutorigOptions& options = *chosen;
  std::optional<std::string> digest;
  if (readable) digest = sheet_digest(sheet, key, flags);
  if (!flags.force && digest && stamp_is_current(job.request, *digest)) {
    Outcome out;
    out.status = Status::UpToDate;
    return out;
  }
  Outcome out = rig_in_memory(request_from(job, sheet), options, flags.budget);
  if (!out.result) return out;
  note_reason(out, reason);
  if (flags.dry_run) {
    out.status = Status::WouldWrite;
    return out;
  }
  if (readable && out.result->meta_text) {  // the sidecar this run writes is the one the rig is made from
    replace_sidecar(sheet, *out.result->meta_text);
    digest = sheet_digest(sheet, key, flags);
  }
  auto wrote = write_outputs(job, *out.result, readable ? digest : std::nullopt);
  if (!wrote) return failure(wrote.error(), kWriteFailed);
  out.status = *wrote ? Status::Written : Status::Unchanged;
  return out;
}

fs::path normal_absolute(const fs::path& p) {
  std::error_code ec;
  // A bare file name's folder is empty: that is the current folder, which absolute("") is not.
  return fs::absolute(p.empty() ? fs::path(".") : p, ec).lexically_normal();
}

// The deepest folder holding every path (each given as a file's folder).
fs::path common_ancestor(const std::vector<fs::path>& folders) {
  if (folders.empty()) return {};
  fs::path common = normal_absolute(folders.front());
  for (const fs::path& folder : folders) {
    const fs::path f = normal_absolute(folder);
    fs::path shared;
    for (auto a = common.begin(), b = f.begin(); a != common.end() && b != f.end() && *a == *b; ++a, ++b) shared /= *a;
    common = shared;
  }
  return common;
}

// `png` relative to `base`, or nullopt when it is not inside it.
std::optional<fs::path> relative_inside(const fs::path& png, const fs::path& base) {
  const fs::path rel = normal_absolute(png).lexically_relative(normal_absolute(base));
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  return rel;
}

void add_job(std::vector<Job>& jobs, const fs::path& png, const fs::path& rig) {
  Job job;
  job.display = png.generic_string();
  job.request.png_path = png.string();
  job.request.rig_path = rig.string();
  jobs.push_back(std::move(job));
}

// A count of 1..999999 written in plain digits.
std::optional<unsigned> parse_count(std::string_view digits) {
  if (digits.empty() || digits.size() > 6) return std::nullopt;
  unsigned value = 0;
  for (const char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value == 0) return std::nullopt;
  return value;
}

Result<fs::path> mirrored_rig(const PlanRequest& plan, const fs::path& png, const fs::path& base) {
  const auto rel = relative_inside(png, base);
  if (!rel) {
    return make_error("autorig.base", "not inside " + base.generic_string() + ", the folder -o mirrors (set --base)",
                      {png.string()});
  }
  return rig_for(fs::path(*plan.output) / strip_png(*rel));
}

// A folder input: its PNGs in sorted order; with -o, each rig mirrors its PNG's path under the folder
// (or --base). Errors: autorig.input (the folder cannot be listed), autorig.base.
Result<void> add_folder_jobs(const PlanRequest& plan, const fs::path& folder, std::vector<Job>& jobs) {
  std::error_code ec;
  std::vector<fs::path> pngs;
  for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && has_png_extension(it->path())) pngs.push_back(it->path());
  }
  if (ec) return make_error("autorig.input", "cannot list folder: " + ec.message(), {folder.string()});
  std::sort(pngs.begin(), pngs.end());
  for (const fs::path& png : pngs) {
    fs::path rig = rig_for(strip_png(png));
    if (plan.output) {
      auto mirrored = mirrored_rig(plan, png, plan.base ? fs::path(*plan.base) : folder);
      if (!mirrored) return Unexpected{mirrored.error()};
      rig = *mirrored;
    }
    add_job(jobs, png, rig);
  }
  return {};
}

// The deepest folder holding every input (a folder itself, a file its folder): minted sidecar GUIDs
// count PNG paths from it when no assets/ folder is above them.
fs::path inputs_root(const PlanRequest& plan) {
  std::error_code ec;
  std::vector<fs::path> folders;
  for (const std::string& input : plan.inputs)
    folders.push_back(fs::is_directory(input, ec) ? fs::path(input) : fs::path(input).parent_path());
  return common_ancestor(folders);
}

// What every job shares: --write-meta (not for a slice) and the folder its GUIDs are minted from,
// --bones, --keep-bones. Errors: autorig.output.duplicate (two jobs, one rig).
Result<void> set_shared_fields(const PlanRequest& plan, std::vector<Job>& jobs) {
  std::map<std::string, std::string> owner;  // normalized rig path -> PNG
  const std::string mint_root = plan.write_meta ? inputs_root(plan).string() : std::string{};
  for (Job& job : jobs) {
    job.request.write_meta = plan.write_meta && !job.request.slice;  // a slice needs no texture type
    job.request.mint_root = mint_root;
    job.request.bones_path = plan.bones;
    job.request.keep_bones = plan.keep_bones;
    const std::string key = normal_absolute(job.request.rig_path).string();
    if (const auto [it, fresh] = owner.emplace(key, job.display); !fresh) {
      return make_error("autorig.output.duplicate", "both " + it->second + " and " + job.display + " would write it",
                        {job.request.rig_path});
    }
  }
  return {};
}

}  // namespace

std::vector<Diagnostic> sheet_orphans(const std::vector<Job>& jobs) {
  constexpr std::string_view kRig = ".rig2d.json";
  // Each sheet (its PNG and its rig path minus the slice stem) with the slice rigs it makes now.
  std::map<std::pair<std::string, std::string>, std::set<std::string>> sheets;
  for (const Job& job : jobs) {
    if (!job.request.slice || !job.request.rig_path.ends_with(kRig)) continue;
    const std::string no_suffix = job.request.rig_path.substr(0, job.request.rig_path.size() - kRig.size());
    const std::size_t dot = no_suffix.rfind('.');
    if (dot == std::string::npos) continue;
    sheets[{job.request.png_path, no_suffix.substr(0, dot)}].insert(fs::path(job.request.rig_path).filename().string());
  }
  std::vector<Diagnostic> out;
  for (const auto& [sheet, current] : sheets) {
    const auto& [png, base] = sheet;
    const fs::path folder = fs::path(base).parent_path();
    const std::string prefix = fs::path(base).filename().string() + ".";
    const std::string png_stem = strip_png(fs::path(png)).string() + ".";
    std::vector<std::string> found;
    std::error_code ec;
    for (fs::directory_iterator it(folder.empty() ? "." : folder, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!name.starts_with(prefix) || !name.ends_with(kRig) || name.size() <= prefix.size() + kRig.size()) continue;
      const std::string x = name.substr(prefix.size(), name.size() - prefix.size() - kRig.size());
      if (x.find('.') != std::string::npos || current.count(name)) continue;
      std::error_code e2;
      if (fs::exists(png_stem + x + ".png", e2) || !fs::exists(stamp_path(it->path().string()), e2)) continue;
      found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    for (const std::string& rig : found) {
      out.push_back({Severity::Warning, "autorig.slice.orphan",
                     "no slice of " + png + " makes this rig any more (a slice deleted or renamed since): it still "
                     "draws an old slice; remove it (and its .stamp) if nothing uses it",
                     {rig}});
    }
  }
  return out;
}

std::vector<std::string> job_write_leftovers(const std::vector<Job>& jobs) {
  std::set<std::string> folders;
  for (const Job& job : jobs) {
    for (const std::string& out : {job.request.rig_path, sidecar_path(job.request.png_path)})
      folders.insert(fs::path(out).parent_path().string());
  }
  std::set<std::string> found;
  for (const std::string& folder : folders)
    for (std::string& f : find_write_leftovers(folder)) found.insert(std::move(f));
  return {found.begin(), found.end()};
}

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

Result<std::vector<Job>> plan_jobs(const PlanRequest& plan) {
  std::vector<Job> jobs;
  std::error_code ec;
  const bool single_file = plan.inputs.size() == 1 && fs::is_regular_file(plan.inputs[0], ec);
  const bool into_folder = plan.output && (!single_file || fs::is_directory(*plan.output, ec) ||
                                           plan.output->back() == '/');
  std::vector<fs::path> file_folders;
  for (const std::string& input : plan.inputs) {
    if (!fs::is_directory(input, ec) && fs::exists(input, ec)) file_folders.push_back(fs::path(input).parent_path());
  }
  const fs::path files_base = plan.base ? fs::path(*plan.base) : common_ancestor(file_folders);
  for (const std::string& input : plan.inputs) {
    const fs::path in(input);
    if (fs::is_directory(in, ec)) {
      if (auto added = add_folder_jobs(plan, in, jobs); !added) return Unexpected{added.error()};
    } else if (fs::exists(in, ec)) {
      fs::path rig = rig_for(strip_png(in));
      if (into_folder) {
        auto mirrored = mirrored_rig(plan, in, files_base);
        if (!mirrored) return Unexpected{mirrored.error()};
        rig = *mirrored;
      } else if (plan.output) {
        rig = fs::path(*plan.output);
      }
      add_job(jobs, in, rig);
    } else {
      return make_error("autorig.input", "no such file or folder", {input});
    }
  }
  if (auto sliced = expand_slice_jobs(jobs, plan.slice); !sliced) return Unexpected{sliced.error()};
  if (auto shared = set_shared_fields(plan, jobs); !shared) return Unexpected{shared.error()};
  return jobs;
}

Result<void> check_job_outputs(const std::vector<Job>& jobs, const std::optional<std::string>& depfile,
                               const std::vector<std::string>& more_inputs) {
  std::vector<std::string> inputs = more_inputs, outputs;
  for (const Job& job : jobs) {
    inputs.push_back(job.request.png_path);
    // A sidecar --write-meta may rewrite is an output; otherwise it is read only.
    (job.request.write_meta ? outputs : inputs).push_back(sidecar_path(job.request.png_path));
    if (job.request.bones_path) inputs.push_back(*job.request.bones_path);
    outputs.push_back(job.request.rig_path);
    outputs.push_back(stamp_path(job.request.rig_path));
  }
  if (depfile) outputs.push_back(*depfile);
  return check_output_paths(inputs, outputs);
}

std::optional<Shard> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const auto k = parse_count(std::string_view(text).substr(0, slash));
  const auto n = parse_count(std::string_view(text).substr(slash + 1));
  if (!k || !n || *k > *n) return std::nullopt;
  return Shard{*k, *n};
}

std::vector<Job> select_shard(const std::vector<Job>& jobs, Shard shard) {
  std::vector<std::size_t> by_path(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) by_path[i] = i;
  std::stable_sort(by_path.begin(), by_path.end(), [&](std::size_t a, std::size_t b) {
    return jobs[a].display < jobs[b].display;
  });
  std::vector<char> keep(jobs.size(), 0);
  for (std::size_t rank = shard.index - 1; rank < by_path.size(); rank += shard.count) keep[by_path[rank]] = 1;
  std::vector<Job> selected;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (keep[i]) selected.push_back(jobs[i]);
  }
  return selected;
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
  // Workers are threads of this run only, so what a worker keeps of a sheet (WorkerSheet) never
  // outlives the run.
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

}  // namespace rig2d
