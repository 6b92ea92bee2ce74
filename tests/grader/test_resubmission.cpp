// A changed submission is graded again without being asked: a kernel fixed in place, a new
// version folder, another deadline; each journal record carries the hash of what it was graded from.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "batch/graded_hash.hpp"
#include "intake/students.hpp"
#include "intake/submission.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"
#include "term/late.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// gradebook.csv's rows by student: "ann" -> "ann,8,8".
std::map<std::string, std::string> gradebook_rows(const fs::path& out) {
  std::map<std::string, std::string> rows;
  std::istringstream lines(test::read(out / "gradebook.csv"));
  for (std::string line; std::getline(lines, line);) rows[line.substr(0, line.find(','))] = line;
  return rows;
}

bool says(const test::Command& run, const std::string& text) { return run.output.find(text) != std::string::npos; }

}  // namespace

TEST_CASE("resubmissions: a changed kernel, a new version and a new deadline are regraded, nothing else is") {
  test::TempDir dir;
  // Lab 01's spec with a late penalty of 10 % a day (the stored references serve it).
  const std::string data = test::lab01_with_late_penalty(dir.path, 0.1);

  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  const std::string starter = test::read(kit::root() / "labs/01-array-mult/ArrayMult.cl");
  const auto deadline = grader::parse_deadline("2026-12-01T23:59");
  const auto hand_in = [&](const std::string& folder, const std::string& kernel, std::chrono::hours after_deadline) {
    test::write(dir / "class" / folder / "ArrayMult.cl", kernel);
    fs::last_write_time(dir / "class" / folder / "ArrayMult.cl", deadline + after_deadline);
  };
  hand_in("ann", starter, std::chrono::hours(-5));
  hand_in("ben", solution, std::chrono::hours(-4));
  hand_in("cat", solution, std::chrono::hours(30));  // two days late
  const std::string grade = data + " grade --labs 01 --no-races --submissions " + (dir / "class").string() + " --out " +
                            (dir / "out").string() + " --deadline ";
  const auto first = test::run_program("grader", grade + "2026-12-01T23:59");
  REQUIRE_MESSAGE(first.exit_code == 0, first.output);
  const auto before = gradebook_rows(dir / "out");
  REQUIRE(before.at("ann") != "ann,8,8");  // the starter does not earn every point
  CHECK(before.at("ben") == "ben,8,8");
  CHECK(before.at("cat") == "cat,6.4,6.4");  // 20 % off for two days
  std::istringstream records(test::read(dir / "out" / "journal.jsonl"));
  for (std::string line; std::getline(records, line);) CHECK(json::parse(line)["graded_hash"].get<std::string>().size() == 64);

  // The same command again: nothing changed, nothing graded, the journal as it was.
  const std::string journal = test::read(dir / "out" / "journal.jsonl");
  const auto same = test::run_program("grader", grade + "2026-12-01T23:59");
  REQUIRE_MESSAGE(same.exit_code == 0, same.output);
  CHECK(says(same, "3 result(s) already in the journal, 0 to grade"));
  CHECK_FALSE(says(same, "regraded"));
  CHECK(test::read(dir / "out" / "journal.jsonl") == journal);
  CHECK_FALSE(says(same, "older grader"));

  // A journal an older grader wrote (no graded_hash): kept, and the run says so.
  {
    test::TempDir old_out;
    std::istringstream lines(journal);
    std::string stripped;
    for (std::string line; std::getline(lines, line);) {
      json record = json::parse(line);
      record.erase("graded_hash");
      record.erase("submission_hash");
      stripped += record.dump() + "\n";
    }
    test::write(old_out / "journal.jsonl", stripped);
    const auto old_run = test::run_program("grader", data + " grade --labs 01 --no-races --submissions " + (dir / "class").string() +
                                                         " --out " + old_out.path.string() + " --deadline 2026-12-01T23:59");
    REQUIRE_MESSAGE(old_run.exit_code == 0, old_run.output);
    CHECK(says(old_run, "journal: 3 result(s) written by an older grader carry no graded_hash: kept as they are"));
    CHECK(says(old_run, "0 to grade"));
  }

  // ann fixes her kernel in place: she alone is graded again, and her report says so.
  hand_in("ann", solution, std::chrono::hours(-3));
  const auto fixed = test::run_program("grader", grade + "2026-12-01T23:59");
  REQUIRE_MESSAGE(fixed.exit_code == 0, fixed.output);
  CHECK(says(fixed, "1 resubmitted (content changed): regraded"));
  CHECK(says(fixed, "2 result(s) already in the journal, 1 to grade"));
  auto after = gradebook_rows(dir / "out");
  CHECK(after.at("ann") == "ann,8,8");
  CHECK(after.at("ben") == before.at("ben"));
  CHECK(after.at("cat") == before.at("cat"));
  const std::string old_points = before.at("ann").substr(4, before.at("ann").find(',', 4) - 4);
  CHECK(test::read(dir / "out" / "ann" / "report.json").find("(resubmitted): " + old_points + " -> 8 points") != std::string::npos);
  CHECK(test::read(dir / "class" / "ann" / "ArrayMult.cl") == solution);  // never written by the grader

  // ben hands in a new version (the starter, by mistake): graded again, the newest version counts.
  hand_in("ben-v2", starter, std::chrono::hours(-2));
  const auto version = test::run_program("grader", grade + "2026-12-01T23:59");
  REQUIRE_MESSAGE(version.exit_code == 0, version.output);
  CHECK(says(version, "1 resubmitted (content changed): regraded"));
  after = gradebook_rows(dir / "out");
  CHECK(after.at("ben") == "ben" + before.at("ann").substr(3));  // the starter's points
  CHECK(after.at("ann") == "ann,8,8");
  CHECK(after.at("cat") == before.at("cat"));

  // A deadline two days later: cat is on time and loses nothing; ann and ben, on time both ways, stay.
  const auto later = test::run_program("grader", grade + "2026-12-03T23:59");
  REQUIRE_MESSAGE(later.exit_code == 0, later.output);
  CHECK(says(later, "1 with a changed spec, references or deadline: regraded"));
  CHECK(says(later, "2 result(s) already in the journal, 1 to grade"));
  const auto last = gradebook_rows(dir / "out");
  CHECK(last.at("cat") == "cat,8,8");
  CHECK(last.at("ann") == after.at("ann"));
  CHECK(last.at("ben") == after.at("ben"));
  CHECK(test::read(dir / "out" / "cat" / "report.json").find("(spec, references or deadline changed): 6.4 -> 8 points") != std::string::npos);

  // On a cluster the same: cat changes her kernel, `grader slurm` plans her alone, her earlier
  // result copied into her task's journal for the history.
  hand_in("cat", starter, std::chrono::hours(-1));
  const auto slurm = test::run_program("grader", data + " slurm --dry-run --labs 01 --no-races --submissions " + (dir / "class").string() +
                                                     " --out " + (dir / "out").string() + " --deadline 2026-12-03T23:59");
  REQUIRE_MESSAGE(slurm.exit_code == 0, slurm.output);
  CHECK(says(slurm, "1 result(s) resubmitted or with a changed spec, references or deadline: regraded"));
  CHECK(test::read(dir / "out" / "slurm" / "round-1" / "chunk-0.txt") == "cat\n");
  CHECK_FALSE(fs::exists(dir / "out" / "slurm" / "round-1" / "chunk-1.txt"));
  const json copied = json::parse(test::read(dir / "out" / "slurm" / "round-1" / "task-0" / "journal.jsonl"));
  CHECK(copied["student"] == "cat");
  CHECK(copied["copied_for_regrade"] == true);
}

