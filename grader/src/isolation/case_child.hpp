#pragma once
// The child's side of grading (`grader run-case`): what runs inside the sandbox, on the student's
// kernel, and writes its outcome as JSON files the parent reads.
#include <filesystem>
#include <optional>
#include <string>

#include "core/results.hpp"
#include "kit/device.hpp"

namespace grader {

// Set in a case child run again alone after a time-out: it writes its launches' waits for their
// compile (kit::LaunchWaits) as case-I.compile, which the parent does not count against the case.
inline constexpr const char* kLaunchWaitsVariable = "KIT_LAUNCH_WAITS";

// What a step's result says, {"status": word, ...}: the build's, a case's or the speed case's.
// The child writes each but Sandbox. One word each, as for the statuses of core/results.hpp.
enum class StepStatus {
  Built,         // "built": the kernel built and has the lab's kernels; {"device"}
  Ok,            // "ok": the case ran; {"outputs"} for the lab's check
  BuildError,    // "build-error": the compiler refused the kernel; {"log"}: the lab's build-error
  Rejected,      // "rejected": built, but a kernel is missing or its signature is not the lab's; {"message"}: the lab is rejected
  KernelFailed,  // "kernel-failed": the kernel failed on the device (a GPU's crash); {"message"}: the case crashed
  // "not-run-here": this device cannot run the case (a work-group larger than it allows); {"reason"}.
  // The case becomes "not-run" with max_points 0: not the student's fault, neither earned nor lost.
  NotRunHere,
  Error,    // "error": the grader's own failure (the device would not open, an OpenCL call failed); {"message"}: graded again
  Sandbox,  // "sandbox": written by the parent for a child that did not finish (step_result); {"end", "reason", "output"}
};

std::string word(StepStatus status);
void to_json(json& j, StepStatus status);
void from_json(const json& j, StepStatus& status);

// The status of a step's result; none for a result without one (a file that could not be read)
// or with a word this grader does not write.
std::optional<StepStatus> step_status(const json& result);

struct ChildTask {
  std::string lab;
  std::filesystem::path kernel;
  std::string shown_as;                   // the file's name in messages
  std::string case_json;                  // one case (its variants run in turn); empty: see below
  std::filesystem::path cases_file;       // a JSON array of cases, run in turn after one build
  // With cases_file: its entries are steps under Oclgrind, {"case": params, "quick": bool,
  // "measured": bool}. Before step i the child sets KIT_CASE=i, which the kit's plugin writes into
  // each launch's record (so the parent reads each step's findings from its own launches);
  // OCLGRIND_QUICK for a quick step (Oclgrind runs each launch's first and last work-group only);
  // KIT_DIVISIONS_ONLY for a step that is not measured (the plugin's light mode).
  bool steps = false;
  std::filesystem::path result;           // one case or the build alone: {"status": ...} goes here
  std::filesystem::path result_dir;       // with cases_file: built.json, then case-0.json, case-1.json, ...
  std::filesystem::path baseline;         // with case_json: time the kernel against this one
  int pairs = 15;
  std::filesystem::path gate;             // with baseline: the timed runs wait here for the device (speed_gate.hpp)
  kit::DeviceOptions device;              // -p/-d: the device to run on (default: PoCL's CPU device)
};

// Builds the kernel (checking its signatures) when neither a case nor a cases file is given, runs
// one case, times it against a baseline, or builds once and runs a list of cases writing each
// result as soon as it is known (so the parent can give every case its own time limit and, after
// a time-out or crash, continue with the rest in a new child). Returns the exit status.
int run_case_child(const ChildTask& task);

}  // namespace grader
