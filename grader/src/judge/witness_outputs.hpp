#pragma once
// The witness's first look at a lab's small failing cases: all of them in one child under Oclgrind
// with its own checks only (no race or uninitialized-value tracking), for what each computes.
// One child builds the kernel under Oclgrind once and runs the cases one after another; a child
// per case built it again for each (a wrong lab 08 kernel has twenty such cases: 20 builds under
// Oclgrind, most of its witness time).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "judge/grade.hpp"
#include "spec/references.hpp"
#include "spec/spec.hpp"

namespace grader {

// For each of `cases` whose outputs the child wrote: whether Oclgrind computed it wrong (true) or
// right (false), by the lab's own check, by case name. A case it did not finish (a time-out after
// `case_seconds`, a crash, Oclgrind failing to build) is absent: the witness then runs it alone,
// as it would without this run. `total_seconds` bounds the whole child.
std::map<std::string, bool> wrong_under_oclgrind(const LabSpec& spec, const LabReference& reference, const GradeSettings& s,
                                                 const std::filesystem::path& copy, const std::string& shown_as,
                                                 const std::vector<const CaseSpec*>& cases, double case_seconds, double total_seconds);

}  // namespace grader
