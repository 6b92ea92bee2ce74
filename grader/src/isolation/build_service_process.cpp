#include "isolation/build_service_process.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "isolation/sandbox.hpp"

namespace grader {

double max_build_limit(const std::vector<LabSpec>& specs) {
  double most = 60;
  for (const LabSpec& spec : specs) most = std::max(most, spec.build_time_limit_s);
  return most;
}

BuildServiceProcess::BuildServiceProcess(const std::filesystem::path& grader_exe, const std::filesystem::path& pocl_cache,
                                         const std::filesystem::path& dir, int slot, double build_limit_s)
    : socket_("@kit-build-" + std::to_string(getpid()) + "-" + std::to_string(slot)) {
  keeper_ = std::thread([=, this] {
    using Clock = std::chrono::steady_clock;
    SandboxLimits limits{1e7, 2048, 1, pocl_cache};  // no time limit of its own: each build has one
    const std::vector<std::string> argv = {grader_exe.string(), "build-service", "--socket", socket_, "--build-limit",
                                           std::to_string(int(build_limit_s + 0.5))};
    while (!stop_) {
      const Clock::time_point started = Clock::now();
      const ChildOutcome o = run_in_sandbox(argv, limits, dir, [this] { return stop_ ? Clock::now() : Clock::now() + std::chrono::hours(1); });
      if (stop_ || (o.end == ChildOutcome::End::Exited && o.exit_code == kNothingToServe)) break;
      if (Clock::now() - started < std::chrono::seconds(1)) std::this_thread::sleep_for(std::chrono::seconds(1));  // not in a tight loop
    }
  });
}

BuildServiceProcess::~BuildServiceProcess() {
  stop_ = true;
  keeper_.join();
}

}  // namespace grader
