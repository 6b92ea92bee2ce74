#pragma once
// A course roster and the LMS export, a pass over a class's results: `grader grade --roster
// roster.csv` (and `grader merge --roster`, which `grader slurm --roster` runs) reads who is in the course
// (submission folder or archive name, display name, student id, email) and writes OUT/lms-import.csv
// in Canvas's gradebook import layout (a `Points Possible` row, one column per lab; Moodle reads the
// same CSV). Students on the roster with no submission get 0 and "no submission"; submissions not
// on the roster are listed, and still graded.
#include <filesystem>
#include <map>
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
// submission, submissions not on the roster). The columns Canvas matches a row on: `ID` is Canvas's
// own user id, which only a Canvas download gives (`canvas_ids`: student -> the id in its files'
// names), else empty, never the roster's student id, which would name another Canvas user; `SIS User
// ID` is the roster's student id and `SIS Login ID` its email (Canvas matches on them where `ID` is
// empty; Moodle on whichever column its import is told to map from).
std::string write_lms_import(const std::filesystem::path& out, const std::vector<RosterEntry>& roster,
                             const std::vector<std::string>& submitted, const std::vector<LabSpec>& specs,
                             const ResultMap& results, const std::map<std::string, std::string>& canvas_ids = {});

}  // namespace grader
