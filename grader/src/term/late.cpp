#include "term/late.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "export/reports.hpp"
#include "kit/errors.hpp"

namespace grader {
namespace {

// file_time_type's clock and the system clock differ by a fixed offset, taken once, so that a
// deadline formatted and parsed again is the same time.
struct ClockOffset {
  std::chrono::system_clock::time_point system_now = std::chrono::system_clock::now();
  std::filesystem::file_time_type file_now = std::filesystem::file_time_type::clock::now();
};

const ClockOffset& clock_offset() {
  static const ClockOffset offset;
  return offset;
}

// The end of the note a late result of a lab without a penalty gets, after "handed in <days>".
const std::string kNoPenaltyNote = " day(s) after the deadline; this lab has no late penalty";

}  // namespace

std::filesystem::file_time_type parse_deadline(const std::string& text) {
  std::tm tm{};
  int second = 0;
  const int read = std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &second);
  if (read < 5 || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
      second < 0 || second > 59)
    throw kit::Error("--deadline '" + text + "' is not a time like 2026-12-01T23:59 (UTC)");
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  tm.tm_sec = second;
  const std::time_t t = timegm(&tm);
  const ClockOffset& o = clock_offset();
  return o.file_now + std::chrono::duration_cast<std::filesystem::file_time_type::duration>(
                          std::chrono::system_clock::from_time_t(t) - o.system_now);
}

std::string format_deadline(std::filesystem::file_time_type deadline) {
  const ClockOffset& o = clock_offset();
  const auto system = o.system_now + std::chrono::duration_cast<std::chrono::system_clock::duration>(deadline - o.file_now);
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::floor<std::chrono::seconds>(system));
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", std::gmtime(&t));
  return text;
}

Lateness lateness(std::filesystem::file_time_type handed_in, std::filesystem::file_time_type deadline) {
  const double hours = std::chrono::duration<double>(handed_in - deadline).count() / 3600;
  return {hours, int(std::ceil(hours / 24))};
}

namespace {

// The penalty line for `days` late: the spec's share per day of the points earned, at most all.
void add_penalty_line(const LabSpec& spec, int days, const std::string& why, LabResult& r) {
  const double fraction = std::min(1.0, days * spec.late_penalty_per_day);
  const double penalty = std::floor(r.points() * fraction * 100 + 1e-9) / 100;
  char cost[120];
  std::snprintf(cost, sizeof cost, ": %.0f%% of the %s points earned", fraction * 100, format_points(r.points()).c_str());
  r.cases.push_back({"late penalty", true, -penalty, 0, CaseStatus::Late, why + cost, "", 0, CaseKind::Late});
}

const std::string kLeastTheMarkShows = "one day late, the least the mark shows";

}  // namespace

void apply_late_penalty(const LabSpec& spec, std::filesystem::file_time_type handed_in, std::filesystem::file_time_type deadline,
                        LabResult& r, bool marked_late) {
  if (handed_in <= deadline) {
    if (marked_late && spec.late_penalty_per_day > 0)
      add_penalty_line(spec, 1, "Canvas marked it late though its files' times are before the deadline (an unzip that kept no times?): " +
                                    kLeastTheMarkShows, r);
    return;
  }
  const auto [hours, days] = lateness(handed_in, deadline);
  if (spec.late_penalty_per_day <= 0) {
    r.notes.push_back("handed in " + std::to_string(days) + kNoPenaltyNote);
    return;
  }
  char why[120];
  std::snprintf(why, sizeof why, "handed in %.1f hours after the deadline (%d day(s) late)", hours, days);
  add_penalty_line(spec, days, why, r);
}

void apply_late_mark(const LabSpec& spec, LabResult& r) {
  if (spec.late_penalty_per_day <= 0) return;
  add_penalty_line(spec, 1, "Canvas marked it late and the run gave no --deadline to count the days from the file times: " + kLeastTheMarkShows, r);
}

bool graded_late(const LabResult& r) {
  for (const CaseResult& c : r.cases)
    if (c.kind == CaseKind::Late) return true;
  return std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& n) {
    return n.rfind("handed in ", 0) == 0 && n.size() > kNoPenaltyNote.size() &&
           n.compare(n.size() - kNoPenaltyNote.size(), kNoPenaltyNote.size(), kNoPenaltyNote) == 0;
  });
}

}  // namespace grader
