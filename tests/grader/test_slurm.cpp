// `grader slurm`: the plan from the specs, the scripts it writes, and a real one-node Slurm
// cluster grading the example class through a job array, a cancelled task and a resubmission.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "kit/errors.hpp"
#include "grader/example_class.hpp"
#include "kit/paths.hpp"
#include "batch/slurm.hpp"
#include "spec/spec.hpp"
#include "term/late.hpp"
#include "support.hpp"

using json = nlohmann::json;

TEST_CASE("grader slurm plans chunks of the students still to grade, with time and memory from the specs") {
  grader::SlurmOptions o;
  o.batch.specs = grader::load_specs(kit::root() / "grader" / "specs", {"03"});
  o.chunk_size = 2;
  o.cpus_per_task = 2;
  grader::ResultMap done;
  done[{"ben", "03-array-mult-reduce"}] = {};
  const auto plan = grader::plan_slurm(o, {"ann", "ben", "cat", "dan", "eve"}, done);
  REQUIRE(plan.chunks.size() == 2);  // ben is graded already
  CHECK(plan.chunks[0] == std::vector<std::string>{"ann", "cat"});
  CHECK(plan.chunks[1] == std::vector<std::string>{"dan", "eve"});
  // Worst case of one student: the build, every case and the Oclgrind run each to its limit.
  const grader::LabSpec& spec = o.batch.specs[0];
  double student = spec.build_time_limit_s + spec.safety->time_limit_s * double(spec.safety->runs.size());
  for (const auto& c : spec.cases) student += c.time_limit_s;
  CHECK(plan.minutes == int(std::ceil(student * 2 / 2 * 1.25 / 60)) + 5);
  CHECK(plan.memory_mb == std::max(spec.memory_limit_mb, spec.safety->memory_limit_mb) * 2 + 512);

  // Lab 04's safety block is two runs under Oclgrind, each with its own 10 s: both count. Twelve
  // students on one CPU, so that one run more or less moves the estimate by minutes.
  grader::SlurmOptions four;
  four.batch.specs = grader::load_specs(kit::root() / "grader" / "specs", {"04"});
  four.chunk_size = 12;
  four.cpus_per_task = 1;
  const grader::LabSpec& ladder = four.batch.specs[0];
  REQUIRE(ladder.safety->runs.size() == 2);
  REQUIRE(ladder.safety->time_limit_s == 10);
  double one = ladder.build_time_limit_s + 2 * 10;
  for (const auto& c : ladder.cases) one += c.time_limit_s;
  std::vector<std::string> twelve;
  for (int i = 0; i < 12; ++i) twelve.push_back("s" + std::to_string(i));
  const int minutes = grader::plan_slurm(four, twelve, {}).minutes;
  CHECK(minutes == int(std::ceil(one * 12 * 1.25 / 60)) + 5);
  CHECK(minutes > int(std::ceil((one - 10) * 12 * 1.25 / 60)) + 5);  // not one run's worth
}

TEST_CASE("grader slurm --dry-run writes readable scripts and submits nothing") {
  test::TempDir out;
  const auto run = test::run_program("grader", "slurm --dry-run --labs 03 --chunk-size 5 --partition gpu --gres gpu:1 -p nvidia "
                                               "--setup 'module load cuda' --submissions " + test::kit_path("grader/examples/class") +
                                               " --out " + out.path.string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("3 task(s) of at most 5 students") != std::string::npos);
  CHECK(run.output.find("dry run, would submit") != std::string::npos);
  const std::string script = test::read(out / "slurm" / "round-1" / "grade-array.sh");
  for (const char* line : {"#SBATCH --array=0-2", "#SBATCH --partition=gpu", "#SBATCH --gres=gpu:1", "module load cuda",
                           "--students-file", "'-p' 'nvidia'", "'--labs' '03'"})
    CHECK_MESSAGE(script.find(line) != std::string::npos, line);
  CHECK(test::read(out / "slurm" / "round-1" / "chunk-2.txt") == "kai-local-read-past-end\nlena-global-plus-equals\n");
  CHECK_FALSE(std::filesystem::exists(out / "slurm" / "round-1" / "jobs.txt"));
}

