#pragma once
// The checks that run under Oclgrind: memory safety (races, barrier divergence, bounds,
// uninitialized values) and the algorithm checks (the kit's work/span plugin), one run for both,
// and their verdicts.
#include <filesystem>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "judge/grade.hpp"
#include "spec/spec.hpp"

namespace grader {

// The name of a memory-safety check's result line: "memory safety: data races (Oclgrind)" for
// "data-race".
std::string safety_name(const std::string& kind);

// The Oclgrind program ($KIT_OCLGRIND, else /usr/bin or /usr/local/bin), "" when there is none;
// the kit's plugin ($KIT_WORK_SPAN_PLUGIN, else beside the grader program).
std::string find_oclgrind();
// Why there is none and how to get it, for the lines that Oclgrind could not check.
std::string oclgrind_missing();
std::filesystem::path find_work_span_plugin(const GradeSettings& s);

// The run under Oclgrind: the memory-safety case (with the race, divergence, bounds and
// uninitialized checks when `with_safety`) and, when `with_algorithm`, the kit's work/span plugin
// measuring each work-group's operations. One result per kind of finding, then one per algorithm
// check. `copy` is the private copy of the kernel, `shown_as` its name in messages.
std::vector<CaseResult> oclgrind_cases(const LabSpec& spec, bool with_safety, bool with_algorithm, const GradeSettings& s,
                                       const std::filesystem::path& copy, const std::string& shown_as,
                                       const std::string& source);

}  // namespace grader
