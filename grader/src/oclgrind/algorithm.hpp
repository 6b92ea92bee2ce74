#pragma once
// Algorithm checks: whether each kernel's work-groups reduce the way the lab teaches (a tree of
// about log2 L levels, its operations spread over the work-items), judged from what the kit's
// Oclgrind plugin measured in the safety run.
#include <string>
#include <vector>

#include "core/results.hpp"
#include "spec/spec.hpp"
#include "oclgrind/work_span.hpp"

namespace grader {

// The name of an algorithm check's result line: "algorithm: reduce3_sequential (measured under Oclgrind)",
// for a fence check "algorithm: dot_single_pass's fences (traced under Oclgrind)", for an access
// check "algorithm: DotCascade's global loads (traced under Oclgrind)".
std::string algorithm_name(const AlgorithmCheck& check);

// One result per check, from the plugin's measurements; a kernel that was not launched in the run
// fails with that reason. Fence and access checks are judged from the access trace. Points
// are the full points or 0: the points policy scales them later.
std::vector<CaseResult> algorithm_results(const AlgorithmSpec& spec, const std::vector<KernelWork>& measured,
                                          const std::string& source = "");

// The results of every check, each with `status` and `why` and no points.
std::vector<CaseResult> algorithm_not_run(const AlgorithmSpec& spec, CaseStatus status, const std::string& why);

}  // namespace grader
