// Grading a class: resume after a kill, archives (good and hostile), duplicate students, and final
// files that are never seen half-written.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "core/files.hpp"
#include "batch/batch.hpp"
#include "batch/output_lock.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

using json = nlohmann::json;

namespace {
const std::filesystem::path kClass = kit::root() / "grader" / "examples" / "class";

void copy_student(const std::string& name, const std::filesystem::path& to) {
  std::filesystem::copy(kClass / name, to / name, std::filesystem::copy_options::recursive);
}

std::vector<json> journal_records(const std::filesystem::path& file, std::size_t* damaged) {
  std::vector<json> records;
  *damaged = 0;
  std::istringstream lines(test::read(file));
  for (std::string line; std::getline(lines, line);) {
    try {
      records.push_back(json::parse(line));
    } catch (const json::parse_error&) {
      ++*damaged;
    }
  }
  return records;
}
}  // namespace

TEST_CASE("a batch killed part-way resumes from its journal and redoes nothing") {
  test::TempDir subs, out;
  for (const char* s : {"ada", "ben-missing-barrier", "chloe-wrong-mask", "hana-oob-read"}) copy_student(s, subs.path);
  const std::string grader = std::string(KIT_BIN_DIR) + "/grader";

  const pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);
    execl(grader.c_str(), grader.c_str(), "grade", "--labs", "03", "--submissions", subs.path.c_str(), "--out", out.path.c_str(), nullptr);
    _exit(127);
  }
  std::size_t damaged = 0;
  // Up to 300 s for the first finished student (about 5 s on an idle machine): a loaded machine
  // only makes the kill land later, and the check below needs it before the last of four.
  for (int i = 0; i < 6000 && journal_records(out / "journal.jsonl", &damaged).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  const std::size_t before = journal_records(out / "journal.jsonl", &damaged).size();
  REQUIRE(before >= 1);
  REQUIRE(before < 4);  // killed part-way
  CHECK_FALSE(std::filesystem::exists(out / "gradebook.csv"));  // final files come only at the end

  const auto resumed = test::run_program("grader", "grade --labs 03 --submissions " + subs.path.string() + " --out " + out.path.string());
  REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.output);
  CHECK(resumed.output.find(std::to_string(before) + " result(s) already in the journal, " + std::to_string(4 - before) +
                            " to grade") != std::string::npos);
  const auto records = journal_records(out / "journal.jsonl", &damaged);
  std::set<std::string> students;
  for (const json& r : records) students.insert(r["student"].get<std::string>());
  CHECK(records.size() == 4);  // each student graded exactly once over both runs
  CHECK(students.size() == 4);
  CHECK(test::read(out / "gradebook.csv") ==
        "student,03-array-mult-reduce,total\nada,18,18\nben-missing-barrier,3,3\nchloe-wrong-mask,2.8,2.8\nhana-oob-read,0,0\n");

  const std::string journal = test::read(out / "journal.jsonl");
  const auto again = test::run_program("grader", "grade --labs 03 --submissions " + subs.path.string() + " --out " + out.path.string());
  CHECK(again.output.find("4 result(s) already in the journal, 0 to grade") != std::string::npos);
  CHECK(test::read(out / "journal.jsonl") == journal);
  for (const auto& e : std::filesystem::recursive_directory_iterator(out.path))
    CHECK_MESSAGE(e.path().string().find(".tmp") == std::string::npos, e.path().string());
}

TEST_CASE("archives are graded like folders, a hostile one is refused without harm") {
  test::TempDir subs, out, staging;
  test::write(staging / "ada" / "ArrayMultReduce.cl", test::read(kClass / "ada" / "ArrayMultReduce.cl"));
  const std::string make = "cd " + staging.path.string() + " && python3 -c \"" +
                           "import zipfile, tarfile\n"
                           "zipfile.ZipFile('" + (subs / "zed.zip").string() + "', 'w').write('ada/ArrayMultReduce.cl')\n"
                           "t = tarfile.open('" + (subs / "eve.tar.gz").string() + "', 'w:gz')\n"
                           "t.add('ada/ArrayMultReduce.cl', arcname='ArrayMultReduce.cl')\n"
                           "t.add('ada/ArrayMultReduce.cl', arcname='../escape.cl')\n"
                           "t.close()\"";
  REQUIRE(std::system(make.c_str()) == 0);
  test::write(subs / "notes.txt", "not a submission");
  const auto run = test::run_program("grader", "grade --labs 03 --submissions " + subs.path.string() + " --out " + out.path.string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("skipped notes.txt") != std::string::npos);
  CHECK(test::read(out / "gradebook.csv") == "student,03-array-mult-reduce,total\neve,0,0\nzed,18,18\n");
  const json eve = json::parse(test::read(out / "eve" / "report.json"));
  CHECK(eve["labs"][0]["status"] == "rejected");
  CHECK(eve["labs"][0]["message"].get<std::string>().find("'../escape.cl' leaves the extraction folder") != std::string::npos);
  // That nothing of the refused archive is written anywhere is tested on the archive reader itself
  // (tests/grader/test_archive.cpp): here the grader's work folder is removed at the end anyway.
}

