#pragma once
// The layouts of the bulk downloads a TA gets from an LMS, recognised in a submissions folder:
//   Canvas "Download Submissions": flat files <login>_<userid>_<submissionid>_<file>, or with
//     _LATE_ (any case) after the login; a file handed in again is renamed <file>-1, -2, ...
//   Moodle "Download all submissions": folders <Full Name>_<id>_assignsubmission_file_/ or flat
//     files <Full Name>_<id>_assignsubmission_file_<file>;
//   GitHub Classroom clones: folders <assignment>-<username>/ sharing one <assignment>- prefix.
// Each gives one Student per person; read_submissions (intake/students.hpp) picks the layout.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "intake/students.hpp"

namespace grader {

// The note a student's results carry when Canvas marked the submission late (_LATE_ in its file names).
inline constexpr const char* kCanvasLateNote = "Canvas marked this submission late";

// A student name made from a full name, safe as a folder and CSV field: ASCII letters and digits
// lower-cased, Latin letters with accents folded to their base letters (é -> e, ß -> ss, Ø -> o,
// Ł -> l), combining accents dropped, other letters (Greek, Cyrillic, CJK, ...) kept as they are,
// and every other run of characters (spaces, apostrophes, punctuation) one '-', none at the ends.
// "José Müller" -> "jose-muller", "Zoë O'Neil" -> "zoe-o-neil". "" when nothing is left.
std::string student_identifier(const std::string& full_name);

// Canvas's name for a file handed in again: "ArrayMultReduce-2.cl" -> {"ArrayMultReduce.cl", 2};
// a name without a -N before its extension -> {name, 0}.
std::pair<std::string, int> canvas_copy(const std::string& file);

struct CanvasName {
  std::string login, user_id, submission_id, file;
  bool late = false;
};
// "ada_LATE_12_345_ArrayMultReduce.cl" -> {ada, 12, 345, ArrayMultReduce.cl, late}; nullopt otherwise.
std::optional<CanvasName> parse_canvas_name(const std::string& entry);

struct MoodleName {
  std::string full_name, id, plugin, file;  // file: "" for the folder form
};
// "Zoë Müller_4211_assignsubmission_file_" -> {Zoë Müller, 4211, file, ""}; nullopt otherwise.
std::optional<MoodleName> parse_moodle_name(const std::string& entry);

// The students of `entries` (a submissions folder's entries, hidden ones left out, sorted) in the LMS
// layout that recognises the most of them, or nullopt when none recognises more than one folder or
// archive per student does (the plain layout, read by read_submissions). GitHub Classroom clones
// are recognised only among folders: at least two, no archives beside them, one common
// "<assignment>-" prefix, and at least one of them holding labs/.
std::optional<StudentListing> read_lms_layout(const std::vector<std::filesystem::directory_entry>& entries);

}  // namespace grader
