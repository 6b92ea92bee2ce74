#include "judge/points_policy.hpp"

#include <algorithm>
#include <cmath>

#include "export/reports.hpp"
#include "kit/errors.hpp"
#include "oclgrind/algorithm.hpp"

namespace grader {

void apply_points_policy(const LabSpec& spec, LabResult& r) {
  if (spec.points_policy != "earned-with-correctness") throw kit::Error("unknown points policy " + spec.points_policy);
  // The case points earned and possible among the cases whose fields match `unit` (all when empty).
  const auto correctness = [&](const json& unit) {
    std::pair<double, double> sum{0, 0};
    for (const CaseResult& c : r.cases) {
      if (c.kind != CaseKind::Case) continue;
      const auto spec_case = std::find_if(spec.cases.begin(), spec.cases.end(), [&](const CaseSpec& k) { return k.name == c.name; });
      bool in_unit = spec_case != spec.cases.end();
      for (const auto& [key, value] : unit.items())
        in_unit = in_unit && spec_case->params.contains(key) && spec_case->params.at(key) == value;
      if (in_unit) sum.first += c.points, sum.second += c.max_points;
    }
    return sum;
  };
  for (CaseResult& c : r.cases) {
    if (c.kind == CaseKind::Case || c.points <= 0) continue;
    json unit = json::object();
    if (c.kind == CaseKind::Algorithm && spec.algorithm)
      for (const AlgorithmCheck& k : spec.algorithm->checks)
        if (algorithm_name(k) == c.name) unit = k.unit;
    const auto [earned, possible] = correctness(unit);
    if (possible <= 0 || earned >= possible) continue;
    const double fraction = earned / possible;
    const double before = c.points;
    c.points = std::floor(before * fraction * 100 + 1e-9) / 100;
    c.message += (c.message.empty() ? "" : "; ") + std::string("earns ") + format_points(c.points) + " of its " +
                 format_points(before) + " points: these points follow the case points the kernel earned (" +
                 format_points(earned) + " of " + format_points(possible) + (unit.empty() ? "" : " in " + unit.dump()) + ")";
  }
}

}  // namespace grader
