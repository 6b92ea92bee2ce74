// Submissions folders as an LMS hands them over: Canvas and Moodle bulk downloads, GitHub Classroom
// clones, and a folder in which nothing is a submission (an error, never an empty gradebook).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "intake/lms_layouts.hpp"
#include "intake/students.hpp"
#include "intake/submission.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {
const fs::path kExampleClass = kit::root() / "grader" / "examples" / "class";

const grader::Student& student(const grader::StudentListing& listing, const std::string& name) {
  for (const grader::Student& s : listing.students)
    if (s.student == name) return s;
  FAIL("no student " << name << " in " << listing.summary());
  throw std::logic_error("unreachable");
}

std::vector<std::string> names(const grader::StudentListing& listing) {
  std::vector<std::string> all;
  for (const grader::Student& s : listing.students) all.push_back(s.student);
  return all;
}

std::string joined_notes(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  return all;
}
}  // namespace

TEST_CASE("LMS names: Canvas and Moodle entries are read, a full name becomes a safe student name") {
  const auto c = grader::parse_canvas_name("smithjohn_LATE_4211_98765_ArrayMultReduce-1.cl");
  REQUIRE(c);
  CHECK(c->login == "smithjohn");
  CHECK(c->user_id == "4211");
  CHECK(c->submission_id == "98765");
  CHECK(c->file == "ArrayMultReduce-1.cl");
  CHECK(c->late);
  CHECK(grader::parse_canvas_name("smithjohn_late_4211_98765_a_b.cl")->file == "a_b.cl");
  CHECK_FALSE(grader::parse_canvas_name("smithjohn_4211_98765_ArrayMultReduce.cl")->late);
  CHECK_FALSE(grader::parse_canvas_name("notes.txt"));
  CHECK_FALSE(grader::parse_canvas_name("smithjohn_x_98765_a.cl"));
  CHECK(grader::canvas_copy("ArrayMultReduce-2.cl") == std::make_pair(std::string("ArrayMultReduce.cl"), 2));
  CHECK(grader::canvas_copy("ArrayMultReduce.cl") == std::make_pair(std::string("ArrayMultReduce.cl"), 0));
  CHECK(grader::canvas_copy("Makefile-3") == std::make_pair(std::string("Makefile"), 3));

  const auto m = grader::parse_moodle_name("Zoë Müller_4211_assignsubmission_file_");
  REQUIRE(m);
  CHECK(m->full_name == "Zoë Müller");
  CHECK(m->id == "4211");
  CHECK(m->plugin == "file");
  CHECK(m->file.empty());
  CHECK(grader::parse_moodle_name("Ann Lee_7_assignsubmission_file_ArrayMultReduce.cl")->file == "ArrayMultReduce.cl");
  CHECK_FALSE(grader::parse_moodle_name("Ann Lee_assignsubmission_file_"));

  CHECK(grader::student_identifier("Zoë Müller") == "zoe-muller");
  CHECK(grader::student_identifier("  José O'Brien-Smith ") == "jose-o-brien-smith");
  CHECK(grader::student_identifier("Łukasz Żółw, Æsa Groß") == "lukasz-zolw-aesa-gross");
  CHECK(grader::student_identifier("E\xcc\x81mile") == "emile");  // E + combining acute accent
  CHECK(grader::student_identifier("Иван Петров") == "Иван-Петров");
  CHECK(grader::student_identifier("caf\xe9 au lait") == "caf-au-lait");  // a Latin-1 byte, not UTF-8
  CHECK(grader::student_identifier("?! ..").empty());
}

