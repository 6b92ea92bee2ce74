// The statuses and kinds have one JSON word each: the words report.json and journal.jsonl have
// always held, read back as the same value, and a word the grader does not write is refused.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "isolation/case_child.hpp"
#include "kit/errors.hpp"

using json = nlohmann::json;

namespace {

// Each value written as its word, and that word read back as the same value.
template <class E>
void check_words(const std::vector<std::pair<E, std::string>>& expected) {
  for (const auto& [value, word] : expected) {
    CAPTURE(word);
    CHECK(json(value) == word);
    CHECK(grader::word(value) == word);
    CHECK(json(word).get<E>() == value);
  }
}

}  // namespace

TEST_CASE("case and lab statuses: one JSON word each, the words the reports have always held, and no other word read") {
  using grader::CaseStatus;
  check_words<CaseStatus>({{CaseStatus::Passed, "passed"},
                           {CaseStatus::Wrong, "wrong"},
                           {CaseStatus::Slow, "slow"},
                           {CaseStatus::Unsafe, "unsafe"},
                           {CaseStatus::Timeout, "timeout"},
                           {CaseStatus::Crashed, "crashed"},
                           {CaseStatus::OutOfMemory, "out-of-memory"},
                           {CaseStatus::NotRun, "not-run"},
                           {CaseStatus::Error, "error"},
                           {CaseStatus::Late, "late"},
                           {CaseStatus::NotChecked, "not-checked"},
                           {CaseStatus::Scaled, "scaled"}});
  using grader::CaseKind;
  check_words<CaseKind>({{CaseKind::Case, "case"},
                         {CaseKind::Speed, "speed"},
                         {CaseKind::Safety, "safety"},
                         {CaseKind::Algorithm, "algorithm"},
                         {CaseKind::Late, "late"}});
  using grader::LabStatus;
  check_words<LabStatus>({{LabStatus::Graded, "graded"},
                          {LabStatus::Missing, "missing"},
                          {LabStatus::Rejected, "rejected"},
                          {LabStatus::BuildError, "build-error"},
                          {LabStatus::Error, "error"},
                          {LabStatus::UnchangedStarter, "unchanged-starter"}});
  // The child's build error has the lab's word now; a child's result is never kept.
  using grader::StepStatus;
  check_words<StepStatus>({{StepStatus::Built, "built"},
                           {StepStatus::Ok, "ok"},
                           {StepStatus::BuildError, "build-error"},
                           {StepStatus::Rejected, "rejected"},
                           {StepStatus::KernelFailed, "kernel-failed"},
                           {StepStatus::NotRunHere, "not-run-here"},
                           {StepStatus::Error, "error"},
                           {StepStatus::Sandbox, "sandbox"}});

  CHECK_THROWS_WITH_AS(json("build_error").get<LabStatus>(), doctest::Contains("'build_error' is not a lab status"), kit::Error);
  CHECK_THROWS_AS(json("not-run-here").get<CaseStatus>(), kit::Error);  // the child's word, never a case's
  CHECK_THROWS_AS(json("").get<CaseKind>(), kit::Error);
  // A step's status is read without throwing: none for a result without one or with another word.
  CHECK(grader::step_status(json::object()) == std::nullopt);
  CHECK(grader::step_status(json{{"status", "build_error"}}) == std::nullopt);
  CHECK(grader::step_status(json{{"status", "not-run-here"}, {"reason", "L = 4096"}}) == StepStatus::NotRunHere);
}

TEST_CASE("a lab result and its cases read back from their JSON as written, and a status the grader does not write is refused") {
  grader::LabResult r;
  r.student = "ann";
  r.lab = "03-array-mult-reduce";
  r.status = grader::LabStatus::Graded;
  r.cases = {{"L = 8", true, 1, 1, grader::CaseStatus::Passed, "", "", 0.1},
             {"speed against the solution", true, 1.5, 2, grader::CaseStatus::Slow, "0.75", "", 1, grader::CaseKind::Speed, 0.75},
             {"late penalty", true, -0.5, 0, grader::CaseStatus::Late, "a day late", "", 0, grader::CaseKind::Late}};
  const json j = grader::to_json(r);
  CHECK(j["status"] == "graded");
  CHECK(j["cases"][1]["status"] == "slow");
  CHECK(j["cases"][1]["kind"] == "speed");
  CHECK(j["cases"][2]["kind"] == "late");
  const grader::LabResult back = grader::lab_result_from_json(j);
  CHECK(grader::to_json(back) == j);
  CHECK(back.cases[2].status == grader::CaseStatus::Late);

  json old = j;  // a record of an earlier kit: no "kind", read as a correctness case
  old["cases"][0].erase("kind");
  CHECK(grader::lab_result_from_json(old).cases[0].kind == grader::CaseKind::Case);
  json other = j;
  other["cases"][0]["status"] = "skipped";
  CHECK_THROWS_AS(grader::lab_result_from_json(other), kit::Error);
  other = j;
  other["status"] = "done";
  CHECK_THROWS_AS(grader::lab_result_from_json(other), kit::Error);
}
