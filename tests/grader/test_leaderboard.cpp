// The speed leaderboard: right kernels only, best first, under aliases, and Gradescope's field.
#include <doctest/doctest.h>

#include "kit/paths.hpp"
#include "export/leaderboard.hpp"
#include "export/reports.hpp"
#include "support.hpp"

namespace {

grader::LabResult speed_result(const std::string& student, grader::CaseStatus status, double ratio) {
  grader::LabResult r;
  r.student = student;
  r.lab = "06-cascade-reduction";
  r.status = grader::LabStatus::Graded;
  r.device = "NVIDIA H200 on NVIDIA CUDA (132 compute units, driver 580.159.04)";
  r.cases.push_back({"speed against the solution", true, 4, 4, status, "", "", 1, grader::CaseKind::Speed, ratio});
  return r;
}

}  // namespace

TEST_CASE("leaderboard: right kernels' speeds, best first, each student under a stable alias") {
  grader::ResultMap results;
  results[{"ann", "06-cascade-reduction"}] = speed_result("ann", grader::CaseStatus::Slow, 0.61);
  results[{"ben", "06-cascade-reduction"}] = speed_result("ben", grader::CaseStatus::Passed, 1.07);
  results[{"cat", "06-cascade-reduction"}] = speed_result("cat", grader::CaseStatus::Wrong, 3.5);  // fast and wrong: not on the board
  const auto entries = grader::leaderboard_entries(results);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].student == "ben");
  CHECK(entries[1].student == "ann");
  CHECK(entries[0].device == "NVIDIA H200");
  CHECK(grader::leaderboard_alias("ann") == grader::leaderboard_alias("ann"));
  CHECK(grader::leaderboard_alias("ann") != grader::leaderboard_alias("ben"));
  const std::string shown = grader::leaderboard_table(entries, false);
  CHECK(shown.find("ann") == std::string::npos);  // aliases only
  CHECK(shown.find(grader::leaderboard_alias("ben")) < shown.find(grader::leaderboard_alias("ann")));
  CHECK(grader::leaderboard_table(entries, true).find("ben") != std::string::npos);

  const grader::json gs = grader::gradescope_results({speed_result("ann", grader::CaseStatus::Passed, 1.07)});
  REQUIRE(gs.contains("leaderboard"));
  CHECK(gs["leaderboard"][0]["name"] == "06-cascade-reduction speed on NVIDIA H200");
  CHECK(gs["leaderboard"][0]["value"] == 1.07);
  CHECK(gs["leaderboard"][0]["order"] == "desc");
  CHECK_FALSE(grader::gradescope_results({speed_result("cat", grader::CaseStatus::Wrong, 3.5)}).contains("leaderboard"));
}

TEST_CASE("grader leaderboard prints a graded class's table and names a folder that is not one") {
  test::TempDir dir;
  test::write(dir / "class" / "ann" / "CascadeDot.cl", test::read(kit::root() / "solutions/06-cascade-reduction/CascadeDot.cl"));
  const auto graded = test::run_program("grader", "grade --labs 06 --no-oclgrind --submissions " + (dir / "class").string() +
                                                      " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(graded.exit_code == 0, graded.output);
  const auto board = test::run_program("grader", "leaderboard " + (dir / "out").string());
  CHECK(board.exit_code == 0);
  CHECK(board.output.find("06-cascade-reduction: speed against the solution") != std::string::npos);
  CHECK(board.output.find(grader::leaderboard_alias("ann")) != std::string::npos);
  const auto wrong = test::run_program("grader", "leaderboard " + (dir / "class").string());
  CHECK(wrong.exit_code != 0);
  CHECK(wrong.output.find("holds no journal.jsonl") != std::string::npos);
}
