#pragma once
// What the labs that one command grades in turn (`check`, `gradescope`) share, as a worker of
// `grader grade` shares it across its students: one PoCL cache, so that the kit's own programs
// (the local-memory scrub, lab 06's stored baseline) are compiled once, and, on PoCL's CPU device,
// a build service that builds the children's programs into that cache, so that no child pays
// PoCL's kernel-library load (isolation/build_service_process.hpp).
#include <filesystem>
#include <memory>
#include <vector>

#include "isolation/build_service_process.hpp"
#include "judge/grade.hpp"

namespace grader::cli {

class SharedBuilds {
 public:
  // Under `scratch`, the command's scratch folder (removed after this is destroyed).
  SharedBuilds(const std::filesystem::path& scratch, const std::vector<LabSpec>& specs, const GradingOptions& grading);
  void share_with(GradeSettings& settings) const;

 private:
  std::filesystem::path pocl_cache_;
  std::unique_ptr<BuildServiceProcess> service_;
};

}  // namespace grader::cli
