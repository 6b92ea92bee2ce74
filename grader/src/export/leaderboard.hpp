#pragma once
// The speed leaderboard: every speed case's ratio (the kernel's speed / the solution's, measured on
// the graded device), for Gradescope's `leaderboard` field and for `grader leaderboard OUT`, which
// prints a class's table under aliases so that it can be shown to the class.
#include <string>
#include <vector>

#include "export/reports.hpp"
#include "core/results.hpp"

namespace grader {

struct LeaderboardEntry {
  std::string student, alias, lab, device;
  double ratio = 0;
};

// A stable alias for a student on a shown table: "#" and six hex digits of a hash of the name.
std::string leaderboard_alias(const std::string& student);

// Every speed case that counted (a right result), best first.
std::vector<LeaderboardEntry> leaderboard_entries(const ResultMap& results);

// The table: rank, alias (or the name with `names`), lab, speed ratio, device.
std::string leaderboard_table(const std::vector<LeaderboardEntry>& entries, bool names);

// Gradescope's leaderboard field for one submission: [{"name", "value", "order": "desc"}] per speed case.
json gradescope_leaderboard(const std::vector<LabResult>& results);

}  // namespace grader
