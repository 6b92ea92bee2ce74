#pragma once
// Stored reference outputs under grader/reference/: one file per lab with the host reference of
// every case (and the checksum of the solution's outputs, which were checked against it), and
// MANIFEST.json with the files' checksums, the spec each was made from, the kit version, the device.
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "kit/device.hpp"
#include "spec/spec.hpp"

namespace grader {

struct LabReference {
  std::string lab;
  json cases;  // case name -> {"params", "reference", "solution_sha256"}
  std::filesystem::path baseline;  // the stored solution kernel for the speed case, if the lab has one
  const json& reference(const std::string& case_name) const;
};

// Loads a lab's references after checking the manifest: the file's checksum, and that it was made
// from this very spec. Throws kit::Error that says how to regenerate when either differs.
LabReference load_reference(const std::filesystem::path& dir, const LabSpec& spec);

// Runs each lab's solution (solutions/<lab>/<kernel_file>) on `rt` for every case, checks it
// against the host reference, and writes the lab files and the manifest. The same kit, specs and
// PoCL give byte-identical files. Throws kit::Error naming the case where the solution fails.
void make_references(const std::filesystem::path& dir, const std::vector<LabSpec>& specs,
                     const std::filesystem::path& solutions, const kit::Runtime& rt, std::ostream& progress);

}  // namespace grader
