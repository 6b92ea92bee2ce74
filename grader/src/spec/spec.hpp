#pragma once
// A lab's grading spec, read from grader/specs/<lab>.json: which kernel file, which cases, their
// points, visibility and limits, what is compared. The tolerance policy is the lab's (its
// adapter's tolerance()), not the spec's.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "spec/case_fields.hpp"

namespace grader {

using json = nlohmann::json;

struct CaseSpec {
  std::string name;
  json params;         // the lab's own case fields, e.g. {"elements": 65536, "local": 32, ...}
  double points = 0;
  bool visible = false;  // "visible": in the students' self-check; "hidden": grading only
  double time_limit_s = 0;
};

// A known false alarm of Oclgrind, allowed on purpose by what happened, never by the text of a
// line: a finding of `kind` in kernel `kernel` (every kernel when empty) on the buffer argument at
// position `argument` (any when -1), of `accesses` ("read-write" or "write-write"; any when
// empty), where, with `other_side_atomic`, one of the two accesses is an atomic; with
// `read_after_atomic_on` >= 0, the read came after its work-group's atomic on that argument (the
// ticket); with `in_call` non-empty, the value was used in a call to one of those builtins (e.g.
// fmax, fmin). `why` says why it is safe.
struct AllowedFinding {
  std::string kind, kernel;
  long argument = -1;
  std::string accesses;
  bool other_side_atomic = false;
  long read_after_atomic_on = -1;
  std::vector<std::string> in_call;
  std::string why;
};

// The memory-safety case: small runs under Oclgrind, with points per kind of finding. The spec
// gives one run ("case") or several ("cases": lab 04's rungs 1-4 at a small L, rung 5 at the
// largest L its unrolled levels have), each with its own time limit; findings add up over them.
struct SafetySpec {
  std::vector<json> runs;  // the lab's own case fields, a few work-groups each
  double time_limit_s = 60;  // per run
  std::size_t memory_limit_mb = 2048;
  bool visible = true;
  std::vector<std::pair<std::string, double>> checks;  // kind -> points, in spec order
  std::vector<AllowedFinding> allow;
};

// The speed case: the kernel timed against the stored solution, alternately; full points from a
// speed ratio of `full_at`, in proportion below it, none when the result is wrong.
// The solution's speed against the host's OpenMP dot product, both on the case's PoCL and OpenMP
// threads, measured on the reference machine: a release has no solution to time a kernel against,
// so `grader check` estimates the speed from a kernel's own ratio to the same baseline in its run.
struct SpeedEstimate {
  double solution = 0;          // the median of the runs' median ratios
  double low = 0, high = 0;     // the least and the most of the runs' median ratios: the noise band
  int runs = 0;
  std::string measured;         // where and when
};

struct SpeedSpec {
  json params;
  std::optional<SpeedEstimate> estimate;
  double points = 0;
  double full_at = 0.8;
  int pairs = 15;
  double time_limit_s = 60;
  bool visible = true;
  std::string slow_hint;  // shown below full points: what makes this lab's kernel fast
};
inline const std::string kSpeedCase = "speed against the solution";

// One algorithm check: how a kernel's work-groups must share their combining operations, measured
// under Oclgrind by the kit's work/span plugin in the safety run. For every work-group of L >= 2
// work-items: span (the longest chain of operations one after another, a barrier phase counting
// its busiest work-item) <= span_log2 * log2(L) + span_plus, and no work-item does more than
// busiest_share of the group's operations. `unit` (e.g. {"rung": 3}) names the cases whose
// correctness points this check's points follow; empty: every case. With `fences` the check is
// instead a ticket counter's fences, from the order of its accesses and fences under Oclgrind
// (oclgrind/ticket_fences.hpp): `store` is the buffer argument of the partials, `ticket` the
// counter's, by position (0-based) with the word messages call them. With `access` the check is
// the access pattern of the kernel's global loads of the buffer arguments `arguments` (in
// launches whose build options do not define `unless_defined`): the most common address step
// between neighbouring work-items must be at most `step_at_most` bytes.
struct FenceRole {
  long argument = -1;
  std::string called;
};
struct FenceCheck {
  FenceRole store, ticket;
};
struct AccessCheck {
  std::vector<long> arguments;
  std::string unless_defined;
  long long step_at_most = 16;
};
struct AlgorithmCheck {
  std::string kernel;
  double points = 0;
  json unit = json::object();
  bool span_bounded = false;  // whether span_at_most was given
  double span_log2 = 1, span_plus = 0;
  double busiest_share = 1;
  std::string ops = "adds";  // what the operations are called in messages
  std::string expect;        // the shape asked for, in words: "a tree: log2 L levels of adds"
  std::string hint;          // shown when the check fails; empty: the tree's hint
  std::optional<FenceCheck> fences;
  std::optional<AccessCheck> access;
};
struct AlgorithmSpec {
  bool visible = true;
  std::vector<AlgorithmCheck> checks;
};

inline const std::vector<std::string> kSafetyKinds = {"data-race", "barrier-divergence", "invalid-access", "uninitialized"};

// How the points that are not correctness points (memory safety, speed, algorithm) are earned.
// "earned-with-correctness": each such check earns its points times the fraction of the case points
// the same kernel earned (a kernel that computes nothing right earns nothing for running cleanly).
inline const std::vector<std::string> kPointsPolicies = {"earned-with-correctness"};

struct LabSpec {
  std::filesystem::path file;
  std::string sha256;  // of the spec file's bytes: references record it to detect stale ones
  std::string lab, title, kernel_file, compare;
  std::vector<CaseField> case_fields;  // the lab's case fields, every case checked against them
  json tolerance;  // the lab's check's policy, from its driver's tolerance(): a spec does not state it
  std::string points_policy = "earned-with-correctness";
  double build_time_limit_s = 60;
  double late_penalty_per_day = 0;  // the fraction of the lab's points a day late costs (grade --deadline)
  // The share (0 to 1) of a case's points that a "device-disagrees" case earns: the graded device
  // got it wrong, Oclgrind computed it right with no finding (judge/witness.hpp). 1: the device's
  // fault costs nothing; 0: such cases earn nothing until the instructor reviews them.
  double device_disagrees_share = 1;
  std::size_t memory_limit_mb = 1024;
  std::vector<CaseSpec> cases;
  std::optional<SafetySpec> safety;
  std::optional<SpeedSpec> speed;
  std::optional<AlgorithmSpec> algorithm;  // measured in the safety run, so only with one

  double max_points(bool visible_only = false, bool with_safety = true) const;
};

// Reads and validates a spec; throws kit::Error naming the file and the field at fault.
LabSpec load_spec(const std::filesystem::path& file);

// Every spec in `dir`, in lab order; `only` ("03", "03-array-mult-reduce", ...) picks labs by
// number or full name and throws kit::Error for a name that matches none.
std::vector<LabSpec> load_specs(const std::filesystem::path& dir, const std::vector<std::string>& only = {});

}  // namespace grader
