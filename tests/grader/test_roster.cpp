// Rosters and the LMS export: who is in the course, who handed nothing in, and Canvas's layout.
#include <doctest/doctest.h>

#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "term/roster.hpp"
#include "support.hpp"

TEST_CASE("roster CSV: quoted fields, and a bad row named by file and line") {
  CHECK(grader::csv_fields("ann,\"Lee, Ann\",\"say \"\"hi\"\"\",a@x.edu\r") ==
        std::vector<std::string>{"ann", "Lee, Ann", "say \"hi\"", "a@x.edu"});
  CHECK_THROWS_WITH_AS(grader::csv_fields("ann,\"Lee"), "a quoted field is not closed", kit::Error);
  test::TempDir dir;
  test::write(dir / "r.csv", "submission,name,id,email\nann,Ann Lee,1001,ann@x.edu\nben,Ben,1002\n");
  CHECK_THROWS_WITH_AS(grader::load_roster(dir / "r.csv"), doctest::Contains("r.csv:3: expected 4 fields"), kit::Error);
  test::write(dir / "r.csv", "submission,name,id,email\nann,Ann Lee,1001,ann@x.edu\nann,Ann again,1003,a2@x.edu\n");
  CHECK_THROWS_WITH_AS(grader::load_roster(dir / "r.csv"), doctest::Contains("r.csv:3: submission 'ann' is on the roster twice"), kit::Error);
  test::write(dir / "r.csv", "\xEF\xBB\xBFsubmission,name,id,email\n\nann,\"Lee, Ann\",1001,ann@x.edu\n");
  const auto roster = grader::load_roster(dir / "r.csv");
  REQUIRE(roster.size() == 1);
  CHECK(roster[0].student == "ann");  // the name in the submissions folder
  CHECK(roster[0].name == "Lee, Ann");
}

TEST_CASE("grader grade --roster writes Canvas's import file, 0 for no submission, and lists who is not on the roster") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  test::write(dir / "class" / "ann" / "ArrayMult.cl", solution);
  test::write(dir / "class" / "zed" / "ArrayMult.cl", solution);
  test::write(dir / "roster.csv", "submission,name,id,email\nann,\"Lee, Ann\",1001,ann@x.edu\nben,Ben Ode,1002,ben@x.edu\n");
  const auto run = test::run_program("grader", "grade --labs 01 --no-oclgrind --roster " + (dir / "roster.csv").string() +
                                                   " --submissions " + (dir / "class").string() + " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(test::read(dir / "out" / "lms-import.csv") ==
        "Student,ID,SIS User ID,SIS Login ID,Section,01-array-mult\n"
        "Points Possible,,,,,13\n"
        "\"Lee, Ann\",,1001,ann@x.edu,,8\n"  // the Oclgrind checks' 5 points were left out; no Canvas user id known: ID empty
        "Ben Ode,,1002,ben@x.edu,,0\n");
  const std::string check = test::read(dir / "out" / "roster-check.txt");
  CHECK(check.find("no submission: ben (Ben Ode): 0 points in every lab") != std::string::npos);
  CHECK(check.find("not on the roster: zed") != std::string::npos);
  CHECK(test::read(dir / "out" / "gradebook.csv").find("\nzed,8,8") != std::string::npos);  // still graded

  const auto bad = test::run_program("grader", "grade --labs 01 --roster " + (dir / "missing.csv").string() + " --submissions " +
                                                   (dir / "class").string() + " --out " + (dir / "out2").string());
  CHECK(bad.exit_code != 0);
  CHECK(bad.output.find("missing.csv does not exist") != std::string::npos);
}

TEST_CASE("grader grade --roster over a Canvas download: ID is the Canvas user id from the files' names, the roster's id is the SIS User ID") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  // Canvas names each file <login>_<canvas user id>_<submission id>_<file>; the roster's ids are the school's.
  test::write(dir / "class" / "annlee_48213_901_ArrayMult.cl", solution);
  test::write(dir / "class" / "benode_LATE_48214_902_ArrayMult.cl", solution);
  test::write(dir / "roster.csv", "submission,name,id,email\nannlee,Ann Lee,1001,ann@x.edu\nbenode,Ben Ode,1002,ben@x.edu\ncat,Cat Jones,1003,cat@x.edu\n");
  const auto run = test::run_program("grader", "grade --labs 01 --no-oclgrind --roster " + (dir / "roster.csv").string() +
                                                   " --submissions " + (dir / "class").string() + " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("ID from the Canvas download") != std::string::npos);
  CHECK(test::read(dir / "out" / "lms-import.csv") ==
        "Student,ID,SIS User ID,SIS Login ID,Section,01-array-mult\n"
        "Points Possible,,,,,13\n"
        "Ann Lee,48213,1001,ann@x.edu,,8\n"
        "Ben Ode,48214,1002,ben@x.edu,,8\n"  // Canvas's late mark costs nothing: the kit's specs set no late penalty
        "Cat Jones,,1003,cat@x.edu,,0\n");   // no file in the download: no Canvas user id known
}
