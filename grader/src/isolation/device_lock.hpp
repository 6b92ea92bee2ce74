#pragma once
// One OpenCL device shared by every grader process on this machine: a lock file per device in the
// temporary folder (kit-grader-device-<device>.lock). Every case child holds it shared while it
// runs; a speed case's timed runs (speed_gate.hpp), and the run again of a case that ran out of
// its time, hold it exclusively.
// So no two speed cases overlap on a device, none overlaps other grading there, and a case's time
// limit is judged, at the last, on a device that runs that case alone: a right kernel does not lose
// its points to other kernels graded beside it (--jobs, or a second grader on the same device).
// A second lock, the turnstile, keeps the exclusive waiters from starving: a shared taker passes
// through it, an exclusive one holds it until it has the device. Programs other than the grader
// (or a grader that picks the same device by other words, e.g. "-p 0" and "-p pocl") do not take it.
#include <filesystem>
#include <string>

#include "kit/device.hpp"

namespace grader {

class DeviceLock {
 public:
  enum class Mode { Shared, Exclusive };
  DeviceLock(const kit::DeviceOptions& device, Mode mode);
  ~DeviceLock();
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;

  // The lock file for `device` (its -p/-d words, made safe for a file name).
  static std::filesystem::path file(const kit::DeviceOptions& device);

 private:
  int fd_ = -1;
};

}  // namespace grader
