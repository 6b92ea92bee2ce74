#include "export/leaderboard.hpp"

#include <algorithm>
#include <cstdio>

#include "isolation/devices.hpp"
#include "core/files.hpp"

namespace grader {
namespace {

// A speed case whose result was right: at full speed, slow, or scaled (right, its points following
// the other cases' by the points policy).
bool counted(const CaseResult& c) {
  return c.kind == CaseKind::Speed && c.ratio >= 0 && (c.status == CaseStatus::Passed || c.status == CaseStatus::Slow || c.status == CaseStatus::Scaled);
}

}  // namespace

std::string leaderboard_alias(const std::string& student) { return "#" + sha256_hex(student).substr(0, 6); }

std::vector<LeaderboardEntry> leaderboard_entries(const ResultMap& results) {
  std::vector<LeaderboardEntry> entries;
  for (const auto& [key, r] : results)
    for (const CaseResult& c : r.cases)
      if (counted(c)) entries.push_back({r.student, leaderboard_alias(r.student), r.lab, short_device_name(r.device), c.ratio});
  std::stable_sort(entries.begin(), entries.end(), [](const LeaderboardEntry& a, const LeaderboardEntry& b) {
    return a.lab != b.lab ? a.lab < b.lab : a.ratio > b.ratio;
  });
  return entries;
}

std::string leaderboard_table(const std::vector<LeaderboardEntry>& entries, bool names) {
  std::string out;
  std::string lab;
  std::size_t rank = 0;
  char line[256];
  for (const LeaderboardEntry& e : entries) {
    if (e.lab != lab) {
      lab = e.lab, rank = 0;
      out += (out.empty() ? "" : "\n") + lab + ": speed against the solution on the graded device (higher is faster)\n";
      std::snprintf(line, sizeof line, "%5s  %-20s %8s  %s\n", "rank", names ? "student" : "alias", "speed", "device");
      out += line;
    }
    std::snprintf(line, sizeof line, "%5zu  %-20s %8.2f  %s\n", ++rank, (names ? e.student : e.alias).c_str(), e.ratio,
                  e.device.empty() ? "(not recorded)" : e.device.c_str());
    out += line;
  }
  return out.empty() ? "no speed case counted yet: a kernel's speed counts once its result is right\n" : out;
}

json gradescope_leaderboard(const std::vector<LabResult>& results) {
  json board = json::array();
  for (const LabResult& r : results)
    for (const CaseResult& c : r.cases)
      if (counted(c)) {
        const std::string device = short_device_name(r.device);
        board.push_back({{"name", r.lab + " speed" + (device.empty() ? "" : " on " + device)}, {"value", c.ratio}, {"order", "desc"}});
      }
  return board;
}

}  // namespace grader
