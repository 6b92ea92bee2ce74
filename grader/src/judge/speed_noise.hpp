#pragma once
// The speed case's noise: a line whose own timing spread decides nothing is measured again, and
// where it stays too wide its points are withheld for review, never scored down (issue: speed
// points must not follow the machine's load). `grade_screened` (grade.cpp) applies it.
#include "core/results.hpp"
#include "spec/spec.hpp"

namespace grader {

// The speed case's rule (speed_case.cpp): full points from full_at, in proportion below,
// rounded to hundredths.
double speed_points(const SpeedSpec& sp, double ratio);

// Whether `line`, a graded speed case below full points (status slow), rests on noise: the upper
// quartile of its alternating pairs reaches full points while the median does not, or the middle
// half of its pairs spans more than a tenth of the line's points.
bool speed_undecided(const SpeedSpec& sp, const CaseResult& line);

// The line of a right kernel measured twice, undecided both times (or the second run failed):
// status withheld, no points, the message giving both measurements and the points their ends give.
CaseResult withheld_speed(const SpeedSpec& sp, const CaseResult& first, const CaseResult& second);

}  // namespace grader
