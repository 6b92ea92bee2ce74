// The example class of grader/examples/class/ gets exactly the grades written in its EXPECTED.json,
// and grading leaves every submission untouched.
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <nlohmann/json.hpp>

#include "grader/example_class.hpp"
#include "kit/paths.hpp"
#include "support.hpp"
#include "term/roster.hpp"  // csv_fields

using json = nlohmann::json;

namespace {

// OUT/gradebook-status.csv of the example class: one phrase per student, saying why.
void check_status_file(const std::filesystem::path& out, const json& expected) {
  const std::string status = test::read(out / "gradebook-status.csv");
  CHECK(status.rfind("student," + expected["lab"].get<std::string>() + "\n", 0) == 0);
  std::map<std::string, std::string> phrase;
  std::istringstream lines(status);
  for (std::string line; std::getline(lines, line);)
    if (const auto fields = grader::csv_fields(line); fields.size() == 2) phrase[fields[0]] = fields[1];
  CHECK(phrase["ada"] == "graded");
  CHECK(phrase["ben-missing-barrier"] == "graded");  // wrong, but graded: the points say how wrong
  CHECK(phrase["farid-compile-error"].rfind("build error: ArrayMultReduce.cl:15:34: error: expected ';'", 0) == 0);
  // gus's kernel did not finish N = 8 alone: the time budget left out the rest.
  CHECK(phrase["gus-infinite-loop"] == "timed out (1 of 10 cases; 8 cases, 5 checks not run after it)");
  for (const auto& [student, want] : expected["students"].items()) {
    CAPTURE(student);
    CHECK(phrase.count(student) == 1);
    bool timed_out = false;
    const json report = json::parse(test::read(out / student / "report.json"));
    for (const json& c : report["labs"][0]["cases"]) timed_out |= c["status"] == "timeout";
    if (want["status"] == "graded" && !timed_out) CHECK(phrase[student] == "graded");
    if (want["status"] == "graded" && timed_out) CHECK(phrase[student].rfind("timed out (", 0) == 0);
    if (want["status"] == "graded") CHECK(test::read(out / student / "report.md").find("\nPoints: cases ") != std::string::npos);
  }
}

}  // namespace

namespace test {
namespace {

// The folder this ctest run shares the example class's grading in; none outside ctest.
std::optional<std::filesystem::path> shared_example_class() {
  const char* fixtures = std::getenv("KIT_SHARED_FIXTURES");
  if (fixtures == nullptr || *fixtures == '\0') return std::nullopt;
  return std::filesystem::absolute(fixtures) / "example-class";
}

// Grades the example class into `out`; true when the run exited 0 and left the class untouched.
bool grade_example_class(const std::filesystem::path& out) {
  const std::filesystem::path cls = kit::root() / "grader" / "examples" / "class";
  const auto before = snapshot(cls);
  const auto run = run_program("grader", "grade --labs 03 --submissions " + cls.string() + " --out " + out.string() + " --jobs 2");
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const bool untouched = snapshot(cls) == before;
  CHECK(untouched);  // the grader never writes into a submission
  return untouched;
}

}  // namespace

std::filesystem::path example_class_graded(const TempDir& scratch) {
  if (const auto shared = shared_example_class(); shared && std::filesystem::exists(*shared / "graded")) return *shared / "out";
  REQUIRE(grade_example_class(scratch / "example-class"));
  return scratch / "example-class";
}

}  // namespace test

TEST_CASE("the example class is graded once per ctest run, leaving every submission untouched, for the tests that read it") {
  const auto shared = test::shared_example_class();
  if (!shared) {
    MESSAGE("not run by ctest (no KIT_SHARED_FIXTURES): each test that reads the example class's grading grades it itself");
    return;
  }
  std::filesystem::remove_all(*shared);  // never an earlier run's
  // "graded" is written last, and only after a clean run: a test that finds it reads a whole grading.
  if (test::grade_example_class(*shared / "out")) test::write(*shared / "graded", "");
}

