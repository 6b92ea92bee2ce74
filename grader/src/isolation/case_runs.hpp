#pragma once
// The parent's side of grading a kernel: starting children in the sandbox and reading what they
// wrote. The cases of one kernel run in as few children as possible, each case under its own time
// limit; a case that ends its child (time-out, crash) costs that case only.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "judge/grade.hpp"
#include "isolation/sandbox.hpp"

namespace grader {

struct ChildRun {
  json result;  // the child's result file, or {} when it wrote none
  ChildOutcome outcome;
};

// Runs `[prefix...] grader run-case ARGS --result DIR/result.json` in the sandbox and reads the result.
ChildRun run_child(const GradeSettings& s, const std::vector<std::string>& prefix, const std::vector<std::string>& args,
                   const SandboxLimits& limits, const std::filesystem::path& dir);

// A normal step's result, or {"status": "sandbox", "end": "timeout" | "crashed" | "out-of-memory",
// "reason", "output"} when the child did not finish properly.
json step_result(const ChildRun& run, const SandboxLimits& limits);

struct CaseRuns {
  json build;                  // {"status": "built"}, or why not (as step_result)
  double build_seconds = 0;
  std::vector<json> results;   // per case asked for, in order: as step_result; {} when not run
  std::vector<double> seconds;
  int children = 0;            // child processes started
};

// What the parent makes of a case's result: passed; lost points; lost points and grading stops
// there (`grader mutants`' screening).
enum class CaseVerdict { Passed, Lost, Stop };
using CaseJudge = std::function<CaseVerdict(std::size_t case_index, const json& result)>;

// Builds the kernel once and runs spec.cases[indices] in turn in one child, each case under its
// own time limit from the moment the case before it finished. After a time-out or crash a new
// child goes on with the remaining cases. A case that crashed or ran out of memory after other
// cases ran in its child is run again in a fresh child of its own, and that run counts (the child
// zeroes the CPU device's local memory between cases, see case_child.cpp). Cases with a PoCL thread
// count of their own run in a child each. With settings.child_per_case (the earlier way, kept for
// `grader bench`), the build and every case get a child of their own.
CaseRuns run_cases(const LabSpec& spec, const GradeSettings& settings, const std::filesystem::path& kernel,
                   const std::string& shown_as, const std::vector<std::size_t>& indices, const CaseJudge& judge);

}  // namespace grader
