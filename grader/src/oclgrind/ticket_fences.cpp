#include "oclgrind/ticket_fences.hpp"

#include <map>

namespace grader {
namespace {

std::string named(const ArgumentRole& r) { return "the " + r.called + " (argument " + std::to_string(r.argument + 1) + ")"; }
std::string at_line(int line) { return line > 0 ? "line " + std::to_string(line) : "an unknown line"; }

bool fence_of(const OrderEvent& e, bool release) { return e.kind == 'F' || e.kind == (release ? 'W' : 'R'); }

// What is wrong in one work-group's order, or "".
std::string group_fault(const GroupOrder& g, const TicketFences& f, bool& ticket_seen) {
  const std::vector<OrderEvent>& e = g.events;
  std::map<std::size_t, std::size_t> ticket_at;  // work-item -> index of its first atomic on the ticket
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e[i].kind != 'A' || e[i].arg != f.ticket.argument || ticket_at.count(e[i].item)) continue;
    ticket_at[e[i].item] = i;
    ticket_seen = true;
    // The group's last store into the store argument ordered before the ticket: by this work-item
    // earlier, or by any work-item in an earlier barrier phase.
    std::size_t store = e.size();
    for (std::size_t k = 0; k < i; ++k)
      if (e[k].kind == 'S' && e[k].arg == f.store.argument && (e[k].item == e[i].item || e[k].phase < e[i].phase)) store = k;
    if (store == e.size())
      return f.kernel + ": work-group " + std::to_string(g.group) + " took its ticket (an atomic on " + named(f.ticket) + ", " +
             at_line(e[i].line) + ") without first storing into " + named(f.store) +
             ": each work-group stores its partial there, then fences, then takes its ticket";
    bool fenced = false;
    for (std::size_t k = store + 1; k < i; ++k) fenced |= e[k].item == e[i].item && fence_of(e[k], true);
    if (!fenced)
      return f.kernel + ": between the store into " + named(f.store) + " (" + at_line(e[store].line) + ") and the ticket's atomic on " +
             named(f.ticket) + " (" + at_line(e[i].line) + ") no mem_fence(CLK_GLOBAL_MEM_FENCE) (or write_mem_fence(CLK_GLOBAL_MEM_FENCE)) "
             "ran: OpenCL 1.2's atomics order nothing else, so on a GPU the last work-group can draw its ticket before this "
             "partial is visible and add a stale one. barrier(CLK_GLOBAL_MEM_FENCE) orders memory only within a work-group";
  }
  // Every read of the store argument after a ticket in this group.
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e[i].kind != 'L' || e[i].arg != f.store.argument) continue;
    for (const auto& [taker, t] : ticket_at) {
      if (t > i) continue;
      bool fenced = false;
      for (std::size_t k = t + 1; k < i; ++k)
        fenced |= e[k].item == taker && fence_of(e[k], false) && (e[i].item == taker || e[k].phase < e[i].phase);
      if (!fenced)
        return f.kernel + ": between the ticket's atomic on " + named(f.ticket) + " (" + at_line(e[t].line) + ") and the read of " +
               named(f.store) + " (" + at_line(e[i].line) + ") no mem_fence(CLK_GLOBAL_MEM_FENCE) (or read_mem_fence(CLK_GLOBAL_MEM_FENCE)) "
               "ran" + (e[i].item == taker ? "" : " in the work-item that took the ticket, before a barrier") +
               ": OpenCL 1.2's atomics order nothing else, so on a GPU the last work-group can read a partial from before its "
               "ticket. barrier(CLK_GLOBAL_MEM_FENCE) orders memory only within a work-group";
    }
  }
  return "";
}

}  // namespace

std::string ticket_fence_fault(const std::vector<KernelWork>& launches, const TicketFences& f) {
  bool launched = false, ticket_seen = false, cut_short = false;
  for (const KernelWork& k : launches) {
    if (k.kernel != f.kernel) continue;
    if (k.order_cut_short) {  // a launch too large to trace in full proves nothing either way
      cut_short = true;
      continue;
    }
    launched = true;
    for (const GroupOrder& g : k.order)
      if (std::string fault = group_fault(g, f, ticket_seen); !fault.empty()) return fault;
  }
  if (!launched)
    return "the kernel " + f.kernel + (cut_short ? "'s launches under Oclgrind were too large to trace in full" : " was not launched in the run under Oclgrind") +
           ", so its fences could not be seen";
  if (!ticket_seen) return f.kernel + " takes no ticket: no atomic on " + named(f.ticket) + " ran";
  return "";
}

}  // namespace grader
