#pragma once
// A lab's grading spec, read from grader/specs/<lab>.json: which kernel file, which cases, their
// points, visibility and limits, what is compared and with which tolerance policy.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace grader {

using json = nlohmann::json;

struct CaseSpec {
  std::string name;
  json params;         // the lab's own case fields, e.g. {"elements": 65536, "local": 32, ...}
  double points = 0;
  bool visible = false;  // "visible": in the students' self-check; "hidden": grading only
  double time_limit_s = 0;
};

// A known false alarm of Oclgrind, allowed on purpose: findings of `kind` whose source line (at
// any of their positions) contains `source_contains` are not counted. `why` says why it is safe.
struct AllowedFinding {
  std::string kind, source_contains, why;
};

// The memory-safety case: a small run under Oclgrind, with points per kind of finding.
struct SafetySpec {
  json params;  // the lab's own case fields, a few work-groups
  double time_limit_s = 60;
  std::size_t memory_limit_mb = 2048;
  bool visible = true;
  std::vector<std::pair<std::string, double>> checks;  // kind -> points, in spec order
  std::vector<AllowedFinding> allow;
};

// The speed case: the kernel timed against the stored solution, alternately; full points from a
// speed ratio of `full_at`, in proportion below it, none when the result is wrong.
struct SpeedSpec {
  json params;
  double points = 0;
  double full_at = 0.8;
  int pairs = 15;
  double time_limit_s = 60;
  bool visible = true;
  std::string slow_hint;  // shown below full points: what makes this lab's kernel fast
};
inline const std::string kSpeedCase = "speed against the solution";

inline const std::vector<std::string> kSafetyKinds = {"data-race", "barrier-divergence", "invalid-access", "uninitialized"};

struct LabSpec {
  std::filesystem::path file;
  std::string sha256;  // of the spec file's bytes: references record it to detect stale ones
  std::string lab, title, kernel_file, compare;
  json tolerance;
  double build_time_limit_s = 60;
  std::size_t memory_limit_mb = 1024;
  std::vector<CaseSpec> cases;
  std::optional<SafetySpec> safety;
  std::optional<SpeedSpec> speed;

  double max_points(bool visible_only = false, bool with_safety = true) const;
};

// Reads and validates a spec; throws kit::Error naming the file and the field at fault.
LabSpec load_spec(const std::filesystem::path& file);

// Every spec in `dir`, in lab order; `only` ("03", "03-array-mult-reduce", ...) picks labs by
// number or full name and throws kit::Error for a name that matches none.
std::vector<LabSpec> load_specs(const std::filesystem::path& dir, const std::vector<std::string>& only = {});

}  // namespace grader
