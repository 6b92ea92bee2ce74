// The class gradebook is the whole journal, whichever labs a run grades; gradebook-status.csv says
// why each grade is what it is; reports and the self-check subtotal the points by kind.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <sstream>

#include "export/gradebook.hpp"
#include "export/reports.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"
#include "term/late.hpp"
#include "term/roster.hpp"  // csv_fields

namespace {

using grader::CaseKind;
using grader::CaseStatus;
using grader::LabResult;
using grader::LabStatus;

LabResult result_of(const std::string& lab, LabStatus status, std::vector<grader::CaseResult> cases, const std::string& message = "") {
  LabResult r;
  r.student = "ann";
  r.lab = lab;
  r.status = status;
  r.message = message;
  r.cases = std::move(cases);
  return r;
}

grader::CaseResult line(CaseKind kind, CaseStatus status, double points, double max) {
  grader::CaseResult c;
  c.name = "line";
  c.kind = kind;
  c.status = status;
  c.points = points;
  c.max_points = max;
  return c;
}

// The cell of `student`'s row under the heading `column` of a CSV with unquoted headings.
std::string cell(const std::string& csv, const std::string& student, const std::string& column) {
  std::istringstream lines(csv);
  std::string header;
  std::getline(lines, header);
  const std::vector<std::string> names = grader::csv_fields(header);
  const auto at = std::find(names.begin(), names.end(), column);
  if (at == names.end()) return "<no column " + column + ">";
  for (std::string row; std::getline(lines, row);) {
    const std::vector<std::string> fields = grader::csv_fields(row);
    if (!fields.empty() && fields[0] == student) {
      const std::size_t i = std::size_t(at - names.begin());
      return i < fields.size() ? fields[i] : "<short row>";
    }
  }
  return "<no row " + student + ">";
}

// The grader never renames or edits a submission's file.
bool fs_exists_unchanged(const std::filesystem::path& file, const std::string& text) {
  return std::filesystem::exists(file) && test::read(file) == text;
}

}  // namespace

TEST_CASE("a status phrase says why: missing, rejected, build error, late, timed out, error, not graded yet") {
  const grader::LabSpec spec = grader::load_spec(kit::root() / "grader/specs/03-array-mult-reduce.json");
  const std::string lab = spec.lab;
  CHECK(grader::status_phrase(nullptr, spec) == "not graded yet");
  LabResult r = result_of(lab, LabStatus::Missing, {});
  CHECK(grader::status_phrase(&r, spec) == "missing (no ArrayMultReduce.cl)");
  r = result_of(lab, LabStatus::Rejected, {}, "the file is empty");
  CHECK(grader::status_phrase(&r, spec) == "rejected: the file is empty");
  r = result_of(lab, LabStatus::BuildError, {}, "ArrayMultReduce.cl:15:34: error: expected ';'\n  x = 1\n");
  CHECK(grader::status_phrase(&r, spec) == "build error: ArrayMultReduce.cl:15:34: error: expected ';'");
  r = result_of(lab, LabStatus::UnchangedStarter, {}, "ArrayMultReduce.cl is unchanged from the starter");
  CHECK(grader::status_phrase(&r, spec) == "unchanged starter");
  r = result_of(lab, LabStatus::Error, {}, "the grader failed here: no device");
  CHECK(grader::status_phrase(&r, spec) == "error (graded again next run)");
  r = result_of(lab, LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 5, 5), line(CaseKind::Safety, CaseStatus::Error, 0, 1)});
  CHECK(grader::status_phrase(&r, spec) == "error (graded again next run)");  // an Oclgrind failure: no verdict yet
  r = result_of(lab, LabStatus::Graded,
                {line(CaseKind::Case, CaseStatus::Timeout, 0, 2), line(CaseKind::Case, CaseStatus::Passed, 2, 2),
                 line(CaseKind::Case, CaseStatus::Timeout, 0, 2), line(CaseKind::Safety, CaseStatus::NotRun, 0, 0)});
  CHECK(grader::status_phrase(&r, spec) == "timed out (2 of 3 cases)");  // a line the device cannot run is not counted

  grader::LabSpec late_spec = spec;
  late_spec.late_penalty_per_day = 0.1;
  r = result_of(lab, LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 10, 10)});
  CHECK(grader::status_phrase(&r, late_spec) == "graded");
  const auto deadline = std::filesystem::file_time_type::clock::now();
  grader::apply_late_penalty(late_spec, deadline + std::chrono::hours(30), deadline, r);
  CHECK(grader::status_phrase(&r, late_spec) == "late (2 days, -20%)");
  CHECK(grader::late_penalty_line(r) == "late penalty -2");

  // Canvas's _LATE_ mark with a penalty set costs one day, the least the mark shows: without a
  // deadline, and with one that the files' times (an unzip that kept none) make it look on time for.
  r = result_of(lab, LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 10, 10)});
  grader::apply_late_mark(late_spec, r);
  CHECK(grader::status_phrase(&r, late_spec) == "late (marked by Canvas: 1 day, -10%)");
  CHECK(grader::late_penalty_line(r) == "late penalty -1");
  CHECK(r.cases.back().message.find("no --deadline") != std::string::npos);
  r = result_of(lab, LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 10, 10)});
  grader::apply_late_penalty(late_spec, deadline - std::chrono::hours(1), deadline, r, true);
  CHECK(grader::late_penalty_line(r) == "late penalty -1");
  r = result_of(lab, LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 10, 10)});
  grader::apply_late_penalty(late_spec, deadline - std::chrono::hours(1), deadline, r, false);  // on time, no mark
  CHECK(grader::late_penalty_line(r).empty());
  r = result_of(lab, LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 10, 10)});
  grader::apply_late_mark(spec, r);  // no penalty in the spec: the mark's note says it, nothing is taken
  CHECK(r.cases.size() == 1);
}

