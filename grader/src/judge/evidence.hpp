#pragma once
// One case run alone under Oclgrind (the witness of a large case, a drawing's run), and the words
// for what Oclgrind found (the sentences of a hint led by a finding).
#include <filesystem>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "judge/grade.hpp"
#include "oclgrind/oclgrind.hpp"
#include "oclgrind/work_span.hpp"
#include "spec/spec.hpp"

namespace grader {

// A case's size for Oclgrind, which runs every work-item in turn and records every access: its
// elements (or pixels) times its launches.
double work_of(const json& params);

// The case fields of which the safety case lists several values (lab 04's rung, lab 05's method,
// lab 08's part): the fields that pick the kernel function a case runs. Their values in `params`,
// as one key ("" for a lab whose safety case lists none).
std::string kernel_key(const SafetySpec& safety, const json& params);

// How a case is run under Oclgrind.
struct OclgrindRunChoice {
  bool all_checks = true;       // races (--uniform-writes) and uninitialized values too; else Oclgrind's own checks only
  double time_limit_s = 0;      // 0: the spec's safety time limit
  bool record_launches = false; // the work/span plugin's record even where the spec allows no false alarm
  bool quick = false;           // --quick: only each launch's first and last work-group (the findings, not the outputs, count)
  std::string folder = "evidence";
};

// One case (or a safety run) under Oclgrind, in a child: what it computed and what Oclgrind found.
struct EvidenceRun {
  std::vector<OclgrindFinding> findings;  // less the false alarms the spec allows
  std::size_t allowed = 0;                // the findings left out as allowed false alarms
  std::vector<KernelWork> launches;       // the plugin's record, when it ran
  bool launches_recorded = false;
  bool timed_out = false;
  bool log_read = false;                  // Oclgrind wrote its log: the findings are known
  bool oclgrind_ran = false;              // the kit's plugin recorded the run: it happened on Oclgrind's device
  std::string not_run;                    // otherwise: why
  json result;                            // the child's result (as step_result)
  json written;                           // the result file the child wrote, also when it crashed after writing it
  double seconds = 0;
};
EvidenceRun run_under_oclgrind(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& copy,
                               const std::string& shown_as, const json& params, const std::string& name, const OclgrindRunChoice& how);

}  // namespace grader
