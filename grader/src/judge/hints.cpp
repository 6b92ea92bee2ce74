#include "judge/hints.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

#include "oclgrind/checks.hpp"

namespace grader {

int printf_line(const std::string& source) {
  static const std::regex call(R"(\bprintf\s*\()");
  std::istringstream lines(source);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const std::string code = line.substr(0, line.find("//"));
    if (std::regex_search(code, call)) return number;
  }
  return 0;
}

std::string step_hint(CaseStatus end, const std::string& source, const std::string& shown_as) {
  if (const int line = printf_line(source))
    return "your kernel calls printf (" + shown_as + ":" + std::to_string(line) +
           "): printf in a kernel is slow, every line goes through the host, and a case that prints a line per "
           "work-item can run out of time; remove it and check again (if the case still fails, look for an endless "
           "loop or an index past the end)";
  if (end == CaseStatus::Timeout) return "an endless loop? check that every loop's counter changes (offset *= 2)";
  if (end == CaseStatus::Crashed) return "an out-of-bounds access? check every index against the array's size";
  return "";
}

void crash_hints_from_findings(LabResult& r) {
  const std::string divergence = safety_name("barrier-divergence");
  const auto found = std::find_if(r.cases.begin(), r.cases.end(), [&](const CaseResult& c) {
    return c.kind == CaseKind::Safety && c.name == divergence && c.status == CaseStatus::Unsafe;
  });
  if (found == r.cases.end()) return;
  const std::string first = found->message.substr(0, found->message.find('\n'));
  for (CaseResult& c : r.cases)
    if (c.status == CaseStatus::Crashed && (c.kind == CaseKind::Case || c.kind == CaseKind::Speed))
      c.hint = "a barrier that not every work-item reaches: the barrier-divergence check says " + first +
               ". A barrier inside an if (or a loop that not every work-item runs) is undefined behaviour and can crash "
               "the kernel; put it where every work-item of the group reaches it";
}

}  // namespace grader