TEST_CASE("a folder with no submission in it is an error naming what is there and the layouts accepted") {
  test::TempDir subs, out;
  for (const char* f : {"notes.txt", "photo.png", "Lab report.pdf", "grades.xlsx", "syllabus.md", "z.cl"}) test::write(subs / f, "x");
  const auto run = test::run_program("grader", "grade --labs 03 --submissions '" + subs.path.string() + "' --out " + (out / "o").string());
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("error: no submission recognised in " + subs.path.string() + ": 6 files and 0 folders (Lab report.pdf, "
                        "grades.xlsx, notes.txt, photo.png, syllabus.md, and 1 more)") != std::string::npos);
  CHECK(run.output.find("Canvas \"Download Submissions\"") != std::string::npos);
  CHECK(run.output.find("<Full Name>_<id>_assignsubmission_file_/") != std::string::npos);
  CHECK(run.output.find("<assignment>-<username>/") != std::string::npos);
  CHECK_FALSE(fs::exists(out / "o" / "gradebook.csv"));

  test::TempDir empty;
  CHECK_THROWS_WITH_AS(grader::read_submissions(empty.path), doctest::Contains("it is empty"), kit::Error);
  // A download unpacked one folder too deep is named, not graded as one student.
  test::write(empty / "download" / "ada_101_9001_ArrayMultReduce.cl", "kernel");
  CHECK_THROWS_WITH_AS(grader::read_submissions(empty.path),
                       doctest::Contains("holds one folder, download/, which is a Canvas download: 1 student: give --submissions"),
                       kit::Error);
}

TEST_CASE("Canvas: a student's files are gathered, the highest -N of a file is graded under its real name") {
  test::TempDir subs, scratch;
  test::write(subs / "ada_101_9001_ArrayMultReduce.cl", "first");
  test::write(subs / "ada_101_9003_ArrayMultReduce-1.cl", "second");
  test::write(subs / "ada_101_9005_ArrayMultReduce-2.cl", "third");
  test::write(subs / "ada_101_9005_notes.md", "my notes");
  test::write(subs / "bob_LATE_102_9010_ArrayMultReduce.cl", "bob's");
  test::write(subs / "lu_103_9020_ArrayMultReduce.cl", "lu one");  // two people whose logins agree
  test::write(subs / "lu_104_9021_ArrayMultReduce.cl", "lu two");
  test::write(subs / "README.txt", "what the TA wrote");
  const auto before = test::snapshot(subs.path);

  const grader::StudentListing listing = grader::read_submissions(subs.path);
  CHECK(listing.summary() == "Canvas download: 4 students");
  CHECK(names(listing) == std::vector<std::string>{"ada", "bob", "lu-103", "lu-104"});
  CHECK(joined_notes(listing.skipped) == "README.txt: not a Canvas submission file (<login>_<userid>_<submissionid>_<file>)\n");
  const grader::Student& ada = student(listing, "ada");
  CHECK(ada.lms_id == "101");
  REQUIRE(ada.files.size() == 2);
  CHECK(joined_notes(ada.notes).find("ArrayMultReduce.cl was handed in 3 times: the newest, ada_101_9005_ArrayMultReduce-2.cl, is graded "
                               "as ArrayMultReduce.cl (older: ada_101_9001_ArrayMultReduce.cl, ada_101_9003_ArrayMultReduce-1.cl)") !=
        std::string::npos);
  CHECK(joined_notes(student(listing, "bob").notes) == "Canvas marked this submission late\n");

  const fs::path root = grader::submission_root(ada, scratch / "ada");
  CHECK(test::snapshot(root) == std::map<std::string, std::string>{{"ArrayMultReduce.cl", "third"}, {"notes.md", "my notes"}});
  const auto found = grader::find_kernel(root, "ArrayMultReduce.cl");
  REQUIRE(found);
  CHECK(found->relative == "ArrayMultReduce.cl");
  CHECK(found->others.empty());
  CHECK(test::snapshot(subs.path) == before);  // the download is only read
}

