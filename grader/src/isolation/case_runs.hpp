#pragma once
// The parent's side of grading a kernel: starting children in the sandbox and reading what they
// wrote. The cases of one kernel run in as few children as possible, each case under its own time
// limit; a case that ends its child (time-out, crash) costs that case only.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "isolation/case_child.hpp"
#include "isolation/sandbox.hpp"
#include "judge/grade.hpp"

namespace grader {

struct ChildRun {
  json result;  // the child's result file, or {} when it wrote none
  ChildOutcome outcome;
};

// A result file a child wrote (atomically: complete or absent); {} where there is none, or where
// it is a link.
json read_result(const std::filesystem::path& file);

// Runs `[prefix...] grader run-case ARGS --result DIR/result.json` in the sandbox and reads the
// result; `deadline` as for run_in_sandbox.
ChildRun run_child(const GradeSettings& s, const std::vector<std::string>& prefix, const std::vector<std::string>& args,
                   const SandboxLimits& limits, const std::filesystem::path& dir, const Deadline& deadline = {});

// A normal step's result, or {"status": "sandbox", "end": "timeout" | "crashed" | "out-of-memory"
// (a CaseStatus), "reason", "output"} when the child did not finish properly.
json step_result(const ChildRun& run, const SandboxLimits& limits);

// How a step that did not finish ended (its "end": Timeout, Crashed or OutOfMemory); none for a
// step that finished, or a case not run.
std::optional<CaseStatus> step_end(const json& result);

struct CaseRuns {
  json build;                  // {"status": "built"} (StepStatus::Built), or why not (as step_result)
  double build_seconds = 0;
  std::vector<json> results;   // per case asked for, in order: as step_result; {} when not run
  std::vector<double> seconds;
  // Per case run again alone: of its seconds, those its launches waited for the device to compile
  // them (not counted against its limit, up to the build limit; 0 in other runs).
  std::vector<double> compile_seconds;
  std::vector<bool> timed_out_first;  // per case: timed out beside other grading, then run again alone (that run counts)
  // The time budget: per case, the name of the case of the same kernel function that ran past its
  // limit alone, after which this one was not run ("" when it ran); and the first such case of the
  // kernel ("" when every case it ran finished alone).
  std::vector<std::string> not_run_after;
  std::string timed_out_alone;
  double timeout_seconds = 0;    // in runs that ended at their time limit: beside other grading and alone
  double lock_wait_seconds = 0;  // waiting for the device (DeviceLock): for a run alone, or while one ran
  int children = 0;            // child processes started
};

// What comes after a case, as the parent judges its result: the next case, or none (`grader
// mutants`' screening stops at the first case that loses points).
enum class AfterCase { GoOn, Stop };
using CaseJudge = std::function<AfterCase(std::size_t case_index, const json& result)>;

// Builds the kernel once and runs spec.cases[indices] in turn in one child, each case under its
// own time limit from the moment the case before it finished, each kernel function's cases
// smallest first (time_budget.hpp). After a time-out or crash a new child goes on with the
// remaining cases. A case that runs past its limit is first run again at once, alone with the
// device (DeviceLock); when it runs past it there too, the function's later cases are not run
// (not_run_after), the time budget. A case that crashed or ran out of memory after other
// cases ran in its child is run again in a fresh child of its own, sharing the device with other
// grading (a time-out there runs again alone), and that run counts (the child
// zeroes the CPU device's local memory between cases, see case_child.cpp). Cases with a PoCL thread
// count of their own run in a child each. With settings.child_per_case (the earlier way, kept for
// `grader bench`), the build and every case get a child of their own.
CaseRuns run_cases(const LabSpec& spec, const GradeSettings& settings, const std::filesystem::path& kernel,
                   const std::string& shown_as, const std::vector<std::size_t>& indices, const CaseJudge& judge);

}  // namespace grader
