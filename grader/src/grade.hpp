#pragma once
// Grading one submission's lab: find and screen the kernel file, build it in a child process,
// run every case in a child process of its own, compare with the stored references.
#include <filesystem>
#include <string>

#include "references.hpp"
#include "results.hpp"
#include "spec.hpp"

namespace grader {

struct GradeSettings {
  std::filesystem::path grader_exe;  // this program: children run `grader run-case`
  std::filesystem::path workdir;     // private scratch space for this submission x lab
  int pocl_threads = 1;
  bool visible_only = false;         // the students' self-check runs visible cases only
  bool safety = true;                // run the spec's memory-safety case under Oclgrind
  bool stop_at_first_loss = false;   // `grader mutants`' screening: the rest is "not-run" once a case loses points
};

// A result with every case (and safety check) "not-run" and 0 points: for a submission whose
// kernel is missing, rejected or not built.
LabResult not_graded(const LabSpec& spec, const GradeSettings& settings, const std::string& student,
                     const std::string& status, const std::string& message);

// The spec's points policy, applied to a graded lab: every point that is not a correctness point
// (speed, memory safety, algorithm) is scaled by the fraction of the case points earned, rounded down
// to hundredths, and its message says so.
void apply_points_policy(const LabSpec& spec, LabResult& r);

LabResult grade_lab(const LabSpec& spec, const LabReference& reference, const std::filesystem::path& submission,
                    const std::string& student, const GradeSettings& settings);

// The child's side (`grader run-case`): builds `kernel` (and checks its signatures) when
// `case_json` is empty, times it against `baseline` in `pairs` alternating runs when one is
// given, else runs that case; writes {"status": ...} to `result_file`.
int run_case_child(const std::string& lab, const std::filesystem::path& kernel, const std::string& shown_as,
                   const std::string& case_json, const std::filesystem::path& result_file,
                   const std::filesystem::path& baseline = {}, int pairs = 0);

}  // namespace grader