TEST_CASE("Moodle: folders and flat files, names with spaces and non-ASCII letters are graded") {
  test::TempDir dir;
  const std::string ada = test::read(kExampleClass / "ada" / "ArrayMultReduce.cl");
  test::write(dir / "class" / "Zoë Müller_4211_assignsubmission_file_" / "ArrayMultReduce.cl", ada);
  test::write(dir / "class" / "Zoë Müller_4211_assignsubmission_onlinetext_" / "onlinetext.html", "<p>done</p>");
  test::write(dir / "class" / "José Núñez_4212_assignsubmission_file_ArrayMultReduce.cl", ada);
  test::write(dir / "class" / "José Núñez_4212_assignsubmission_file_README.md", "notes");
  test::write(dir / "class" / "index.html", "Moodle's own page");

  const grader::StudentListing listing = grader::read_submissions(dir / "class");
  CHECK(listing.summary() == "Moodle download: 2 students");
  CHECK(names(listing) == std::vector<std::string>{"jose-nunez", "zoe-muller"});
  CHECK(student(listing, "zoe-muller").lms_id == "4211");
  CHECK(student(listing, "zoe-muller").files.size() == 2);  // the file folder and the online text, gathered
  CHECK(joined_notes(listing.skipped).find("index.html: not a Moodle submission") != std::string::npos);

  const auto run = test::run_program("grader", "grade --labs 03 --no-races --submissions '" + (dir / "class").string() +
                                                   "' --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.rfind("Moodle download: 2 students\n", 0) == 0);
  for (const std::string name : {"zoe-muller", "jose-nunez"}) {
    CAPTURE(name);
    const json lab = json::parse(test::read(dir / "out" / name / "report.json"))["labs"][0];
    CHECK(lab["status"] == "graded");
    CHECK(lab["kernel"] == "ArrayMultReduce.cl");
    CHECK(lab["points"] == lab["max_points"]);  // a correct kernel (ada's): 10 case points and 3 algorithm points (--no-races)
  }
  CHECK(test::read(dir / "out" / "gradebook.csv") == "student,03-array-mult-reduce,total\njose-nunez,13,13\nzoe-muller,13,13\n");
}

TEST_CASE("GitHub Classroom clones: the student is the name after the assignment's prefix") {
  test::TempDir subs;
  const std::string kernel = "labs/03-array-mult-reduce/ArrayMultReduce.cl";
  test::write(subs / "lab3-ada" / kernel, "ada's");
  test::write(subs / "lab3-ben-lee" / kernel, "ben's");
  test::write(subs / "lab3-chen" / "README.md", "moved everything");
  test::write(subs / "roster.csv", "login\n");
  const grader::StudentListing listing = grader::read_submissions(subs.path);
  CHECK(listing.summary() == "GitHub Classroom clones of lab3-: 3 students");
  CHECK(names(listing) == std::vector<std::string>{"ada", "ben-lee", "chen"});
  CHECK(joined_notes(listing.skipped) == "roster.csv: not a folder; GitHub Classroom clones are lab3-<username>/ folders\n");
  const fs::path root = grader::submission_root(student(listing, "ben-lee"), subs / "unused");
  CHECK(root == subs / "lab3-ben-lee");  // graded where it is
  CHECK_FALSE(fs::exists(subs / "unused"));
  CHECK(grader::find_kernel(root, "ArrayMultReduce.cl")->relative == kernel);

  // Not clones: versions of one student, one folder alone, folders beside archives.
  test::TempDir plain;
  test::write(plain / "ann-v2" / kernel, "x");
  test::write(plain / "ann-v3" / kernel, "x");
  CHECK(grader::read_submissions(plain.path).summary() == "one folder or archive per student: 1 student");
  CHECK(grader::read_submissions(plain.path).students[0].student == "ann");
  CHECK(grader::read_submissions(plain.path).students[0].earlier == std::vector<std::string>{"ann-v2"});
  test::TempDir one;
  test::write(one / "lab3-ann" / kernel, "x");
  CHECK(names(grader::read_submissions(one.path)) == std::vector<std::string>{"lab3-ann"});
  test::write(one / "lab3-bob.zip", "x");
  CHECK(names(grader::read_submissions(one.path)) == std::vector<std::string>{"lab3-ann", "lab3-bob"});
}

TEST_CASE("a misnamed kernel file is named, and the exact name wins over a copy") {
  test::TempDir dir;
  test::write(dir / "a" / "arraymultreduce.cl", "x");
  CHECK(grader::missing_kernel_message(dir / "a", "ArrayMultReduce.cl") == "found arraymultreduce.cl; expected ArrayMultReduce.cl");
  CHECK_FALSE(grader::find_kernel(dir / "a", "ArrayMultReduce.cl"));

  for (const char* f : {"Array Mult Reduce.CL", "ArrayMultReduce.cl.txt", "sub/ArrayMultReduce (1).cl", "ArrayMultReduce-2.cl",
                        "ArrayMult.cl", "ArrayMultReduceX.cl", "ArrayMultReduce.clx", "ArrayMultReduce copy.cl"})
    test::write(dir / "b" / f, "x");
  CHECK(grader::near_kernel_names(dir / "b", "ArrayMultReduce.cl") ==
        std::vector<std::string>{"Array Mult Reduce.CL", "ArrayMultReduce copy.cl", "ArrayMultReduce-2.cl", "ArrayMultReduce.cl.txt",
                                 "sub/ArrayMultReduce (1).cl"});
  CHECK(grader::near_kernel_names(dir / "b", "ArrayMult.cl").empty());  // the exact name is not a near one
  CHECK(grader::missing_kernel_message(dir / "c", "ArrayMultReduce.cl") == "no file named ArrayMultReduce.cl in the submission");

  test::write(dir / "d" / "ArrayMultReduce (1).cl", "older");
  test::write(dir / "d" / "ArrayMultReduce.cl", "newer");
  const auto found = grader::find_kernel(dir / "d", "ArrayMultReduce.cl");
  REQUIRE(found);
  CHECK(found->relative == "ArrayMultReduce.cl");
  CHECK(found->others == std::vector<std::string>{"ArrayMultReduce (1).cl"});
}

TEST_CASE("a Canvas download of the example class gets the points of the folder layout") {
  test::TempDir dir;
  const json expected = json::parse(test::read(kExampleClass / "EXPECTED.json"))["students"];
  const fs::path subs = dir / "canvas";
  test::write(subs / "ada_LATE_101_9001_ArrayMultReduce.cl", test::read(kExampleClass / "ada" / "ArrayMultReduce.cl"));
  // ben handed in the starter first, then his kernel: Canvas renamed the second ArrayMultReduce-1.cl.
  test::write(subs / "benmissingbarrier_102_9002_ArrayMultReduce.cl", test::read(kit::root() / "labs/03-array-mult-reduce/ArrayMultReduce.cl"));
  test::write(subs / "benmissingbarrier_102_9007_ArrayMultReduce-1.cl", test::read(kExampleClass / "ben-missing-barrier" / "ArrayMultReduce.cl"));
  const auto before = test::snapshot(subs);
  const auto run = test::run_program("grader", "grade --labs 03 --jobs 2 --submissions " + subs.string() + " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.rfind("Canvas download: 2 students\n", 0) == 0);
  CHECK(test::snapshot(subs) == before);
  CHECK(test::read(dir / "out" / "gradebook.csv") == "student,03-array-mult-reduce,total\nada," + expected["ada"]["points"].dump() + "," +
                                                         expected["ada"]["points"].dump() + "\nbenmissingbarrier," +
                                                         expected["ben-missing-barrier"]["points"].dump() + "," +
                                                         expected["ben-missing-barrier"]["points"].dump() + "\n");
  const json ben = json::parse(test::read(dir / "out" / "benmissingbarrier" / "report.json"))["labs"][0];
  CHECK(ben["kernel"] == "ArrayMultReduce.cl");
  CHECK(ben["notes"].dump().find("the newest, benmissingbarrier_102_9007_ArrayMultReduce-1.cl, is graded as ArrayMultReduce.cl") !=
        std::string::npos);
  const json ada = json::parse(test::read(dir / "out" / "ada" / "report.json"))["labs"][0];
  CHECK(ada["notes"].dump().find("Canvas marked this submission late") != std::string::npos);
}
