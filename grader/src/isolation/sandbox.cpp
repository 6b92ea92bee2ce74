#include "isolation/sandbox.hpp"

#include <fcntl.h>
#include <cerrno>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "core/files.hpp"
#include "isolation/child_folder.hpp"

namespace grader {
namespace {

bool says_out_of_memory(const std::string& text) {
  for (const char* sign : {"bad_alloc", "out of memory", "Out of memory", "CL_OUT_OF_HOST_MEMORY",
                           "CL_MEM_OBJECT_ALLOCATION_FAILURE", "CL_OUT_OF_RESOURCES", "Cannot allocate memory"})
    if (text.find(sign) != std::string::npos) return true;
  return false;
}

// Whether CPUs 0 .. count-1 are all in this process's affinity mask.
bool first_cpus_usable(int count) {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0 || count > CPU_SETSIZE) return false;
  for (int cpu = 0; cpu < count; ++cpu)
    if (!CPU_ISSET(cpu, &mine)) return false;
  return true;
}

}  // namespace

StepThreads step_threads(const std::vector<std::string>& argv, int fallback) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
    if (argv[i] != "--case") continue;
    const nlohmann::json params = nlohmann::json::parse(argv[i + 1], nullptr, false);  // no exceptions
    if (!params.is_object() || !params.contains("pocl_threads") || !params["pocl_threads"].is_number_unsigned()) break;
    return step_threads(int(std::clamp<std::uint64_t>(params["pocl_threads"].get<std::uint64_t>(), 1, 256)));
  }
  return {fallback, false};
}

StepThreads step_threads(int count) { return {count, count >= 2 && first_cpus_usable(count)}; }

std::string ChildOutcome::reason(const SandboxLimits& limits) const {
  const std::string memory = "ran out of memory (limit " + std::to_string(limits.memory_mb) + " MB)";
  switch (end) {
    case End::NotStarted: return "could not be started";
    case End::TimedOut: {
      char text[300];
      if (limits.build_limit_s > 0 && limits.build_allowance_s >= 0.005)
        std::snprintf(text, sizeof text, "ran past its %g s time limit, not counting the %.2f s its launches waited for the device to "
                      "compile them (a run again is given up to the %.0f s build limit for that), and was stopped",
                      limits.seconds - limits.build_allowance_s, limits.build_allowance_s, limits.build_limit_s);
      else if (limits.build_limit_s > 0)
        std::snprintf(text, sizeof text, "ran past its %g s time limit with no wait for the device to compile its launches (a run "
                      "again is given up to the %.0f s build limit for that), and was stopped",
                      limits.seconds - limits.build_allowance_s, limits.build_limit_s);
      else
        std::snprintf(text, sizeof text, "ran past its %.0f s time limit and was stopped", limits.seconds);
      return text;
    }
    case End::Signaled:
      if (says_out_of_memory(output)) return memory;
      if (signal == SIGXFSZ)  // a kernel's printf is the usual way to get there
        return "wrote more than the " + std::to_string(kMaxFileMiB) + " MiB a case may write (its output, printf's included) and was stopped";
      return std::string("crashed (") + (sigabbrev_np(signal) ? "SIG" + std::string(sigabbrev_np(signal)) : "signal " + std::to_string(signal)) +
             ", " + strsignal(signal) + ")";
    case End::Exited:
      if (exit_code != 0 && says_out_of_memory(output)) return memory;
      return "exited with status " + std::to_string(exit_code);
  }
  return "";
}

