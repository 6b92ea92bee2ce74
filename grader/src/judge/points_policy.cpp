#include "judge/points_policy.hpp"

#include <algorithm>
#include <cmath>

#include "export/reports.hpp"
#include "kit/errors.hpp"
#include "oclgrind/algorithm.hpp"

namespace grader {
namespace {

// The correctness a line's points follow: the case points earned and possible, and the cases that
// passed and that count, among the cases whose fields match `unit` (all of them when it is empty).
struct Correctness {
  double earned = 0, possible = 0;
  std::size_t passed = 0, cases = 0, device = 0;  // device: passed on the witness (device-disagrees)
};

Correctness correctness(const LabSpec& spec, const LabResult& r, const json& unit) {
  Correctness sum;
  for (const CaseResult& c : r.cases) {
    if (c.kind != CaseKind::Case || not_run_on_device(c)) continue;
    const auto spec_case = std::find_if(spec.cases.begin(), spec.cases.end(), [&](const CaseSpec& k) { return k.name == c.name; });
    bool in_unit = spec_case != spec.cases.end();
    for (const auto& [key, value] : unit.items())
      in_unit = in_unit && spec_case->params.contains(key) && spec_case->params.at(key) == value;
    if (!in_unit) continue;
    sum.earned += c.points, sum.possible += c.max_points;
    sum.passed += c.status == CaseStatus::Passed || c.status == CaseStatus::DeviceDisagrees, ++sum.cases;
    sum.device += c.status == CaseStatus::DeviceDisagrees;
  }
  return sum;
}

// A unit in words: {"rung": 3} is "rung 3", {"part": "single-pass"} "part single-pass".
std::string unit_words(const json& unit) {
  std::string words;
  for (const auto& [key, value] : unit.items())
    words += (words.empty() ? "" : ", ") + key + " " + (value.is_string() ? value.get<std::string>() : value.dump());
  return words;
}

}  // namespace

void apply_points_policy(const LabSpec& spec, LabResult& r) {
  if (spec.points_policy != "earned-with-correctness") throw kit::Error("unknown points policy " + spec.points_policy);
  for (CaseResult& c : r.cases) {
    if (c.kind == CaseKind::Case || c.points <= 0) continue;
    json unit = json::object();
    if (c.kind == CaseKind::Algorithm && spec.algorithm)
      for (const AlgorithmCheck& k : spec.algorithm->checks)
        if (algorithm_name(k) == c.name) unit = k.unit;
    const Correctness k = correctness(spec, r, unit);
    if (k.possible <= 0 || k.earned >= k.possible) continue;
    const double before = c.points;
    c.points = std::floor(before * k.earned / k.possible * 100 + 1e-9) / 100;
    const std::string why = "earns " + format_points(c.points) + " of its " + format_points(before) +
                            " points: these points follow the case points the kernel earned: " + format_points(k.earned) + " of " +
                            format_points(k.possible) + " (" + std::to_string(k.passed) + " of " + std::to_string(k.cases) +
                            " cases pass" + (unit.empty() ? "" : " in " + unit_words(unit)) +
                            (k.device ? ", " + std::to_string(k.device) + " of them as device-disagrees" : "") + ")";
    if (c.status == CaseStatus::Passed) {  // the check passed, the points did not all follow: never shown as passed
      c.status = CaseStatus::Scaled;
      const std::string found = !c.message.empty() ? c.message : c.kind == CaseKind::Safety ? "Oclgrind found nothing of this kind" : "";
      c.message = why + "; the check itself passed" + (found.empty() ? "" : ": " + found);
    } else {
      c.message += (c.message.empty() ? "" : "; ") + why;
    }
  }
}

}  // namespace grader
