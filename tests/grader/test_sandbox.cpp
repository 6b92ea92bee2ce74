// The sandbox: time limits kill the whole process group, crashes and memory exhaustion are told
// apart, and an ordinary exit passes its status through.
#include <doctest/doctest.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <thread>

#include "isolation/child_folder.hpp"
#include "isolation/sandbox.hpp"
#include "support.hpp"

namespace {
grader::ChildOutcome sh(const std::string& script, grader::SandboxLimits limits, const test::TempDir& dir) {
  limits.pocl_cache = dir / "cache";
  return grader::run_in_sandbox({"/bin/sh", "-c", script}, limits, dir / "work");
}
}  // namespace

TEST_CASE("a step past its time limit is stopped, with everything it started") {
  test::TempDir dir;
  const auto out = sh("sleep 30 & echo $! > bg.pid; sleep 30", {0.5, 1024, 1, {}}, dir);
  CHECK(out.end == grader::ChildOutcome::End::TimedOut);
  // Stopped near its 0.5 s limit. Not stopped, it would run the full 30 s, which no load can
  // shorten: that, not a guess at the machine's speed, is the bound.
  CHECK_MESSAGE(out.seconds < 30, out.seconds);
  CHECK(out.reason({0.5, 1024, 1, {}}).find("time limit") != std::string::npos);
  const int background = std::stoi(test::read(dir / "work" / "bg.pid"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // The background sleep is gone too: no such process, or a zombie waiting for init to reap it.
  const std::string stat = test::read("/proc/" + std::to_string(background) + "/stat");
  CHECK((stat.empty() || stat.find(") Z ") != std::string::npos));
}

TEST_CASE("a step whose parent fails while following it is stopped, with everything it started") {
  // The deadline is the parent's code (a speed case's gate writes files there): when it throws,
  // the step must not outlive the failure, waiting for a parent that has given it up.
  test::TempDir dir;
  grader::SandboxLimits limits{30, 1024, 1, {}};
  limits.pocl_cache = dir / "cache";
  const std::filesystem::path pid_file = dir / "work" / "bg.pid";
  bool thrown = false;
  try {
    grader::run_in_sandbox({"/bin/sh", "-c", "sleep 30 & echo $! > bg.pid.new; mv bg.pid.new bg.pid; sleep 30"}, limits, dir / "work", [&] {
      if (std::filesystem::exists(pid_file)) throw std::runtime_error("the parent failed");
      return std::chrono::steady_clock::now() + std::chrono::seconds(30);
    });
  } catch (const std::runtime_error&) {
    thrown = true;
  }
  REQUIRE(thrown);
  const int background = std::stoi(test::read(pid_file));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // Gone: no such process, or a zombie waiting for init to reap it (not stopped, it would sleep 30 s).
  const std::string stat = test::read("/proc/" + std::to_string(background) + "/stat");
  CHECK((stat.empty() || stat.find(") Z ") != std::string::npos));
}

TEST_CASE("a crash is reported with its signal") {
  test::TempDir dir;
  const grader::SandboxLimits limits{5, 1024, 1, {}};
  const auto out = sh("kill -SEGV $$", limits, dir);
  CHECK(out.end == grader::ChildOutcome::End::Signaled);
  CHECK(out.reason(limits).find("SIGSEGV") != std::string::npos);
}

TEST_CASE("a step that writes past the file size limit is told so, not only 'crashed'") {
  test::TempDir dir;
  const grader::SandboxLimits limits{5, 1024, 1, {}};
  // A step that writes one byte too many: the kernel stops it with SIGXFSZ.
  const auto out = sh("exec dd if=/dev/zero of=big bs=1M count=" + std::to_string(grader::kMaxFileMiB) + " seek=1", limits, dir);
  CHECK(out.end == grader::ChildOutcome::End::Signaled);
  CHECK(out.signal == SIGXFSZ);
  CHECK(out.reason(limits).find("wrote more than the 256 MiB a case may write") != std::string::npos);
}

TEST_CASE("running out of memory is reported as such") {
  test::TempDir dir;
  const grader::SandboxLimits limits{20, 300, 1, {}};
  // The lab program with 64Mi elements needs about 1 GiB: above the 300 MB limit. Its kernel is
  // given as a file, as the grader gives it: a child run as nobody may not read the kit's folders.
  const auto out = grader::run_in_sandbox(
      {std::string(KIT_BIN_DIR) + "/03-array-mult-reduce", "-k", test::kit_path("solutions/03-array-mult-reduce/ArrayMultReduce.cl"),
       "--elements", "64Mi", "--repeats", "1"},
      {20, 300, 1, dir / "cache"}, dir / "work");
  CAPTURE(out.output);
  CHECK(out.end != grader::ChildOutcome::End::TimedOut);
  CHECK(out.reason(limits).find("ran out of memory (limit 300 MB)") != std::string::npos);
}

TEST_CASE("an ordinary exit passes its status, output and environment through") {
  test::TempDir dir;
  const auto out = sh("echo \"threads=$POCL_MAX_PTHREAD_COUNT cache=$POCL_CACHE_DIR\"; "
                      "echo \"openmp=$OMP_NUM_THREADS oclgrind=$OCLGRIND_NUM_THREADS\"; exit 3",
                      {5, 1024, 2, {}}, dir);
  CHECK(out.end == grader::ChildOutcome::End::Exited);
  CHECK(out.exit_code == 3);
  CHECK(out.output.find("threads=2") != std::string::npos);
  CHECK(out.output.find("openmp=2 oclgrind=2") != std::string::npos);  // the step's threads, whoever runs it
  // The step's private PoCL cache: the one given, or, for a grader run as root, the folder of the
  // children's user that stands for it (the given one lies in root's own temp folder).
  CHECK(out.output.find("cache=" + grader::pocl_cache_in_use(dir / "cache").string() + "\n") != std::string::npos);
}

TEST_CASE("build options in the grader's environment do not reach a child, and a step's own do") {
  test::TempDir dir;
  setenv("KIT_EXTRA_BUILD_OPTIONS", "-cl-opt-disable", 1);  // as an instructor's shell might hold
  const auto plain = sh("echo \"options=[$KIT_EXTRA_BUILD_OPTIONS]\"", {5, 1024, 1, {}}, dir);
  grader::SandboxLimits own{5, 1024, 1, {}};
  own.environment.emplace_back("KIT_EXTRA_BUILD_OPTIONS", "-cl-opt-disable");  // the witness's run with the optimizations off
  const auto witness = sh("echo \"options=[$KIT_EXTRA_BUILD_OPTIONS]\"", own, dir);
  unsetenv("KIT_EXTRA_BUILD_OPTIONS");
  CHECK(plain.output.find("options=[]") != std::string::npos);
  CHECK(witness.output.find("options=[-cl-opt-disable]") != std::string::npos);
}

TEST_CASE("a case's pocl_threads sets its step's PoCL threads, pinned one to a CPU where the CPUs allow") {
  // Lab 08's contention cases need work-groups running at the same time: the sandbox reads the
  // count from the step's --case and pins the threads (POCL_AFFINITY) when CPUs 0 and 1 are usable.
  cpu_set_t mine;
  CPU_ZERO(&mine);
  REQUIRE(sched_getaffinity(0, sizeof mine, &mine) == 0);
  const bool two_cpus = CPU_ISSET(0, &mine) && CPU_ISSET(1, &mine);
  const std::string contention = R"({"part": "atomic-float", "pocl_threads": 2})";
  const grader::StepThreads asked = grader::step_threads({"grader", "run-case", "--case", contention}, 1);
  CHECK(asked.count == 2);
  CHECK(asked.pinned == two_cpus);
  const grader::StepThreads plain = grader::step_threads({"grader", "run-case", "--case", R"({"part": "compact"})"}, 3);
  CHECK(plain.count == 3);  // the grader's --pocl-threads
  CHECK_FALSE(plain.pinned);
  CHECK(grader::step_threads({"grader", "run-case", "--case", "not json"}, 1).count == 1);

  test::TempDir dir;
  const auto out = grader::run_in_sandbox(
      {"/bin/sh", "-c", "echo \"threads=$POCL_MAX_PTHREAD_COUNT affinity=${POCL_AFFINITY:-unset}\"", "sh", "--case", contention},
      {5, 1024, 1, dir / "cache"}, dir / "work");
  CHECK(out.output.find("threads=2") != std::string::npos);
  CHECK(out.output.find(two_cpus ? "affinity=1" : "affinity=unset") != std::string::npos);
  const auto one = sh("echo \"threads=$POCL_MAX_PTHREAD_COUNT affinity=${POCL_AFFINITY:-unset}\"", {5, 1024, 1, {}}, dir);
  CHECK(one.output.find("threads=1 affinity=unset") != std::string::npos);
}

TEST_CASE("KIT_POCL_CACHE: every grader run's children use that one PoCL cache (the children's user's under root), and a kernel checked again is not compiled again") {
  test::TempDir dir;
  // Under root, the children's user must reach the folder: the temporary folder is root's alone.
  std::filesystem::permissions(dir.path, std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                               std::filesystem::perm_options::add);
  const std::filesystem::path cache = dir / "pocl";
  const std::string check = "KIT_POCL_CACHE='" + cache.string() + "' '" + std::string(KIT_BIN_DIR) + "/grader' check 01 --dir '" +
                            test::kit_path("solutions") + "'";
  // Each compiled program PoCL keeps (its .so), with the time it was written.
  const auto binaries = [&] {
    std::map<std::string, std::filesystem::file_time_type> found;
    for (const auto& e : std::filesystem::recursive_directory_iterator(cache))
      if (e.is_regular_file() && e.path().extension() == ".so") found[e.path().string()] = e.last_write_time();
    return found;
  };
  const auto first = test::run_command(check);
  CHECK_MESSAGE(first.exit_code == 0, first.output);
  REQUIRE(std::filesystem::is_directory(cache));
  const auto compiled = binaries();
  CHECK(!compiled.empty());  // the children compiled lab 01's kernel into it
  if (geteuid() == 0) {  // a grader run as root: the folder is handed to the children's user
    const passwd* nobody = getpwnam("nobody");
    REQUIRE(nobody != nullptr);
    struct stat st {};
    REQUIRE(stat(cache.c_str(), &st) == 0);
    CHECK(st.st_uid == nobody->pw_uid);
  }
  const auto again = test::run_command(check);
  CHECK_MESSAGE(again.exit_code == 0, again.output);
  CHECK(binaries() == compiled);  // nothing compiled again, nothing new written
  if (geteuid() == 0) {  // another user's folder (a grader run with another --run-as) is left to it
    std::filesystem::remove_all(cache);
    std::filesystem::create_directory(cache);
    REQUIRE(chown(cache.c_str(), 54321, 54321) == 0);
    const auto other = test::run_command(check);
    CHECK_MESSAGE(other.exit_code == 0, other.output);
    struct stat st {};
    REQUIRE(stat(cache.c_str(), &st) == 0);
    CHECK(st.st_uid == 54321);
    CHECK(std::filesystem::is_empty(cache));
  }
}

TEST_CASE("grader bench times grading from scratch: it leaves out KIT_OCLGRIND_RECORDS and KIT_POCL_CACHE, and says so") {
  test::TempDir dir;
  std::filesystem::permissions(dir.path, std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                               std::filesystem::perm_options::add);
  const auto run = test::run_command("KIT_OCLGRIND_RECORDS='" + (dir / "records").string() + "' KIT_POCL_CACHE='" + (dir / "pocl").string() +
                                     "' '" + std::string(KIT_BIN_DIR) + "/grader' bench 01 --students 1 --all-right --sample-every 0 --jobs 1 --work '" +
                                     (dir / "work").string() + "'");
  CHECK_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("bench: KIT_OCLGRIND_RECORDS and KIT_POCL_CACHE left out") != std::string::npos);
  // Nothing was kept or read there: the grading ran, with its own caches.
  CHECK(run.output.find("whole class:") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "records"));
  CHECK_FALSE(std::filesystem::exists(dir / "pocl"));
}
