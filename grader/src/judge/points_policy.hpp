#pragma once
// The spec's points policy: how the points that are not correctness points follow the case points.
#include "core/results.hpp"
#include "spec/spec.hpp"

namespace grader {

// The spec's points policy, applied to a graded lab: every point that is not a correctness point
// (speed, memory safety, algorithm) is scaled by the fraction of the case points earned, rounded down
// to hundredths. A line that passed and is scaled becomes `scaled`, never `passed` below its max
// points; its message gives the points, the case points and cases it follows, and the check's own finding.
void apply_points_policy(const LabSpec& spec, LabResult& r);

}  // namespace grader
