#include "tools/line_differences.hpp"

#include <cmath>
#include <ostream>

#include "export/reports.hpp"

namespace grader {
namespace {

// Two speed lines whose measurements cannot tell the kernels' speeds apart: both timed right
// (passed, slow, or withheld for its noise), and the quartile ranges of their pairs' ratios overlap. A machine's load moves
// a median across the full-points mark without either kernel being faster.
bool same_speed_within_spread(const CaseResult& a, const CaseResult& b) {
  const auto timed = [](const CaseResult& c) {
    return c.kind == CaseKind::Speed && (c.status == CaseStatus::Passed || c.status == CaseStatus::Slow || c.status == CaseStatus::Withheld) &&
           c.ratio_low >= 0 &&
           c.ratio_high >= c.ratio_low;
  };
  return timed(a) && timed(b) && a.ratio_low <= b.ratio_high && b.ratio_low <= a.ratio_high;
}

}  // namespace

std::vector<LineDifference> line_differences(const LabResult& made, const LabResult& variant) {
  std::vector<LineDifference> found;
  if (made.status != variant.status)
    found.push_back({"(lab)", word(made.status), word(variant.status), made.points(), variant.points(), made.message, variant.message});
  std::vector<bool> matched(variant.cases.size(), false);
  for (std::size_t i = 0; i < made.cases.size(); ++i) {
    const CaseResult& a = made.cases[i];
    // The line of the same name: at the same place, else the first one not yet matched.
    std::size_t j = i < variant.cases.size() && variant.cases[i].name == a.name ? i : variant.cases.size();
    for (std::size_t k = 0; j == variant.cases.size() && k < variant.cases.size(); ++k)
      if (!matched[k] && variant.cases[k].name == a.name) j = k;
    if (j == variant.cases.size()) {
      found.push_back({a.name, word(a.status), "", a.points, 0, a.message, "(no such line)"});
      continue;
    }
    matched[j] = true;
    const CaseResult& b = variant.cases[j];
    if (same_speed_within_spread(a, b)) continue;
    if (a.status != b.status || std::abs(a.points - b.points) > 1e-9)
      found.push_back({a.name, word(a.status), word(b.status), a.points, b.points, a.message, b.message});
  }
  for (std::size_t k = 0; k < variant.cases.size(); ++k)
    if (!matched[k]) {
      const CaseResult& b = variant.cases[k];
      found.push_back({b.name, "", word(b.status), 0, b.points, "(no such line)", b.message});
    }
  return found;
}

json difference_json(const std::string& lab, const std::string& id, const std::string& variant, const LineDifference& d) {
  return {{"lab", lab},
          {"id", id},
          {"variant", variant},
          {"line", d.line},
          {"status_before", d.status_before},
          {"status_after", d.status_after},
          {"points_before", d.points_before},
          {"points_after", d.points_after},
          {"message_before", d.message_before},
          {"message_after", d.message_after}};
}

void print_difference(const std::string& lab, const std::string& id, const std::string& variant, const LineDifference& d,
                      std::ostream& out) {
  const auto status = [](const std::string& s) { return s.empty() ? std::string("absent") : s; };
  out << "  DIFFERENCE " << lab << " " << id << " " << variant << ": " << d.line << ": " << format_points(d.points_before) << " ("
      << status(d.status_before) << ") -> " << format_points(d.points_after) << " (" << status(d.status_after) << ")\n"
      << "    as made:      " << d.message_before << "\n"
      << "    " << variant << ":" << std::string(variant.size() < 12 ? 13 - variant.size() : 1, ' ') << d.message_after << "\n";
}

}  // namespace grader