namespace {

// The child's side of run_in_sandbox, between fork and exec: its own process group, the limits,
// a private environment, its output to `log`, then (for a grader run as root) another user. Never returns.
[[noreturn]] void start_child(std::vector<char*>& args, const SandboxLimits& limits, const StepThreads& threads,
                              const std::filesystem::path& workdir, const std::filesystem::path& log, pid_t parent,
                              const std::optional<ChildUser>& user) {
  setpgid(0, 0);
  // If the grader dies (killed batch, Ctrl-C), take this step with it: a student's endless loop
  // must not outlive the grader that would have stopped it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(125);  // the grader died before the death signal was armed
  const rlim_t bytes = rlim_t(limits.memory_mb) << 20;
  const rlim_t cpu = rlim_t(limits.seconds * threads.count) + 10;  // a backstop to the wall clock
  const struct rlimit memory{bytes, bytes}, no_core{0, 0}, cpu_time{cpu, cpu};
  if (limits.limit_address_space) setrlimit(RLIMIT_AS, &memory);
  setrlimit(RLIMIT_CORE, &no_core);
  setrlimit(RLIMIT_CPU, &cpu_time);
  const struct rlimit file_size{rlim_t(kMaxFileMiB) << 20, rlim_t(kMaxFileMiB) << 20};  // no file a child writes grows past it
  setrlimit(RLIMIT_FSIZE, &file_size);
  setenv("POCL_CACHE_DIR", limits.pocl_cache.c_str(), 1);
  setenv("POCL_MAX_PTHREAD_COUNT", std::to_string(threads.count).c_str(), 1);
  setenv("OMP_NUM_THREADS", std::to_string(threads.count).c_str(), 1);
  // Oclgrind too: with a worker per core it runs work-groups in an order that changes from run
  // to run, and so do the races it reports between them (a kernel was "unsafe" in one run and
  // not in the next); an endless loop would also keep every core busy until the time limit.
  setenv("OCLGRIND_NUM_THREADS", std::to_string(threads.count).c_str(), 1);
  if (threads.pinned) setenv("POCL_AFFINITY", "1", 1);
  else unsetenv("POCL_AFFINITY");
  // Build options from the grader's own environment never reach a child: only the witness's run
  // with the optimizations off sets them (kit/program.hpp, kExtraBuildOptionsVariable).
  unsetenv("KIT_EXTRA_BUILD_OPTIONS");
  for (const auto& [name, value] : limits.environment) setenv(name.c_str(), value.c_str(), 1);
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    ::close(fd);
  }
  if (chdir(workdir.c_str()) != 0) _exit(126);
  if (user) {
    if (const char* failed = become(*user)) {
      const std::string said = std::string("the grader could not run this step as user ") + user->name + ": " + failed + "\n";
      (void)!::write(STDERR_FILENO, said.data(), said.size());
      _exit(125);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // a change of user clears it
    if (getppid() != parent) _exit(125);
  }
  // Only 0, 1 and 2 go on: a file another thread of the grader had open at the fork (the copy of
  // a program being written for another child, isolation/child_folder.cpp) would stay open for
  // writing here, and exec of that copy fails with ETXTBSY. A sibling forked in that moment holds
  // it until it gets here: those tries wait for it.
  close_range(3, ~0U, 0);
  for (int tries = 0; tries < 50; ++tries) {
    execv(args[0], args.data());
    if (errno != ETXTBSY) break;
    usleep(20000);
  }
  _exit(127);
}

// Waits for the child `pid` until it ends or the deadline passes (then its whole group is killed);
// sets how it ended and its seconds in `outcome`.
void wait_for(pid_t pid, const SandboxLimits& limits, const Deadline& deadline, std::chrono::steady_clock::time_point start,
              ChildOutcome& outcome) {
  const auto fixed_end = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(limits.seconds));
  int status = 0;
  for (auto pause = std::chrono::milliseconds(1);; pause = std::min(pause * 2, std::chrono::milliseconds(20))) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    std::chrono::steady_clock::time_point end = fixed_end;
    try {
      if (deadline) end = deadline();
    } catch (...) {  // the parent's own failure (a file it could not write): no child outlives it
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      throw;
    }
    if (std::chrono::steady_clock::now() >= end) {
      kill(-pid, SIGKILL);  // the whole group: the child and anything it started
      waitpid(pid, &status, 0);
      outcome.end = ChildOutcome::End::TimedOut;
      break;
    }
    std::this_thread::sleep_for(pause);
  }
  kill(-pid, SIGKILL);  // nothing of the group outlives its step
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (outcome.end != ChildOutcome::End::TimedOut) {
    if (WIFEXITED(status)) {
      outcome.end = ChildOutcome::End::Exited;
      outcome.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      outcome.end = ChildOutcome::End::Signaled;
      outcome.signal = WTERMSIG(status);
    }
  }
}

// The child's output kept: all of it, or its head and its tail (half of limits.output_bytes each).
std::string kept_output(const std::filesystem::path& log, const SandboxLimits& limits) {
  try {
    const std::string text = read_file(log);
    const std::size_t half = limits.output_bytes / 2;
    return text.size() <= limits.output_bytes ? text
                                              : text.substr(0, half) + "\n[... output cut ...]\n" + text.substr(text.size() - half);
  } catch (...) {
    return "";
  }
}

}  // namespace

ChildOutcome run_in_sandbox(const std::vector<std::string>& argv, const SandboxLimits& limits,
                            const std::filesystem::path& workdir, const Deadline& deadline) {
  std::filesystem::create_directories(workdir);
  std::filesystem::create_directories(limits.pocl_cache);
  // As root, the child runs as another user, in a folder of its own (isolation/child_folder.hpp),
  // and sees the paths it is given as they are there.
  const std::optional<ChildUser> user = child_user();
  std::optional<ChildFolder> folder;
  std::vector<std::string> seen = argv;
  SandboxLimits its = limits;
  if (user) {
    folder.emplace(*user, workdir);
    for (std::string& a : seen) a = folder->seen(a);
    for (auto& [name, value] : its.environment) value = folder->seen(value);
    its.pocl_cache = pocl_cache_for(*user, limits.pocl_cache);
    its.environment.emplace_back("HOME", folder->work().string());
    its.environment.emplace_back("TMPDIR", folder->work().string());
  }
  const std::filesystem::path where = folder ? folder->work() : workdir;
  std::vector<char*> args;
  for (const std::string& a : seen) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  const StepThreads threads = limits.case_threads > 0 ? step_threads(limits.case_threads) : step_threads(argv, limits.pocl_threads);
  ChildOutcome outcome;
  const auto start = std::chrono::steady_clock::now();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return outcome;
  if (pid == 0) start_child(args, its, threads, where, where / "child.log", parent, user);
  setpgid(pid, pid);  // also from here, so the group exists before any kill
  wait_for(pid, limits, deadline, start, outcome);
  if (folder) folder->bring_back();  // what it wrote, back where the grader reads it
  outcome.output = kept_output(workdir / "child.log", limits);
  return outcome;
}

}  // namespace grader