TEST_CASE("the example class gets the grades written in EXPECTED.json") {
  const std::filesystem::path cls = kit::root() / "grader" / "examples" / "class";
  const json expected = json::parse(test::read(cls / "EXPECTED.json"));
  test::TempDir scratch;
  const std::filesystem::path out = test::example_class_graded(scratch);  // untouched by the grader, checked there

  const std::string lab = expected["lab"];
  const std::string gradebook = test::read(out / "gradebook.csv");
  CHECK(gradebook.rfind("student," + lab + ",total\n", 0) == 0);
  for (const auto& [student, want] : expected["students"].items()) {
    CAPTURE(student);
    const json report = json::parse(test::read(out / student / "report.json"));
    CHECK(std::filesystem::exists(out / student / "report.md"));
    const json& got = report["labs"][0];
    CHECK(got["status"] == want["status"]);
    const double points = got["points"].get<double>();
    if (want["points"].is_array()) {  // undefined behaviour: a range
      CHECK(points >= want["points"][0].get<double>());
      CHECK(points <= want["points"][1].get<double>());
    } else {
      CHECK(points == want["points"].get<double>());
      CHECK(gradebook.find("\n" + student + "," + want["points"].dump() + ",") != std::string::npos);
    }
    if (want.contains("kernel")) CHECK(got["kernel"] == want["kernel"]);
    if (want.contains("message")) CHECK(got["message"].get<std::string>().find(want["message"].get<std::string>()) != std::string::npos);
    const std::map<std::string, std::string> safety_kinds = {
        {"memory safety: data races (Oclgrind)", "data-race"},
        {"memory safety: barrier divergence (Oclgrind)", "barrier-divergence"},
        {"memory safety: invalid memory accesses (Oclgrind)", "invalid-access"},
        {"memory safety: uninitialized values (Oclgrind)", "uninitialized"}};
    int safety_seen = 0, algorithm_seen = 0;
    // A check that passed reads "scaled" where the kernel lost case points (the points policy);
    // "passed-or-scaled" (undefined behaviour decides the cases) is whichever the cases make it.
    double case_points = 0, case_max = 0;
    for (const json& c : got["cases"])
      if (c["kind"] == "case") case_points += c["points"].get<double>(), case_max += c["max_points"].get<double>();
    const auto check_status = [&](const json& c, std::string status) {
      if (status == "passed-or-scaled") status = case_points < case_max ? "scaled" : "passed";
      if (status == "stopped") CHECK((c["status"] == "timeout" || c["status"] == "out-of-memory"));
      else CHECK(c["status"] == status);
      if (c["status"] == "scaled") CHECK(c["points"].get<double>() < c["max_points"].get<double>());
    };
    for (const json& c : got["cases"]) {
      const std::string name = c["name"];
      CAPTURE(name);
      if (const auto kind = safety_kinds.find(name); kind != safety_kinds.end()) {
        ++safety_seen;
        const json& ws = want["safety"];
        check_status(c, ws.contains(kind->second) ? ws[kind->second].get<std::string>() : ws.value("*", "passed"));
        if (want.contains("safety_message") && want["safety_message"].contains(kind->second))
          CHECK(c["message"].get<std::string>().find(want["safety_message"][kind->second].get<std::string>()) !=
                std::string::npos);
        continue;
      }
      if (name.rfind("algorithm: ", 0) == 0) {
        ++algorithm_seen;
        check_status(c, want.value("algorithm", "passed"));
        if (want.contains("algorithm_message"))
          CHECK(c["message"].get<std::string>().find(want["algorithm_message"].get<std::string>()) != std::string::npos);
        continue;
      }
      const std::string status = want["cases"].contains(name) ? want["cases"][name] : want["cases"]["*"];
      CAPTURE(c["status"]);
      if (status == "failed") CHECK((c["status"] == "crashed" || c["status"] == "wrong" || c["status"] == "timeout"));
      else if (status == "passed-or-crashed") CHECK((c["status"] == "passed" || c["status"] == "crashed"));
      else CHECK(c["status"] == status);
      if (c["status"] != "passed") CHECK(c["points"] == 0);
      // A crash beside a barrier-divergence finding is hinted at the barrier, not an out-of-bounds access.
      if (c["status"] == "crashed" && want["safety"].value("barrier-divergence", "") == "unsafe")
        CHECK(c["hint"].get<std::string>().find("a barrier that not every work-item reaches") == 0);
      if (want.contains("case_message") && want["case_message"].contains(name))
        CHECK(c["message"].get<std::string>().find(want["case_message"][name].get<std::string>()) != std::string::npos);
      if (want.contains("hint") && want["hint"].contains(name))
        CHECK(c["hint"].get<std::string>().find(want["hint"][name].get<std::string>()) != std::string::npos);
    }
    CHECK(safety_seen == 4);
    CHECK(algorithm_seen == 1);
  }
  check_status_file(out, expected);
}
