#include "oclgrind/ticket_fences.hpp"

#include <algorithm>
#include <regex>
#include <vector>

#include "kit/kernel_code.hpp"

namespace grader {
namespace {

struct Match {
  std::size_t at = std::string::npos, end = std::string::npos;
  bool found() const { return at != std::string::npos; }
};

// Every match of `re` in `text`, first to last.
std::vector<Match> all_of(const std::string& text, const std::regex& re) {
  std::vector<Match> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    found.push_back({std::size_t(it->position(0)), std::size_t(it->position(0) + it->length(0))});
  return found;
}

// A global fence of one of `names` (e.g. "mem_fence|write_mem_fence") between `from` and `to`.
bool fenced(const std::string& text, const std::string& names, std::size_t from, std::size_t to) {
  const std::regex fence("\\b(" + names + R"()\s*\(([^)]*)\))");
  for (auto it = std::sregex_iterator(text.begin() + long(from), text.begin() + long(to), fence); it != std::sregex_iterator(); ++it)
    if ((*it)[2].str().find("CLK_GLOBAL_MEM_FENCE") != std::string::npos) return true;
  return false;
}

}  // namespace

std::string ticket_fence_fault(const std::string& source, const TicketFences& f) {
  const kit::CodeSpan body = kit::kernel_body(kit::code_without_comments(source), f.kernel);
  if (body.line == 0) return "the kernel " + f.kernel + " was not found in the file";
  const std::string& text = body.text;
  const auto line = [&](std::size_t at) {
    return "line " + std::to_string(body.line + std::count(text.begin(), text.begin() + long(at), '\n'));
  };
  const std::vector<Match> tickets = all_of(text, std::regex(R"(\b(atomic|atom)_\w+\s*\(\s*&?\s*)" + f.ticket + "\\b"));
  if (tickets.empty()) return f.kernel + " takes no ticket: no atomic_* call on " + f.ticket + " was found";
  const Match ticket = tickets.front();
  const std::string ticket_text = text.substr(ticket.at, text.find('(', ticket.at) - ticket.at);
  const std::regex element("\\b" + f.store + R"(\s*\[[^\]]*\])");
  const std::regex store_re("\\b" + f.store + R"(\s*\[[^\]]*\]\s*=[^=])");
  const std::vector<Match> stores = all_of(text, store_re);
  Match store;
  for (const Match& m : stores)
    if (m.at < ticket.at) store = m;
  if (!store.found())
    return f.kernel + ": no store into " + f.store + "[...] was found before the ticket's " + ticket_text + " (" + line(ticket.at) +
           "): each work-group stores its partial there, then fences, then takes its ticket";
  if (!fenced(text, "mem_fence|write_mem_fence", store.end, ticket.at))
    return f.kernel + ": between the store into " + f.store + " (" + line(store.at) + ") and the ticket's " + ticket_text + " (" +
           line(ticket.at) + ") there is no mem_fence(CLK_GLOBAL_MEM_FENCE) (or write_mem_fence(CLK_GLOBAL_MEM_FENCE)): "
           "OpenCL 1.2's atomics order nothing else, so on a GPU the last work-group can draw its ticket before this "
           "partial is visible and add a stale one. barrier(CLK_GLOBAL_MEM_FENCE) orders memory only within a work-group";
  Match read;
  for (const Match& m : all_of(text, element)) {
    const bool is_store = std::any_of(stores.begin(), stores.end(), [&](const Match& s) { return s.at == m.at; });
    if (m.at > ticket.end && !is_store) {
      read = m;
      break;
    }
  }
  if (!read.found())
    return f.kernel + ": no read of " + f.store + "[...] was found after the ticket's " + ticket_text + " (" + line(ticket.at) +
           "): the work-group that draws the last ticket adds the partials there";
  if (!fenced(text, "mem_fence|read_mem_fence", ticket.end, read.at))
    return f.kernel + ": between the ticket's " + ticket_text + " (" + line(ticket.at) + ") and the read of " + f.store + " (" +
           line(read.at) + ") there is no mem_fence(CLK_GLOBAL_MEM_FENCE) (or read_mem_fence(CLK_GLOBAL_MEM_FENCE)): "
           "OpenCL 1.2's atomics order nothing else, so on a GPU the last work-group can read a partial from before its "
           "ticket. barrier(CLK_GLOBAL_MEM_FENCE) orders memory only within a work-group";
  return "";
}

}  // namespace grader