TEST_CASE("a kernel edited while a run is in progress: the run grades the bytes it hashed, the next run sees the change") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  const std::string starter = test::read(kit::root() / "labs/01-array-mult/ArrayMult.cl");
  REQUIRE(solution != starter);
  test::write(dir / "class" / "ann" / "ArrayMult.cl", starter);
  const auto specs = grader::load_specs(kit::root() / "grader/specs", {"01"});
  REQUIRE(specs.size() == 1);
  const fs::path references = kit::root() / "grader/reference";
  const auto listing = grader::read_submissions(dir / "class");
  REQUIRE(listing.students.size() == 1);

  // The run hashes ann's lab 01 (the starter); then she saves her solution before it is graded.
  const grader::PreparedStudent during = grader::prepare_student(listing.students[0], specs, references, std::nullopt, dir / "work1");
  const grader::LabInputs& hashed = during.labs.at(specs[0].lab);
  test::write(dir / "class" / "ann" / "ArrayMult.cl", solution);
  // What grade_lab will read is the starter it hashed, not the file as it is now.
  const auto graded = grader::find_kernel(hashed.root, specs[0].kernel_file);
  REQUIRE(graded.has_value());
  CHECK(test::read(graded->path) == starter);
  CHECK(graded->path.string().rfind((dir / "class").string(), 0) != 0);  // a private copy, not the submission

  // The next run hashes the solution: a different hash, and a change the journal will call a resubmission.
  const grader::PreparedStudent next = grader::prepare_student(listing.students[0], specs, references, std::nullopt, dir / "work2");
  const grader::LabInputs& now = next.labs.at(specs[0].lab);
  CHECK(now.graded_hash != hashed.graded_hash);
  CHECK(now.submission_hash != hashed.submission_hash);
  const json record = grader::hash_fields(hashed);
  CHECK(grader::change_reason(record, now) == "resubmitted");
  CHECK(test::read(grader::find_kernel(now.root, specs[0].kernel_file)->path) == solution);
  CHECK(test::read(dir / "class" / "ann" / "ArrayMult.cl") == solution);  // never written by the grader
}
