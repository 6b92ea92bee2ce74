#pragma once
// The child's side of grading (`grader run-case`): what runs inside the sandbox, on the student's
// kernel, and writes its outcome as JSON files the parent reads.
#include <filesystem>
#include <string>

#include "kit/device.hpp"

namespace grader {

struct ChildTask {
  std::string lab;
  std::filesystem::path kernel;
  std::string shown_as;                   // the file's name in messages
  std::string case_json;                  // one case (its variants run in turn); empty: see below
  std::filesystem::path cases_file;       // a JSON array of cases, run in turn after one build
  std::filesystem::path result;           // one case or the build alone: {"status": ...} goes here
  std::filesystem::path result_dir;       // with cases_file: built.json, then case-0.json, case-1.json, ...
  std::filesystem::path baseline;         // with case_json: time the kernel against this one
  int pairs = 15;
  kit::DeviceOptions device;              // -p/-d: the device to run on (default: PoCL's CPU device)
};

// Builds the kernel (checking its signatures) when neither a case nor a cases file is given, runs
// one case, times it against a baseline, or builds once and runs a list of cases writing each
// result as soon as it is known (so the parent can give every case its own time limit and, after
// a time-out or crash, continue with the rest in a new child). Returns the exit status.
int run_case_child(const ChildTask& task);

}  // namespace grader