TEST_CASE("two submissions for one student are an error naming both") {
  test::TempDir subs, out;
  copy_student("ada", subs.path);
  test::write(subs / "ada.zip", "whatever");
  const auto run = test::run_program("grader", "grade --labs 03 --submissions " + subs.path.string() + " --out " + out.path.string());
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("two submissions for student 'ada': ada and ada.zip") != std::string::npos);
}

TEST_CASE("a file written atomically is never seen half-written") {
  test::TempDir dir;
  const std::filesystem::path file = dir / "gradebook.csv";
  const std::string a(1 << 20, 'a'), b(1 << 20, 'b');
  grader::write_file_atomically(file, a);
  const pid_t pid = fork();
  if (pid == 0) {
    for (int i = 0; i < 200; ++i) grader::write_file_atomically(file, i % 2 ? a : b);
    _exit(0);
  }
  int torn = 0, reads = 0;
  for (int status = 0; waitpid(pid, &status, WNOHANG) == 0; ++reads) {
    const std::string got = test::read(file);
    if (got != a && got != b) ++torn;
  }
  CHECK(reads > 0);
  CHECK(torn == 0);
}

TEST_CASE("relative submission and output folders work (the children run in their own folders)") {
  test::TempDir dir;
  std::filesystem::create_directories(dir / "subs");
  copy_student("ada", dir / "subs");
  const std::string cmd = "cd " + dir.path.string() + " && " + KIT_BIN_DIR + "/grader grade --labs 03 --submissions subs --out out 2>&1";
  CHECK(std::system((cmd + " > log.txt").c_str()) == 0);
  CHECK(test::read(dir / "out" / "gradebook.csv") == "student,03-array-mult-reduce,total\nada,18,18\n");
}

TEST_CASE("a second grader writing the same output folder is refused, naming the one that holds it") {
  // Two runs into one OUT would share its scratch folders and journal and grade each other's
  // half-built kernels; the second stops before it writes anything.
  test::TempDir dir;
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", test::read(kit::root() / "labs/03-array-mult-reduce/ArrayMultReduce.cl"));
  const std::string args = "--labs 03 --submissions " + (dir / "class").string() + " --out " + (dir / "out").string();
  {
    const grader::OutputLock held(dir / "out");  // this process is the other grader
    const std::string holder = "(pid " + std::to_string(getpid()) + " on ";
    for (const std::string& command : {"grade --no-oclgrind " + args, "merge " + args}) {
      CAPTURE(command);
      const auto run = test::run_program("grader", command);
      CHECK(run.exit_code != 0);
      CHECK(run.output.find((dir / "out").string() + " is being written by another grader " + holder) != std::string::npos);
    }
    CHECK_FALSE(std::filesystem::exists(dir / "out" / "journal.jsonl"));
    CHECK_FALSE(std::filesystem::exists(dir / "out" / "gradebook.csv"));
  }
  const auto run = test::run_program("grader", "grade --no-oclgrind " + args);  // released: it runs
  CHECK_MESSAGE(run.exit_code == 0, run.output);
  CHECK(std::filesystem::exists(dir / "out" / "gradebook.csv"));
}

TEST_CASE("a student's labs go to the workers longest first, by their specs' time limits, equal ones in the spec's order") {
  // With --jobs above 1 the workers take student-labs, so one student's labs are graded at the same
  // time: the longest must not be started last, when the other workers have nothing left to do.
  const std::vector<grader::LabSpec> specs = grader::load_specs(kit::root() / "grader" / "specs", {});
  const std::vector<std::size_t> order = grader::labs_longest_first(specs);
  REQUIRE(order.size() == specs.size());
  const auto length = [&](std::size_t l) {
    double seconds = specs[l].speed ? specs[l].speed->time_limit_s : 0;
    for (const grader::CaseSpec& c : specs[l].cases) seconds += c.time_limit_s;
    return seconds;
  };
  CHECK(specs[order.front()].lab == "08-atomics-and-scan");  // its contention cases: 10 s limits each
  std::vector<bool> seen(specs.size(), false);
  for (std::size_t i = 0; i < order.size(); ++i) {
    seen[order[i]] = true;
    if (i == 0) continue;
    CHECK(length(order[i - 1]) >= length(order[i]));
    if (length(order[i - 1]) == length(order[i])) CHECK(order[i - 1] < order[i]);
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
  // labs 01 and 02 weigh the same (eight cases of 3 s): 01 stays before 02
  const auto at = [&](const std::string& lab) {
    return std::find_if(order.begin(), order.end(), [&](std::size_t l) { return specs[l].lab == lab; }) - order.begin();
  };
  CHECK(at("01-array-mult") < at("02-array-mult-add"));
}
