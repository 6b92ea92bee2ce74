#pragma once
// Late work, a pass over results: `--deadline` read as a time, and the late penalty of the spec's
// late_penalty_per_day. Applied where a result is made (`grader grade`, and each Slurm task's
// `grader grade`), so the penalty is in the journal with the rest of the result.
#include <filesystem>
#include <string>

#include "core/results.hpp"
#include "spec/spec.hpp"

namespace grader {

// "2026-12-01T23:59" (UTC; seconds optional) as a time; throws kit::Error naming the text.
std::filesystem::file_time_type parse_deadline(const std::string& text);

// The deadline as parse_deadline reads it back, to the second: "2026-12-01T23:59:00".
std::string format_deadline(std::filesystem::file_time_type deadline);

// How late work was handed in: the hours, and the days (or parts of one) the penalty counts.
struct Lateness {
  double hours = 0;
  int days = 0;
};
Lateness lateness(std::filesystem::file_time_type handed_in, std::filesystem::file_time_type deadline);

// Late work: a negative "late penalty" line of the spec's late_penalty_per_day for each day (or
// part of one) after the deadline, as a fraction of the points earned; a note where the lab has none.
// `marked_late`: the LMS marked the submission late (Canvas's _LATE_): where its file times are on
// time (an unzip that did not keep them, a clock apart), it still counts as one day late, the least
// the mark shows, and the line says so.
void apply_late_penalty(const LabSpec& spec, std::filesystem::file_time_type handed_in,
                        std::filesystem::file_time_type deadline, LabResult& r, bool marked_late = false);

// A submission the LMS marked late, graded without --deadline: with a late penalty in the spec, one
// day's penalty (the least the mark shows; --deadline counts the days from the file times), said
// on its line; without one, nothing (the mark's note already says it).
void apply_late_mark(const LabSpec& spec, LabResult& r);

// Whether apply_late_penalty found `r` late: its penalty line, or its note where the lab has none.
bool graded_late(const LabResult& r);

}  // namespace grader
