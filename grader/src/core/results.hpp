#pragma once
// The outcome of grading one student's lab: one line per case, points, and why.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace grader {

using json = nlohmann::json;

// The statuses and kinds below each have one word, the same in every file the grader writes
// (report.json, journal.jsonl, results.json, the Markdown reports) and in its messages: word(),
// to_json and from_json read one table per enum (results.cpp); from_json throws kit::Error on a
// word that is not in it. A new value needs its word there, in order.

// What one line of a lab's result came to.
enum class CaseStatus {
  Passed,       // "passed": right (a check: nothing found; the speed case: right, at full speed); earns its points
  Wrong,        // "wrong": a wrong result, or an algorithm of another shape than the lab asks; no points
  Slow,         // "slow": the speed case, right but below full speed; earns the share its speed gives
  Unsafe,       // "unsafe": a memory-safety check, Oclgrind found that kind of fault; no points
  Timeout,      // "timeout": ran past its time limit and was stopped; no points
  Crashed,      // "crashed": the child crashed, or the kernel failed on the device; no points
  OutOfMemory,  // "out-of-memory": ran out of memory; no points
  // "not-run": not run; no points. Either the lab was not graded (kernel missing, rejected, not
  // built), screening stopped at an earlier case, or the kernel of an algorithm check was not
  // launched: its points count as lost. Or, with max_points 0, the device cannot run the case
  // (not_run_on_device): neither earned nor lost.
  NotRun,
  Error,  // "error": the grader failed (e.g. Oclgrind missing or failing); no points now, graded again on the next run
  Late,   // "late": the late penalty (kind Late): costs a share of the points earned (negative points)
  // "not-checked": a check whose checker failed on its own after the kernel's run, which found
  // nothing of its kind; the student kept its points. Written by earlier graders (a journal may
  // hold it); this grader judges such a check on what the kit's plugin recorded of the run.
  NotChecked,
  // "scaled": a check or the speed case that passed, whose points the spec's points policy scaled
  // by the case points the kernel earned (judge/points_policy.cpp): below its max points (0 for a
  // kernel that computes nothing right), so never shown as passed; the message says how many
  // points of how many, why, and what the check itself found. Last, so that older journals read.
  Scaled,
  // "device-disagrees": a case the graded device got wrong (or crashed on) that the same case run
  // under Oclgrind, an independent OpenCL implementation, computed right with no finding
  // (judge/witness.hpp): the device's fault, not the kernel's. It earns the share of the case's
  // points that the spec's device_disagrees_share (or --device-disagrees-share) gives, 1 by
  // default; the message says what the device gave and what Oclgrind showed.
  DeviceDisagrees,
  // "withheld": the speed case of a right kernel whose timing noise (the middle half of its
  // alternating pairs) was too wide to place it, measured twice (judge/speed_noise.hpp): its points
  // are withheld for the instructor's review, never taken as slow; the message gives both
  // measurements and the points each end of their spread would give. `grade --regrade` measures it again.
  Withheld,
};

// What a line of a lab's result is, and how the spec's points policy treats it.
enum class CaseKind {
  Case,       // "case": a correctness case; its points are the correctness points
  Speed,      // "speed": the speed case; its points follow the correctness points earned
  Safety,     // "safety": a memory-safety check under Oclgrind; its points follow the correctness points earned
  Algorithm,  // "algorithm": an algorithm check (Oclgrind's work/span plugin); its points follow its unit's correctness points
  Late,       // "late": the late penalty (grade --deadline); max_points 0, negative points
};

// What grading one student's lab came to as a whole.
enum class LabStatus {
  Graded,      // "graded": built, and its cases run: the points are the cases'
  Missing,     // "missing": no kernel file of the lab's name in the submission; 0 points
  Rejected,    // "rejected": refused: the submission or the kernel file failed screening, or a kernel's signature; 0 points
  BuildError,  // "build-error": the kernel did not build (the message is the build log); 0 points
  Error,       // "error": the grader failed (e.g. could not open its device); 0 points now, graded again on the next run
  // "unchanged-starter": the kernel file equals the lab's starter (labs/<lab>/<kernel file> of the
  // kit) outside comments and spacing; nothing is built or run, every line "not-run"; 0 points
  UnchangedStarter,
};

std::string word(CaseStatus status);
std::string word(CaseKind kind);
std::string word(LabStatus status);
void to_json(json& j, CaseStatus status);
void to_json(json& j, CaseKind kind);
void to_json(json& j, LabStatus status);
void from_json(const json& j, CaseStatus& status);
void from_json(const json& j, CaseKind& kind);
void from_json(const json& j, LabStatus& status);

struct CaseResult {
  std::string name;
  bool visible = false;
  double points = 0, max_points = 0;
  CaseStatus status = CaseStatus::NotRun;
  std::string message;  // what went wrong, in plain words
  std::string hint;     // the typical mistake it matches, if any
  double seconds = 0;
  CaseKind kind = CaseKind::Case;
  double ratio = -1;  // the speed case: the kernel's speed / the solution's on the graded device (-1: none)
  double ratio_low = -1, ratio_high = -1;  // the speed case: the quartiles of its pairs' ratios (-1: none)
};

// A case the graded device cannot run (NotRun with max_points 0): neither earned nor lost.
bool not_run_on_device(const CaseResult& c);

// How the message of a line not run for the time budget begins (isolation/time_budget.hpp): a
// case after one the kernel did not finish alone, or an Oclgrind check of such a kernel.
inline constexpr const char* kNotRunAfterTimeout = "not run: the kernel did not finish the case \"";
bool not_run_for_time_budget(const CaseResult& c);

struct LabResult {
  std::string student, lab;
  std::string kernel;  // the file graded, relative to the submission
  LabStatus status = LabStatus::Error;  // Error until graded
  std::string message;  // for missing / rejected / build-error / error: the reason, e.g. the build log
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
