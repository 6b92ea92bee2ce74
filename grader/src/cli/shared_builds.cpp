#include "cli/shared_builds.hpp"

#include "cli/command.hpp"
#include "isolation/child_folder.hpp"

namespace grader::cli {

SharedBuilds::SharedBuilds(const std::filesystem::path& scratch, const std::vector<LabSpec>& specs, const GradingOptions& grading)
    : pocl_cache_(kept_pocl_cache().value_or(scratch / "pocl-cache")) {
  // The service builds on PoCL's CPU device, the one the children use without --devices.
  if (grading.devices.empty() && !grading.child_per_case)
    service_ = std::make_unique<BuildServiceProcess>(self_exe(), pocl_cache_, scratch / "build-service", 0, max_build_limit(specs));
}

void SharedBuilds::share_with(GradeSettings& settings) const {
  settings.shared_pocl_cache = pocl_cache_;
  if (service_) settings.build_service = service_->socket();
}

}  // namespace grader::cli
