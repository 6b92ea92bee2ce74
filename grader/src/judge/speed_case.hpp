#pragma once
// The speed case of a lab with one (its spec's "speed"): the kernel timed against the stored
// solution on the graded device, in a child of its own whose timed runs have the device to
// themselves (isolation/speed_gate.hpp); `grader check` estimates it instead (speed_estimate.hpp).
#include <filesystem>
#include <optional>
#include <string>

#include "core/results.hpp"
#include "grader/lab/driver.hpp"
#include "judge/grade.hpp"
#include "spec/spec.hpp"

namespace grader {

// One run of the speed case: its line, judged.
CaseResult speed_case(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, const GradeSettings& s,
                      const std::filesystem::path& copy, const std::string& shown_as);

// The speed case's line: `first` (its run beside the cases), else a run now. A slow line that load
// could have moved (measure_again, speed_noise.hpp) is measured again now, after the cases, the
// timed runs again with the device to themselves, and the better measurement counts
// (confirmed_speed): withheld for review where that one's noise decides nothing.
CaseResult speed_line(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, const GradeSettings& s,
                      const std::filesystem::path& copy, const std::string& shown_as, const std::optional<CaseResult>& first);

}  // namespace grader
