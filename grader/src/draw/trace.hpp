#pragma once
// Reading the drawing trace of the kit's Oclgrind plugin (grader/plugin/draw_trace.hpp): for one
// work-group of each kernel launch, every store of data into global or local memory, by which
// work-item, in which barrier phase, computed from which slots with how many operations; and a
// signature of every work-group's stores, to find the first that differs from another run's.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace grader {

struct TraceSlot {
  char space = 'g';  // g global, l local, c constant
  std::size_t address = 0;
};

struct TraceEvent {
  std::size_t phase = 0, item = 0, ops = 0;  // barrier phase, local work-item, combining operations
  TraceSlot write;
  std::size_t bytes = 0;         // of the store
  std::vector<TraceSlot> reads;  // the slots its value came from
  std::size_t more_reads = 0;    // and how many more
};

struct LaunchTrace {
  std::string kernel;
  std::array<std::size_t, 3> global{}, local{}, group{};  // group: the one traced
  std::size_t items = 0, phases = 0;
  bool truncated = false;  // the plugin stopped recording past its bound
  std::vector<std::uint64_t> signatures;  // per work-group, in order: equal when they stored alike
  std::vector<TraceEvent> events;
};

// Every launch in the trace, in order; blank lines skipped. Throws kit::Error naming the line
// number of a line that is not a complete record.
std::vector<LaunchTrace> parse_draw_trace(const std::string& text);

}  // namespace grader
