#pragma once
// `grader check`'s speed line: a kernel's speed estimated against the solution's stored figure
// (spec.hpp's SpeedEstimate), from the kernel's ratio to the host's OpenMP dot product in the same
// run. The graded figure is measured on the course's grading machine against the solution itself.
#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "spec/spec.hpp"

namespace grader {

inline const std::string kSpeedEstimateCase = "speed estimate against the solution";

// Fills `cr` (its points, status, message and hint) from the speed child's answer {"ratio", "low",
// "high"}: the estimate, its noise band and the points the speed case's rule gives each.
void judge_speed_estimate(const SpeedSpec& sp, const SpeedEstimate& stored, const nlohmann::json& measured, CaseResult& cr);

}  // namespace grader
