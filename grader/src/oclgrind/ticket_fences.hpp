#pragma once
// The fences of a ticket counter (lab 08's single-launch cascade), judged from what the kernel did
// under Oclgrind (the plugin's access trace, by buffer argument position, so no name or layout in
// the code matters): each work-group stores its partial, fences, then takes a ticket with an
// atomic; the group that draws the last ticket fences again before it reads the partials. OpenCL
// 1.2's atomics order nothing but themselves, so without the first fence the last group can see
// the ticket before a partial, and without the second it can read a partial from before the
// ticket. PoCL and Oclgrind keep memory coherent, so no case's result can show either missing:
// the order of the accesses and fences is checked instead.
#include <string>
#include <vector>

#include "oclgrind/work_span.hpp"

namespace grader {

// A buffer argument by position, and what the messages call it.
struct ArgumentRole {
  long argument = -1;
  std::string called;
};

struct TicketFences {
  std::string kernel = "dot_single_pass";
  ArgumentRole store{3, "partials"}, ticket{4, "ticket"};
};

// "" when, in every launch of `f.kernel` in `launches` and in every work-group: each work-item's
// first atomic on the ticket comes after the group's store into the store argument and after a
// mem_fence or write_mem_fence with CLK_GLOBAL_MEM_FENCE by that work-item between the two; and
// every read of the store argument after the ticket comes after a mem_fence or read_mem_fence
// with CLK_GLOBAL_MEM_FENCE by the work-item that took the ticket, after its atomic (in an earlier
// barrier phase when another work-item reads). barrier(CLK_GLOBAL_MEM_FENCE) orders memory only
// within a work-group and does not count. Otherwise what is missing, naming the source lines.
std::string ticket_fence_fault(const std::vector<KernelWork>& launches, const TicketFences& f);

}  // namespace grader
