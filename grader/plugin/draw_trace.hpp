// The drawing trace of the kit's Oclgrind plugin (`grader check --draw`): for the first
// work-group of each kernel launch, every store of data into global or local memory, with the
// work-item, the barrier phase, the memory slots its value was computed from and how many
// combining operations made it. One JSON line per launch is appended to the file named by
// KIT_DRAW_LOG; without it nothing is followed and nothing is written.
//
// A value's "flow" is where it came from: a load from global, local or constant memory starts one
// (that slot, no operations); an instruction's result joins its operands' flows, plus one
// operation when it combines (the plugin's Shape::Combine); a private variable keeps the flow of
// its last store. SSA names are kept per call depth, like the work/span taint.
#pragma once

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace kit_draw {

struct Slot {
  char space = 'g';  // g global, l local, c constant
  std::size_t address = 0;
  bool operator<(const Slot& o) const { return space != o.space ? space < o.space : address < o.address; }
  bool operator==(const Slot& o) const { return space == o.space && address == o.address; }
};

struct Flow {
  std::vector<Slot> reads;  // sorted, at most kMaxReads
  std::size_t more = 0;     // slots read beyond those
  std::size_t ops = 0;      // combining operations on the way
};

// What the memory callback before an instruction said it touched.
struct Access {
  bool data_load = false, private_ = false, store = false;
  char space = 'g';
  std::size_t address = 0, size = 0;
};

constexpr std::size_t kMaxReads = 16;       // a value computed from more slots keeps their count only
constexpr std::size_t kMaxEvents = 100000;  // per launch: lab 04's largest work-group has ~8200

inline void join(Flow& into, const Flow& from) {
  std::vector<Slot> all;
  std::set_union(into.reads.begin(), into.reads.end(), from.reads.begin(), from.reads.end(), std::back_inserter(all));
  if (all.size() > kMaxReads) into.more += all.size() - kMaxReads, all.resize(kMaxReads);
  into.reads = std::move(all);
  into.more += from.more;
  into.ops += from.ops;
}

class DrawTrace {
 public:
  explicit DrawTrace(const char* path) : path_(path ? path : "") {}
  bool on() const { return !path_.empty(); }
  bool tracing() const { return tracing_; }

  void launch_begin() { events_.str(""), count_ = 0, traced_ = false, tracing_ = false; }
  void group_begin(bool first, std::size_t items) {
    tracing_ = on() && first && !traced_;
    items_ = items;
    names_.clear(), private_.clear();
  }
  void group_end(std::size_t phases) {
    if (tracing_) traced_ = true, phases_ = phases;
    tracing_ = false;
  }
  void barrier() {
    for (auto& [item, names] : names_) names.clear();  // SSA values do not cross a barrier
  }

  // A load (`result` names its value), a store (`operands[0]` is the value; `param_flows` the
  // flows of a call's arguments when it stores a function's parameter), or any other instruction.
  void load(std::size_t item, const std::string& result, const Access& a) {
    Flow f;
    bool data = false;
    if (a.private_) {
      const auto found = private_[item].find(a.address);
      if (found != private_[item].end()) f = found->second, data = true;
    } else if (a.data_load) {
      f.reads.push_back({a.space, a.address}), data = true;
    }
    set(item, result, data ? &f : nullptr);
  }
  void store(std::size_t item, std::size_t phase, const std::string& value, const Access& a, const Flow* param) {
    const Flow* f = param ? param : flow(item, value);
    if (a.private_) {
      if (f) private_[item][a.address] = *f;
      else private_[item].erase(a.address);
    } else if (f) {
      event(item, phase, *f, a);
    }
  }
  void other(std::size_t item, std::size_t phase, const std::string& result, const std::vector<std::string>& operands,
             bool combines, const Access& a) {
    Flow f;
    bool data = false;
    for (const std::string& name : operands)
      if (const Flow* g = flow(item, name)) join(f, *g), data = true;
    if (a.data_load && !a.store) join(f, Flow{{{a.space, a.address}}, 0, 0}), data = true;  // vload
    if (data && combines) ++f.ops;
    if (a.store && a.private_ && data) private_[item][a.address] = f;  // vstore
    if (a.store && !a.private_ && data) event(item, phase, f, a);
    set(item, result, data ? &f : nullptr);
  }
  const Flow* flow(std::size_t item, const std::string& name) {
    auto& names = names_[item];
    const auto found = names.find(name);
    return found == names.end() ? nullptr : &found->second;
  }

  void launch_end(const std::string& kernel, const std::size_t global[3], const std::size_t local[3],
                  const std::size_t group[3]) {
    if (!on() || !traced_) return;
    std::ofstream out(path_, std::ios::app);
    out << "{\"kernel\":\"" << kernel << "\",\"global\":[" << global[0] << "," << global[1] << "," << global[2]
        << "],\"local\":[" << local[0] << "," << local[1] << "," << local[2] << "],\"group\":[" << group[0] << ","
        << group[1] << "," << group[2] << "],\"items\":" << items_ << ",\"phases\":" << phases_
        << ",\"truncated\":" << (count_ > kMaxEvents ? "true" : "false") << ",\"events\":[" << events_.str() << "]}\n";
  }

 private:
  void set(std::size_t item, const std::string& name, const Flow* f) {
    if (name.empty()) return;
    if (f) names_[item][name] = *f;
    else names_[item].erase(name);
  }
  // [phase, work-item, operations, "space", address written, bytes, [["space", address read], ...], more]
  void event(std::size_t item, std::size_t phase, const Flow& f, const Access& a) {
    if (++count_ > kMaxEvents) return;
    events_ << (count_ > 1 ? "," : "") << "[" << phase << "," << item << "," << f.ops << ",\"" << a.space << "\"," << a.address
            << "," << a.size << ",[";
    for (std::size_t i = 0; i < f.reads.size(); ++i)
      events_ << (i ? "," : "") << "[\"" << f.reads[i].space << "\"," << f.reads[i].address << "]";
    events_ << "]," << f.more << "]";
  }

  std::string path_;
  bool tracing_ = false, traced_ = false;
  std::size_t items_ = 0, phases_ = 0, count_ = 0;
  std::ostringstream events_;
  std::unordered_map<std::size_t, std::unordered_map<std::string, Flow>> names_;
  std::unordered_map<std::size_t, std::map<std::size_t, Flow>> private_;
};

}  // namespace kit_draw