TEST_CASE("the status names a near-miss file name, lateness without a penalty, and time-outs of cases and checks apart") {
  const grader::LabSpec spec = grader::load_spec(kit::root() / "grader/specs/03-array-mult-reduce.json");
  LabResult r = result_of(spec.lab, LabStatus::Missing, {}, "found arraymultreduce.cl; expected ArrayMultReduce.cl");
  CHECK(grader::status_phrase(&r, spec) == "missing: found arraymultreduce.cl, expected ArrayMultReduce.cl");
  r = result_of(spec.lab, LabStatus::Missing, {}, "no file named ArrayMultReduce.cl in the submission");
  CHECK(grader::status_phrase(&r, spec) == "missing (no ArrayMultReduce.cl)");

  // No penalty in the spec: the lateness still shows; so does Canvas's own mark.
  r = result_of(spec.lab, LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 10, 10)});
  const auto deadline = std::filesystem::file_time_type::clock::now();
  grader::apply_late_penalty(spec, deadline + std::chrono::hours(30), deadline, r);
  CHECK(grader::status_phrase(&r, spec) == "graded, late 2 days (no penalty)");
  r = result_of(spec.lab, LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 10, 10)});
  r.notes.push_back("Canvas marked this submission late");
  CHECK(grader::status_phrase(&r, spec) == "graded, marked late by Canvas");
  grader::apply_late_penalty(spec, deadline + std::chrono::hours(3), deadline, r);
  CHECK(grader::status_phrase(&r, spec) == "graded, late 1 day (no penalty), marked late by Canvas");

  // Lab 03's shape: 10 cases, 5 checks (memory safety and algorithm).
  std::vector<grader::CaseResult> lines;
  for (int i = 0; i < 10; ++i) lines.push_back(line(CaseKind::Case, i < 8 ? CaseStatus::Timeout : CaseStatus::Passed, 0, 1));
  for (int i = 0; i < 3; ++i) lines.push_back(line(CaseKind::Safety, CaseStatus::Timeout, 0, 1));
  for (int i = 0; i < 2; ++i) lines.push_back(line(CaseKind::Algorithm, CaseStatus::Timeout, 0, 1));
  r = result_of(spec.lab, LabStatus::Graded, lines);
  CHECK(grader::status_phrase(&r, spec) == "timed out (8 of 10 cases, 5 of 5 checks)");
  r.cases[10].status = r.cases[11].status = r.cases[12].status = r.cases[13].status = r.cases[14].status = CaseStatus::Passed;
  CHECK(grader::status_phrase(&r, spec) == "timed out (8 of 10 cases)");
  for (int i = 0; i < 10; ++i) r.cases[std::size_t(i)].status = CaseStatus::Passed;
  r.cases[12].status = CaseStatus::Timeout;
  CHECK(grader::status_phrase(&r, spec) == "timed out (1 of 5 checks)");
  // The time budget: one case not finished alone, the larger ones and the checks not run after it.
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    r.cases[i].status = i == 0 ? CaseStatus::Passed : i == 1 ? CaseStatus::Timeout : CaseStatus::NotRun;
    r.cases[i].message = i < 2 ? "" : std::string(grader::kNotRunAfterTimeout) + "one work-group of 8\" alone ...";
  }
  CHECK(grader::status_phrase(&r, spec) == "timed out (1 of 10 cases; 8 cases, 5 checks not run after it)");
}

