// The students' self-check: visible cases, exit status, build errors and hints.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "judge/speed_estimate.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

TEST_CASE("check fails the starter kernels with hints and passes the solutions") {
  const auto starter = test::run_program("grader", "check");
  CHECK(starter.exit_code == 1);
  CHECK(starter.output.find("FAIL smallest: one element, L = 1") != std::string::npos);
  CHECK(starter.output.find("expected -21, got 0 (exact)") != std::string::npos);
  CHECK(starter.output.find("hint: every work-group's sum is 0") != std::string::npos);
  CHECK(starter.output.find("(hidden)") == std::string::npos);  // hidden cases are not run or shown
  CHECK(starter.output.find("0 / 8 points") != std::string::npos);  // 5 visible case points and the 3 of the algorithm
  const std::string labs = std::to_string(test::kit_labs(true).size());  // every lab with a spec, counted from the tree
  CHECK_MESSAGE(starter.output.find("0 of " + labs + " labs pass every visible case; next: lab 01 (grader check 01).") != std::string::npos,
                starter.output);
  // One figure explained: the grader's one PoCL thread is the "1 compute units" the lab programs do not show.
  CHECK(starter.output.find("(1 compute unit: the grader gives each case one PoCL thread (--pocl-threads)") != std::string::npos);
  const auto solved = test::run_program("grader", "check 03 --dir " + (kit::root() / "solutions").string());
  CHECK(solved.exit_code == 0);
  CHECK(solved.output.find("All visible cases pass: 8 / 8 points") != std::string::npos);
  CHECK(solved.output.find("PASS algorithm: ArrayMultReduce (measured under Oclgrind)") != std::string::npos);
  // Labs 03 solved and 01 not: the summary counts them and names the next one.
  test::TempDir mixed;
  std::filesystem::copy(kit::root() / "labs" / "01-array-mult", mixed / "01-array-mult");
  std::filesystem::copy(kit::root() / "solutions" / "03-array-mult-reduce", mixed / "03-array-mult-reduce");
  const auto half = test::run_program("grader", "check 01 03 --dir " + mixed.path.string());
  CHECK(half.exit_code == 1);
  CHECK(half.output.find("1 of 2 labs pass every visible case; next: lab 01 (grader check 01).") != std::string::npos);
}

TEST_CASE("check shows a build error as file:line:col") {
  test::TempDir labs;
  test::write(labs / "03-array-mult-reduce" / "ArrayMultReduce.cl",
              test::read(kit::root() / "grader/examples/class/farid-compile-error/ArrayMultReduce.cl"));
  const auto run = test::run_program("grader", "check 03 --dir " + labs.path.string());
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("build-error:") != std::string::npos);
  CHECK(run.output.find("ArrayMultReduce.cl:15:34: error: expected ';'") != std::string::npos);
}

TEST_CASE("check names a wrong signature and a missing file") {
  test::TempDir labs;
  test::write(labs / "03-array-mult-reduce" / "ArrayMultReduce.cl",
              "kernel void ArrayMultReduce(global const float *dA, global const float *dB, global float *dC) { }\n");
  const auto wrong = test::run_program("grader", "check 03 --dir " + labs.path.string());
  CHECK(wrong.exit_code == 1);
  CHECK(wrong.output.find("takes 3 parameters, not 4") != std::string::npos);
  std::filesystem::remove(labs / "03-array-mult-reduce" / "ArrayMultReduce.cl");
  const auto missing = test::run_program("grader", "check 03 --dir " + labs.path.string());
  CHECK(missing.exit_code == 1);
  CHECK(missing.output.find("no file named ArrayMultReduce.cl") != std::string::npos);
}

TEST_CASE("a right but slow cascade loses speed points and is shown the spec's hint") {
  // A grid-stride loop on the CPU runs at about 0.06 of the solution on one PoCL thread: far below
  // the 0.8 at which full speed points start, whatever else the machine is doing.
  test::TempDir labs;
  // The solution with its CPU branch switched off: the GPU's grid-stride loop runs on the CPU too.
  const std::string solution = test::read(kit::root() / "solutions/06-cascade-reduction/CascadeDot.cl");
  test::write(labs / "06-cascade-reduction" / "CascadeDot.cl", test::replace_once(solution, "#ifdef CONTIGUOUS", "#ifdef NEVER_DEFINED"));
  const auto run = test::run_program("grader", "check 06 --dir " + labs.path.string());
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("PASS N = 1003, L = 16, G = 4, real") != std::string::npos);  // right ...
  CHECK(run.output.find("FAIL speed estimate against the solution") != std::string::npos);   // ... but slow
  CHECK(run.output.find("of the solution's speed (noise band ") != std::string::npos);
  CHECK(run.output.find("(median of 21 alternating pairs, middle half ") != std::string::npos);
  CHECK(run.output.find("hint: the grader runs PoCL on one CPU core, so the CONTIGUOUS branch counts") != std::string::npos);
}

namespace {
// The speed estimate line's figure and points: "estimated 0.97 of the solution's speed (noise band
// 0.90 .. 1.05), worth 4.00 of 4.00 points by the speed case's rule at the estimate (...)".
struct Estimate {
  double figure = -1, low = -1, high = -1, points = -1, max = -1;
};
Estimate estimate_in(const std::string& output) {
  Estimate e;
  const auto at = output.find("estimated ");
  if (at == std::string::npos) return e;
  std::sscanf(output.c_str() + at, "estimated %lf of the solution's speed (noise band %lf .. %lf), worth %lf of %lf points", &e.figure,
              &e.low, &e.high, &e.points, &e.max);
  return e;
}
}  // namespace

