// SPDX-License-Identifier: Apache-2.0
// The review page as data: script-safe JSON, the per-rig data the viewer skins (checked against
// skin_rig's inputs), textures embedded once, broken rigs listed, same bytes for the same inputs.
// The page's behaviour in a browser is tested in tests/browser/.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "preview/review_data.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/preview/review_page.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kPoseAssets = std::string(RIG2D_SOURCE_DIR) + "/tests/data/pose/assets";

// The text of <script type="application/json" id="ID">...</script>.
std::string script_text(const std::string& html, const std::string& id) {
  const std::string open = "<script type=\"application/json\" id=\"" + id + "\">";
  const std::size_t at = html.find(open);
  if (at == std::string::npos) return {};
  const std::size_t start = at + open.size();
  return html.substr(start, html.find("</script>", start) - start);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("rig2d-review-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("review page: script-safe JSON cannot close its element and parses to the same value", "[preview]") {
  const json value = {
      {"name", "</script><script>alert(1)</script> & <!-- \xE2\x80\xA8 \xE2\x80\xA9 \"q\" \n \xC3\xBC"}};
  const std::string safe = script_safe_json(value.dump());
  CHECK(safe.find('<') == std::string::npos);
  CHECK(safe.find('>') == std::string::npos);
  CHECK(safe.find('&') == std::string::npos);
  CHECK(safe.find("\xE2\x80\xA8") == std::string::npos);
  CHECK(safe.find("\\u003c/script\\u003e") != std::string::npos);
  CHECK(json::parse(safe) == value);
}

TEST_CASE("review page: base64 and relative URLs", "[preview]") {
  CHECK(base64("") == "");
  CHECK(base64("f") == "Zg==");
  CHECK(base64("fo") == "Zm8=");
  CHECK(base64("foo") == "Zm9v");
  CHECK(base64("foobar") == "Zm9vYmFy");
  CHECK(base64(std::string("\xFF\x00\x80", 3)) == "/wCA");
  CHECK(url_path("../tex/a b#1?.png") == "../tex/a%20b%231%3F.png");
  CHECK(url_path("\xC3\xBC.png") == "%C3%BC.png");
}

TEST_CASE("review page: each rig's data is what skin_rig skins, textures once, broken rigs listed", "[preview]") {
  const fs::path dir = scratch("data");
  const std::string bar = kPoseAssets + "/rigs/bar.rig2d.json";
  const std::string atlas = kPoseAssets + "/rigs/atlas.rig2d.json";
  const std::string broken = (dir / "broken<b>.rig2d.json").string();
  std::ofstream(broken) << "{\"bones\": [";
  const std::vector<std::string> paths{bar, atlas, broken, bar + ".missing"};
  ReviewPageOptions o;
  o.clip_path = kPoseAssets + "/anims/wave.anim.json";
  auto page = review_page(paths, o);
  REQUIRE(page);
  CHECK(page->rigs == 4);
  CHECK(page->failed == 2);
  CHECK(page->texture_bytes ==
        fs::file_size(kPoseAssets + "/textures/bar.png") + fs::file_size(kPoseAssets + "/textures/atlas.png"));
  const std::string& html = page->html;
  // One </script> per script element: nothing a rig says can end one early.
  CHECK(count(html, "</script>") == count(html, "<script"));
  CHECK(count(html, "<script") == 4 + paths.size() + 2);

  const json index = json::parse(script_text(html, "rig2d-index"));
  REQUIRE(index.size() == 4);
  CHECK(index[0]["error"].is_null());
  CHECK(index[2]["name"] == "broken<b>.rig2d.json");
  CHECK(index[2]["error"].get<std::string>().find("json.") != std::string::npos);
  CHECK(index[3]["error"].get<std::string>().find("io.") != std::string::npos);

  // Bar: the normalized rig's numbers, its UVs framed, its texture embedded.
  const json rig = json::parse(script_text(html, "rig2d-rig-0"));
  auto text = read_file(bar, kMaxJsonFileBytes);
  REQUIRE(text);
  auto model = read_rig_normalized(*text, bar);
  REQUIRE(model);
  REQUIRE(rig["bones"].size() == model->bones.size());
  CHECK(rig["bones"][1]["name"] == "mid");
  CHECK(rig["bones"][1]["y"].get<double>() == model->bones[1].y);
  const Part& part = model->parts[0];
  REQUIRE(rig["parts"][0]["verts"].size() == 2 * part.mesh.verts.size());
  // Float32-stored numbers are written with the fewest digits that give the same float back.
  for (std::size_t v = 0; v < part.mesh.verts.size(); ++v) {
    CHECK(static_cast<float>(rig["parts"][0]["verts"][2 * v].get<double>()) == part.mesh.verts[v].x);
    CHECK(static_cast<float>(rig["parts"][0]["verts"][2 * v + 1].get<double>()) == part.mesh.verts[v].y);
  }
  CHECK(rig["parts"][0]["idx"].get<std::vector<std::uint32_t>>() == part.skin_indices);
  const auto weights = rig["parts"][0]["w"].get<std::vector<double>>();
  REQUIRE(weights.size() == part.skin_weights.size());
  for (std::size_t k = 0; k < weights.size(); ++k) CHECK(static_cast<float>(weights[k]) == part.skin_weights[k]);
  CHECK(rig["parts"][0]["tex"] == 0);
  CHECK(script_text(html, "rig2d-tex-0").rfind("\"data:image/png;base64,iVBORw0KGgo", 0) == 0);
  // The wave clip binds two of its three tracks to bar's bones, with their keys.
  REQUIRE(rig["clip"]["bones"].size() == 2);
  CHECK(rig["clip"]["bones"][0]["bone"] == 1);
  CHECK(rig["clip"]["bones"][0]["field"] == "rot");
  CHECK(rig["clip"]["bones"][0]["keys"][1][1].get<double>() == 0.8);
  CHECK(rig["clip"]["skipped"] == 1);

  // Same inputs, same bytes.
  auto again = review_page(paths, o);
  REQUIRE(again);
  CHECK(again->html == html);
}

TEST_CASE("review page: linked textures are relative to the page", "[preview]") {
  const fs::path dir = scratch("linked");
  ReviewPageOptions o;
  o.link_assets = true;
  o.page_path = (dir / "out" / "review.html").string();
  const std::vector<std::string> paths{kPoseAssets + "/rigs/bar.rig2d.json"};
  auto page = review_page(paths, o);
  REQUIRE(page);
  CHECK(page->texture_bytes == 0);
  const std::string uri = json::parse(script_text(page->html, "rig2d-tex-0")).get<std::string>();
  CHECK(fs::weakly_canonical(dir / "out" / uri) == fs::weakly_canonical(kPoseAssets + "/textures/bar.png"));
}

TEST_CASE("review page: validate reports of other files are listed without a viewer", "[preview]") {
  FileReport sidecar;
  sidecar.path = kPoseAssets + "/textures/bar.png.meta.json";
  sidecar.kind = FileKind::Sidecar;
  sidecar.diagnostics.push_back({Severity::Warning, "meta.version", "old", Location{sidecar.path, "/version", 2, 3}});
  const std::vector<ReviewInput> inputs{{sidecar.path, sidecar}};
  ReviewPageOptions o;
  o.validate = false;
  auto page = review_page(inputs, o);
  REQUIRE(page);
  const json index = json::parse(script_text(page->html, "rig2d-index"));
  CHECK(index[0]["kind"] == "sidecar");
  CHECK(index[0]["warnings"] == 1);
  CHECK(index[0]["codes"] == json::array({"meta.version"}));
  const json data = json::parse(script_text(page->html, "rig2d-rig-0"));
  CHECK(data["findings"][0]["pointer"] == "/version");
  CHECK_FALSE(data.contains("parts"));
}
