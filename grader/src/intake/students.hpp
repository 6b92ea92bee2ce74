#pragma once
// The students of a submissions folder, in whichever layout it comes: one entry (a folder or an
// archive) per student with the versions handed in (name, name-v2, ...; the newest counts), or an
// LMS's bulk download (Canvas, Moodle, GitHub Classroom clones: intake/lms_layouts.hpp). Also when
// each was handed in, and the folder a submission is graded from.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace grader {

// One file (or folder) of a student gathered from a flat LMS download.
struct SubmittedFile {
  std::filesystem::path source;  // in the submissions folder; only ever read
  std::string name;              // its name in the student's submission (what find_kernel looks for); "" for a
                                 // folder whose contents make the submission's top level
};

struct Student {
  std::string student;  // the student's name: the entry's, less any -vN (RosterEntry::student)
  std::filesystem::path entry;  // the folder or archive in the submissions folder: the newest version
                                // (for gathered files: the first of them)
  std::vector<std::string> earlier;  // older versions handed in (name, name-v2, ...), not graded
  std::string lms_id;                // the Canvas user id or Moodle participant id; "" in other layouts
  std::vector<SubmittedFile> files;  // a flat LMS download's files of this student: when not empty, the
                                     // submission is these files under their names (submission_root)
  std::vector<std::string> notes;    // for the student's report: versions of a file, the LMS's late mark,
                                     // files left out
};

// The layout name of a Canvas "Download Submissions" folder (StudentListing::layout).
inline constexpr const char* kCanvasLayout = "Canvas download";

// What a submissions folder holds: its layout, the students, and the entries that are no student's.
struct StudentListing {
  std::string layout;  // "one folder or archive per student", "Canvas download", "Moodle download",
                       // "GitHub Classroom clones of lab3-"
  std::vector<Student> students;     // in name order
  std::vector<std::string> skipped;  // "entry: why it is not a submission"
  std::string summary() const;       // "Canvas download: 38 students"
};

// "ann-v3" -> {"ann", 3}; "ann" -> {"ann", 1}: several versions of a submission, the newest counts.
std::pair<std::string, int> split_version(const std::string& name);

// When the submission was handed in: its archive's time, or the newest file time in its folder.
std::filesystem::file_time_type handed_in_at(const std::filesystem::path& entry);
// The same for a student: for gathered LMS files, the newest of them.
std::filesystem::file_time_type handed_in_at(const Student& student);

// The students of `dir` in the layout it is in (Canvas, Moodle or GitHub Classroom when one of them
// recognises more entries than one-per-student does; otherwise one folder or archive per student).
// Throws kit::Error when `dir` does not exist, when two entries give the same student name (e.g.
// ann/ and ann.zip), and when no submission at all is recognised (naming what is there and the
// layouts accepted): a folder that grades nobody is always a mistake.
StudentListing read_submissions(const std::filesystem::path& dir);

// read_submissions(dir)'s students; its skipped entries are appended to `skipped`.
std::vector<Student> list_students(const std::filesystem::path& dir, std::vector<std::string>& skipped);

// The folder the student's labs are graded from, never written to: the student's folder itself, or
// `scratch` (emptied first) holding the extracted archive, or the gathered LMS files copied under
// their names (a folder's tree copied, an archive among them extracted into scratch/<its stem>/).
// Throws kit::Error naming the file refused: a hostile archive, a file over the archive limits.
std::filesystem::path submission_root(const Student& student, const std::filesystem::path& scratch);

}  // namespace grader
