// Algorithm checks and the points policy: what the work/span measurements make of a tree, a serial
// loop and a lopsided tree; points that follow correctness; serial kernels losing points end to end.
#include <doctest/doctest.h>

#include "oclgrind/algorithm.hpp"
#include "judge/grade.hpp"
#include "judge/points_policy.hpp"
#include "kit/paths.hpp"
#include "evidence_kernels.hpp"
#include "support.hpp"

namespace {

grader::AlgorithmSpec tree_spec() {
  grader::AlgorithmCheck check;
  check.kernel = "k";
  check.points = 3;
  check.span_bounded = true;
  check.span_log2 = 1;
  check.span_plus = 1;
  check.busiest_share = 0.5;
  check.expect = "a tree";
  return {true, {check}};
}

// One launch of kernel "k" with one group of 16 work-items measured as given.
std::vector<grader::KernelWork> one_group(std::size_t work, std::size_t span, std::size_t busiest_ops) {
  grader::KernelWork k;
  k.kernel = "k", k.global = {16, 1, 1}, k.local = {16, 1, 1};
  k.groups = {{{0, 0, 0}, 16, work, span, span, 0, busiest_ops}};
  return {k};
}

grader::CaseResult judge(const std::vector<grader::KernelWork>& measured) {
  const auto results = grader::algorithm_results(tree_spec(), measured);
  REQUIRE(results.size() == 1);
  return results[0];
}

}  // namespace

TEST_CASE("algorithm: a tree passes, a serial loop, O(L) levels and a lopsided tree fail with what was measured") {
  const auto tree = judge(one_group(15, 4, 4));
  CHECK(tree.status == grader::CaseStatus::Passed);
  CHECK(tree.points == 3);

  const auto serial = judge(one_group(16, 16, 16));  // work-item 0 adds all 16 values
  CHECK(serial.status == grader::CaseStatus::Wrong);
  CHECK(serial.points == 0);
  CHECK(serial.message.find("work-item 0 did 16 of the 16 adds in work-group 0 of k (L = 16)") != std::string::npos);
  CHECK(serial.message.find("at most 5 for L = 16") != std::string::npos);  // log2(16) + 1

  CHECK(judge(one_group(15, 15, 8)).status == grader::CaseStatus::Wrong);  // one level per value: a chain of 15
  CHECK(judge(one_group(15, 5, 5)).status == grader::CaseStatus::Passed);  // log2 L + 1 is still a tree

  const auto lopsided = judge(one_group(15, 5, 10));  // short chain, but one work-item does 2/3
  CHECK(lopsided.status == grader::CaseStatus::Wrong);
  CHECK(lopsided.message.find("no work-item doing more than 50 %") != std::string::npos);

  // A last pass over one value: one work-item doing the one operation is right, not lopsided.
  CHECK(judge(one_group(1, 1, 1)).status == grader::CaseStatus::Passed);

  // A check with only a share bound (a cascade's long private runs): any span passes, a lopsided
  // group fails with the check's own hint.
  grader::AlgorithmSpec share_only = tree_spec();
  share_only.checks[0].span_bounded = false;
  share_only.checks[0].hint = "give every work-item its own run";
  CHECK(grader::algorithm_results(share_only, one_group(160, 80, 20)).at(0).status == grader::CaseStatus::Passed);
  const auto one_does_all = grader::algorithm_results(share_only, one_group(160, 150, 150)).at(0);
  CHECK(one_does_all.status == grader::CaseStatus::Wrong);
  CHECK(one_does_all.hint == "give every work-item its own run");
  CHECK(judge(one_group(160, 80, 20)).status == grader::CaseStatus::Wrong);  // the same group against the span bound

  const auto nothing = judge(one_group(0, 0, 0));  // e.g. the starter: no tree at all
  CHECK(nothing.status == grader::CaseStatus::Wrong);
  CHECK(nothing.message.find("no adds on the data were measured") != std::string::npos);

  const auto absent = judge({});
  CHECK(absent.status == grader::CaseStatus::NotRun);
  CHECK(absent.message.find("was not launched") != std::string::npos);
}

TEST_CASE("points policy: safety, speed and algorithm points follow the correctness points") {
  const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"04"}).at(0);
  REQUIRE(spec.algorithm);
  grader::LabResult r;
  // Every rung 3 case right, every other case wrong; every safety and algorithm check clean.
  double rung3 = 0, all = 0;
  for (const grader::CaseSpec& c : spec.cases) {
    const bool right = c.params.at("rung") == 3;
    r.cases.push_back({c.name, c.visible, right ? c.points : 0, c.points, right ? grader::CaseStatus::Passed : grader::CaseStatus::Wrong, "", "", 0,
                      grader::CaseKind::Case});
    rung3 += right ? c.points : 0;
    all += c.points;
  }
  REQUIRE(rung3 > 0);
  for (const auto& [kind, points] : spec.safety->checks) r.cases.push_back({kind, true, points, points, grader::CaseStatus::Passed, "", "", 0, grader::CaseKind::Safety});
  for (const grader::AlgorithmCheck& k : spec.algorithm->checks)
    r.cases.push_back({grader::algorithm_name(k), true, k.points, k.points, grader::CaseStatus::Passed, "", "", 0, grader::CaseKind::Algorithm});
  grader::apply_points_policy(spec, r);
  for (const grader::CaseResult& c : r.cases) {
    CAPTURE(c.name);
    if (c.kind == grader::CaseKind::Safety) {
      // the lab's fraction, rounded down to hundredths, and the report says so
      CHECK(c.points == doctest::Approx(std::floor(c.max_points * rung3 / all * 100 + 1e-9) / 100));
      CHECK(c.message.find("these points follow the case points the kernel earned") != std::string::npos);
    }
    if (c.kind == grader::CaseKind::Algorithm)  // each rung's algorithm point follows that rung's cases only
      CHECK(c.points == (c.name.find("reduce3_sequential") != std::string::npos ? c.max_points : 0));
  }
}

