// The drawing trace of the kit's Oclgrind plugin (`grader check --draw`): for one work-group of
// each kernel launch (the first, or the one KIT_DRAW_GROUP numbers), every store of data into
// global or local memory, with the work-item, the barrier phase, the memory slots its value was
// computed from and how many combining operations made it; and for every work-group a signature of
// its stores (addresses relative to its first store in each memory), so that the grader can find
// the first work-group that did otherwise than the course solution's. One JSON line per launch is
// appended to the file named by KIT_DRAW_LOG; without it nothing is followed and nothing is written.
//
// A value's "flow" is where it came from: a load from global, local or constant memory starts one
// (that slot); an instruction's result joins its operands' flows; a private variable keeps the
// flow of its last store. SSA names are kept per call depth, like the work/span taint. A store's
// operations are the combining operations on data (the plugin's Shape::Combine) its work-item did
// since its previous store to memory in the same phase: counted per work-item, not along the
// value's history, where a value used twice (Kahan's compensation) would count its past twice.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
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
}

class DrawTrace {
 public:
  explicit DrawTrace(const char* path) : path_(path ? path : "") {
    if (const char* g = std::getenv("KIT_DRAW_GROUP"); g && *g) wanted_ = std::strtoull(g, nullptr, 10);
  }
  bool on() const { return !path_.empty(); }
  bool tracing() const { return tracing_; }

  void launch_begin() { events_.str(""), signatures_.str(""), count_ = 0, groups_ = 0, traced_ = false, tracing_ = false; }
  // Every group is followed (for its signature); the wanted one (by linear number) is recorded.
  void group_begin(std::size_t linear, const std::size_t id[3], std::size_t items) {
    tracing_ = on();
    recording_ = tracing_ && linear == wanted_ && !traced_;
    if (recording_) std::copy(id, id + 3, group_), items_ = items;
    names_.clear(), private_.clear(), ops_.clear(), base_.clear();
    signature_ = 1469598103934665603ull;
  }
  void group_end(std::size_t phases) {
    if (recording_) traced_ = true, phases_ = phases;
    if (tracing_) signatures_ << (groups_++ ? "," : "") << signature_;
    tracing_ = recording_ = false;
  }
  void barrier() {
    for (auto& [item, names] : names_) names.clear();  // SSA values do not cross a barrier
    ops_.clear();                                       // operations stored nowhere stay in their phase
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
    if (a.data_load && !a.store) join(f, Flow{{{a.space, a.address}}, 0}), data = true;  // vload
    if (data && combines) ++ops_[item];
    if (a.store && a.private_ && data) private_[item][a.address] = f;  // vstore
    if (a.store && !a.private_ && data) event(item, phase, f, a);
    set(item, result, data ? &f : nullptr);
  }
  const Flow* flow(std::size_t item, const std::string& name) {
    auto& names = names_[item];
    const auto found = names.find(name);
    return found == names.end() ? nullptr : &found->second;
  }

  void launch_end(const std::string& kernel, const std::size_t global[3], const std::size_t local[3]) {
    if (!on() || !traced_) return;
    const std::size_t* group = group_;
    std::ofstream out(path_, std::ios::app);
    out << "{\"kernel\":\"" << kernel << "\",\"global\":[" << global[0] << "," << global[1] << "," << global[2]
        << "],\"local\":[" << local[0] << "," << local[1] << "," << local[2] << "],\"group\":[" << group[0] << ","
        << group[1] << "," << group[2] << "],\"items\":" << items_ << ",\"phases\":" << phases_
        << ",\"truncated\":" << (count_ > kMaxEvents ? "true" : "false") << ",\"signatures\":[" << signatures_.str()
        << "],\"events\":[" << events_.str() << "]}\n";
  }

 private:
  void set(std::size_t item, const std::string& name, const Flow* f) {
    if (name.empty()) return;
    if (f) names_[item][name] = *f;
    else names_[item].erase(name);
  }
  // [phase, work-item, operations, "space", address written, bytes, [["space", address read], ...], more]
  void event(std::size_t item, std::size_t phase, const Flow& f, const Access& a) {
    const std::size_t ops = ops_[item];
    ops_[item] = 0;
    const std::size_t base = base_.emplace(a.space, a.address).first->second;
    for (const std::uint64_t part : {std::uint64_t(phase), std::uint64_t(item), std::uint64_t(ops), std::uint64_t(a.space),
                                     std::uint64_t(a.address - base), std::uint64_t(f.reads.size() + f.more)})
      signature_ = (signature_ ^ part) * 1099511628211ull;  // FNV-1a over the store's fields
    if (!recording_) return;
    if (++count_ > kMaxEvents) return;
    events_ << (count_ > 1 ? "," : "") << "[" << phase << "," << item << "," << ops << ",\"" << a.space << "\"," << a.address
            << "," << a.size << ",[";
    for (std::size_t i = 0; i < f.reads.size(); ++i)
      events_ << (i ? "," : "") << "[\"" << f.reads[i].space << "\"," << f.reads[i].address << "]";
    events_ << "]," << f.more << "]";
  }

  std::string path_;
  bool tracing_ = false, recording_ = false, traced_ = false;
  std::size_t wanted_ = 0, items_ = 0, phases_ = 0, count_ = 0, groups_ = 0, group_[3] = {0, 0, 0};
  std::ostringstream events_, signatures_;
  std::uint64_t signature_ = 0;
  std::map<char, std::size_t> base_;  // per memory: the group's first store address
  std::unordered_map<std::size_t, std::unordered_map<std::string, Flow>> names_;
  std::unordered_map<std::size_t, std::map<std::size_t, Flow>> private_;
  std::unordered_map<std::size_t, std::size_t> ops_;  // per work-item: operations since its last store
};

}  // namespace kit_draw
