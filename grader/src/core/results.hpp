#pragma once
// The outcome of grading one student's lab: one line per case, points, and why.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace grader {

using json = nlohmann::json;

struct CaseResult {
  std::string name;
  bool visible = false;
  double points = 0, max_points = 0;
  // passed | wrong | timeout | crashed | out-of-memory | error | not-run
  std::string status;
  std::string message;  // what went wrong, in plain words
  std::string hint;     // the typical mistake it matches, if any
  double seconds = 0;
  // case (correctness) | speed | safety | algorithm: the spec's points policy scales all but "case"
  std::string kind = "case";
  double ratio = -1;  // the speed case: the kernel's speed / the solution's on the graded device (-1: none)
};

struct LabResult {
  std::string student, lab;
  std::string kernel;  // the file graded, relative to the submission
  // graded | missing | rejected | build-error
  std::string status;
  std::string message;  // for missing / rejected / build-error: the reason, e.g. the build log
  std::vector<std::string> notes;  // e.g. other files of the same name that were ignored
  std::vector<CaseResult> cases;
  std::string device;  // the OpenCL device the cases ran on, as the child named it (empty: not built)

  double points() const;
  double max_points() const;
};

// JSON text of a result; bytes that are not UTF-8 (a student's folder named in another code
// page, say) become U+FFFD rather than stopping the batch.
std::string dump_json(const json& j, int indent = -1);

json to_json(const CaseResult& c);
json to_json(const LabResult& r);
LabResult lab_result_from_json(const json& j);  // throws on a malformed record

}  // namespace grader