TEST_CASE("grade: a kernel file of nearly the lab's name is named in the status file") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl");
  test::write(dir / "class" / "ann" / "ArrayMultReduce (1).cl", solution);
  test::write(dir / "class" / "ben" / "arraymultreduce.cl", solution);
  const auto run = test::run_program("grader", "grade --labs 03 --no-oclgrind --submissions " + (dir / "class").string() + " --out " +
                                                   (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const std::string status = test::read(dir / "out" / "gradebook-status.csv");
  CHECK(cell(status, "ann", "03-array-mult-reduce") == "missing: found ArrayMultReduce (1).cl, expected ArrayMultReduce.cl");
  CHECK(cell(status, "ben", "03-array-mult-reduce") == "missing: found arraymultreduce.cl, expected ArrayMultReduce.cl");
  CHECK(fs_exists_unchanged(dir / "class" / "ben" / "arraymultreduce.cl", solution));
}

TEST_CASE("points by kind: only the kinds a lab has, the late penalty on a line of its own") {
  LabResult r = result_of("03-array-mult-reduce", LabStatus::Graded,
                          {line(CaseKind::Case, CaseStatus::Passed, 6, 6), line(CaseKind::Case, CaseStatus::Passed, 4, 4),
                           line(CaseKind::Safety, CaseStatus::Passed, 5, 5), line(CaseKind::Algorithm, CaseStatus::Passed, 3, 3),
                           line(CaseKind::Speed, CaseStatus::Slow, 0, 4)});
  CHECK(grader::points_by_kind(r) == "cases 10 / 10, memory safety 5 / 5, algorithm 3 / 3, speed 0 / 4");
  CHECK(grader::late_penalty_line(r).empty());
  const std::string check = grader::check_report(r);
  CHECK(check.find("\n  cases 10 / 10, memory safety 5 / 5, algorithm 3 / 3, speed 0 / 4\n  18 / 22 points\n") != std::string::npos);

  r.cases.push_back(line(CaseKind::Late, CaseStatus::Late, -3.6, 0));
  r.cases.back().name = "late penalty";
  CHECK(grader::points_by_kind(r) == "cases 10 / 10, memory safety 5 / 5, algorithm 3 / 3, speed 0 / 4");
  CHECK(grader::check_report(r).find("\n  late penalty -3.6\n  14.4 / 22 points\n") != std::string::npos);

  const grader::LabSpec spec = grader::load_spec(kit::root() / "grader/specs/03-array-mult-reduce.json");
  const std::string md = grader::student_report_md("ann", {spec}, {{{"ann", spec.lab}, r}});
  CHECK(md.find("\nPoints: cases 10 / 10, memory safety 5 / 5, algorithm 3 / 3, speed 0 / 4\n\nlate penalty -3.6\n\n") !=
        std::string::npos);

  const LabResult only_cases = result_of("01-array-mult", LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Wrong, 0, 8)});
  CHECK(grader::points_by_kind(only_cases) == "cases 0 / 8");
}

TEST_CASE("the gradebook's labs: those graded, the others the journal holds, and a removed spec's, marked") {
  const std::vector<grader::LabSpec> graded = grader::load_specs(kit::root() / "grader/specs", {"03"});
  grader::ResultMap results;
  results[{"ann", "01-array-mult"}] = result_of("01-array-mult", LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 8, 8)});
  results[{"ann", "00-gone"}] = result_of("00-gone", LabStatus::Graded, {line(CaseKind::Case, CaseStatus::Passed, 4, 6)});
  const std::vector<grader::LabSpec> labs = grader::gradebook_labs(graded, results);
  REQUIRE(labs.size() == 3);
  CHECK(labs[0].lab == "00-gone");
  CHECK(grader::spec_removed(labs[0]));
  CHECK(labs[0].max_points() == 6);  // the largest max_points its results had
  CHECK(labs[1].lab == "01-array-mult");
  CHECK_FALSE(grader::spec_removed(labs[1]));
  CHECK(labs[2].lab == "03-array-mult-reduce");
  const std::string csv = grader::gradebook_csv({"ann", "ben"}, labs, results);
  CHECK(csv == "student,00-gone (spec removed),01-array-mult,03-array-mult-reduce,total\nann,4,8,,12\nben,,,,0\n");
  const std::string status = grader::gradebook_status_csv({"ann", "ben"}, labs, results);
  CHECK(status == "student,00-gone (spec removed),01-array-mult,03-array-mult-reduce\n"
                  "ann,graded,graded,not graded yet\nben,not graded yet,not graded yet,not graded yet\n");
}

