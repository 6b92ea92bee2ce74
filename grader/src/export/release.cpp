#include "export/release.hpp"

#include <algorithm>
#include <ostream>

#include "core/files.hpp"
#include "kit/errors.hpp"
#include "core/results.hpp"
#include "spec/spec.hpp"

namespace grader {

namespace fs = std::filesystem;

void write_release_specs(const fs::path& specs, const fs::path& references, const fs::path& dest, const std::vector<std::string>& labs,
                         std::ostream& progress) {
  const json manifest = json::parse(read_file(references / "MANIFEST.json"));
  json out_manifest = {{"kit_version", manifest.value("kit_version", "")},
                       {"device", manifest.value("device", "")},
                       {"release", "student: visible cases only"},
                       {"labs", json::object()}};
  fs::create_directories(dest / "grader" / "specs");
  fs::create_directories(dest / "grader" / "reference");
  for (const auto& entry : fs::directory_iterator(specs)) {
    if (entry.path().extension() != ".json") continue;
    json spec = json::parse(read_file(entry.path()));
    const std::string lab = spec.at("lab");
    if (!labs.empty() && std::find(labs.begin(), labs.end(), lab) == labs.end()) continue;
    json visible = json::array();
    for (const json& c : spec.at("cases"))
      if (c.value("visibility", "hidden") == "visible") visible.push_back(c);
    const std::size_t hidden = spec.at("cases").size() - visible.size();
    spec["cases"] = visible;
    if (spec.contains("speed") && !spec["speed"].contains("estimate"))
      spec.erase("speed");  // its baseline is the solution, and nothing else to estimate its speed against
    for (const char* block : {"safety", "algorithm"})
      if (spec.contains(block) && spec[block].value("visibility", "hidden") != "visible") spec.erase(block);
    const std::string spec_text = spec.dump(2) + "\n";
    write_file_atomically(dest / "grader" / "specs" / entry.path().filename(), spec_text);

    const json stored = json::parse(read_file(references / (lab + ".json")));
    json kept = json::object();
    json kept_cases = visible;
    if (spec.contains("speed")) kept_cases.push_back(json{{"name", kSpeedCase}});  // grader check estimates it (no solution shipped)
    for (const json& c : kept_cases) {
      if (!stored.at("cases").contains(c.at("name")))
        throw kit::Error("no stored reference for visible case '" + c.at("name").get<std::string>() + "' of " + lab +
                         "; run `build/bin/grader reference` first");
      kept[c.at("name").get<std::string>()] = stored.at("cases").at(c.at("name").get<std::string>());
    }
    const std::string reference_text = json{{"lab", lab}, {"cases", kept}}.dump(2) + "\n";
    write_file_atomically(dest / "grader" / "reference" / (lab + ".json"), reference_text);
    out_manifest["labs"][lab] = {{"file", lab + ".json"}, {"sha256", sha256_hex(reference_text)}};
    progress << lab << ": " << visible.size() << " visible case(s) kept, " << hidden << " hidden left out\n";
  }
  write_file_atomically(dest / "grader" / "reference" / "MANIFEST.json", out_manifest.dump(2) + "\n");
}

}  // namespace grader
