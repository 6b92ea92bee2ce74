// The kit's Oclgrind plugin: per work-group, how many combining operations on the data (+, -,
// comparisons, min/max, multiply-adds) each work-item does in each barrier phase. From that: the group's work,
// its span (each phase waits for its busiest work-item) and its busiest work-item. One JSON line
// per kernel launch is appended to the file named by KIT_WORK_SPAN_LOG. With KIT_DRAW_LOG it also
// writes the drawing trace of one work-group of each launch (draw_trace.hpp). Each line also holds
// the access trace (access_trace.hpp): the buffer arguments by position, the address steps of the
// global loads between neighbouring work-items, and, in launches with atomics, the order of the
// stores, loads, atomics and fences.
//
// Every line also holds what Oclgrind reported during the launch (launch_messages.hpp), counted,
// and the step of the grader's child it belongs to ($KIT_CASE when the launch began): one child
// runs several cases under Oclgrind, and each case's findings are read from its own launches. The
// first report of each kind in a launch is also written at once, as a line {"message", "case"}
// of its own, so that a launch that never ends (a crash, a time-out) still leaves what Oclgrind
// found in it. A line per launch is the grader's proof that Oclgrind ran the kernel with this
// plugin loaded. Both carry the launch's number within its step ("launch", from 0): a step run in
// its first and last work-groups only trusts its first launch (later ones read what the groups
// left out never wrote).
// With $KIT_DIVISIONS_ONLY set when a launch begins, that launch is not measured (its groups have
// no work): only the division check runs, which is all a case's shape needs.
//
// "On the data" is followed by taint: a value loaded from global, local or constant memory is data;
// a value computed from data is data; a private variable holds data while the last store into it
// did. Index arithmetic (ids, strides, bounds) never touches data, so it is not counted.
#include <oclgrind/Context.h>
#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/Plugin.h>
#include <oclgrind/Program.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "access_trace.hpp"
#include "division_check.hpp"
#include "shape_table.hpp"
#include "launch_messages.hpp"
#include "oclgrind_reach.hpp"
#include "draw_trace.hpp"

namespace {

// One work-item's taint state: SSA names (as name_key gives them) and private bytes that hold data.
struct ItemState {
  std::unordered_set<std::uint64_t> data_names;
  std::unordered_set<std::size_t> data_bytes;  // private addresses
  bool pending_data_load = false;              // the load under way reads global/local/constant memory
  std::size_t pending_address = 0, pending_size = 0;
  bool pending_private = false;
  bool pending_store = false;  // the pending private access is a store
  char pending_space = 'g';    // the drawing trace's name of the pending access's memory
  std::size_t pending_buffer = 0;  // Oclgrind's number of the pending access's buffer
  bool pending_atomic = false;     // the instruction under way is an atomic on global memory
  bool pending_global = false;     // ... or a plain load or store of global memory
};

char space_of(const oclgrind::Memory* memory) {
  switch (memory->getAddressSpace()) {
    case oclgrind::AddrSpaceLocal: return 'l';
    case oclgrind::AddrSpaceConstant: return 'c';
    case oclgrind::AddrSpacePrivate: return 'p';
    default: return 'g';
  }
}

struct GroupState {
  std::size_t linear_id = 0;
  oclgrind::Size3 id;
  std::size_t items = 0;
  std::size_t phase = 0;
  std::vector<std::vector<std::size_t>> ops;  // [phase][work-item]
  std::vector<ItemState> item;                 // by linear local id; kept from group to group, reset
};

class WorkSpan : public oclgrind::Plugin {
 public:
  explicit WorkSpan(const oclgrind::Context* context) : Plugin(context), draw_(std::getenv("KIT_DRAW_LOG")) {
    if (const char* path = std::getenv("KIT_WORK_SPAN_LOG")) log_path_ = path;
  }