TEST_CASE("grade --labs 01, then --labs 03: the gradebook keeps lab 01's column, and the status file says why") {
  test::TempDir dir;
  const auto solution = [](const char* lab, const char* file) { return test::read(kit::root() / "solutions" / lab / file); };
  test::write(dir / "class" / "ann" / "ArrayMult.cl", solution("01-array-mult", "ArrayMult.cl"));
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", solution("03-array-mult-reduce", "ArrayMultReduce.cl"));
  test::write(dir / "class" / "ben" / "ArrayMult.cl", solution("01-array-mult", "ArrayMult.cl"));
  test::write(dir / "class" / "ben" / "ArrayMultReduce.cl", "\n");
  test::write(dir / "class" / "cat" / "ArrayMult.cl",
              test::replace_once(solution("01-array-mult", "ArrayMult.cl"), "    dC[gid] = dA[gid] * dB[gid];", "    dC[gid] = dA[gid] * ;"));
  const std::string where = " --no-races --submissions " + (dir / "class").string() + " --out " + (dir / "out").string();
  const auto first = test::run_program("grader", "grade --labs 01" + where);
  REQUIRE_MESSAGE(first.exit_code == 0, first.output);
  const std::string before = test::read(dir / "out" / "gradebook.csv");
  const std::string ann01 = cell(before, "ann", "01-array-mult");
  CHECK(ann01 != "0");
  CHECK(cell(before, "cat", "01-array-mult") == "0");

  const auto second = test::run_program("grader", "grade --labs 03" + where);
  REQUIRE_MESSAGE(second.exit_code == 0, second.output);
  const std::string book = test::read(dir / "out" / "gradebook.csv");
  CHECK(book.rfind("student,01-array-mult,03-array-mult-reduce,total\n", 0) == 0);
  CHECK(cell(book, "ann", "01-array-mult") == ann01);  // the first run's points, intact
  CHECK(cell(book, "ben", "01-array-mult") == ann01);
  CHECK(cell(book, "ben", "03-array-mult-reduce") == "0");
  const std::string status = test::read(dir / "out" / "gradebook-status.csv");
  CHECK(status.rfind("student,01-array-mult,03-array-mult-reduce\n", 0) == 0);
  CHECK(cell(status, "ann", "01-array-mult") == "graded");
  CHECK(cell(status, "ann", "03-array-mult-reduce") == "graded");
  CHECK(cell(status, "ben", "03-array-mult-reduce") == "rejected: the file is empty");
  CHECK(cell(status, "cat", "01-array-mult").rfind("build error: ", 0) == 0);
  CHECK(cell(status, "cat", "03-array-mult-reduce") == "missing (no ArrayMultReduce.cl)");
  CHECK(test::read(dir / "out" / "ben" / "report.md").find("the file is empty") != std::string::npos);
  CHECK(test::read(dir / "out" / "ann" / "report.md").find("## 01-array-mult") != std::string::npos);
  CHECK(test::read(dir / "out" / "ann" / "report.md").find("\nPoints: cases ") != std::string::npos);

  // merge writes the same columns; a lab whose spec is gone keeps its column, marked.
  const auto merged = test::run_program("grader", "merge --labs 03 --submissions " + (dir / "class").string() + " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(merged.exit_code == 0, merged.output);
  CHECK(test::read(dir / "out" / "gradebook.csv") == book);
  test::write(dir / "specs" / "03-array-mult-reduce.json", test::read(kit::root() / "grader/specs/03-array-mult-reduce.json"));
  const auto removed = test::run_program("grader", "--specs " + (dir / "specs").string() + " grade --labs 03" + where);
  REQUIRE_MESSAGE(removed.exit_code == 0, removed.output);
  const std::string marked = test::read(dir / "out" / "gradebook.csv");
  CHECK(marked.rfind("student,01-array-mult (spec removed),03-array-mult-reduce,total\n", 0) == 0);
  CHECK(cell(marked, "ann", "01-array-mult (spec removed)") == ann01);
}
