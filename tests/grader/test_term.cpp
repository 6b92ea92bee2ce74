// A term's submissions: several versions (the newest counts), a deadline with a late penalty from
// the spec, and regrades that keep every earlier result in the journal.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "batch/batch.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

TEST_CASE("versions and deadlines: name-v2 is a newer version, a deadline is read as UTC and checked") {
  CHECK(grader::split_version("ann-v3") == std::make_pair(std::string("ann"), 3));
  CHECK(grader::split_version("ann") == std::make_pair(std::string("ann"), 1));
  CHECK(grader::split_version("ann-v") == std::make_pair(std::string("ann-v"), 1));
  CHECK_THROWS_WITH_AS(grader::parse_deadline("2026-13-01T23:59"), doctest::Contains("'2026-13-01T23:59' is not a time"), kit::Error);
  CHECK_THROWS_AS(grader::parse_deadline("tomorrow"), kit::Error);
  const auto a = grader::parse_deadline("2026-12-01T23:59"), b = grader::parse_deadline("2026-12-02T23:59:00");
  CHECK(std::chrono::duration_cast<std::chrono::hours>(b - a).count() == 24);
}

TEST_CASE("a term: the newest version is graded, late work loses the spec's penalty, a regrade keeps the history") {
  test::TempDir dir;
  // Lab 01's spec with a late penalty of 10 % a day (the stored references serve it).
  const std::string data = test::lab01_with_late_penalty(dir.path, 0.1);

  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  const std::string starter = test::read(kit::root() / "labs/01-array-mult/ArrayMult.cl");
  test::write(dir / "class" / "ann" / "ArrayMult.cl", starter);
  test::write(dir / "class" / "ann-v2" / "ArrayMult.cl", solution);
  test::write(dir / "class" / "ben" / "ArrayMult.cl", solution);
  // ann's newest version 30 hours after the deadline: two days late; ben on time.
  const auto deadline = grader::parse_deadline("2026-12-01T23:59");
  fs::last_write_time(dir / "class" / "ann-v2" / "ArrayMult.cl", deadline + std::chrono::hours(30));
  fs::last_write_time(dir / "class" / "ben" / "ArrayMult.cl", deadline - std::chrono::hours(1));
  const std::string grade = data + " grade --labs 01 --no-oclgrind --deadline 2026-12-01T23:59 --submissions " +
                            (dir / "class").string() + " --out " + (dir / "out").string();
  const auto run = test::run_program("grader", grade);
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json ann = json::parse(test::read(dir / "out" / "ann" / "report.json"))["labs"][0];
  CHECK(ann["notes"].dump().find("earlier versions handed in: ann; the newest, ann-v2, was graded") != std::string::npos);
  CHECK(ann["points"] == doctest::Approx(8 * 0.8));  // 8 case points, 20 % off for two days
  CHECK(ann["cases"].back()["name"] == "late penalty");
  CHECK(ann["cases"].back()["message"].get<std::string>().find("(2 day(s) late): 20% of the 8 points earned") != std::string::npos);
  const json ben = json::parse(test::read(dir / "out" / "ben" / "report.json"))["labs"][0];
  CHECK(ben["points"] == 8);

  // A regrade of ben, with its reason: a second journal line, the report says what changed.
  const auto regrade = test::run_program("grader", grade + " --regrade ben --reason 'regrade request'");
  REQUIRE_MESSAGE(regrade.exit_code == 0, regrade.output);
  const json ben2 = json::parse(test::read(dir / "out" / "ben" / "report.json"))["labs"][0];
  CHECK(ben2["notes"].dump().find("(regrade request): 8 -> 8 points") != std::string::npos);
  std::size_t ben_lines = 0;
  std::ifstream journal(dir / "out" / "journal.jsonl");
  for (std::string line; std::getline(journal, line);) {
    const json j = json::parse(line);
    CHECK(j.contains("graded_at"));
    CHECK(j["kit_version"] == kit::version());
    ben_lines += j["student"] == "ben";
  }
  CHECK(ben_lines == 2);
  const auto unknown = test::run_program("grader", grade + " --regrade zed");
  CHECK(unknown.exit_code != 0);
  CHECK(unknown.output.find("--regrade: no submission") != std::string::npos);
}

TEST_CASE("a first --deadline regrades only those it makes late, and dropping it names who loses lateness and needs --no-deadline") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  test::write(dir / "class" / "ann" / "ArrayMult.cl", solution);
  test::write(dir / "class" / "ben" / "ArrayMult.cl", solution);
  const auto deadline = grader::parse_deadline("2026-12-01T23:59");
  fs::last_write_time(dir / "class" / "ann" / "ArrayMult.cl", deadline + std::chrono::hours(30));  // two days late
  fs::last_write_time(dir / "class" / "ben" / "ArrayMult.cl", deadline - std::chrono::hours(1));
  const std::string grade =
      "grade --labs 01 --no-oclgrind --submissions " + (dir / "class").string() + " --out " + (dir / "out").string();
  const auto first = test::run_program("grader", grade);
  REQUIRE_MESSAGE(first.exit_code == 0, first.output);

  const auto late = test::run_program("grader", grade + " --deadline 2026-12-01T23:59");
  REQUIRE_MESSAGE(late.exit_code == 0, late.output);
  CHECK(late.output.find("1 with a changed spec, references or deadline: regraded") != std::string::npos);
  CHECK(late.output.find("] ann  01-array-mult") != std::string::npos);
  CHECK(late.output.find("] ben  01-array-mult") == std::string::npos);  // on time: not graded again
  const std::string status = test::read(dir / "out" / "gradebook-status.csv");
  CHECK(status.find("\nann,\"graded, late 2 days (no penalty)\"\n") != std::string::npos);
  CHECK(status.find("\nben,graded\n") != std::string::npos);

  const std::string journal = test::read(dir / "out" / "journal.jsonl");
  const auto dropped = test::run_program("grader", grade);
  CHECK(dropped.exit_code != 0);
  CHECK(dropped.output.find("ann (01-array-mult)") != std::string::npos);
  CHECK(dropped.output.find("--no-deadline") != std::string::npos);
  const bool journal_kept = test::read(dir / "out" / "journal.jsonl") == journal;
  CHECK_MESSAGE(journal_kept, "the journal changed: nothing was to be graded");
  CHECK(test::read(dir / "out" / "gradebook-status.csv") == status);

  const auto meant = test::run_program("grader", grade + " --no-deadline");
  REQUIRE_MESSAGE(meant.exit_code == 0, meant.output);
  CHECK(meant.output.find("lose their lateness: ann (01-array-mult)") != std::string::npos);
  CHECK(test::read(dir / "out" / "gradebook-status.csv").find("\nann,graded\n") != std::string::npos);
  CHECK(test::run_program("grader", grade + " --no-deadline --deadline 2026-12-01T23:59").exit_code != 0);
}
