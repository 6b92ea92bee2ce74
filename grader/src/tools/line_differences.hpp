#pragma once
// `grader mutants --metamorphic`: a kernel's grading compared line by line with the grading of a
// variant of it (tools/metamorphic.hpp), which must earn the same points on every line.
#include <iosfwd>
#include <string>
#include <vector>

#include "core/results.hpp"

namespace grader {

// One line whose name, status or points differ between the two gradings; a line only one of
// them has, or a different lab status, is one too ("(lab)" names the lab status). Two speed lines
// whose pairs' ratios have overlapping quartile ranges are not: the runs cannot tell the two
// kernels' speeds apart, and the points between them follow the machine's load.
struct LineDifference {
  std::string line;
  std::string status_before, status_after;  // "" where that grading has no such line
  double points_before = 0, points_after = 0;
  std::string message_before, message_after;
};

// Every difference between `made` (the kernel as made) and `variant` (the same kernel transformed),
// line by line in the order of `made`'s lines.
std::vector<LineDifference> line_differences(const LabResult& made, const LabResult& variant);

// One difference as mutants.json holds it, with the lab, the kernel's id and the variant.
json difference_json(const std::string& lab, const std::string& id, const std::string& variant, const LineDifference& d);

// One difference as `grader mutants` prints it: the lab, the kernel's id, the variant, the line,
// its points (and status) before -> after, and both messages.
void print_difference(const std::string& lab, const std::string& id, const std::string& variant, const LineDifference& d,
                      std::ostream& out);

}  // namespace grader
