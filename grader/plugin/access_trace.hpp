// The access trace of the kit's Oclgrind plugin: what a kernel launch did to its buffer
// arguments, told by argument position so that no name in the code matters. Three records per
// launch, appended to the work/span line:
//   "args":  each global or constant buffer argument's position and Oclgrind's number for its
//            buffer, and "address_bits" (a global address shifted right by it is its buffer's
//            number), so the grader can tell which argument a report's address lies in;
//   "loads": for each load of global memory (by its source line) in the first work-groups, the
//            address step between neighbouring work-items at the same iteration: 16 bytes for a
//            float4 read by neighbours side by side, the run's length when each work-item reads a
//            run of its own;
//   "order": when the launch used an atomic, each work-group's stores, loads and atomics on the
//            buffer arguments it writes, and its global memory fences, in the order Oclgrind ran
//            them (work-item, barrier phase, source line): what a ticket counter's fences are
//            judged on.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kit_access {

constexpr std::size_t kStepGroups = 2;         // work-groups whose loads are measured
constexpr std::size_t kMaxOrderEvents = 50000;  // per launch; beyond it the order is marked cut short
constexpr std::size_t kMaxLoadsPerItem = 4096;  // per load site and work-item

struct Event {
  std::size_t item, phase;
  char kind;  // 'S' store, 'L' load, 'A' atomic, 'F' global fence (mem_fence), 'W' write_mem_fence, 'R' read_mem_fence
  long arg;   // the buffer argument's position, -1 for a fence or an unknown buffer
  int line;
  std::size_t count;
};

inline std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out;
}

class AccessTrace {
 public:
  void launch_begin(std::string options, std::vector<std::pair<unsigned, std::size_t>> args, unsigned address_bits) {
    options_ = std::move(options), args_ = std::move(args), address_bits_ = address_bits;
    buffer_arg_.clear();
    for (const auto& [index, buffer] : args_) buffer_arg_[buffer] = long(index);
    loads_.clear(), groups_.clear(), written_.clear();
    group_ = 0, atomics_ = false, cut_ = false, events_ = 0;
  }
  void group_begin(std::size_t linear) {
    group_ = linear;
    measuring_ = groups_.size() < kStepGroups || linear < kStepGroups;
    groups_.push_back({linear, {}});
    per_item_.clear();
  }
  void group_end() {
    // The step between work-item i and i+1 at their k-th execution of the same load.
    for (auto& [site, items] : per_item_) {
      Site& s = loads_[site];
      for (std::size_t i = 0; i + 1 < items.size(); ++i) {
        const std::size_t n = std::min(items[i].size(), items[i + 1].size());
        for (std::size_t k = 0; k < n; ++k) ++s.steps[(long long)(items[i + 1][k]) - (long long)(items[i][k])], ++s.pairs;
      }
    }
    per_item_.clear();
  }

  long arg_of(std::size_t buffer) const {
    const auto it = buffer_arg_.find(buffer);
    return it == buffer_arg_.end() ? -1 : it->second;
  }

  // A load of global memory by work-item `item` at `line`, `site` naming the instruction.
  void load(const void* site, int line, std::size_t item, std::size_t phase, std::size_t buffer, std::size_t address, std::size_t size) {
    const long arg = arg_of(buffer);
    if (measuring_) {
      Site& s = loads_[site];
      s.line = line, s.size = size, s.arg = arg;
      auto& items = per_item_[site];
      if (items.size() <= item) items.resize(item + 1);
      if (items[item].size() < kMaxLoadsPerItem) items[item].push_back(address);
    }
    event({item, phase, 'L', arg, line, 1});
  }
  void store(int line, std::size_t item, std::size_t phase, std::size_t buffer) {
    const long arg = arg_of(buffer);
    if (arg >= 0) written_.insert(arg);
    event({item, phase, 'S', arg, line, 1});
  }
  void atomic(int line, std::size_t item, std::size_t phase, std::size_t buffer) {
    const long arg = arg_of(buffer);
    atomics_ = true;
    if (arg >= 0) written_.insert(arg);
    event({item, phase, 'A', arg, line, 1});
  }
  void fence(char kind, int line, std::size_t item, std::size_t phase) { event({item, phase, kind, -1, line, 1}); }

  // The launch's records, each a JSON member with a leading comma.
  std::string json() const {
    std::ostringstream out;
    out << ",\"options\":\"" << escaped(options_) << "\",\"address_bits\":" << address_bits_ << ",\"args\":[";
    for (std::size_t i = 0; i < args_.size(); ++i) out << (i ? "," : "") << "[" << args_[i].first << "," << args_[i].second << "]";
    out << "],\"loads\":[";
    bool first = true;
    for (const auto& [site, s] : loads_) {
      if (s.pairs == 0) continue;
      std::vector<std::pair<std::size_t, long long>> common;
      for (const auto& [step, n] : s.steps) common.push_back({n, step});
      std::sort(common.begin(), common.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
      out << (first ? "" : ",") << "{\"line\":" << s.line << ",\"arg\":" << s.arg << ",\"size\":" << s.size << ",\"pairs\":" << s.pairs
          << ",\"steps\":[";
      for (std::size_t i = 0; i < common.size() && i < 4; ++i) out << (i ? "," : "") << "[" << common[i].second << "," << common[i].first << "]";
      out << "]}";
      first = false;
    }
    out << "]";
    if (atomics_) {
      out << ",\"order_cut_short\":" << (cut_ ? "true" : "false") << ",\"order\":[";
      bool first_group = true;
      for (const auto& [linear, events] : groups_) {
        out << (first_group ? "" : ",") << "[" << linear << ",[";
        bool first_event = true;
        for (const Event& e : events) {
          // Loads of buffers the launch only reads (the input arrays) order nothing: left out.
          if (e.kind == 'L' && !written_.count(e.arg)) continue;
          out << (first_event ? "" : ",") << "[" << e.item << "," << e.phase << ",\"" << e.kind << "\"," << e.arg << "," << e.line << ","
              << e.count << "]";
          first_event = false;
        }
        out << "]]";
        first_group = false;
      }
      out << "]";
    }
    return out.str();
  }

 private:
  struct Site {
    int line = 0;
    std::size_t size = 0, pairs = 0;
    long arg = -1;
    std::map<long long, std::size_t> steps;
  };
  void event(const Event& e) {
    auto& events = groups_.back().second;
    if (!events.empty()) {
      Event& last = events.back();
      if (last.item == e.item && last.phase == e.phase && last.kind == e.kind && last.arg == e.arg && last.line == e.line) {
        ++last.count;
        return;
      }
    }
    if (events_ >= kMaxOrderEvents) {
      cut_ = true;
      return;
    }
    ++events_;
    events.push_back(e);
  }

  std::string options_;
  std::vector<std::pair<unsigned, std::size_t>> args_;
  unsigned address_bits_ = 0;
  std::map<std::size_t, long> buffer_arg_;
  std::map<const void*, Site> loads_;
  std::map<const void*, std::vector<std::vector<std::size_t>>> per_item_;
  std::vector<std::pair<std::size_t, std::vector<Event>>> groups_;
  std::set<long> written_;
  std::size_t group_ = 0, events_ = 0;
  bool measuring_ = false, atomics_ = false, cut_ = false;
};

}  // namespace kit_access
