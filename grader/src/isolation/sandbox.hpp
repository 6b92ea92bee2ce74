#pragma once
// Runs one step of grading in a child process so that a student's kernel that hangs, crashes or
// eats memory costs that step only: own process group (killed whole at the deadline), an
// address-space limit, a private PoCL cache and a fixed PoCL thread count.
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace grader {

// The most a child may write to one file (its output log included), in MiB: past it, SIGXFSZ.
inline constexpr int kMaxFileMiB = 256;

struct SandboxLimits {
  double seconds = 10;
  std::size_t memory_mb = 1024;
  int pocl_threads = 1;
  std::filesystem::path pocl_cache;  // private to one submission x lab
  std::size_t output_bytes = 64 * 1024;  // output kept: its head and its tail, half each
  std::vector<std::pair<std::string, std::string>> environment{};  // set in the child besides the above
  int case_threads = 0;  // > 0: the PoCL threads of the cases this step runs (instead of reading --case)
  // The memory limit as an address-space limit. A GPU driver reserves far more address space than
  // it uses (NVIDIA's OpenCL platform does not even appear under a 1 GiB limit), so a step on a
  // GPU runs without it; its time limit still holds.
  bool limit_address_space = true;
  // The part of `seconds` given on top of a case's own limit for its launches' compile (a case run
  // again alone after a time-out: the waits its child measured, up to `build_limit_s`); its time-out
  // then names them.
  double build_allowance_s = 0, build_limit_s = 0;
};

struct ChildOutcome {
  enum class End { Exited, TimedOut, Signaled, NotStarted } end = End::NotStarted;
  int exit_code = -1;
  int signal = 0;
  double seconds = 0;
  std::string output;  // stdout and stderr, at most limits.output_bytes
  // "crashed with SIGSEGV", "ran past its 10 s time limit", "ran out of memory (limit 1024 MB)", ...
  std::string reason(const SandboxLimits& limits) const;
};

// The PoCL threads one step runs with. A case may ask for its own count with its field
// `pocl_threads` (lab 08's contention cases: work-groups must run at the same time for their
// atomics to meet), read from the step's `--case` argument; otherwise `fallback` (--pocl-threads).
// A case's threads are pinned one to a CPU (POCL_AFFINITY) when CPUs 0 .. count-1 are all this
// process's to use (PoCL pins worker i to CPU i and aborts where it cannot), so that they run at
// the same time instead of taking turns on one core.
struct StepThreads {
  int count = 1;
  bool pinned = false;
};
StepThreads step_threads(const std::vector<std::string>& argv, int fallback);
StepThreads step_threads(int count);

// When the step must end: asked again at every poll, so that a step running several cases in
// turn can give each its own time limit from the moment it started. Empty: limits.seconds after
// the start.
using Deadline = std::function<std::chrono::steady_clock::time_point()>;

// Runs argv[0] with its arguments in `workdir`; stdout and stderr go to files there.
ChildOutcome run_in_sandbox(const std::vector<std::string>& argv, const SandboxLimits& limits,
                            const std::filesystem::path& workdir, const Deadline& deadline = {});

}  // namespace grader
