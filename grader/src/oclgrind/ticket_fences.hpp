#pragma once
// The fences of a ticket counter (lab 08's single-launch cascade), read from the kernel's code:
// each work-group stores its partial, fences, then takes a ticket with an atomic; the group that
// draws the last ticket fences again before it reads the partials. OpenCL 1.2's atomics order
// nothing but themselves, so without the first fence the last group can see the ticket before a
// partial, and without the second it can read a partial from before the ticket. PoCL and Oclgrind
// keep memory coherent, so no case's result can show either missing: the code is read instead.
#include <string>

namespace grader {

struct TicketFences {
  std::string kernel = "dot_single_pass", store = "partials", ticket = "ticket";
};

// "" when, in kernel `f.kernel`'s code (comments removed), the last store into `f.store`[...]
// before the ticket (the first atomic_* or atom_* call on `f.ticket`) is followed by
// mem_fence or write_mem_fence with CLK_GLOBAL_MEM_FENCE before that call, and the first read of
// `f.store`[...] after the call is preceded by mem_fence or read_mem_fence with CLK_GLOBAL_MEM_FENCE
// after it. barrier(CLK_GLOBAL_MEM_FENCE) orders memory only within a work-group and does not
// count. Otherwise what is missing, naming the lines (as the editor numbers them).
std::string ticket_fence_fault(const std::string& source, const TicketFences& f);

}  // namespace grader
