#include "judge/hints.hpp"

#include <regex>
#include <sstream>

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

}  // namespace grader