TEST_CASE("grader merge names the student x labs still to grade, and the grader's error where a task had one") {
  // Two students; a task graded ann's lab 03 but the grader failed in one case (such a result is
  // never kept), and nothing ran for ben. What merge prints is what the instructor acts on.
  test::TempDir dir;
  const std::string source = test::read(kit::root() / "labs/03-array-mult-reduce/ArrayMultReduce.cl");
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", source);
  test::write(dir / "class" / "ben" / "ArrayMultReduce.cl", source);
  grader::LabResult ann;
  ann.student = "ann";
  ann.lab = "03-array-mult-reduce";
  ann.kernel = "ArrayMultReduce.cl";
  ann.status = grader::LabStatus::Graded;
  ann.cases = {{"one work-group of 8", true, 1, 1, grader::CaseStatus::Passed, "", "", 0},
               {"L = 2, 999 groups", true, 0, 1, grader::CaseStatus::Error, "OpenCL call clFinish returned CL_OUT_OF_HOST_MEMORY (-6)", "", 0}};
  const json report = {{"student", "ann"}, {"labs", json::array({grader::to_json(ann)})}};  // as a task writes it
  test::write(dir / "out" / "slurm" / "round-1" / "task-0" / "ann" / "report.json", report.dump());
  const auto run = test::run_program("grader", "merge --labs 03 --submissions " + (dir / "class").string() + " --out " +
                                                   (dir / "out").string());
  CHECK_MESSAGE(run.output.find("2 student x lab(s) have no result yet (1 graded with an error of the grader's") != std::string::npos,
                run.output);
  CHECK(run.output.find("  ann  03-array-mult-reduce\n    graded, but the grader failed (round-1/task-0, case \"L = 2, 999 groups\": "
                        "OpenCL call clFinish returned CL_OUT_OF_HOST_MEMORY (-6))\n  ben  03-array-mult-reduce\n") != std::string::npos);
}

TEST_CASE("grader slurm plans a regraded student again although the journals hold their results") {
  grader::SlurmOptions o;
  o.batch.specs = grader::load_specs(kit::root() / "grader" / "specs", {"03"});
  o.batch.submissions = "class";
  o.chunk_size = 2;
  grader::ResultMap done;
  done[{"ann", "03-array-mult-reduce"}] = {};
  done[{"ben", "03-array-mult-reduce"}] = {};
  CHECK(grader::plan_slurm(o, {"ann", "ben", "cat"}, done).chunks == std::vector<std::vector<std::string>>{{"cat"}});
  o.batch.term.regrade = {"ben"};
  CHECK(grader::plan_slurm(o, {"ann", "ben", "cat"}, done).chunks == std::vector<std::vector<std::string>>{{"ben", "cat"}});
  o.batch.term.regrade = {"zed"};
  CHECK_THROWS_WITH_AS(grader::plan_slurm(o, {"ann", "ben", "cat"}, done), "--regrade: no submission in class for 'zed'", kit::Error);
}

