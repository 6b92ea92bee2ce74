#pragma once
// The checks that run under Oclgrind: memory safety (races, barrier divergence, bounds,
// uninitialized values) and the algorithm checks (the kit's work/span plugin): where Oclgrind and
// the plugin are, and a memory-safety line's verdict from what was found (the runs themselves are
// judge/oclgrind_stage.hpp's).
#include <filesystem>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "judge/grade.hpp"
#include "oclgrind/oclgrind.hpp"
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
// The line of a child's output that says why Oclgrind's runtime library was not preloaded (ld.so's
// "... from LD_PRELOAD cannot be preloaded ...: ignored."), or "" when there is none.
std::string preload_failure(const std::string& output);

// One memory-safety check's line `c` (named by safety_name) judged from `findings` (less the
// false alarms the spec allows, `allowed` of them): unsafe with the first five findings of its
// kind and a hint; else passed.
void judge_safety(CaseResult& c, const SafetySpec& safety, const std::vector<OclgrindFinding>& findings, std::size_t allowed,
                  const std::string& source, const std::string& shown_as);

}  // namespace grader
