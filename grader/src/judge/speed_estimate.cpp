#include "judge/speed_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "judge/speed_noise.hpp"

namespace grader {

void judge_speed_estimate(const SpeedSpec& sp, const SpeedEstimate& stored, const nlohmann::json& measured, CaseResult& cr) {
  const double mine = measured.at("ratio").get<double>(), mine_low = measured.at("low").get<double>(),
               mine_high = measured.at("high").get<double>();
  // The estimate divides this run's ratio by the solution's stored one; its band pairs this run's
  // middle half of the pairs with the stored runs' spread, the low end with the high end.
  const double estimate = mine / stored.solution, low = mine_low / stored.high, high = mine_high / stored.low;
  cr.ratio = estimate;
  // The points are those of the estimate itself, the band's centre: its ends pair this run's and the
  // stored runs' extremes, so the band is wide (0.41 .. 1.41 around an estimate of 0.8 has been seen),
  // and its high end would give nearly any right kernel full points. The band is shown with the
  // points at both ends, so that a student sees how far the noise could move the figure; the graded
  // figure, timed against the solution itself on the course's machine, decides.
  cr.points = speed_points(sp, estimate);
  cr.status = estimate >= sp.full_at ? CaseStatus::Passed : CaseStatus::Slow;
  char text[1000];
  std::snprintf(text, sizeof text,
                "estimated %.2f of the solution's speed (noise band %.2f .. %.2f), worth %.2f of %.2f points by the speed "
                "case's rule at the estimate (full points from %.2f; %.2f at the band's low end, %.2f at its high "
                "end). Measured: your kernel at %.2f x the host's OpenMP dot product (median of %d alternating pairs, "
                "middle half %.2f .. %.2f); the solution at %.2f x (%.2f .. %.2f over %d runs, %s). This is an estimate: "
                "the graded figure comes from the course's grading machine, timed against the solution itself",
                estimate, low, high, cr.points, sp.points, sp.full_at, speed_points(sp, low), speed_points(sp, high), mine, sp.pairs,
                mine_low, mine_high, stored.solution, stored.low, stored.high, stored.runs, stored.measured.c_str());
  cr.message = text;
  if (cr.status == CaseStatus::Slow) cr.hint = sp.slow_hint;
}

}  // namespace grader
