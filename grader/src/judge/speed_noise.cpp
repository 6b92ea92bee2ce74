#include "judge/speed_noise.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace grader {
namespace {

// A tenth of the line's points: the spread of the middle half of the pairs, in points, that a
// graded figure may carry. Wider, the quartiles alone would move the line by more than that.
constexpr double kSpreadShare = 0.1;

// How much slower than its own speed a burst of load may make one measurement (speed_noise.hpp).
constexpr double kLoadSlowdown = 1.5;

std::string measured(const CaseResult& c) {
  char text[160];
  if (c.ratio_low < 0) std::snprintf(text, sizeof text, "%.2f", c.ratio);
  else std::snprintf(text, sizeof text, "%.2f (middle half of the pairs %.2f .. %.2f)", c.ratio, c.ratio_low, c.ratio_high);
  return text;
}

}  // namespace

double speed_points(const SpeedSpec& sp, double ratio) { return std::round(sp.points * std::min(1.0, ratio / sp.full_at) * 100) / 100; }

bool speed_undecided(const SpeedSpec& sp, const CaseResult& line) {
  if (line.kind != CaseKind::Speed || line.status != CaseStatus::Slow || line.ratio_low < 0 || line.ratio_high < 0) return false;
  if (line.ratio_high >= sp.full_at) return true;  // full speed is within the noise
  return speed_points(sp, line.ratio_high) - speed_points(sp, line.ratio_low) > kSpreadShare * sp.points;
}

bool measure_again(const SpeedSpec& sp, const CaseResult& line) {
  if (line.kind != CaseKind::Speed || line.status != CaseStatus::Slow) return false;
  return speed_undecided(sp, line) || speed_points(sp, line.ratio * kLoadSlowdown) - speed_points(sp, line.ratio) > kSpreadShare * sp.points;
}

CaseResult withheld_speed(const SpeedSpec& sp, const CaseResult& first, const CaseResult& second) {
  CaseResult c = first;
  c.status = CaseStatus::Withheld;
  c.points = 0;
  c.hint = "";
  const bool both = second.status == CaseStatus::Slow || second.status == CaseStatus::Passed;
  const double low = both ? std::min(first.ratio_low, second.ratio_low) : first.ratio_low;
  const double high = both ? std::max(first.ratio_high, second.ratio_high) : first.ratio_high;
  char range[200];
  std::snprintf(range, sizeof range, "%.2f to %.2f of its %.2f points (full points from %.2f)", speed_points(sp, low), speed_points(sp, high),
                sp.points, sp.full_at);
  c.message = "withheld for review: the kernel is right, but its speed could not be placed: measured " + measured(first) +
              (both ? ", then again after its cases " + measured(second) : ", and the second measurement failed: " + second.message) +
              " of the solution's speed; that spread gives " + range +
              ", so the machine's load, not the kernel, would decide them. The points are withheld until the instructor reviews "
              "this line (grader grade --regrade measures it again, best on a machine with nothing else running)";
  c.seconds = first.seconds + second.seconds;
  return c;
}

CaseResult confirmed_speed(const SpeedSpec& sp, const CaseResult& first, const CaseResult& second) {
  const bool timed = second.status == CaseStatus::Slow || second.status == CaseStatus::Passed;
  const CaseResult& better = timed && second.ratio > first.ratio ? second : first;
  if (speed_undecided(sp, better)) {  // withheld, its figures the better measurement's
    CaseResult held = withheld_speed(sp, first, second);
    held.ratio = better.ratio, held.ratio_low = better.ratio_low, held.ratio_high = better.ratio_high;
    return held;
  }
  CaseResult c = better;
  c.message += "; measured twice (a slow measurement is taken again before it costs points): " + measured(first) +
               (timed ? ", then " + measured(second) + "; the better counts" : ", then the second measurement failed (" + second.message + "); the first counts");
  c.seconds = first.seconds + second.seconds;
  return c;
}

}  // namespace grader