  ~WorkSpan() override {
    // Reports made outside any launch (an API call refused) after the last launch.
    if (!messages_.empty()) write_record("", {0, 0, 0}, {0, 0, 0}, "", "");
  }

  bool isThreadSafe() const override { return false; }  // one worker: no locking needed

  void log(oclgrind::MessageType type, const char* message) override {
    if (type != oclgrind::WARNING && type != oclgrind::ERROR) return;
    if (!messages_.add(message) || log_path_.empty()) return;
    std::ofstream out(log_path_, std::ios::app);
    out << "{\"message\":" << kit_messages::quoted(message);
    if (const char* step = std::getenv("KIT_CASE"); step && *step) out << ",\"case\":" << kit_messages::quoted(step) << ",\"launch\":" << launch_;
    out << "}\n";
  }

  // Oclgrind gives a buffer freed before its number to the next buffer made. How many numbers
  // wait to be given again is published in $KIT_OCLGRIND_FREED_NUMBERS (this process's
  // environment), so that the grader's child can take them all with buffers of its own between
  // two cases (grader/src/isolation/case_child.cpp says why).
  void memoryAllocated(const oclgrind::Memory* memory, size_t address, size_t, cl_mem_flags, const uint8_t*) override {
    if (memory->getAddressSpace() != oclgrind::AddrSpaceGlobal) return;
    if (!numbers_used_.insert(memory->extractBuffer(address)).second && freed_numbers_ > 0) --freed_numbers_;
    publish_freed();
  }
  void memoryDeallocated(const oclgrind::Memory* memory, size_t) override {
    if (memory->getAddressSpace() != oclgrind::AddrSpaceGlobal) return;
    ++freed_numbers_;
    publish_freed();
  }

  void kernelBegin(const oclgrind::KernelInvocation* invocation) override {
    // Read at each launch: the child sets them per case in this same process.
    divisions_only_ = std::getenv("KIT_DIVISIONS_ONLY") != nullptr;
    const char* step = std::getenv("KIT_CASE");
    const std::string now = step ? step : "";
    launch_ = now == case_ && !first_launch_ ? launch_ + 1 : 0;
    first_launch_ = false;
    case_ = now;
    kernel_ = invocation->getKernel()->getName();
    global_ = invocation->getGlobalSize();
    local_ = invocation->getLocalSize();
    groups_.str("");
    first_group_ = true;
    shapes_.forget();  // a freed program's instructions may share addresses with this one's
    divisions_.launch_begin();
    lines_.clear();
    draw_.launch_begin();
    const oclgrind::Kernel* kernel = invocation->getKernel();
    unsigned address_bits = 0;
    auto args = kit_oclgrind::buffer_arguments(kernel, m_context->getGlobalMemory(), address_bits);
    access_.launch_begin(kernel->getProgram()->getBuildOptions(), std::move(args), address_bits);
  }

  void workGroupBegin(const oclgrind::WorkGroup* group) override {
    group_.linear_id = 0, group_.phase = 0;
    group_.id = group->getGroupID();
    const oclgrind::Size3 size = group->getGroupSize();
    group_.items = size.x * size.y * size.z;
    // A launch that is not measured keeps no taint (the memory callbacks return first).
    if (!divisions_only_) {
      group_.item.resize(group_.items);
      for (ItemState& s : group_.item) s = ItemState{};
    }
    group_.ops.assign(1, std::vector<std::size_t>(group_.items, 0));
    const std::size_t id[3] = {group_.id.x, group_.id.y, group_.id.z};
    const std::size_t nx = global_.x / local_.x, ny = global_.y / local_.y;
    draw_.group_begin(id[0] + nx * (id[1] + ny * id[2]), id, group_.items);
    access_.group_begin(id[0] + nx * (id[1] + ny * id[2]));
  }

  void workGroupBarrier(const oclgrind::WorkGroup*, uint32_t) override {
    ++group_.phase;
    group_.ops.emplace_back(group_.items, 0);
    for (ItemState& state : group_.item) state.data_names.clear();  // SSA values do not cross a barrier
    if (draw_.tracing()) draw_.barrier();
  }

