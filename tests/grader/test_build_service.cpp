// The build service (kit/build_service.hpp): a long-lived process builds programs into PoCL's disk
// cache for the short-lived grading children; a child that cannot use it builds alone.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "kit/build_service.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

namespace {

int programs_in(const std::filesystem::path& cache) {
  int count = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(cache, ec); !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    count += it->path().filename() == "program.bc";
  return count;
}

}  // namespace

TEST_CASE("the build service builds into PoCL's cache, and a failed build, no service or a stopped one answer false") {
  const test::TempDir dir;
  const std::filesystem::path cache = dir / "pocl-cache";
  std::filesystem::create_directories(cache);
  const std::string name = "@kit-test-build-service-" + std::to_string(getpid());
  const auto started = test::run_command("POCL_CACHE_DIR='" + cache.string() + "' '" + std::string(KIT_BIN_DIR) +
                                         "/grader' build-service --socket " + name + " > '" + (dir / "service.log").string() +
                                         "' 2>&1 & echo $!");
  const pid_t service = pid_t(std::stol(started.output));
  const std::string options = "-cl-std=CL1.2 -cl-kernel-arg-info";
  const std::string good = "kernel void k(global int *x) { x[get_global_id(0)] = " + std::to_string(getpid()) + "; }\n";

  unsetenv(kit::kBuildServiceVariable);
  CHECK_FALSE(kit::build_in_service(good, options));  // no service named: nothing asked

  setenv(kit::kBuildServiceVariable, name.c_str(), 1);
  // Until it listens (PoCL starts in it first, which a loaded machine slows down), or it ended;
  // ten minutes only as a guard against a service that neither listens nor ends.
  bool built = false;
  for (int i = 0; i < 6000 && !built && kill(service, 0) == 0; ++i) {
    built = kit::build_in_service(good, options);
    if (!built) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK_MESSAGE(built, test::read(dir / "service.log"));  // a CHECK: the service is stopped below whatever happens
  CHECK(programs_in(cache) == 1);  // PoCL's build of it, where the children will find it
  const auto cached = std::chrono::steady_clock::now();
  CHECK(kit::build_in_service(good, options));  // again: PoCL's own cache answers
  const auto answered = std::chrono::steady_clock::now() - cached;
  CHECK(programs_in(cache) == 1);
  CHECK_FALSE(kit::build_in_service("kernel void k(global int *x) { x[0] = ; }\n", options));  // the child builds it itself, for the log
  CHECK(kit::build_in_service(good, options + " -D OTHER=1"));  // other options: another program
  CHECK(programs_in(cache) == 2);

  kill(service, SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto asked = std::chrono::steady_clock::now();
  CHECK_FALSE(kit::build_in_service(good + "\n", options));  // gone: refused at once, never waited on
  // The bound comes from this run: a request the service answered from PoCL's cache (a connection,
  // the text sent, a look-up, the answer) measured above, or 1 s where that was quicker. A refused
  // connection is less work than that; a client that waited or tried again would take longer
  // however fast the machine is.
  const auto refused = std::chrono::steady_clock::now() - asked;
  CHECK_MESSAGE(refused < std::max<std::chrono::steady_clock::duration>(std::chrono::seconds(1), 10 * answered),
                std::chrono::duration<double>(refused).count() << " s, the cached request " << std::chrono::duration<double>(answered).count() << " s");
  unsetenv(kit::kBuildServiceVariable);
}

namespace {

// The processes whose command line holds `text` (their arguments joined by spaces).
std::vector<std::string> processes_with(const std::string& text) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string line = test::read(e.path() / "cmdline");  // a process that ended meanwhile reads as ""
    std::replace(line.begin(), line.end(), '\0', ' ');
    if (line.find(text) != std::string::npos) found.push_back(line);
  }
  return found;
}

}  // namespace

TEST_CASE("grader check and gradescope build the programs of all the labs they grade through one build service of their own, which ends with them") {
  const test::TempDir dir;
  const std::string solutions = (kit::root() / "solutions").string();
  const std::vector<std::string> labs = test::kit_labs(true);  // the first two registered labs
  REQUIRE(labs.size() >= 2);
  const std::string first = labs[0].substr(0, 2), second = labs[1].substr(0, 2);
  for (const std::string& args : {"check " + first + " " + second + " --dir '" + solutions + "'",
                                 "gradescope --labs " + first + "," + second + " --submission '" + solutions + "' --results '" +
                                     (dir / "results.json").string() + "'"}) {
    CAPTURE(args);
    const std::string command = "exec '" + std::string(KIT_BIN_DIR) + "/grader' " + args + " > '" + (dir / "out.txt").string() + "' 2>&1";
    const pid_t grader = fork();
    REQUIRE(grader >= 0);
    if (grader == 0) {
      execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    // The service is named after the grader's process: seen while the grader runs (it lives as
    // long as the command, two labs of cases, so a look every 20 ms cannot miss it).
    const std::string socket = "build-service --socket @kit-build-" + std::to_string(grader) + "-";
    std::size_t seen = 0;
    int status = 0;
    while (waitpid(grader, &status, WNOHANG) == 0) {
      seen = std::max(seen, processes_with(socket).size());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK_MESSAGE(WIFEXITED(status), test::read(dir / "out.txt"));
    CHECK_MESSAGE(WEXITSTATUS(status) == 0, test::read(dir / "out.txt"));
    CHECK(seen == 1);  // one service for both labs
    CHECK(processes_with(socket).empty());  // stopped before the command ended
  }
}
