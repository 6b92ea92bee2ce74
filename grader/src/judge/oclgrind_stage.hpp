#pragma once
// The one stage under Oclgrind. After the cases ran on the device, the kernel file is run under
// Oclgrind, an independent OpenCL implementation that checks every access, at the shape of every
// case graded and at the spec's memory-safety runs, in as few children as possible. Everything
// that rests on Oclgrind reads what this stage found, and nothing else runs Oclgrind on the cases:
//  - a case whose own shape shows a fault (a race, an access out of bounds, a barrier not every
//    work-item reaches, an uninitialized value, a division by zero) is wrong, whatever the device
//    computed this time (evidence_verdict.hpp), and its hint names the fault;
//  - a case the device got wrong that Oclgrind computed right with no finding is device-disagrees
//    (the witness, witness.hpp); a larger one is witnessed there;
//  - the memory-safety lines add up the findings of every shape looked at, and say which;
//  - the algorithm lines read the plugin's measurements of the memory-safety runs.
//
// The steps. Each memory-safety run, measured by the kit's plugin (the algorithm checks, the
// spec's allowed false alarms), with every check; each case of at most kFullLookWork elements x
// launches, whole, with every check (races with --uniform-writes, uninitialized values): its
// outputs as Oclgrind computed them are the witness's. A larger case is looked at twice: in its
// first launch's first and last work-groups (Oclgrind's --quick; later launches read what the
// groups left out never wrote) with Oclgrind's own checks (bounds, barriers, the plugin's
// divisions), and, with every check, whole at its smaller shape: the same fields and work-group
// size, and as many elements as the remainder of N by 2L plus 4L (the boundary group as it is,
// and whole groups before it), a fixed grid of more than 4 work-items an element cut to the
// groups that cover them, where the lab accepts such a case. A case no larger than that
// (a few work-groups of a large L) is run whole with every check. A case step whose work-groups
// are larger than Oclgrind's own device offers (1024 work-items; the rungs of 2048 and 4096) is
// looked at for races, bounds and barriers but not for uninitialized values: that tracking makes
// Oclgrind three to four times slower, and with it these steps take three quarters of the stage's time,
// while each of their kernel functions is looked at with every check at smaller work-groups
// (tests/grader/test_evidence.cpp holds every spec to that). Oclgrind's race check keeps a
// record per byte of every buffer, so a large case's own buffers would take it minutes even in
// two work-groups. The steps with every check share one child, those without uninitialized values
// another, and the quick ones a third: each child builds the kernel once. Each step has its own time
// limit from the moment the step before it ended; a step that runs past it ends its child, and a
// new child goes on with the next step. A case that timed out on the device, or was not run, is
// not looked at.
//
// Fail closed: a step counts as looked at only when the child ran on Oclgrind's device (an
// `oclgrind` whose runtime library cannot be preloaded runs the program on the ordinary
// platform, in silence) and the kit's plugin recorded the step's own launches ($KIT_CASE tags
// each launch with its step). Otherwise nothing rests on it, and the lines say why and how to fix it.
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "judge/grade.hpp"
#include "oclgrind/oclgrind.hpp"
#include "oclgrind/work_span.hpp"
#include "spec/spec.hpp"

namespace grader {

// A case of at most this many elements x launches is looked at whole with every check.
inline constexpr double kFullLookWork = 8192;
// The time limit of a quick step (a large case's first and last work-groups).
inline constexpr double kQuickStepSeconds = 60;
// The largest work-group whose case steps track uninitialized values (Oclgrind's own device limit).
inline constexpr std::size_t kUninitializedMaxLocal = 1024;
// All the stage's children of one lab result together.
inline constexpr double kStageBudgetSeconds = 600;

// One step: a case at its own shape, or one of the spec's memory-safety runs.
struct LookStep {
  std::string name;      // the case's name; for a safety run its case as JSON
  json params;
  bool is_case = true;
  bool quick = false;     // each launch's first and last work-group, Oclgrind's own checks only
  bool measured = false;  // the plugin measures the work (the algorithm checks, the allowed false alarms)
  double seconds = 0;     // its time limit
  bool uninitialized = true;  // not quick: uninitialized values tracked too (not above kUninitializedMaxLocal)

  // Looked at whole with every check: races (--uniform-writes) and uninitialized values too.
  bool every_check() const { return !quick && uninitialized; }
  // Oclgrind's flags for the checks beyond its own (bounds, barriers).
  std::vector<std::string> check_flags() const;
};

// What one step showed.
struct StepLook {
  LookStep step;
  bool looked = false;     // finished on Oclgrind's device, its launches recorded by the plugin
  bool timed_out = false;  // ran past its time limit under Oclgrind
  std::string not_looked;  // why not, when !looked
  json result;             // the child's result for the step (a full step's outputs are Oclgrind's)
  std::vector<KernelWork> launches;        // the plugin's records of its launches
  std::vector<OclgrindFinding> findings;   // less the false alarms the spec allows
  std::size_t allowed = 0;                 // those left out
  double seconds = 0;
  const StepLook* smaller = nullptr;  // a large case: its smaller shape's look, if it has one

  // What this step and its smaller shape found.
  std::vector<OclgrindFinding> all_findings() const;
};

// The smaller shape of a large case (see above), or none where the case has no element count
// and work-group size, is not larger, or the lab refuses it.
std::optional<json> smaller_shape(const std::string& lab, const json& params);

struct OclgrindEvidence {
  bool ran = false;         // some step was looked at: Oclgrind and the kit's plugin ran
  std::string not_run;      // when nothing was: why, and the command that fixes it
  std::string device;       // the device the stage's children named
  std::vector<StepLook> safety;           // the spec's memory-safety runs, in order
  std::map<std::string, StepLook> cases;  // the cases looked at (or meant to be), by name
  std::map<std::string, StepLook> smaller;  // the large cases' smaller shapes, by their case as JSON
  double seconds = 0;
  int children = 0;

  const StepLook* of_case(const std::string& name) const;
  // How many case steps were looked at, whole and quick.
  std::size_t looked_cases(bool quick) const;
};

// The stage for `r`, a graded result: its cases (the lines of kind Case that ran on the device)
// and, with `with_safety_runs`, the spec's memory-safety runs. Needs a safety block in the spec.
OclgrindEvidence look_under_oclgrind(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& copy,
                                     const std::string& shown_as, const LabResult& r, bool with_safety_runs);

// The findings of one child's plugin log for each of its steps (by the step's number in the
// child), merged by kind and place with their counts; `launches` gets each step's records. The
// steps in `first_launch_only` keep only what their first launch showed.
std::map<std::string, std::vector<OclgrindFinding>> findings_by_step(const PluginLog& log,
                                                                     std::map<std::string, std::vector<KernelWork>>& launches,
                                                                     const std::set<std::string>& first_launch_only = {});

}  // namespace grader
