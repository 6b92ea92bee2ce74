#pragma once
// GitHub Classroom: `grader check --classroom` reports the self-check the way the autograding
// reporter reads it: base64 of {"version": 1, "status", "max_score", "tests": [...]}, written to
// $GITHUB_OUTPUT as `result=...` (printed when that variable is unset).
#include <string>
#include <vector>

#include "core/results.hpp"

namespace grader {

// The reporter's JSON for a check's results: a test per case, scores in points.
json classroom_result(const std::vector<LabResult>& results);

std::string base64(const std::string& bytes);

// Appends `result=<base64>` to the file $GITHUB_OUTPUT names, or returns the line to print.
std::string write_classroom_output(const json& result);

}  // namespace grader
