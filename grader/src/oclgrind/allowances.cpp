#include "oclgrind/allowances.hpp"

#include <algorithm>

namespace grader {
namespace {

bool is_atomic(const OclgrindSite& s) { return s.instruction.find("atomic_") != std::string::npos || s.instruction.find("atom_") != std::string::npos; }
bool is_load(const OclgrindSite& s) { return s.instruction.find("= load ") != std::string::npos || s.instruction.find("vload") != std::string::npos; }

// Whether `s` calls the builtin `name` (mangled as _Z<length><name>).
bool calls(const OclgrindSite& s, const std::string& name) {
  return s.instruction.find("@_Z" + std::to_string(name.size()) + name) != std::string::npos;
}

// Whether, in some launch of `kernel`, a work-group loaded argument `arg` at `line` after its own
// atomic on argument `ticket`.
bool read_after_ticket(const std::vector<KernelWork>& launches, const std::string& kernel, long arg, long ticket, int line) {
  for (const KernelWork& k : launches) {
    if (k.kernel != kernel) continue;
    for (const GroupOrder& g : k.order) {
      bool ticket_taken = false;
      for (const OrderEvent& e : g.events) {
        ticket_taken |= e.kind == 'A' && e.arg == ticket;
        if (ticket_taken && e.kind == 'L' && e.arg == arg && e.line == line) return true;
      }
    }
  }
  return false;
}

}  // namespace

bool is_allowed(const AllowedFinding& a, const OclgrindFinding& f, const std::vector<KernelWork>& launches) {
  if (a.kind != f.kind) return false;
  if (!a.kernel.empty() && a.kernel != f.kernel) return false;
  if (a.argument >= 0) {
    if (f.title.find("global memory") == std::string::npos || f.address == 0) return false;
    bool on_argument = false;
    for (const KernelWork& k : launches)
      on_argument |= k.kernel == f.kernel && k.arg_at(f.address) == a.argument;
    if (!on_argument) return false;
  }
  if (!a.accesses.empty()) {
    const bool write_write = f.title.find("rite-write") != std::string::npos;
    if ((a.accesses == "write-write") != write_write) return false;
  }
  if (a.other_side_atomic) {
    // One access plain, the other an atomic: the plain one is what the spec allows.
    if (f.sites.size() < 2 || is_atomic(f.sites[0]) == is_atomic(f.sites[1])) return false;
  }
  if (a.read_after_atomic_on >= 0) {
    const auto read = std::find_if(f.sites.begin(), f.sites.end(), [](const OclgrindSite& s) { return is_load(s); });
    if (read == f.sites.end() || !read_after_ticket(launches, f.kernel, a.argument, a.read_after_atomic_on, read->line)) return false;
  }
  if (!a.in_call.empty()) {
    const bool in_call = std::any_of(f.sites.begin(), f.sites.end(), [&](const OclgrindSite& s) {
      return std::any_of(a.in_call.begin(), a.in_call.end(), [&](const std::string& name) { return calls(s, name); });
    });
    if (!in_call) return false;
  }
  return true;
}

std::vector<OclgrindFinding> not_allowed(const std::vector<AllowedFinding>& allow, const std::vector<OclgrindFinding>& findings,
                                         const std::vector<KernelWork>& launches, std::size_t& allowed) {
  std::vector<OclgrindFinding> out;
  allowed = 0;
  for (const OclgrindFinding& f : findings) {
    if (std::any_of(allow.begin(), allow.end(), [&](const AllowedFinding& a) { return is_allowed(a, f, launches); })) ++allowed;
    else out.push_back(f);
  }
  return out;
}

}  // namespace grader
