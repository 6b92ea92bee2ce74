#pragma once
// The speed case has the device to itself for its timed runs only. Its child builds the two
// kernels, makes the inputs and runs each kernel untimed beside other grading, the device lock
// held shared as for a case child; then it writes DIR/ready and waits for DIR/go. The parent,
// following the child, gives up its shared hold, takes the lock exclusively (DeviceLock) and
// writes DIR/go; after its last timed run the child writes DIR/timed, and the parent lets the
// device go. So the other grading on the device waits through the timed runs, not through the
// speed child's builds as well.
#include <chrono>
#include <filesystem>
#include <optional>

#include "isolation/device_lock.hpp"
#include "kit/timing.hpp"

namespace grader {

class SpeedGate {
 public:
  // Holds `device` shared from now on, for a child working in `dir` whose time limit is
  // `limit_s` seconds from now, not counting its wait for the device alone.
  SpeedGate(const kit::DeviceOptions& device, std::filesystem::path dir, double limit_s);
  // For run_in_sandbox's deadline: looks at what the child wrote, takes or gives back the
  // device accordingly, and returns when the child must have ended.
  std::chrono::steady_clock::time_point follow();
  double lock_wait_seconds() const { return waited_; }

 private:
  kit::DeviceOptions device_;
  std::filesystem::path dir_;
  std::chrono::steady_clock::time_point end_;
  std::optional<DeviceLock> lock_;
  bool alone_ = false, timed_ = false;
  double waited_ = 0;
};

// The child's side, around its timed runs: enter writes DIR/ready and waits for DIR/go; leave
// writes DIR/timed.
kit::TimedSection timed_section_at(const std::filesystem::path& dir);

}  // namespace grader
