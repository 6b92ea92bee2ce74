#pragma once
// The verdicts that rest on the stage under Oclgrind (oclgrind_stage.hpp), the same in every
// command (check, grade, gradescope, slurm, mutants) and every report:
//  - a case whose own shape shows a fault is wrong (undefined behaviour: a device may compute the
//    right result in one run and not in the next), whatever the device computed, and its hint
//    names the fault, led by what Oclgrind found (evidence_hint.hpp); a wrong case whose own shape
//    shows nothing gets the lab's hint, and the fault Oclgrind found at another case of the same
//    kernel function where there is one, so that no guess contradicts a finding;
//  - the memory-safety lines add up what every shape looked at showed, and say which shapes;
//  - the algorithm lines read the plugin's measurements of the memory-safety runs.
// Fail closed: where Oclgrind did not run (missing, its runtime not loaded, the plugin missing),
// the lines that rest on it are not-run, earn nothing, and say why and how to fix it.
#include <filesystem>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "judge/grade.hpp"
#include "judge/oclgrind_stage.hpp"
#include "spec/references.hpp"
#include "spec/spec.hpp"

namespace grader {

// How the message of a case judged wrong for what Oclgrind found at its shape begins.
inline constexpr const char* kUndefinedBehaviour = "undefined behaviour: ";

// Each graded case of `r` judged by what the stage found at its own shape (see above).
void judge_by_evidence(const LabSpec& spec, const OclgrindEvidence& e, const std::string& source, const std::string& shown_as,
                       LabResult& r);

// The memory-safety lines (with_safety) and the algorithm lines (with_algorithm) from the stage.
std::vector<CaseResult> oclgrind_lines(const LabSpec& spec, bool with_safety, bool with_algorithm, const OclgrindEvidence& e,
                                       const std::string& source, const std::string& shown_as);

// The stage under Oclgrind (oclgrind_stage.hpp) and everything that reads it, once per lab result
// whatever the devices graded (Oclgrind is its own device): the cases' verdicts at their shapes,
// the memory-safety and algorithm lines (left not-run, saying why, where the kernel did not finish
// the case `timed_out_alone` alone), the witness (witness.hpp). `copy` is the private copy of the
// kernel, `source` its text, `shown_as` its name in messages.
void judge_under_oclgrind(const LabSpec& spec, const LabReference& reference, const GradeSettings& s, const std::filesystem::path& copy,
                          const std::string& source, const std::string& shown_as, const std::string& timed_out_alone, LabResult& r);

// The faults in `findings` in words: "an invalid read and a data race".
std::string faults_in_words(const std::vector<OclgrindFinding>& findings);

}  // namespace grader
