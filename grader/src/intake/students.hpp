#pragma once
// The students of a submissions folder: one entry (a folder or an archive) per student, with the
// versions handed in (name, name-v2, ...; the newest counts), when each was handed in, and the
// --deadline text read as a time.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace grader {

struct Student {
  std::string name;
  std::filesystem::path entry;  // the folder or archive in the submissions folder: the newest version
  std::vector<std::string> earlier;  // older versions handed in (name, name-v2, ...), not graded
};

// "ann-v3" -> {"ann", 3}; "ann" -> {"ann", 1}: several versions of a submission, the newest counts.
std::pair<std::string, int> split_version(const std::string& name);

// When the submission was handed in: its archive's time, or the newest file time in its folder.
std::filesystem::file_time_type handed_in_at(const std::filesystem::path& entry);

// "2026-12-01T23:59" (UTC; seconds optional) as a time; throws kit::Error naming the text.
std::filesystem::file_time_type parse_deadline(const std::string& text);

// The students in `dir`, in name order; other files are listed in `skipped` with the reason.
// Throws kit::Error when two entries give the same student name (e.g. ann/ and ann.zip).
std::vector<Student> list_students(const std::filesystem::path& dir, std::vector<std::string>& skipped);

}  // namespace grader
