#pragma once
// The students of a submissions folder: one entry (a folder or an archive) per student, with the
// versions handed in (name, name-v2, ...; the newest counts) and when each was handed in.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace grader {

struct Student {
  std::string student;  // the student's name: the entry's, less any -vN (RosterEntry::student)
  std::filesystem::path entry;  // the folder or archive in the submissions folder: the newest version
  std::vector<std::string> earlier;  // older versions handed in (name, name-v2, ...), not graded
};

// "ann-v3" -> {"ann", 3}; "ann" -> {"ann", 1}: several versions of a submission, the newest counts.
std::pair<std::string, int> split_version(const std::string& name);

// When the submission was handed in: its archive's time, or the newest file time in its folder.
std::filesystem::file_time_type handed_in_at(const std::filesystem::path& entry);

// The students in `dir`, in name order; other files are listed in `skipped` with the reason.
// Throws kit::Error when two entries give the same student name (e.g. ann/ and ann.zip).
std::vector<Student> list_students(const std::filesystem::path& dir, std::vector<std::string>& skipped);

}  // namespace grader
