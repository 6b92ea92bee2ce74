#pragma once
// Launching a kernel so that a crash says where it happened. A kernel that writes outside a buffer
// or a local array can kill a CPU device's process with a segmentation fault and no word of its
// own; the lab programs then print which kernel was running, after everything printed so far.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kit/opencl.hpp"

namespace kit {

// Flushes the program's output, notes `kernel` as the one running, and enqueues it.
void launch(const cl::CommandQueue& queue, const cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local,
            const std::vector<cl::Event>* wait = nullptr, cl::Event* done = nullptr);

// From now on a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL) prints the kernel that launch() enqueued
// last and `grader check NN --races`, which names the line at fault, then ends the process with
// the same signal. `lab` is the lab's folder name ("03-array-mult-reduce"). The lab programs call
// it (through kit::chosen_kernel); the grader's children do not: the grader reports a crash itself.
void report_crashes(const std::string& lab);

// While one lives, the time launch()'s kernels waited for the device to start them with none of
// them running: on PoCL's CPU device, the compile of a kernel for a work-group size it has not run
// at before (25 to 170 ms a size quiet, more under load), which is the build's time, not the
// kernel's. Kept in FILE, rewritten at each change, as "SECONDS SINCE": the waits that ended, and
// when the one under way began (CLOCK_MONOTONIC seconds, -1: none), so that a parent process can
// follow it live (grader/src/isolation/case_runs.cpp). A launch is started when the device says
// CL_RUNNING; a device that never says it counts the whole launch as waiting.
class LaunchWaits {
 public:
  explicit LaunchWaits(std::filesystem::path file);
  ~LaunchWaits();
  LaunchWaits(const LaunchWaits&) = delete;
  LaunchWaits& operator=(const LaunchWaits&) = delete;
  struct State;

 private:
  std::shared_ptr<State> state_;
};

// What LaunchWaits wrote to `file`, at `now` (CLOCK_MONOTONIC seconds): the seconds waited so far,
// the one under way included; 0 where there is no such file.
double launch_waits_in(const std::filesystem::path& file, double now);
// CLOCK_MONOTONIC in seconds, the clock LaunchWaits writes.
double monotonic_seconds();

}  // namespace kit
