#pragma once
// The time budget of a kernel's cases. The cases of each kernel function (the values of the
// spec's variants fields: lab 04's rung, lab 05's method, lab 06's branch, lab 07's block, lab
// 08's part; the whole file for a lab with one kernel) run smallest first. A case that runs past
// its time limit beside other grading is run again at once with the device to itself (DeviceLock),
// and that run counts; when it runs past its limit there too, the function's cases not yet run are
// not run: a kernel that does not finish a case alone would have each larger case of the same
// function cost its limit twice (an endless loop: the whole class's time). A kernel that finishes
// every case alone never meets the budget, so it never loses a point to it.
#include <cstddef>
#include <string>
#include <vector>

#include "spec/spec.hpp"

namespace grader {

// The kernel function a case runs, as the values of the spec's variants fields ("" with none).
std::string kernel_function_of(const LabSpec& spec, const CaseSpec& c);

// The same for people: "rung 3", "part atomic-int"; "" for a lab with one kernel.
std::string kernel_function_words(const LabSpec& spec, const CaseSpec& c);

// How much work a case asks for: its elements (lab 07: width x height), times its repeats.
double case_size(const CaseSpec& c);

// `positions` (into `indices`, the spec's cases graded) in the order they run: the kernel
// functions in the order of their first case, each function's cases smallest first, equal sizes
// in the spec's order.
std::vector<std::size_t> budget_order(const LabSpec& spec, const std::vector<std::size_t>& indices,
                                      std::vector<std::size_t> positions);

// The message of a case not run after `timed_out` (the case that ran past its limit alone).
std::string not_run_after_message(const LabSpec& spec, const CaseSpec& timed_out);

// The message of an Oclgrind check not run after a case ran past its limit alone.
std::string oclgrind_not_run_message(const std::string& timed_out);

}  // namespace grader
