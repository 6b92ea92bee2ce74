#pragma once
// A solution's `grader check` output, judged with the bound its own speed estimate measured.
#include <doctest/doctest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace test {

// A solution's `grader check` output passes, or its only line short of full points is a speed
// estimate whose own noise band, measured in the same run, reaches full points ("noise band A .. B"
// with B at or above "full points from F"): the estimate is scored at its central value, and a
// machine running other work at the same time can move that value below F while the solution is
// as fast as ever. The band is what the check measured, so this bound is not a tolerance chosen
// here; a solution slow beyond its band still fails.
inline void check_solution_passes(const test::Command& run) {
  if (run.exit_code == 0) {
    CHECK(run.output.find("All visible cases pass") != std::string::npos);
    return;
  }
  std::vector<std::string> short_lines;  // every case line but a PASS
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);)
    for (const char* label : {"  PART ", "  FAIL ", "  SKIP ", "  DEVICE "})
      if (line.rfind(label, 0) == 0) short_lines.push_back(line);
  std::smatch band, from;
  const bool banded = std::regex_search(run.output, band, std::regex(R"(noise band ([0-9.]+) \.\. ([0-9.]+)\))")) &&
                      std::regex_search(run.output, from, std::regex(R"(full points from ([0-9.]+))"));
  REQUIRE_MESSAGE(banded, run.output);
  REQUIRE_MESSAGE(short_lines.size() == 1, run.output);
  CHECK_MESSAGE(short_lines[0].find("speed estimate") != std::string::npos, run.output);
  CHECK_MESSAGE(std::stod(band[2]) >= std::stod(from[1]), run.output);
  MESSAGE("the solution's speed estimate fell below full points on this busy machine, within its own noise band: " << band[0]);
}

}  // namespace test