namespace {

// The arguments a job script gives the grader, one a line: the script run by bash with the
// grader's path replaced by printf, as array task `task`.
std::string script_args(const std::filesystem::path& script, int task) {
  const std::string text = std::regex_replace(test::read(script), std::regex("exec '[^']*'"), "exec printf '%s\\n'");
  test::write(script.string() + ".args", text);
  const auto run = test::run_command("SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " bash " + script.string() + ".args");
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  return run.output;
}

}  // namespace

TEST_CASE("grader slurm without the deadline the results were graded under stops, and --no-deadline goes on and tells the tasks") {
  namespace fs = std::filesystem;
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  test::write(dir / "class" / "ann" / "ArrayMult.cl", solution);
  test::write(dir / "class" / "ben" / "ArrayMult.cl", solution);
  const auto deadline = grader::parse_deadline("2026-12-01T23:59");
  fs::last_write_time(dir / "class" / "ann" / "ArrayMult.cl", deadline + std::chrono::hours(30));  // two days late
  fs::last_write_time(dir / "class" / "ben" / "ArrayMult.cl", deadline - std::chrono::hours(1));
  const std::string where = " --labs 01 --no-oclgrind --submissions " + (dir / "class").string() + " --out " + (dir / "out").string();
  const auto graded = test::run_program("grader", "grade" + where + " --deadline 2026-12-01T23:59");
  REQUIRE_MESSAGE(graded.exit_code == 0, graded.output);

  // Dropping the deadline: nothing is written or submitted, and the message names who would lose lateness.
  const auto dropped = test::run_program("grader", "slurm --dry-run" + where);
  CHECK(dropped.exit_code == 1);
  CHECK(dropped.output.find("ann (01-array-mult)") != std::string::npos);
  CHECK(dropped.output.find("--no-deadline") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out" / "slurm" / "round-1"));

  // Meant: the round regrades ann, and her task is told so (its journal holds her late result's copy).
  const auto meant = test::run_program("grader", "slurm --dry-run --no-deadline" + where);
  REQUIRE_MESSAGE(meant.exit_code == 0, meant.output);
  CHECK(meant.output.find("lose their lateness: ann (01-array-mult)") != std::string::npos);
  const std::string task = script_args(dir / "out" / "slurm" / "round-1" / "grade-array.sh", 0);
  CHECK_MESSAGE(task.find("\n--no-deadline\n") != std::string::npos, task);
  CHECK(task.find("\n--deadline\n") == std::string::npos);
  CHECK(test::run_program("grader", "slurm --dry-run --no-deadline --deadline 2026-12-01T23:59" + where).exit_code != 0);
}

TEST_CASE("grader slurm --dry-run hands the deadline and each chunk's regrades to the tasks, and the roster to merge") {
  test::TempDir dir;
  test::write(dir / "roster.csv", "submission,name,id,email\nada,Ada L,1001,ada@x.edu\n");
  const std::string slurm = "slurm --dry-run --labs 03 --chunk-size 5 --submissions " + test::kit_path("grader/examples/class") +
                            " --out " + (dir / "out").string();
  const auto run = test::run_program("grader", slurm + " --deadline 2026-12-01T23:59 --roster " + (dir / "roster.csv").string() +
                                                   " --regrade ada,kai-local-read-past-end --reason \"spec fix in lab 03\"");
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const std::filesystem::path round = dir / "out" / "slurm" / "round-1";
  const std::string specs = "--specs\n" + (kit::root() / "grader" / "specs").string() + "\n";
  // Task 0 (ada's chunk) and task 2 (kai's) regrade their own; task 1 regrades nobody. Each has the
  // deadline (to the second), none the roster.
  const std::string task0 = script_args(round / "grade-array.sh", 0), task1 = script_args(round / "grade-array.sh", 1),
                    task2 = script_args(round / "grade-array.sh", 2);
  for (const std::string& task : {task0, task1, task2}) {
    CHECK_MESSAGE(task.find("\n--deadline\n2026-12-01T23:59:00\n") != std::string::npos, task);
    CHECK(task.find(specs) != std::string::npos);  // the tasks grade with the specs this run planned with
    CHECK(task.find("--roster") == std::string::npos);
  }
  CHECK_MESSAGE(task0.find("\n--reason\nspec fix in lab 03\n--regrade\nada\n") != std::string::npos, task0);
  CHECK(task1.find("--regrade") == std::string::npos);
  CHECK_MESSAGE(task2.find("\n--regrade\nkai-local-read-past-end\n") != std::string::npos, task2);
  const std::string merge = script_args(round / "merge.sh", 0);
  CHECK_MESSAGE(merge.find("merge\n") != std::string::npos, merge);
  CHECK(merge.find("\n--roster\n" + (dir / "roster.csv").string() + "\n") != std::string::npos);
  CHECK(merge.find(specs) != std::string::npos);
  CHECK(merge.find("--deadline") == std::string::npos);

  // A roster that cannot be read and a regrade of nobody stop it before a round is written.
  const auto no_roster = test::run_program("grader", slurm + " --roster " + (dir / "missing.csv").string());
  CHECK(no_roster.exit_code != 0);
  CHECK(no_roster.output.find("missing.csv does not exist") != std::string::npos);
  const auto nobody = test::run_program("grader", slurm + " --regrade zed");
  CHECK(nobody.exit_code != 0);
  CHECK_MESSAGE(nobody.output.find("--regrade: no submission in") != std::string::npos, nobody.output);
  CHECK(nobody.output.find("for 'zed'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "out" / "slurm" / "round-2"));
}

namespace {

// A journal line as Journal::append writes it: `points` of 10 in one case, graded at `when`.
json journal_line(const std::string& student, double points, const std::string& when, const std::vector<std::string>& notes = {}) {
  grader::LabResult r;
  r.student = student;
  r.lab = "03-array-mult-reduce";
  r.kernel = "ArrayMultReduce.cl";
  r.status = grader::LabStatus::Graded;
  r.notes = notes;
  r.cases = {{"one work-group of 8", true, points, 10, grader::CaseStatus::Passed, "", "", 0}};
  json line = grader::to_json(r);
  line["graded_at"] = when;
  line["kit_version"] = "test";
  return line;
}

}  // namespace

TEST_CASE("grader merge takes each student x lab's newest result, a later round's regrade over the journal's, and names a regrade no task made") {
  test::TempDir dir;
  const std::string source = test::read(kit::root() / "labs/03-array-mult-reduce/ArrayMultReduce.cl");
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", source);
  test::write(dir / "class" / "ben" / "ArrayMultReduce.cl", source);
  const std::filesystem::path out = dir / "out";
  const json ann1 = journal_line("ann", 5, "2026-11-01T10:00:00Z"), ben1 = journal_line("ben", 6, "2026-11-01T10:00:01Z");
  // Round 1 was merged: its lines are in OUT/journal.jsonl as the task wrote them.
  test::write(out / "journal.jsonl", ann1.dump() + "\n" + ben1.dump() + "\n");
  test::write(out / "slurm" / "round-1" / "task-0" / "journal.jsonl", ann1.dump() + "\n" + ben1.dump() + "\n");
  // Round 2 regraded both: the earlier results were copied into the task's journal; the task
  // regraded ann (7 points, with the history) and was cancelled before ben.
  json ann1_copy = ann1, ben1_copy = ben1;
  ann1_copy["copied_for_regrade"] = ben1_copy["copied_for_regrade"] = true;
  const json ann2 = journal_line("ann", 7, "2026-11-02T09:00:00Z", {"regraded 2026-11-02 09:00 UTC (spec fix): 5 -> 7 points"});
  test::write(out / "slurm" / "round-2" / "task-0" / "journal.jsonl",
              ann1_copy.dump() + "\n" + ben1_copy.dump() + "\n" + ann2.dump() + "\n");
  const std::string merge = "merge --labs 03 --submissions " + (dir / "class").string() + " --out " + out.string();
  const auto run = test::run_program("grader", merge);
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK_MESSAGE(run.output.find("merged 1 new result(s)") != std::string::npos, run.output);
  CHECK(run.output.find("no result yet") == std::string::npos);
  CHECK(run.output.find("regrades not done (a task cancelled or failed?):\n  ben  03-array-mult-reduce  (round-2/task-0): still the "
                        "earlier result; run `grader slurm --regrade ben` again\n") != std::string::npos);
  CHECK(test::read(out / "gradebook.csv") == "student,03-array-mult-reduce,total\nann,7,7\nben,6,6\n");
  const json ann = json::parse(test::read(out / "ann" / "report.json"))["labs"][0];
  CHECK(ann["notes"].dump().find("(spec fix): 5 -> 7 points") != std::string::npos);
  // Appended as the task wrote it (when it was graded), the last line of ann's: the one that counts.
  std::vector<json> lines;
  std::istringstream journal(test::read(out / "journal.jsonl"));
  for (std::string line; std::getline(journal, line);) lines.push_back(json::parse(line));
  REQUIRE(lines.size() == 3);
  CHECK(lines[2] == ann2);

  // Merged again: nothing new, nothing appended twice.
  const std::string merged = test::read(out / "journal.jsonl");
  const auto again = test::run_program("grader", merge);
  CHECK_MESSAGE(again.output.find("merged 0 new result(s)") != std::string::npos, again.output);
  CHECK(test::read(out / "journal.jsonl") == merged);
  // A later round that regraded ben: the regrade of round 2 is no longer missing.
  const json ben3 = journal_line("ben", 8, "2026-11-03T09:00:00Z", {"regraded 2026-11-03 09:00 UTC: 6 -> 8 points"});
  test::write(out / "slurm" / "round-3" / "task-0" / "journal.jsonl", ben1_copy.dump() + "\n" + ben3.dump() + "\n");
  const auto third = test::run_program("grader", merge);
  CHECK_MESSAGE(third.output.find("merged 1 new result(s)") != std::string::npos, third.output);
  CHECK(third.output.find("regrades not done") == std::string::npos);
  CHECK(test::read(out / "gradebook.csv") == "student,03-array-mult-reduce,total\nann,7,7\nben,8,8\n");
}

TEST_CASE("grader slurm --draw hands --draw to every task and gives it the time, and merge puts a task's drawings beside the report") {
  test::TempDir dir;
  const std::string slurm = "slurm --dry-run --labs 03 --chunk-size 5 --submissions " + test::kit_path("grader/examples/class") + " --out ";
  const auto drawn = test::run_program("grader", slurm + (dir / "drawn").string() + " --draw");
  REQUIRE_MESSAGE(drawn.exit_code == 0, drawn.output);
  const std::string script = test::read(dir / "drawn" / "slurm" / "round-1" / "grade-array.sh");
  CHECK_MESSAGE(script.find("/chunk-$SLURM_ARRAY_TASK_ID.txt --jobs \"${SLURM_CPUS_PER_TASK:-1}\" '--labs' '03' --draw") != std::string::npos,
                script);
  const auto plain = test::run_program("grader", slurm + (dir / "plain").string());
  CHECK(test::read(dir / "plain" / "slurm" / "round-1" / "grade-array.sh").find("--draw") == std::string::npos);
  // The drawing's runs under Oclgrind (kernel and solution, each safety run to its time limit) are in each task's time.
  grader::SlurmOptions o;
  o.batch.specs = {grader::load_spec(kit::root() / "grader/specs/03-array-mult-reduce.json")};
  const std::vector<std::string> eight = {"a", "b", "c", "d", "e", "f", "g", "h"};
  const int without = grader::plan_slurm(o, eight, {}).minutes;
  o.batch.draw = true;
  CHECK(grader::plan_slurm(o, eight, {}).minutes > without);

  // Merge: ann's result from task 0, with its drawing there, lands beside her report; an earlier
  // drawing of the same lab there is replaced, another lab's is kept.
  const std::filesystem::path out = dir / "out", task = out / "slurm" / "round-1" / "task-0";
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", test::read(kit::root() / "labs/03-array-mult-reduce/ArrayMultReduce.cl"));
  test::write(task / "journal.jsonl", journal_line("ann", 5, "2026-11-01T10:00:00Z").dump() + "\n");
  test::write(task / "ann" / "03-array-mult-reduce-ArrayMultReduce.svg", "<svg>task</svg>");
  test::write(task / "ann" / "03-array-mult-reduce-ArrayMultReduce.tex", "tikz");
  test::write(out / "ann" / "03-array-mult-reduce-ArrayMultReduce-group2.svg", "<svg>stale</svg>");
  test::write(out / "ann" / "04-tree-reductions-reduce1_interleaved_mod.svg", "<svg>04</svg>");
  const auto merged = test::run_program("grader", "merge --labs 03 --submissions " + (dir / "class").string() + " --out " + out.string());
  REQUIRE_MESSAGE(merged.exit_code == 0, merged.output);
  CHECK(test::read(out / "ann" / "03-array-mult-reduce-ArrayMultReduce.svg") == "<svg>task</svg>");
  CHECK(std::filesystem::exists(out / "ann" / "03-array-mult-reduce-ArrayMultReduce.tex"));
  CHECK(std::filesystem::exists(out / "ann" / "report.md"));
  CHECK(std::filesystem::exists(out / "ann" / "report.html"));  // merge writes it as grade does
  CHECK(!std::filesystem::exists(out / "ann" / "03-array-mult-reduce-ArrayMultReduce-group2.svg"));
  CHECK(std::filesystem::exists(out / "ann" / "04-tree-reductions-reduce1_interleaved_mod.svg"));
}

namespace {

// A one-node cluster for the length of a test; stopped whatever happens.
struct LocalCluster {
  std::filesystem::path dir;
  std::string conf;
  ~LocalCluster() { test::run_command(test::kit_path("scripts/slurm-local-cluster.sh") + " stop " + dir.string()); }
  std::string logs() const {
    return test::run_command("tail -n 15 " + dir.string() + "/slurmctld.log " + dir.string() + "/slurmd.log").output;
  }
};

// Waits until Slurm holds none of `jobs` (no accounting here, so squeue is asked); false after 4 minutes.
bool wait_for(const std::string& conf, const std::string& jobs) {
  for (int i = 0; i < 240; ++i) {
    if (test::run_command("SLURM_CONF=" + conf + " squeue -h -j " + jobs + " 2>/dev/null").output.empty()) return true;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  return false;
}

std::string job_ids(const std::string& output) {
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(output, m, std::regex("job array (\\d+) .*merge job (\\d+)")), output);
  return std::string(m[1]) + "," + std::string(m[2]);
}

}  // namespace

TEST_CASE("Slurm: the example class graded by a real job array, a cancelled task resubmitted, equals a local run") {
  if (geteuid() != 0 || test::run_command("command -v slurmctld slurmd munged sbatch").exit_code != 0) {
    MESSAGE("skipped: a one-node Slurm cluster needs root and the slurm-wlm and munge packages");
    return;
  }
  test::TempDir dir;
  LocalCluster cluster{dir / "cluster", (dir / "cluster" / "slurm.conf").string()};
  const auto started = test::run_command(test::kit_path("scripts/slurm-local-cluster.sh") + " start " + cluster.dir.string() + " 2>&1");
  REQUIRE_MESSAGE(started.exit_code == 0, started.output);
  const std::string env = "SLURM_CONF=" + cluster.conf + " ";
  const std::string cls = test::kit_path("grader/examples/class");
  const std::string slurm = env + test::kit_path("build/bin/grader") + " slurm --labs 03 --chunk-size 5 --cpus-per-task 1 --submissions " +
                            cls + " --out " + (dir / "out").string() + " 2>&1";

  // Held, so that task 1 is cancelled before it can start.
  const auto first = test::run_command(slurm + " --hold");
  REQUIRE_MESSAGE(first.exit_code == 0, first.output);
  const std::string jobs = job_ids(first.output);
  const std::string array = jobs.substr(0, jobs.find(','));
  REQUIRE(test::run_command(env + "scancel " + array + "_1").exit_code == 0);
  REQUIRE(test::run_command(env + "scontrol release " + array).exit_code == 0);
  REQUIRE_MESSAGE(wait_for(cluster.conf, jobs), cluster.logs());
  const std::string merged = test::read(dir / "out" / "slurm" / "round-1" / "merge.log");
  // What the tasks printed, should the merge say something else.
  const auto task_logs = [&](const std::string& round) {
    return test::run_command("tail -n 40 " + (dir / "out" / "slurm" / round).string() + "/task-*.log").output;
  };
  CHECK_MESSAGE(merged.find("5 student x lab(s) have no result yet (a task cancelled or failed?)") != std::string::npos,
                std::string(merged + task_logs("round-1")));

  // Again: one task for the cancelled chunk's five students only, drawing their kernels.
  const auto again = test::run_command(slurm + " --draw");
  REQUIRE_MESSAGE(again.exit_code == 0, again.output);
  CHECK(again.output.find("1 task(s)") != std::string::npos);
  REQUIRE_MESSAGE(wait_for(cluster.conf, job_ids(again.output)), cluster.logs());
  CHECK_MESSAGE(test::read(dir / "out" / "slurm" / "round-2" / "merge.log").find("no result yet") == std::string::npos,
                task_logs("round-2"));
  // The task's drawing lands beside the student's report; the endless loop's report says why it has none.
  CHECK_MESSAGE(std::filesystem::exists(dir / "out" / "ivan-no-barrier-after-load" / "03-array-mult-reduce-ArrayMultReduce.svg"),
                task_logs("round-2"));
  CHECK(!std::filesystem::exists(dir / "out" / "gus-infinite-loop" / "03-array-mult-reduce-ArrayMultReduce.svg"));
  CHECK(test::read(dir / "out" / "gus-infinite-loop" / "report.md").find("no drawing of lab 03-array-mult-reduce's ArrayMultReduce.cl: the run "
                                                                        "under Oclgrind ran past its 5 s time limit") != std::string::npos);
  CHECK(test::run_command(slurm).output.find("nothing to submit") != std::string::npos);

  // The same grades as a local run of the same class. A student whose points EXPECTED.json gives as
  // a range is left out (none today: jade's barrier in a branch is graded by the undefined-behaviour
  // rule); a kernel that writes past its buffer (dev) may crash in one run and not in another: the
  // same 0 points, so for a case that earned nothing only the points are compared.
  // The local run is the one this ctest run graded once for every test that reads it (example_class.hpp).
  const std::filesystem::path local = test::example_class_graded(dir);
  const json expected = json::parse(test::read(kit::root() / "grader/examples/class/EXPECTED.json"))["students"];
  std::size_t compared = 0, ranged = 0;
  for (const auto& [student, want] : expected.items()) {
    if (want["points"].is_array()) {
      ++ranged;
      continue;
    }
    CAPTURE(student);
    const json a = json::parse(test::read(local / student / "report.json"))["labs"][0];
    const json b = json::parse(test::read(dir / "out" / student / "report.json"))["labs"][0];
    CHECK(a["points"] == b["points"]);
    REQUIRE(a["cases"].size() == b["cases"].size());
    for (std::size_t i = 0; i < a["cases"].size(); ++i) {
      CHECK(a["cases"][i]["points"] == b["cases"][i]["points"]);
      if (a["cases"][i]["points"] != 0) CHECK(a["cases"][i]["status"] == b["cases"][i]["status"]);
    }
    ++compared;
  }
  // Every student folder of the class was compared (none is given as a range today).
  std::size_t students = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kit::root() / "grader/examples/class"))
    if (entry.is_directory()) ++students;
  CHECK(ranged == 0);
  CHECK(compared == students);
}

namespace {

// The "late penalty" lines of each student's lab 01 in OUT's reports.
std::map<std::string, json> late_lines(const std::filesystem::path& out, const std::vector<std::string>& students) {
  std::map<std::string, json> lines;
  for (const std::string& s : students) {
    const json report = json::parse(test::read(out / s / "report.json"));
    for (const json& c : report["labs"][0]["cases"])
      if (c["name"] == "late penalty") lines[s] = c;
  }
  return lines;
}

// The last note of a student's lab 01 from its time on: "UTC (reason): a -> b points".
std::string regrade_note(const std::filesystem::path& out, const std::string& student) {
  const json notes = json::parse(test::read(out / student / "report.json"))["labs"][0]["notes"];
  const std::string last = notes.empty() ? "" : notes.back().get<std::string>();
  return last.rfind("regraded ", 0) == 0 ? last.substr(last.find(" UTC")) : "no regrade note in " + notes.dump();
}

}  // namespace

TEST_CASE("Slurm: a term's deadline, roster and regrade through a real job array give what grader grade gives") {
  if (geteuid() != 0 || test::run_command("command -v slurmctld slurmd munged sbatch").exit_code != 0) {
    MESSAGE("skipped: a one-node Slurm cluster needs root and the slurm-wlm and munge packages");
    return;
  }
  namespace fs = std::filesystem;
  test::TempDir dir;
  // Lab 01's spec with a late penalty of 10 % a day (the stored references serve it).
  const std::string data = test::lab01_with_late_penalty(dir.path, 0.1);
  // ann two days late, cat three, ben and dan on time; eve is on the roster with nothing handed
  // in, dan is not on it.
  const std::string solution = test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl");
  const auto deadline = grader::parse_deadline("2026-12-01T23:59");
  const std::vector<std::string> students = {"ann", "ben", "cat", "dan"};
  for (const auto& [student, hours] : std::vector<std::pair<std::string, int>>{{"ann", 30}, {"ben", -1}, {"cat", 50}, {"dan", -2}}) {
    test::write(dir / "class" / student / "ArrayMult.cl", solution);
    fs::last_write_time(dir / "class" / student / "ArrayMult.cl", deadline + std::chrono::hours(hours));
  }
  test::write(dir / "roster.csv", "submission,name,id,email\nann,Ann Lee,1001,ann@x.edu\nben,Ben Ode,1002,ben@x.edu\n"
                                  "cat,Cat Ro,1003,cat@x.edu\neve,Eve Park,1005,eve@x.edu\n");

  LocalCluster cluster{dir / "cluster", (dir / "cluster" / "slurm.conf").string()};
  const auto started = test::run_command(test::kit_path("scripts/slurm-local-cluster.sh") + " start " + cluster.dir.string() + " 2>&1");
  REQUIRE_MESSAGE(started.exit_code == 0, started.output);
  const std::string env = "SLURM_CONF=" + cluster.conf + " ";
  const std::string term = " --labs 01 --no-races --deadline 2026-12-01T23:59 --roster " + (dir / "roster.csv").string() +
                           " --submissions " + (dir / "class").string();
  const std::string slurm = env + test::kit_path("build/bin/grader") + data + " slurm --chunk-size 2 --cpus-per-task 1" + term +
                            " --out " + (dir / "out").string();
  const std::string local = data + " grade" + term + " --out " + (dir / "local").string();
  const auto task_logs = [&](const std::string& round) {
    return test::run_command("tail -n 20 " + (dir / "out" / "slurm" / round).string() + "/*.log").output;
  };

  // The local run needs nothing of Slurm's: it grades while the job array waits, runs and merges.
  auto grading = std::async(std::launch::async, [&] { return test::run_program("grader", local); });
  const auto first = test::run_command(slurm + " 2>&1");
  REQUIRE_MESSAGE(first.exit_code == 0, first.output);
  CHECK(first.output.find("2 task(s)") != std::string::npos);
  REQUIRE_MESSAGE(wait_for(cluster.conf, job_ids(first.output)), cluster.logs());
  const auto graded = grading.get();
  REQUIRE_MESSAGE(graded.exit_code == 0, graded.output);
  REQUIRE_MESSAGE(fs::exists(dir / "out" / "lms-import.csv"), task_logs("round-1"));
  CHECK(test::read(dir / "out" / "gradebook.csv") == test::read(dir / "local" / "gradebook.csv"));
  CHECK(test::read(dir / "out" / "lms-import.csv") == test::read(dir / "local" / "lms-import.csv"));
  CHECK(test::read(dir / "out" / "roster-check.txt") == test::read(dir / "local" / "roster-check.txt"));
  CHECK(test::read(dir / "out" / "roster-check.txt").find("no submission: eve (Eve Park)") != std::string::npos);
  const auto late = late_lines(dir / "out", students);
  CHECK(late == late_lines(dir / "local", students));
  REQUIRE(late.size() == 2);  // ann's and cat's: the penalty was applied by the tasks
  CHECK(late.at("ann")["message"].get<std::string>().find("(2 day(s) late): 20% of the") != std::string::npos);
  CHECK(late.at("cat")["message"].get<std::string>().find("(3 day(s) late): 30% of the") != std::string::npos);
  CHECK(late.at("ann")["points"].get<double>() < 0);
  const double ben_before = json::parse(test::read(dir / "out" / "ben" / "report.json"))["labs"][0]["points"].get<double>();

  // ben hands in the starter (on time) and is regraded, on Slurm and here: a round of one task for
  // him alone, and the newer result with its history in OUT's journal, reports and LMS import.
  test::write(dir / "class" / "ben" / "ArrayMult.cl", test::read(kit::root() / "labs/01-array-mult/ArrayMult.cl"));
  fs::last_write_time(dir / "class" / "ben" / "ArrayMult.cl", deadline - std::chrono::hours(1));
  const std::string regrade = " --regrade ben --reason 'starter handed in'";
  auto regrading = std::async(std::launch::async, [&] { return test::run_program("grader", local + regrade); });
  const auto again = test::run_command(slurm + regrade + " 2>&1");
  REQUIRE_MESSAGE(again.exit_code == 0, again.output);
  CHECK(again.output.find("1 task(s)") != std::string::npos);
  CHECK(test::read(dir / "out" / "slurm" / "round-2" / "chunk-0.txt") == "ben\n");
  REQUIRE_MESSAGE(wait_for(cluster.conf, job_ids(again.output)), cluster.logs());
  const auto regraded = regrading.get();
  REQUIRE_MESSAGE(regraded.exit_code == 0, regraded.output);
  const std::string merged = test::read(dir / "out" / "slurm" / "round-2" / "merge.log");
  CHECK_MESSAGE(merged.find("merged 1 new result(s)") != std::string::npos, std::string(merged + task_logs("round-2")));
  CHECK(merged.find("regrades not done") == std::string::npos);
  const std::string note = regrade_note(dir / "out", "ben");
  CHECK(note == regrade_note(dir / "local", "ben"));
  const double ben_now = json::parse(test::read(dir / "out" / "ben" / "report.json"))["labs"][0]["points"].get<double>();
  CHECK(ben_now < ben_before);
  CHECK(note == " UTC (starter handed in): " + grader::format_points(ben_before) + " -> " + grader::format_points(ben_now) + " points");
  CHECK(test::read(dir / "out" / "gradebook.csv") == test::read(dir / "local" / "gradebook.csv"));
  CHECK(test::read(dir / "out" / "lms-import.csv") == test::read(dir / "local" / "lms-import.csv"));
  std::vector<json> ben_lines;
  std::istringstream journal(test::read(dir / "out" / "journal.jsonl"));
  for (std::string line; std::getline(journal, line);)
    if (const json j = json::parse(line); j["student"] == "ben") ben_lines.push_back(j);
  REQUIRE(ben_lines.size() == 2);  // the first round's and the regrade, last
  CHECK(ben_lines[1]["notes"].dump().find("(starter handed in)") != std::string::npos);
  CHECK_FALSE(ben_lines[1].contains("copied_for_regrade"));
}
