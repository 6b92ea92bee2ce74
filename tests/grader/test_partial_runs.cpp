// Partial runs (--students, --students-file, --labs) write the whole class's gradebook and status
// file from the journal, like --regrade; roster-check.txt agrees with the files written.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "kit/paths.hpp"
#include "support.hpp"
#include "term/roster.hpp"  // csv_fields

namespace fs = std::filesystem;

namespace {

// The first field of each row below the header.
std::vector<std::string> rows_of(const std::string& csv) {
  std::istringstream lines(csv);
  std::vector<std::string> rows;
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line))
    if (!line.empty()) rows.push_back(grader::csv_fields(line)[0]);
  return rows;
}

// Every row of `students` in both files, and each "in gradebook.csv" of the roster check true.
void check_whole_class(const fs::path& out, const std::vector<std::string>& students, const std::string& run) {
  INFO(run);
  CHECK(rows_of(test::read(out / "gradebook.csv")) == students);
  CHECK(rows_of(test::read(out / "gradebook-status.csv")) == students);
  const std::string check = test::read(out / "roster-check.txt");
  for (const std::string& s : students)
    if (check.find("not on the roster: " + s + " (") != std::string::npos)
      CHECK(check.find("not on the roster: " + s + " (graded, in gradebook.csv") != std::string::npos);
}

}  // namespace

TEST_CASE("--students, --students-file and --labs write every student's row, as --regrade does") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  for (const char* s : {"ann", "ben", "zed"}) test::write(dir / "class" / s / "ArrayMult.cl", solution);
  test::write(dir / "roster.csv", "submission,name,id,email\nann,Ann,1,a@x\nben,Ben,2,b@x\n");
  test::write(dir / "only-ann.txt", "ann\n");
  const std::string base = "grade --no-oclgrind --roster " + (dir / "roster.csv").string() + " --submissions " + (dir / "class").string() +
                           " --out " + (dir / "out").string();
  const auto all = test::run_program("grader", base + " --labs 01");
  REQUIRE_MESSAGE(all.exit_code == 0, all.output);
  const std::vector<std::string> everyone{"ann", "ben", "zed"};
  check_whole_class(dir / "out", everyone, "the whole class");

  for (const std::string& partial : std::vector<std::string>{" --labs 01 --students ben", " --labs 01 --students zed --regrade zed",
                                    " --labs 01 --students-file " + (dir / "only-ann.txt").string(), " --labs 03 --students ben",
                                    " --labs 03"}) {
    const auto run = test::run_program("grader", base + partial);
    REQUIRE_MESSAGE(run.exit_code == 0, run.output);
    check_whole_class(dir / "out", everyone, partial);
    CHECK(test::read(dir / "out" / "lms-import.csv").find("\nAnn,,1,a@x,,8") != std::string::npos);
  }
  CHECK(rows_of(test::read(dir / "out" / "gradebook.csv")) == everyone);
  CHECK(test::read(dir / "out" / "gradebook.csv").find("\nann,8,") != std::string::npos);  // lab 01 kept beside lab 03
}

TEST_CASE("a first partial run into a new OUT: the others' rows read 'not graded yet', and the run says so") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  for (const char* s : {"ann", "ben", "cat"}) test::write(dir / "class" / s / "ArrayMult.cl", solution);
  test::write(dir / "roster.csv", "submission,name,id,email\nann,Ann,1,a@x\n");
  const auto run = test::run_program("grader", "grade --labs 01 --no-oclgrind --students ann --roster " + (dir / "roster.csv").string() +
                                                   " --submissions " + (dir / "class").string() + " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(rows_of(test::read(dir / "out" / "gradebook.csv")) == std::vector<std::string>{"ann", "ben", "cat"});
  const std::string status = test::read(dir / "out" / "gradebook-status.csv");
  CHECK(status.find("\nben,not graded yet\n") != std::string::npos);
  CHECK(run.output.find("2 student(s) not graded yet") != std::string::npos);
  // roster-check names them as they are: in gradebook.csv, not graded.
  const std::string check = test::read(dir / "out" / "roster-check.txt");
  CHECK(check.find("not on the roster: ben (not graded yet, in gradebook.csv, not in lms-import.csv)") != std::string::npos);
}
