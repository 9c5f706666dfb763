// SPDX-License-Identifier: Apache-2.0
// The invalid corpus (tests/data/invalid/validate): one file per finding code, each asserting the exact
// code, JSON pointer and line:col, and no finding beyond the listed ones. The valid corpus
// (tests/data/valid/validate) must come out clean.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "rig2d/io/files.h"
#include "rig2d/validate/validate.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

const std::string kInvalid = std::string(RIG2D_SOURCE_DIR) + "/tests/data/invalid/validate";
const std::string kValid = std::string(RIG2D_SOURCE_DIR) + "/tests/data/valid/validate";

nlohmann::json manifest() {
  std::ifstream in(kInvalid + "/manifest.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

std::vector<std::string> files_under(const std::string& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && classify_path(e.path().string()) != FileKind::Unsupported) {
      out.push_back(e.path().generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Validates every file under an asset root as one batch (duplicate GUIDs are a batch check).
std::map<std::string, FileReport> validate_root(const std::string& root) {
  auto index = AssetIndex::scan(root);
  REQUIRE(index);
  const Validator validator;
  std::vector<FileReport> reports;
  for (const std::string& f : files_under(root)) reports.push_back(validator.validate_file(f, &*index));
  check_duplicate_guids(reports, std::vector<const AssetIndex*>(reports.size(), &*index));
  std::map<std::string, FileReport> by_path;
  for (FileReport& r : reports) by_path[r.path] = std::move(r);
  return by_path;
}

std::string describe(const FileReport& r) {
  std::ostringstream out;
  for (const Diagnostic& d : r.diagnostics) out << "\n  " << format_diagnostic(d);
  return out.str();
}

}  // namespace

TEST_CASE("validate corpus: every case reports its code at its pointer and line:col", "[validate][corpus]") {
  const nlohmann::json m = manifest();
  const auto reports = validate_root(kInvalid + "/" + m["asset_root"].get<std::string>());
  REQUIRE(m["cases"].size() >= 60);
  for (const auto& c : m["cases"]) {
    const std::string file = kInvalid + "/" + c["file"].get<std::string>();
    const std::string code = c["code"];
    INFO("case " << c["file"].get<std::string>());
    const auto it = reports.find(file);
    REQUIRE(it != reports.end());
    const FileReport& r = it->second;
    INFO("findings:" << describe(r));
    std::set<std::string> allowed(c["also"].begin(), c["also"].end());
    allowed.insert(code);
    bool found = false;
    for (const Diagnostic& d : r.diagnostics) {
      CHECK(allowed.count(d.code) == 1);  // one defect per file: nothing unexpected
      CHECK(d.where.file == file);
      if (d.code == code && d.where.json_pointer == c["pointer"].get<std::string>()) {
        found = true;
        CHECK(d.where.line == c["line"].get<int>());
        CHECK(d.where.column == c["column"].get<int>());
      }
    }
    CHECK(found);
  }
}

TEST_CASE("validate corpus: every code has a case and severities match the registry", "[validate][corpus]") {
  const nlohmann::json m = manifest();
  std::set<std::string> covered;
  for (const auto& c : m["cases"]) covered.insert(c["code"].get<std::string>());
  const auto reports = validate_root(kInvalid + "/assets");
  std::map<std::string, Severity> registry;
  for (const CodeInfo& info : validation_codes()) registry[info.code] = info.severity;
  for (const auto& [code, severity] : registry) {
    INFO("code " << code);
    CHECK(covered.count(code) == 1);
  }
  // Every finding of the validate/scene modules uses a registered code with its registered severity.
  for (const auto& [path, r] : reports) {
    for (const Diagnostic& d : r.diagnostics) {
      const auto reg = registry.find(d.code);
      if (reg == registry.end()) continue;  // the rig reader's and the JSON layer's own codes
      INFO(format_diagnostic(d));
      CHECK(reg->second == d.severity);
    }
  }
}

TEST_CASE("validate corpus: the valid corpus is clean", "[validate][corpus]") {
  const auto reports = validate_root(kValid);
  REQUIRE(reports.size() >= 10);
  std::set<FileKind> kinds;
  for (const auto& [path, r] : reports) {
    INFO(path << describe(r));
    CHECK(r.diagnostics.empty());
    CHECK_FALSE(r.unreadable);
    kinds.insert(r.kind);
  }
  CHECK(kinds == std::set<FileKind>{FileKind::Rig, FileKind::Sidecar, FileKind::Scene, FileKind::Prefab});
}

TEST_CASE("validate: strict makes warnings errors", "[validate]") {
  auto index = AssetIndex::scan(kInvalid + "/assets");
  REQUIRE(index);
  const std::string file = kInvalid + "/assets/cases/rig.sprite.empty.rig2d.json";
  const FileReport relaxed = Validator().validate_file(file, &*index);
  REQUIRE(relaxed.diagnostics.size() == 1);
  CHECK(relaxed.diagnostics[0].severity == Severity::Warning);
  ValidateOptions strict;
  strict.strict = true;
  const FileReport r = Validator(strict).validate_file(file, &*index);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].severity == Severity::Error);
}

TEST_CASE("validate: without an asset index references are not resolved", "[validate]") {
  const FileReport r = Validator().validate_file(kInvalid + "/assets/cases/rig.sprite.unresolved.rig2d.json", nullptr);
  CHECK(r.diagnostics.empty());
  const FileReport p = Validator().validate_file(kInvalid + "/assets/cases/rig.sprite.path.rig2d.json", nullptr);
  REQUIRE(p.diagnostics.size() == 1);
  CHECK(p.diagnostics[0].code == "rig.sprite.path");  // shape checks need no index
}

TEST_CASE("validate: unreadable files are reported, not thrown", "[validate]") {
  const FileReport r = Validator().validate_file(kInvalid + "/no-such-file.rig2d.json", nullptr);
  CHECK(r.unreadable);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].code == "io.not_found");
  CHECK(r.kind == FileKind::Rig);
}

