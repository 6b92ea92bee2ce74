#pragma once
// A course roster and the LMS export, a pass over a class's results: `grader grade --roster
// roster.csv` (and `grader merge --roster`, which `grader slurm --roster` runs) reads who is in the course
// (submission folder or archive name, display name, student id, email) and writes OUT/lms-import.csv
// in Canvas's gradebook import layout (a `Points Possible` row, one column per lab; Moodle reads the
// same CSV). Students on the roster with no submission get 0 and "no submission"; submissions not
// on the roster are listed, and still graded.
#include <filesystem>
#include <string>
#include <vector>

#include "export/reports.hpp"
#include "spec/spec.hpp"

namespace grader {

struct RosterEntry {
  std::string student;  // the student's name in the submissions folder (Student::student), the roster's first column
  std::string name, id, email;  // display name, student id, email
};

// Throws kit::Error naming the file and line of a malformed row (a header row is expected).
std::vector<RosterEntry> load_roster(const std::filesystem::path& file);

// One CSV line's fields ("a,\"b, c\",d" -> a | b, c | d); throws kit::Error on an unclosed quote.
std::vector<std::string> csv_fields(const std::string& line);

// Writes OUT/lms-import.csv and OUT/roster-check.txt; returns the check's text (students with no
// submission, submissions not on the roster).
std::string write_lms_import(const std::filesystem::path& out, const std::vector<RosterEntry>& roster,
                             const std::vector<std::string>& submitted, const std::vector<LabSpec>& specs,
                             const ResultMap& results);

}  // namespace grader
