// `grader slurm`: the plan from the specs, the scripts it writes, and a real one-node Slurm
// cluster grading the example class through a job array, a cancelled task and a resubmission.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "kit/paths.hpp"
#include "batch/slurm.hpp"
#include "spec/spec.hpp"
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

  // Again: one task for the cancelled chunk's five students only.
  const auto again = test::run_command(slurm);
  REQUIRE_MESSAGE(again.exit_code == 0, again.output);
  CHECK(again.output.find("1 task(s)") != std::string::npos);
  REQUIRE_MESSAGE(wait_for(cluster.conf, job_ids(again.output)), cluster.logs());
  CHECK_MESSAGE(test::read(dir / "out" / "slurm" / "round-2" / "merge.log").find("no result yet") == std::string::npos,
                task_logs("round-2"));
  CHECK(test::run_command(slurm).output.find("nothing to submit") != std::string::npos);

  // The same grades as a local run of the same class. A kernel whose behaviour is undefined gets a
  // range in EXPECTED.json (jade's barrier in a branch) and is left out; a kernel that writes past
  // its buffer (dev) may crash in one run and not in another: the same 0 points, so for a case
  // that earned nothing only the points are compared.
  const auto local = test::run_program("grader", "grade --labs 03 --submissions " + cls + " --out " + (dir / "local").string());
  REQUIRE_MESSAGE(local.exit_code == 0, local.output);
  const json expected = json::parse(test::read(kit::root() / "grader/examples/class/EXPECTED.json"))["students"];
  std::size_t compared = 0;
  for (const auto& [student, want] : expected.items()) {
    if (want["points"].is_array()) continue;
    CAPTURE(student);
    const json a = json::parse(test::read(dir / "local" / student / "report.json"))["labs"][0];
    const json b = json::parse(test::read(dir / "out" / student / "report.json"))["labs"][0];
    CHECK(a["points"] == b["points"]);
    REQUIRE(a["cases"].size() == b["cases"].size());
    for (std::size_t i = 0; i < a["cases"].size(); ++i) {
      CHECK(a["cases"][i]["points"] == b["cases"][i]["points"]);
      if (a["cases"][i]["points"] != 0) CHECK(a["cases"][i]["status"] == b["cases"][i]["status"]);
    }
    ++compared;
  }
  CHECK(compared == 11);
}