TEST_CASE("check's speed estimate earns the points of its central figure, with its noise band shown, not those of the band's high end") {
  // The spec's stored solution: 0.80 x OpenMP, runs from 0.65 to 1.20. A kernel at 0.60 x OpenMP
  // (middle half of its pairs 0.50 .. 0.70) is estimated at 0.60 / 0.80 = 0.75 of the solution's
  // speed, band 0.50 / 1.20 = 0.42 .. 0.70 / 0.65 = 1.08; full points from 0.8, so 4 x 0.75 / 0.8 = 3.75
  // points. The band's high end (1.08) would have given 4.
  grader::SpeedSpec sp;
  sp.points = 4;
  sp.full_at = 0.8;
  sp.pairs = 21;
  sp.slow_hint = "more sums in flight";
  const grader::SpeedEstimate stored{0.80, 0.65, 1.20, 7, "the reference machine"};
  grader::CaseResult cr;
  grader::judge_speed_estimate(sp, stored, grader::json{{"ratio", 0.60}, {"low", 0.50}, {"high", 0.70}}, cr);
  INFO(cr.message);
  CHECK(cr.ratio == doctest::Approx(0.75));
  CHECK(cr.points == doctest::Approx(3.75));
  CHECK(cr.status == grader::CaseStatus::Slow);
  CHECK(cr.hint == "more sums in flight");
  CHECK(cr.message.find("estimated 0.75 of the solution's speed (noise band 0.42 .. 1.08), worth 3.75 of 4.00 points by the speed "
                        "case's rule at the estimate (full points from 0.80; 2.08 at the band's low end, 4.00 at its high end)") == 0);
  // At the solution's own figure the estimate is 1: full points.
  grader::CaseResult at_solution;
  grader::judge_speed_estimate(sp, stored, grader::json{{"ratio", 0.80}, {"low", 0.70}, {"high", 0.90}}, at_solution);
  CHECK(at_solution.points == 4);
  CHECK(at_solution.status == grader::CaseStatus::Passed);
}

TEST_CASE("check estimates a cascade's speed against the solution's stored figure, and a slower kernel earns fewer points") {
  // A student release has no solution to time against, so check times the kernel against the
  // host's OpenMP dot product in the same run and divides by the solution's stored ratio. Not a
  // speed target: the solution's own figure depends on this machine; what must hold anywhere is
  // that the line carries its fields and that a kernel doing the same work by a far slower loop
  // (the grid-stride loop on a CPU, about 0.06 of the solution) is estimated far lower.
  test::TempDir fast, slow;
  const std::string solution = test::read(kit::root() / "solutions/06-cascade-reduction/CascadeDot.cl");
  test::write(fast / "06-cascade-reduction" / "CascadeDot.cl", solution);
  test::write(slow / "06-cascade-reduction" / "CascadeDot.cl", test::replace_once(solution, "#ifdef CONTIGUOUS", "#ifdef NEVER_DEFINED"));
  const auto quick = test::run_program("grader", "check 06 --dir " + fast.path.string());
  const auto slower = test::run_program("grader", "check 06 --dir " + slow.path.string());
  INFO(quick.output);
  INFO(slower.output);
  for (const auto* run : {&quick, &slower}) {
    CHECK(run->output.find("speed estimate against the solution") != std::string::npos);
    CHECK(run->output.find("x the host's OpenMP dot product (median of 21 alternating pairs, middle half ") != std::string::npos);
    CHECK(run->output.find("This is an estimate: the graded figure comes from the course's grading machine") != std::string::npos);
  }
  const Estimate a = estimate_in(quick.output), b = estimate_in(slower.output);
  REQUIRE(a.figure > 0);
  REQUIRE(b.figure > 0);
  CHECK(a.low <= a.figure);
  CHECK(a.figure <= a.high);
  CHECK(a.max == 4);  // the spec's speed points
  CHECK(a.points <= a.max);
  CHECK(b.figure < a.figure / 2);
  CHECK(b.points < a.points);
}

TEST_CASE("check names a kernel's printf instead of guessing an endless loop") {
  // Lab 01's solution with a work-item printing without end: every visible case runs out of time
  // with nothing printed (PoCL passes printf output on when a kernel ends), and the hint names the
  // printf call's line.
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  std::filesystem::create_directories(dir / "01-array-mult");
  const std::string kernel =
      test::replace_once(solution, "    if (gid < n)", "    while (gid == 0) printf(\"debug %d\\n\", gid);\n    if (gid < n)");
  test::write(dir / "01-array-mult" / "ArrayMult.cl", kernel);
  const auto printf_line = 1 + std::count(kernel.begin(), kernel.begin() + long(kernel.find("printf")), '\n');
  // A build limit of 20 s (support.hpp: the spin of the case's run again alone), 15 times a loaded
  // machine's build of this kernel.
  const auto run = test::run_program("grader", test::lab_with_build_limit(dir / "data", "01-array-mult", 20) + " check 01 --dir " + dir.path.string());
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("timeout: ") != std::string::npos);
  CHECK(run.output.find("(a run again is given up to the 20 s build limit for that)") != std::string::npos);
  CHECK(run.output.find("hint: your kernel calls printf (ArrayMult.cl:" + std::to_string(printf_line) + ")") != std::string::npos);
  CHECK(run.output.find("printf in a kernel is slow") != std::string::npos);
}
