#pragma once
// Reading the log of the kit's Oclgrind work-span plugin (grader/plugin): one JSON line per kernel
// run, with each work-group's combining operations (work), its longest chain over barrier phases
// (span) and its busiest work-item; and its access trace (grader/plugin/access_trace.hpp): the
// buffer arguments by position, the address steps of the global loads between neighbouring
// work-items, and in launches with atomics the order of stores, loads, atomics and fences.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace grader {

struct GroupWork {
  std::array<std::size_t, 3> group;  // work-group id
  std::size_t items, work, span, phases, busiest_item, busiest_ops;
};

// One global load (by source line) in the first work-groups: how far apart neighbouring
// work-items' addresses were at the same iteration, the most common step first.
struct LoadPattern {
  int line = 0;
  long arg = -1;  // the buffer argument's position, -1: unknown
  std::size_t size = 0, pairs = 0;
  std::vector<std::pair<long long, std::size_t>> steps;  // bytes, how many neighbour pairs
};

// One step of a work-group's accesses to the buffers it writes, in the order Oclgrind ran them.
struct OrderEvent {
  std::size_t item = 0, phase = 0;
  char kind = 0;  // 'S' store, 'L' load, 'A' atomic, 'F' mem_fence, 'W' write_mem_fence, 'R' read_mem_fence (global)
  long arg = -1;  // the buffer argument's position (-1 for a fence)
  int line = 0;
  std::size_t count = 1;  // the same step repeated
};
struct GroupOrder {
  std::size_t group = 0;  // linear work-group number
  std::vector<OrderEvent> events;
};

struct KernelWork {
  std::string kernel;  // "" for a record of the reports made outside any launch
  std::string step;    // the child's step it ran in ($KIT_CASE), "" when none was set
  std::size_t launch = 0;  // its number among the step's launches, from 0
  bool measured = true;  // false: the plugin's light mode (no work or span counted)
  // What Oclgrind reported during the launch: each kind of report once, with how many there were.
  std::vector<std::pair<std::string, std::size_t>> messages;
  std::size_t messages_dropped = 0;  // reports past the plugin's limit of kinds per launch
  std::array<std::size_t, 3> global, local;
  std::vector<GroupWork> groups;  // in group order
  std::string options;            // the program's build options
  unsigned address_bits = 0;      // a global address >> address_bits is its buffer's number
  std::vector<std::pair<unsigned, std::size_t>> args;  // (position, buffer number) of each buffer argument
  std::vector<LoadPattern> loads;
  bool has_order = false, order_cut_short = false;  // order is recorded in launches with an atomic
  std::vector<GroupOrder> order;

  // The position of the buffer argument `address` lies in, -1 when none of this launch's.
  long arg_at(std::size_t address) const;
  // Whether `option` (e.g. "CONTIGUOUS") is defined by the build options (-D NAME or -DNAME[=...]).
  bool defines(const std::string& option) const;
};

// The first report of each kind in a launch, as the plugin wrote it the moment Oclgrind made it.
struct PluginMessage {
  std::string step;  // $KIT_CASE then, "" when none was set
  std::size_t launch = 0;  // the number of the step's launch it came in
  std::string text;
};

// The plugin's whole log: every launch's record, and the reports written as they came.
struct PluginLog {
  std::vector<KernelWork> launches;
  std::vector<PluginMessage> messages;
};
PluginLog parse_plugin_log(const std::string& log_text);

// Every kernel run in the plugin's log, in order (its report lines left out); blank lines are
// skipped. Throws kit::Error naming the line number for a line that is not a complete record.
std::vector<KernelWork> parse_work_span(const std::string& log_text);

}  // namespace grader
