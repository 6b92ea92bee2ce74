// Speed points that do not follow the load: a slow speed line is measured again and the better
// measurement counts, withheld for review where that one's timing spread decides nothing
// (judge/speed_noise.hpp).
#include <doctest/doctest.h>

#include "judge/speed_noise.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

namespace {

grader::CaseResult slow_line(double median, double low, double high, grader::CaseStatus status = grader::CaseStatus::Slow) {
  grader::CaseResult c{"speed against the solution", true, 0, 2, status, "", "", 1.0, grader::CaseKind::Speed};
  c.ratio = median;
  c.ratio_low = low;
  c.ratio_high = high;
  return c;
}

// Lab 06's speed case as its spec sets it: 4 points, full points from 0.8 of the solution's speed.
grader::SpeedSpec lab06_speed() {
  const grader::LabSpec spec = grader::load_spec(kit::root() / "grader/specs/06-cascade-reduction.json");
  REQUIRE(spec.speed);
  REQUIRE(spec.speed->full_at == doctest::Approx(0.8));
  REQUIRE(spec.speed->points == doctest::Approx(4));
  return *spec.speed;
}

}  // namespace

TEST_CASE("speed noise: a slow line is undecided where full speed lies within its quartiles, or they span over a tenth of its points") {
  const grader::SpeedSpec sp = lab06_speed();
  // The solution under load: median 0.79, its upper quartile past 0.8: it may be at full speed.
  CHECK(grader::speed_undecided(sp, slow_line(0.79, 0.74, 0.85)));
  // A slow kernel measured tightly: decided, scored at its median.
  CHECK_FALSE(grader::speed_undecided(sp, slow_line(0.40, 0.39, 0.41)));
  // A slow kernel whose middle half spans 0.30 .. 0.50: a quarter of the points apart.
  CHECK(grader::speed_undecided(sp, slow_line(0.40, 0.30, 0.50)));
  // Lines that are not a slow speed case, or carry no quartiles, are never held.
  CHECK_FALSE(grader::speed_undecided(sp, slow_line(0.95, 0.70, 1.10, grader::CaseStatus::Passed)));
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

TEST_CASE("speed noise: a slow line measured again keeps the better measurement, withheld only where that one is undecided") {
  const grader::SpeedSpec sp = lab06_speed();
  const auto measured = [&](double median, double low, double high) {
    grader::CaseResult c = slow_line(median, low, high);
    c.max_points = sp.points;
    c.points = grader::speed_points(sp, median);
    c.status = median >= sp.full_at ? grader::CaseStatus::Passed : grader::CaseStatus::Slow;
    c.message = "measured " + std::to_string(median);
    c.seconds = 2;
    return c;
  };

  // The suite's case on a loaded machine: one tight measurement at 0.70 of the solution, then full speed.
  const grader::CaseResult spike = grader::confirmed_speed(sp, measured(0.70, 0.68, 0.72), measured(1.00, 0.97, 1.04));
  CHECK(spike.status == grader::CaseStatus::Passed);
  CHECK(spike.points == doctest::Approx(4));
  CHECK(spike.ratio == doctest::Approx(1.00));
  CHECK(spike.seconds == doctest::Approx(4));  // both measurements' time
  CHECK(spike.message.find("measured 1.0") == 0);  // the counted measurement's own message first
  CHECK(spike.message.find("0.70 (middle half of the pairs 0.68 .. 0.72), then 1.00 (middle half of the pairs 0.97 .. 1.04); the better counts") !=
        std::string::npos);

  // Slow both times: the better figure counts, whichever came first.
  for (const bool better_first : {true, false}) {
    const grader::CaseResult a = measured(0.50, 0.49, 0.51), b = measured(0.40, 0.39, 0.41);
    const grader::CaseResult slow = better_first ? grader::confirmed_speed(sp, a, b) : grader::confirmed_speed(sp, b, a);
    CHECK(slow.status == grader::CaseStatus::Slow);
    CHECK(slow.points == doctest::Approx(2.5));
    CHECK(slow.ratio == doctest::Approx(0.50));
  }

  // The better one undecided (its upper quartile reaches full speed): withheld, whatever the other says.
  const grader::CaseResult held = grader::confirmed_speed(sp, measured(0.60, 0.59, 0.61), measured(0.76, 0.70, 0.85));
  CHECK(held.status == grader::CaseStatus::Withheld);
  CHECK(held.points == 0);
  CHECK(held.ratio == doctest::Approx(0.76));  // the better measurement's figures, which comparisons of lines read
  CHECK(held.ratio_low == doctest::Approx(0.70));
  CHECK(held.ratio_high == doctest::Approx(0.85));
  // The worse one undecided: the better, decided, counts.
  const grader::CaseResult kept = grader::confirmed_speed(sp, measured(0.40, 0.30, 0.50), measured(0.60, 0.59, 0.61));
  CHECK(kept.status == grader::CaseStatus::Slow);
  CHECK(kept.points == doctest::Approx(3));

  // A second measurement that failed counts for nothing: the first, decided, stands and says so.
  grader::CaseResult crashed = measured(0.9, 0.88, 0.92);
  crashed.status = grader::CaseStatus::Crashed;
  crashed.message = "the speed case crashed (SIGSEGV)";
  const grader::CaseResult alone = grader::confirmed_speed(sp, measured(0.60, 0.59, 0.61), crashed);
  CHECK(alone.status == grader::CaseStatus::Slow);
  CHECK(alone.ratio == doctest::Approx(0.60));
  CHECK(alone.message.find("the second measurement failed (the speed case crashed (SIGSEGV)); the first counts") != std::string::npos);
  // ... and an undecided first with a failed second is withheld, as before.
  CHECK(grader::confirmed_speed(sp, measured(0.76, 0.70, 0.85), crashed).status == grader::CaseStatus::Withheld);
}

TEST_CASE("speed noise: a slow line is measured again where load could have cost it a tenth of its points, or it is undecided") {
  const grader::SpeedSpec sp = lab06_speed();
  // 0.70, tightly: 3.5 points; 1.5 times faster would be full points, 0.5 more: measured again.
  CHECK(grader::measure_again(sp, slow_line(0.70, 0.69, 0.71)));
  // 0.20: 1.0 point, 1.5 points at 0.30: half a point, more than 0.4: measured again.
  CHECK(grader::measure_again(sp, slow_line(0.20, 0.19, 0.21)));
  // 0.10: 0.5 points, 0.75 at 0.15: a quarter point, within a tenth of 4: not.
  CHECK_FALSE(grader::measure_again(sp, slow_line(0.10, 0.095, 0.105)));
  // The grid-stride loop on a CPU, about 0.06: not, unless undecided (its quartiles span 0.04 .. 0.20).
  CHECK_FALSE(grader::measure_again(sp, slow_line(0.06, 0.058, 0.062)));
  CHECK(grader::measure_again(sp, slow_line(0.06, 0.04, 0.20)));
  // A line at full points, or not timed right, is never measured again.
  CHECK_FALSE(grader::measure_again(sp, slow_line(0.95, 0.94, 0.96, grader::CaseStatus::Passed)));
  CHECK_FALSE(grader::measure_again(sp, slow_line(0.70, 0.69, 0.71, grader::CaseStatus::Wrong)));
}

TEST_CASE("grade measures a slow kernel's speed twice and its report names both measurements and the one that counts") {
  // The solution itself, graded with a spec copy that asks for twice its speed for full points (and
  // 5 pairs instead of 21): slow, at about half the points, a line that load could have moved, so
  // it is measured twice. What is checked is which measurement counts, not how settled each is.
  test::TempDir dir;
  test::write(dir / "class" / "ann" / "CascadeDot.cl", test::read(kit::root() / "solutions/06-cascade-reduction/CascadeDot.cl"));
  test::lab_with_number(dir / "data", "06-cascade-reduction", "pairs", 5);
  const std::string options = test::lab_with_number(dir / "data", "06-cascade-reduction", "full_at", 2);
  REQUIRE(test::read(dir / "data" / "specs" / "06-cascade-reduction.json").find("\"pairs\": 5,") != std::string::npos);
  const auto run = test::run_program("grader", options + " grade --labs 06 --no-oclgrind --submissions " + (dir / "class").string() +
                                                   " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const grader::json report = grader::json::parse(test::read(dir / "out" / "ann" / "report.json"));
  grader::json line;
  for (const grader::json& c : report["labs"][0]["cases"])
    if (c["kind"] == "speed") line = c;
  REQUIRE(line.is_object());
  const std::string message = line["message"];
  INFO(message);
  double first = -1, second = -1;
  if (line["status"] == "withheld") {
    // Both measurements too spread out to place at this bar (a loaded machine): withheld, both named.
    const auto at = message.find(": measured ");
    REQUIRE(at != std::string::npos);
    REQUIRE(std::sscanf(message.c_str() + at, ": measured %lf (middle half of the pairs %*f .. %*f), then again after its cases %lf", &first,
                        &second) == 2);
    CHECK(line["points"] == 0);
    return;
  }
  CHECK(line["status"] == "slow");
  const auto at = message.find("; measured twice (a slow measurement is taken again before it costs points): ");
  REQUIRE(at != std::string::npos);
  const std::string both = message.substr(message.find(": ", at) + 2);
  // "A (middle half of the pairs a .. b), then B (middle half of the pairs c .. d); the better counts"
  REQUIRE(std::sscanf(both.c_str(), "%lf (middle half of the pairs %*f .. %*f), then %lf", &first, &second) == 2);
  CHECK(message.find("; the better counts") != std::string::npos);
  // The line's figure and points are the better measurement's (to the two decimals the message shows).
  CHECK(line["ratio"].get<double>() == doctest::Approx(std::max(first, second)).epsilon(0.01));
  CHECK(line["points"].get<double>() == doctest::Approx(4 * line["ratio"].get<double>() / 2).epsilon(0.01));
}
