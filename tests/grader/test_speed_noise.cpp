// Speed points that do not follow the load: a speed line whose timing spread decides nothing is
// measured again, and withheld for review where it stays too wide (judge/speed_noise.hpp).
#include <doctest/doctest.h>

#include "judge/speed_noise.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"

namespace {

grader::CaseResult slow_line(double median, double low, double high) {
  grader::CaseResult c{"speed against the solution", true, 0, 2, grader::CaseStatus::Slow, "", "", 1.0, grader::CaseKind::Speed};
  c.ratio = median;
  c.ratio_low = low;
  c.ratio_high = high;
  return c;
}

}  // namespace

TEST_CASE("speed noise: a slow line is undecided where full speed lies within its quartiles, or they span over a tenth of its points") {
  const grader::LabSpec spec = grader::load_spec(kit::root() / "grader/specs/06-cascade-reduction.json");
  REQUIRE(spec.speed);
  const grader::SpeedSpec& sp = *spec.speed;
  REQUIRE(sp.full_at == doctest::Approx(0.8));
  // The solution under load: median 0.79, its upper quartile past 0.8: it may be at full speed.
  CHECK(grader::speed_undecided(sp, slow_line(0.79, 0.74, 0.85)));
  // A slow kernel measured tightly: decided, scored at its median.
  CHECK_FALSE(grader::speed_undecided(sp, slow_line(0.40, 0.39, 0.41)));
  // A slow kernel whose middle half spans 0.30 .. 0.50: a quarter of the points apart.
  CHECK(grader::speed_undecided(sp, slow_line(0.40, 0.30, 0.50)));
  // Lines that are not a slow speed case, or carry no quartiles, are never held.
  grader::CaseResult full = slow_line(0.95, 0.70, 1.10);
  full.status = grader::CaseStatus::Passed;
  CHECK_FALSE(grader::speed_undecided(sp, full));
  CHECK_FALSE(grader::speed_undecided(sp, slow_line(0.5, -1, -1)));

  // Twice undecided: withheld, no points, both measurements and the points their ends give, said.
  const grader::CaseResult held = grader::withheld_speed(sp, slow_line(0.79, 0.74, 0.85), slow_line(0.78, 0.70, 0.83));
  CHECK(held.status == grader::CaseStatus::Withheld);
  CHECK(held.points == 0);
  CHECK(held.max_points == 2);
  CHECK(held.message.find("withheld for review") == 0);
  CHECK(held.message.find("0.79 (middle half of the pairs 0.74 .. 0.85)") != std::string::npos);
  CHECK(held.message.find("then again after its cases 0.78 (middle half of the pairs 0.70 .. 0.83)") != std::string::npos);
  CHECK(held.message.find("grader grade --regrade") != std::string::npos);
}