TEST_CASE("validate: files are classified like the engine's asset classifier", "[validate]") {
  CHECK(classify_path("a/b/bar.rig2d.json") == FileKind::Rig);
  CHECK(classify_path("bar.png.meta.json") == FileKind::Sidecar);
  CHECK(classify_path("bar.png.meta.local.json") == FileKind::Unsupported);
  CHECK(classify_path("scenes/level1.json") == FileKind::Scene);
  CHECK(classify_path("hero.prefab.json") == FileKind::Prefab);
  CHECK(classify_path("walk.anim.json") == FileKind::Unsupported);
  CHECK(classify_path("x.atlas.json") == FileKind::Unsupported);
  CHECK(classify_path("manifest.json") == FileKind::Unsupported);
  CHECK(classify_path("editor.layout.json") == FileKind::Unsupported);
  CHECK(classify_path("package.json") == FileKind::Unsupported);
  CHECK(classify_path("samples/bar.bones.json") == FileKind::Unsupported);
  CHECK(classify_path("walk.pose.json") == FileKind::Unsupported);
  CHECK(classify_path("samples/bar.scene.json") == FileKind::Scene);
  CHECK(classify_path("bar.png") == FileKind::Unsupported);
  CHECK(classify_path("BAR.RIG2D.JSON") == FileKind::Rig);
}

TEST_CASE("validate: docs/validate.md documents every code", "[validate]") {
  const auto text = read_file(std::string(RIG2D_SOURCE_DIR) + "/docs/validate.md", 1u << 20);
  REQUIRE(text);
  const std::string& doc = *text;
  for (const CodeInfo& info : validation_codes()) {
    INFO(info.code);
    std::string needle = "`";  // built step by step: GCC 12 misreads "`" + std::string(...) here
    needle += info.code;
    needle += '`';
    CHECK(doc.find(needle) != std::string::npos);
  }
}

TEST_CASE("validate: a sidecar's rig2d.template file is read relative to the sidecar, as autorig reads it",
          "[validate][template]") {
  const fs::path dir = fs::temp_directory_path() / ("rig2d_validate_rig2d_key_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "art");
  fs::copy_file(fs::path(RIG2D_SOURCE_DIR) / "templates/humanoid.rig2d-template.json", dir / "hero.rig2d-template.json");
  std::ofstream(dir / "broken.rig2d-template.json") << "{\"version\": 1, \"name\": \"x\", \"bones\": [";
  const std::string sidecar = (dir / "art/a.png.meta.json").string();
  const auto check = [&](const std::string& tmpl) {
    const std::string text = "{\"version\": 2, \"id\": \"720bff86-1b0e-4293-acfc-a4b7661f835c\", \"type\": \"2d\", "
                             "\"rig2d\": {\"template\": \"" + tmpl + "\"}}";
    return Validator().validate_text(text, sidecar, FileKind::Sidecar, nullptr);
  };
  for (const std::string ok : {"../hero.rig2d-template.json", "auto", "none", "fish"}) {
    const FileReport r = check(ok);
    for (const Diagnostic& d : r.diagnostics) CHECK(d.code == "meta.asset.missing");  // no a.png beside it
  }
  for (const std::string bad : {"hero.rig2d-template.json", "../broken.rig2d-template.json"}) {
    const FileReport r = check(bad);
    const auto it = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                                 [](const Diagnostic& d) { return d.code == "meta.rig2d.template"; });
    REQUIRE(it != r.diagnostics.end());
    CHECK(it->severity == Severity::Error);
    CHECK(it->where.json_pointer == "/rig2d/template");
  }
  fs::remove_all(dir);
}
