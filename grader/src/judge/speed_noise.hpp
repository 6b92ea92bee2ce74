#pragma once
// The speed case's noise: a slow line is measured again before it costs points, and the better of
// the two measurements counts; where that one's own timing spread decides nothing, its points are
// withheld for review, never scored down (speed points must not follow the machine's load).
// `speed_line` (speed_case.cpp) applies it.
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

// The line of a right kernel measured twice whose better measurement is undecided (or undecided
// once and the second run failed): status withheld, no points, the message giving both
// measurements and the points their ends give.
CaseResult withheld_speed(const SpeedSpec& sp, const CaseResult& first, const CaseResult& second);

// Whether a slow line is measured again: where it is undecided, or where load could have cost it
// more than a tenth of its points. A burst of load slows one side of the alternating pairs more
// than the other; the suite has seen the solution measured at 0.70 of its own speed that way, so
// the kit allows for a measurement at up to 1.5 times slower. A kernel far below full speed (below
// a fifth of full_at, with the rule of speed_points) cannot gain a tenth of its points from that,
// and is not timed again: those are the slowest measurements.
bool measure_again(const SpeedSpec& sp, const CaseResult& line);

// The line of a right kernel whose first measurement, `first`, was slow, measured again as
// `second`: the measurement with the higher median counts (a second that failed or was wrong
// counts for nothing), passed or slow at its own figure, its message naming both; withheld where
// the one that counts is undecided. One load spike (another process taking the memory bus or a
// core through one measurement's pairs) cannot cost a kernel points; a kernel slow in both keeps
// the better figure.
CaseResult confirmed_speed(const SpeedSpec& sp, const CaseResult& first, const CaseResult& second);

}  // namespace grader
