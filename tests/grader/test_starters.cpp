// Untouched starters are recognised before anything is built, and a crash's hint agrees with what
// the same grading's safety check found.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "judge/graded_kernels.hpp"
#include "judge/hints.hpp"
#include "kit/paths.hpp"
#include "oclgrind/checks.hpp"
#include "support.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {
const fs::path kStarter = kit::root() / "labs/03-array-mult-reduce/ArrayMultReduce.cl";
}  // namespace

TEST_CASE("same_as_starter: the starter outside comments and spacing, never the starter file itself, no match without one") {
  test::TempDir dir;
  const std::string starter = test::read(kStarter);
  test::write(dir / "starter.cl", starter);
  const std::string respaced = "// my name\n" + starter.substr(starter.find('\n') + 1) + "\n\n";
  CHECK(grader::same_as_starter(starter, dir / "mine.cl", dir / "starter.cl"));
  CHECK(grader::same_as_starter(respaced, dir / "mine.cl", dir / "starter.cl"));
  const std::string edited = test::replace_once(starter, "prods[tnum] = 0.0f;", "prods[tnum] = dA[gid] * dB[gid];");
  CHECK_FALSE(grader::same_as_starter(edited, dir / "mine.cl", dir / "starter.cl"));
  CHECK_FALSE(grader::same_as_starter(starter, dir / "mine.cl", dir / "absent.cl"));     // no starter: graded as before
  CHECK_FALSE(grader::same_as_starter(starter, dir / "starter.cl", dir / "starter.cl"));  // the kit's own labs/
}

TEST_CASE("an untouched starter is unchanged-starter with 0 points on every line, before any build or Oclgrind run") {
  test::TempDir dir;
  const std::string starter = test::read(kStarter);
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", "// Ann\n" + starter.substr(starter.find('\n') + 1));
  test::write(dir / "class" / "ben" / "ArrayMultReduce.cl", test::read(kit::root() / "grader/examples/class/ben-missing-barrier/ArrayMultReduce.cl"));
  const auto run = test::run_program("grader", "grade --labs 03 --jobs 2 --submissions " + (dir / "class").string() + " --out " +
                                                   (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json ann = json::parse(test::read(dir / "out" / "ann" / "report.json"))["labs"][0];
  const json ben = json::parse(test::read(dir / "out" / "ben" / "report.json"))["labs"][0];
  CHECK(ann["status"] == "unchanged-starter");
  CHECK(ann["message"].get<std::string>().find("ArrayMultReduce.cl is unchanged from the starter") == 0);
  CHECK(ann["message"].get<std::string>().find(": 0 points") != std::string::npos);
  CHECK(ann["points"] == 0);
  CHECK(ann["device"] == "");  // nothing was built
  CHECK(ann["max_points"] == ben["max_points"]);
  REQUIRE(ann["cases"].size() == ben["cases"].size());  // every case and check has its line
  REQUIRE(ann["cases"].size() >= 5);                    // lab 03: its cases, safety and algorithm lines
  for (const json& c : ann["cases"]) {
    CAPTURE(c["name"]);
    CHECK(c["status"] == "not-run");
    CHECK(c["points"] == 0);
    CHECK(c["seconds"] == 0);
    CHECK(c["message"] == "not run: the kernel file is unchanged from the starter");
  }
  CHECK(ben["status"] == "graded");  // an edited kernel is graded as before
  CHECK(test::read(dir / "out" / "gradebook.csv").find("\nann,0,0\n") != std::string::npos);
  CHECK(test::read(dir / "out" / "ann" / "report.md").find("**unchanged-starter**") != std::string::npos);
}

TEST_CASE("a crash's hint names the divergent barrier the same grading's safety check found") {
  grader::LabResult r;
  r.status = grader::LabStatus::Graded;
  const std::string oob = "an out-of-bounds access? check every index against the array's size";
  const std::string divergence = "work-group divergence detected (barrier): work-item 1 of work-group 0 at ArrayMultReduce.cl:19:5 "
                                 "`barrier(CLK_LOCAL_MEM_FENCE);` reached a different barrier from work-item 0 of work-group 0 at "
                                 "ArrayMultReduce.cl:15:13 `barrier(CLK_LOCAL_MEM_FENCE);`";
  r.cases = {{"L = 8", true, 0, 1, grader::CaseStatus::Crashed, "the case crashed (SIGSEGV)", oob, 0},
             {"L = 2", true, 0, 1, grader::CaseStatus::Wrong, "expected 3, got 0", "", 0},
             {grader::safety_name("barrier-divergence"), false, 0, 1, grader::CaseStatus::Passed, "", "", 0, grader::CaseKind::Safety}};
  grader::LabResult clean = r;
  grader::crash_hints_from_findings(clean);  // no divergence found: the hint stays
  CHECK(clean.cases[0].hint == oob);
  r.cases[2].status = grader::CaseStatus::Unsafe;
  r.cases[2].message = divergence + "\n... and 2 more";
  grader::crash_hints_from_findings(r);
  CHECK(r.cases[0].hint.find("a barrier that not every work-item reaches") == 0);
  CHECK(r.cases[0].hint.find("ArrayMultReduce.cl:15:13") != std::string::npos);
  CHECK(r.cases[0].hint.find("out-of-bounds") == std::string::npos);
  CHECK(r.cases[0].hint.find("and 2 more") == std::string::npos);
  CHECK(r.cases[1].hint.empty());  // a wrong case is not a crash
}
