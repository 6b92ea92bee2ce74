#pragma once
// Reading the log of the kit's Oclgrind work-span plugin (grader/plugin): one JSON line per kernel
// run, with each work-group's combining operations (work), its longest chain over barrier phases
// (span) and its busiest work-item.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace grader {

struct GroupWork {
  std::array<std::size_t, 3> group;  // work-group id
  std::size_t items, work, span, phases, busiest_item, busiest_ops;
};

struct KernelWork {
  std::string kernel;
  std::array<std::size_t, 3> global, local;
  std::vector<GroupWork> groups;  // in group order
};

// Every kernel run in the plugin's log, in order; blank lines are skipped. Throws kit::Error
// naming the line number for a line that is not a complete record.
std::vector<KernelWork> parse_work_span(const std::string& log_text);

}  // namespace grader
