#pragma once
// A batch worker's build service (kit/build_service.hpp): `grader build-service` kept running in
// the sandbox for as long as the worker grades, started again if it ends. The worker's children
// find it through KIT_BUILD_SERVICE and build from PoCL's cache what it built for them.
#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "spec/spec.hpp"

namespace grader {

// `grader build-service`'s exit status when the device it would build for is not PoCL's: only
// PoCL keeps the builds on disk where the children find them, so there is nothing to serve.
inline constexpr int kNothingToServe = 3;

// The longest build time limit of `specs`: the build service's limit for one build.
double max_build_limit(const std::vector<LabSpec>& specs);

class BuildServiceProcess {
 public:
  // `pocl_cache` is the worker's PoCL cache (the one its children use); `dir` holds the
  // service's log. The socket is named in the abstract namespace, unique to this process and slot.
  BuildServiceProcess(const std::filesystem::path& grader_exe, const std::filesystem::path& pocl_cache,
                      const std::filesystem::path& dir, int slot, double build_limit_s);
  ~BuildServiceProcess();  // stops the service
  BuildServiceProcess(const BuildServiceProcess&) = delete;
  BuildServiceProcess& operator=(const BuildServiceProcess&) = delete;

  const std::string& socket() const { return socket_; }

 private:
  std::string socket_;
  std::atomic<bool> stop_{false};
  std::thread keeper_;
};

}  // namespace grader