TEST_CASE("algorithm: a serial loop in one rung of lab 04 loses that rung's algorithm point only") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/04-tree-reductions/TreeReductions.cl");
  // Rung 3's tree replaced by work-item 0 adding the L values one after another: right sums.
  const std::string serial = test::replace_slide_region(solution, "rung3-sequential",
                                                        "    if (tid == 0)\n"
                                                        "        for (uint i = 1; i < L; ++i)\n"
                                                        "            scratch[0] += scratch[i];\n"
                                                        "    barrier(CLK_LOCAL_MEM_FENCE);\n");
  std::filesystem::create_directories(dir / "04-tree-reductions");
  test::write(dir / "04-tree-reductions" / "TreeReductions.cl", serial);
  const auto run = test::run_program("grader", "check 04 --dir " + dir.path.string());
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("FAIL algorithm: reduce3_sequential") != std::string::npos);
  // (rungs 1-4's safety run has L = 64: a tree of 6 levels, at most 7 allowed, against a chain of 63)
  CHECK(run.output.find("work-item 0 did 63 of the 63 adds in work-group 0 of reduce3_sequential (L = 64)") != std::string::npos);
  CHECK(run.output.find("at most 7 for L = 64") != std::string::npos);
  CHECK(run.output.find("PASS algorithm: reduce1_interleaved_mod") != std::string::npos);
  CHECK(run.output.find("PASS algorithm: reduce4_first_add") != std::string::npos);
  CHECK(run.output.find("FAIL rung 3") == std::string::npos);  // every sum is still right
}

TEST_CASE("points policy: a lab 03 kernel right only where a group is alone stays below half marks") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl");
  // The local id as the data index: right exactly when there is one work-group.
  const std::string local_index = test::replace_once(solution, "dA[gid] * dB[gid]", "dA[tnum] * dB[tnum]");
  std::filesystem::create_directories(dir / "class" / "lou");
  test::write(dir / "class" / "lou" / "ArrayMultReduce.cl", local_index);
  const auto run = test::run_program("grader", "grade --labs 03 --submissions " + (dir / "class").string() + " --out " +
                                                   (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const std::string gradebook = test::read(dir / "out" / "gradebook.csv");
  const auto line = gradebook.find("\nlou,");
  REQUIRE(line != std::string::npos);
  const double points = std::stod(gradebook.substr(line + 5));
  CHECK(points > 0);
  CHECK(points < 18 / 2.0);  // below half of the lab's 18 points
}

TEST_CASE("algorithm: a split of the data the lab allows is judged in the work-groups with the most work, not in a short or empty one") {
  // Two launches of kernel "k", four groups each: in the first, group 2 holds the last short run
  // (its work-item 0 did most of its adds) and group 3 none; in the second, every group is lopsided.
  grader::AlgorithmSpec spec = tree_spec();
  spec.checks[0].ops = "adds";
  grader::KernelWork allowed;
  allowed.kernel = "k", allowed.global = {64, 1, 1}, allowed.local = {16, 1, 1};
  allowed.groups = {{{0, 0, 0}, 16, 47, 5, 5, 0, 5}, {{1, 0, 0}, 16, 47, 5, 5, 3, 5}, {{2, 0, 0}, 16, 18, 5, 5, 0, 14}, {{3, 0, 0}, 16, 0, 0, 0, 0, 0}};
  const auto pass = grader::algorithm_results(spec, {allowed});
  CAPTURE(pass[0].message);
  CHECK(pass[0].status == grader::CaseStatus::Passed);
  grader::KernelWork serial = allowed;
  for (grader::GroupWork& g : serial.groups) g.work = 47, g.span = 5, g.busiest_ops = 40;
  const auto fail = grader::algorithm_results(spec, {serial});
  CHECK(fail[0].status == grader::CaseStatus::Wrong);
  CHECK(fail[0].message.find("did 40 of the 47") != std::string::npos);
  // A launch in which no group did any work is still told so.
  grader::KernelWork none = allowed;
  for (grader::GroupWork& g : none.groups) g.work = 0, g.busiest_ops = 0;
  CHECK(grader::algorithm_results(spec, {none})[0].message.find("no adds on the data were measured") == 0);
}

TEST_CASE("algorithm: lab 06's CPU branch split by elements, whose last run falls inside a work-group, keeps every point") {
  test::TempDir dir;
  test::write(dir / "06-cascade-reduction" / "CascadeDot.cl", test::lab06_split_by_elements());
  const auto run = test::run_program("grader", "check 06 --races --dir " + dir.path.string());
  CAPTURE(run.output);
  // The split is right and its groups' work is spread (an earlier rule judged the short group: "work-item 0 did 17 of the 21 adds in work-group 15").
  CHECK(run.output.find("PASS algorithm: DotCascade (measured under Oclgrind)") != std::string::npos);
  CHECK(run.output.find("cases 6 / 6, memory safety 5 / 5, algorithm 3 / 3") != std::string::npos);  // its speed is its own matter
}