  void memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address, size_t size) override {
    if (divisions_only_) return;
    ItemState& s = pend(memory, item, address, size, false);
    s.pending_data_load = !s.pending_private;
  }

  void memoryAtomicLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, oclgrind::AtomicOp, size_t address,
                        size_t) override {
    if (divisions_only_ || memory->getAddressSpace() != oclgrind::AddrSpaceGlobal) return;
    ItemState& s = state(item);
    s.pending_atomic = true;
    s.pending_buffer = memory->extractBuffer(address);
  }

  void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address, size_t size,
                   const uint8_t*) override {
    if (!divisions_only_) pend(memory, item, address, size, true);
  }

  void instructionExecuted(const oclgrind::WorkItem* item, const llvm::Instruction* instruction,
                           const oclgrind::TypedValue&) override {
    const Shape& shape = shapes_.of(instruction);
    if (shape.divides) divisions_.check(m_context, item, instruction);
    if (divisions_only_) return;
    ItemState& s = state(item);
    // SSA names are per function: a name is kept with the call depth it was made at.
    const std::size_t depth = item->getCallStack().size();
    const auto is_data = [&](std::uint32_t name) { return s.data_names.count(name_key(name, depth)) > 0; };
    if (draw_.tracing()) trace(item, shape, s, depth);
    follow_access(item, instruction, shape, s);
    switch (shape.kind) {
      case Shape::Load: {
        bool data = s.pending_data_load;
        if (s.pending_private)
          for (std::size_t b = 0; b < s.pending_size && !data; ++b) data = s.data_bytes.count(s.pending_address + b) > 0;
        mark(s, name_key(shape.result_id, depth), data);
        s.pending_data_load = s.pending_private = false;
        break;
      }
      case Shape::Store:
        if (s.pending_private && !shape.operand_ids.empty()) {
          bool data = is_data(shape.operand_ids.front());
          // A function of the kernel's own stores its parameters first (`store %a, %a.addr`): a
          // parameter holds data when any argument of the call did.
          if (depth > 0 && shape.stores_parameter) {
            const Shape& call = shapes_.of(item->getCallStack().top());
            data = std::any_of(call.operand_ids.begin(), call.operand_ids.end(),
                               [&](std::uint32_t name) { return s.data_names.count(name_key(name, depth - 1)) > 0; });
          }
          for (std::size_t b = 0; b < s.pending_size; ++b) {
            if (data) s.data_bytes.insert(s.pending_address + b);
            else s.data_bytes.erase(s.pending_address + b);
          }
        }
        s.pending_private = false;
        break;
      case Shape::Combine:
      case Shape::Other: {
        bool data = std::any_of(shape.operand_ids.begin(), shape.operand_ids.end(), is_data);
        // A builtin that reads memory (vload4, vload8) is a call, not a load: what it read arrived
        // through memoryLoad just before, and its result is data like a load's. One that writes
        // private memory (vstore) taints the bytes it wrote when its operands were data.
        if (s.pending_store && s.pending_private)
          for (std::size_t b = 0; b < s.pending_size; ++b) {
            if (data) s.data_bytes.insert(s.pending_address + b);
            else s.data_bytes.erase(s.pending_address + b);
          }
        else if (s.pending_data_load) data = true;
        else if (s.pending_private)
          for (std::size_t b = 0; b < s.pending_size && !data; ++b) data = s.data_bytes.count(s.pending_address + b) > 0;
        s.pending_data_load = s.pending_private = s.pending_store = false;
        mark(s, name_key(shape.result_id, depth), data);
        if (data && shape.kind == Shape::Combine) ++group_.ops[group_.phase][linear(item)];
        break;
      }
    }
  }

  void workGroupComplete(const oclgrind::WorkGroup*) override {
    std::size_t work = 0, span = 0, phases = 0;
    std::vector<std::size_t> per_item(group_.items, 0);
    for (const auto& phase : group_.ops) {
      const std::size_t busiest = *std::max_element(phase.begin(), phase.end());
      span += busiest;
      phases += busiest > 0;
      for (std::size_t i = 0; i < phase.size(); ++i) work += phase[i], per_item[i] += phase[i];
    }
    const std::size_t top = std::size_t(std::max_element(per_item.begin(), per_item.end()) - per_item.begin());
    groups_ << (first_group_ ? "" : ",") << "{\"group\":[" << group_.id.x << "," << group_.id.y << "," << group_.id.z
            << "],\"items\":" << group_.items << ",\"work\":" << work << ",\"span\":" << span << ",\"phases\":" << phases
            << ",\"busiest_item\":" << top << ",\"busiest_ops\":" << per_item[top] << "}";
    first_group_ = false;
    draw_.group_end(group_.ops.size());
    access_.group_end();
  }

  void kernelEnd(const oclgrind::KernelInvocation*) override {
    const std::size_t global[3] = {global_.x, global_.y, global_.z}, local[3] = {local_.x, local_.y, local_.z};
    draw_.launch_end(kernel_, global, local);
    write_record(kernel_, global_, local_, groups_.str(), access_.json());
  }

 private:
  void publish_freed() const { setenv("KIT_OCLGRIND_FREED_NUMBERS", std::to_string(freed_numbers_).c_str(), 1); }

  // One line of the log: the launch, the step it belongs to, and what Oclgrind reported in it.
  void write_record(const std::string& kernel, const oclgrind::Size3& global, const oclgrind::Size3& local, const std::string& groups,
                    const std::string& access) {
    if (log_path_.empty()) {
      messages_.clear();
      return;
    }
    std::ofstream out(log_path_, std::ios::app);
    out << "{\"kernel\":\"" << kernel << "\",\"global\":[" << global.x << "," << global.y << "," << global.z << "],\"local\":["
        << local.x << "," << local.y << "," << local.z << "],\"groups\":[" << groups << "]" << access;
    if (!case_.empty()) out << ",\"case\":" << kit_messages::quoted(case_) << ",\"launch\":" << launch_;
    if (divisions_only_) out << ",\"measured\":false";
    out << messages_.json() << "}\n";
    messages_.clear();
  }

  // The access trace's view of one instruction: the global access before it, or a fence.
  void follow_access(const oclgrind::WorkItem* item, const llvm::Instruction* instruction, const Shape& shape, ItemState& s) {
    const std::size_t i = linear(item), phase = group_.phase;
    if (s.pending_atomic) {
      access_.atomic(line_of(instruction), i, phase, s.pending_buffer);
      s.pending_atomic = s.pending_global = false;
      return;
    }
    if (s.pending_global) {
      if (s.pending_store) access_.store(line_of(instruction), i, phase, s.pending_buffer);
      else access_.load(instruction, line_of(instruction), i, phase, s.pending_buffer, s.pending_address, s.pending_size);
      s.pending_global = false;
    }
    if (shape.fence) access_.fence(shape.fence, line_of(instruction), i, phase);
  }

  // The source line of an instruction, as Oclgrind's own reports give it (0: unknown).
  int line_of(const llvm::Instruction* instruction) {
    const auto found = lines_.find(instruction);
    if (found != lines_.end()) return found->second;
    const int line = kit_oclgrind::source_line(m_context, instruction);
    return lines_.emplace(instruction, line).first->second;
  }

  // The drawing trace's view of one instruction, with the memory access before it.
  void trace(const oclgrind::WorkItem* item, const Shape& shape, const ItemState& s, std::size_t depth) {
    const kit_draw::Access a{s.pending_data_load, s.pending_private, s.pending_store, s.pending_space, s.pending_address, s.pending_size};
    const std::size_t i = linear(item), phase = group_.phase;
    std::vector<std::string> names;
    for (const std::string& o : shape.operands) names.push_back(at_depth(o, depth));
    if (shape.kind == Shape::Load) return draw_.load(i, at_depth(shape.result, depth), a);
    if (shape.kind == Shape::Store) {
      if (names.empty()) return;
      // A function's parameter stored on entry: its flow is that of the call's arguments.
      std::optional<kit_draw::Flow> param;
      if (depth > 0 && shape.operands.size() == 2 && shape.operands[1] == shape.operands[0] + ".addr") {
        const Shape& call = shapes_.of(item->getCallStack().top());
        for (const std::string& o : call.operands)
          if (const kit_draw::Flow* f = draw_.flow(i, at_depth(o, depth - 1))) {
            if (!param) param.emplace();
            kit_draw::join(*param, *f);
          }
        if (!param) return draw_.store(i, phase, "", a, nullptr);
      }
      return draw_.store(i, phase, names.front(), a, param ? &*param : nullptr);
    }
    draw_.other(i, phase, at_depth(shape.result, depth), names, shape.kind == Shape::Combine, a);
  }

  std::size_t linear(const oclgrind::WorkItem* item) const {
    const oclgrind::Size3 l = item->getLocalID();
    return l.x + local_.x * (l.y + local_.y * l.z);
  }
  ItemState& state(const oclgrind::WorkItem* item) { return group_.item[linear(item)]; }
  // A load or store under way, for the instruction that made it (instructionExecuted).
  ItemState& pend(const oclgrind::Memory* memory, const oclgrind::WorkItem* item, size_t address, size_t size, bool store) {
    ItemState& s = state(item);
    s.pending_private = memory->getAddressSpace() == oclgrind::AddrSpacePrivate;
    s.pending_store = store;
    s.pending_space = space_of(memory);
    s.pending_address = address, s.pending_size = size;
    s.pending_buffer = memory->extractBuffer(address);
    s.pending_global = memory->getAddressSpace() == oclgrind::AddrSpaceGlobal;
    return s;
  }
  static std::string at_depth(const std::string& name, std::size_t depth) {
    return name.empty() ? name : name + "@" + std::to_string(depth);
  }
  // An SSA name at a call depth as one number: the name's number (ShapeTable's, 0 for none) and the depth.
  static std::uint64_t name_key(std::uint32_t name, std::size_t depth) { return name == 0 ? 0 : (std::uint64_t(name) << 24) | depth; }
  static void mark(ItemState& s, std::uint64_t name, bool data) {
    if (name == 0) return;
    if (data) s.data_names.insert(name);
    else s.data_names.erase(name);
  }

  bool divisions_only_ = false;  // KIT_DIVISIONS_ONLY when the launch began: only the division check
  std::string case_;             // KIT_CASE when the launch began: the child's step
  std::size_t launch_ = 0;       // the launch's number within its step, from 0
  bool first_launch_ = true;
  kit_messages::LaunchMessages messages_;
  std::unordered_set<std::size_t> numbers_used_;  // global buffer numbers given so far
  std::size_t freed_numbers_ = 0;                 // freed and not given again yet
  kit_oclgrind::DivisionCheck divisions_;
  std::string log_path_, kernel_;
  oclgrind::Size3 global_, local_;
  std::ostringstream groups_;
  bool first_group_ = true;
  GroupState group_;
  ShapeTable shapes_;
  std::unordered_map<const llvm::Instruction*, int> lines_;
  kit_draw::DrawTrace draw_;
  kit_access::AccessTrace access_;
};

WorkSpan* plugin = nullptr;

}  // namespace

extern "C" void initializePlugins(oclgrind::Context* context) {
  plugin = new WorkSpan(context);
  context->registerPlugin(plugin);
}

extern "C" void releasePlugins(oclgrind::Context* context) {
  context->unregisterPlugin(plugin);
  delete plugin;
  plugin = nullptr;
}
