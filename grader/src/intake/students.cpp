// The students of a submissions folder in its layout (one folder or archive per student with versions
// name, name-v2, ...; or an LMS download, intake/lms_layouts), when each was handed in,
// and the folder each is graded from.
#include "intake/students.hpp"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <map>
#include <regex>

#include "intake/archive.hpp"
#include "intake/lms_layouts.hpp"
#include "kit/errors.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

constexpr auto kStudentFileMode = static_cast<fs::perms>(0644);

// The layouts accepted, for the message when none is recognised.
const char* const kLayouts =
    "one folder or .zip/.tar.gz/.tgz/.tar archive per student (ann/, ann-v2.zip); a Canvas \"Download Submissions\" "
    "folder (<login>_<userid>_<submissionid>_<file>, <login>_LATE_<userid>_<submissionid>_<file>); a Moodle \"Download all "
    "submissions\" folder (<Full Name>_<id>_assignsubmission_file_/ or <Full Name>_<id>_assignsubmission_file_<file>); "
    "GitHub Classroom clones (<assignment>-<username>/ folders holding labs/)";

std::string nothing_recognised(const fs::path& dir, const std::vector<fs::directory_entry>& entries) {
  if (entries.empty())
    return "no submission in " + dir.string() + ": it is empty (hidden entries aside). The layouts accepted: " + kLayouts;
  std::size_t folders = 0;
  std::string names;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const bool folder = entries[i].is_directory() && !entries[i].is_symlink();
    folders += folder;
    if (i < 5) names += (names.empty() ? "" : ", ") + entries[i].path().filename().string() + (folder ? "/" : "");
  }
  if (entries.size() > 5) names += ", and " + std::to_string(entries.size() - 5) + " more";
  const std::size_t files = entries.size() - folders;
  return "no submission recognised in " + dir.string() + ": " + std::to_string(files) + (files == 1 ? " file" : " files") +
         " and " + std::to_string(folders) + (folders == 1 ? " folder" : " folders") + " (" + names +
         "), none of them a student's submission. The layouts accepted: " + kLayouts;
}

// One folder or archive per student, with versions (name, name-v2, ...).
StudentListing read_plain(const std::vector<fs::directory_entry>& entries) {
  StudentListing listing{"one folder or archive per student", {}, {}};
  std::vector<std::string>& skipped = listing.skipped;
  std::map<std::string, std::map<int, fs::path>> by_name;  // student -> version -> entry
  for (const auto& entry : entries) {
    const std::string file = entry.path().filename().string();
    std::string name;
    if (entry.is_symlink()) {
      skipped.push_back(file + ": a symbolic link; submissions must be folders or archives");
      continue;
    }
    if (entry.is_directory()) name = file;
    else if (entry.is_regular_file() && is_archive(entry.path())) name = archive_stem(entry.path());
    else {
      skipped.push_back(file + ": not a folder or a .zip/.tar.gz/.tgz/.tar archive");
      continue;
    }
    if (name == "gradebook.csv" || name == "journal.jsonl") {
      skipped.push_back(file + ": the student name '" + name + "' is one of the grader's own output files; rename it");
      continue;
    }
    const auto [base, version] = split_version(name);
    if (by_name[base].count(version))
      throw kit::Error("two submissions for student '" + name + "': " + by_name[base][version].filename().string() + " and " +
                       file + "; keep one");
    by_name[base][version] = entry.path();
  }
  for (const auto& [name, versions] : by_name) {
    Student s;
    s.student = name;
    s.entry = versions.rbegin()->second;
    for (const auto& [version, path] : versions)
      if (path != s.entry) s.earlier.push_back(path.filename().string());
    listing.students.push_back(s);
  }
  return listing;
}

// Bytes and files copied for one student, held to the archive limits.
struct Copied {
  ExtractLimits limits;
  std::uintmax_t bytes = 0;
  std::size_t files = 0;
};

void copy_file_limited(const fs::path& from, const fs::path& to, const std::string& shown, Copied& copied) {
  if (fs::exists(to)) throw kit::Error(shown + ": a second file named " + to.filename().string() + " in the submission; keep one");
  if (++copied.files > copied.limits.max_entries)
    throw kit::Error(shown + ": more than " + std::to_string(copied.limits.max_entries) + " files in the submission; refused");
  std::ifstream in(from, std::ios::binary);
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  if (!in || !out) throw kit::Error(shown + ": cannot copy it into the grader's work folder " + to.parent_path().string());
  fs::permissions(to, kStudentFileMode);
  std::uintmax_t file_bytes = 0;
  std::vector<char> buffer(64 * 1024);
  while (in) {
    in.read(buffer.data(), std::streamsize(buffer.size()));
    const std::uintmax_t n = std::uintmax_t(in.gcount());
    file_bytes += n;
    copied.bytes += n;
    if (file_bytes > copied.limits.max_file_bytes)
      throw kit::Error(shown + ": more than " + std::to_string(copied.limits.max_file_bytes) + " bytes; refused");
    if (copied.bytes > copied.limits.max_total_bytes)
      throw kit::Error(shown + ": more than " + std::to_string(copied.limits.max_total_bytes) +
                       " bytes in all in this student's files; refused");
    out.write(buffer.data(), std::streamsize(n));
  }
  if (!out) throw kit::Error(shown + ": cannot write its copy " + to.string());
}

// A gathered folder's regular files and folders, links left out.
void copy_tree(const fs::path& from, const fs::path& to, Copied& copied) {
  fs::create_directories(to);
  for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path target = to / fs::relative(it->path(), from);
    if (it->is_symlink()) continue;
    if (it->is_directory()) fs::create_directories(target);
    else if (it->is_regular_file())
      copy_file_limited(it->path(), target, from.filename().string() + "/" + fs::relative(it->path(), from).string(), copied);
  }
}

}  // namespace

std::pair<std::string, int> split_version(const std::string& name) {
  static const std::regex versioned(R"((.+)-v([0-9]{1,4}))");
  std::smatch m;
  if (std::regex_match(name, m, versioned)) return {m[1], std::stoi(m[2])};
  return {name, 1};
}

std::filesystem::file_time_type handed_in_at(const std::filesystem::path& entry) {
  if (!std::filesystem::is_directory(entry)) return std::filesystem::last_write_time(entry);
  auto newest = std::filesystem::file_time_type::min();
  for (const auto& f : std::filesystem::recursive_directory_iterator(entry, std::filesystem::directory_options::skip_permission_denied))
    if (f.is_regular_file() && !f.is_symlink()) newest = std::max(newest, f.last_write_time());
  return newest == std::filesystem::file_time_type::min() ? std::filesystem::last_write_time(entry) : newest;
}

std::filesystem::file_time_type handed_in_at(const Student& student) {
  if (student.files.empty()) return handed_in_at(student.entry);
  auto newest = std::filesystem::file_time_type::min();
  for (const SubmittedFile& f : student.files) newest = std::max(newest, handed_in_at(f.source));
  return newest;
}

std::string StudentListing::summary() const {
  return layout + ": " + std::to_string(students.size()) + (students.size() == 1 ? " student" : " students");
}

StudentListing read_submissions(const std::filesystem::path& dir) {
  if (!std::filesystem::is_directory(dir)) throw kit::Error("submissions folder " + dir.string() + " does not exist");
  std::vector<std::filesystem::directory_entry> entries;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (!file.empty() && file[0] != '.') entries.push_back(entry);
  }
  std::sort(entries.begin(), entries.end());
  StudentListing listing;
  if (std::optional<StudentListing> lms = read_lms_layout(entries)) listing = std::move(*lms);
  else listing = read_plain(entries);
  if (listing.students.empty()) throw kit::Error(nothing_recognised(dir, entries));
  // A download unpacked one folder too deep: the only "student" is the whole class.
  if (listing.students.size() == 1 && listing.students[0].files.empty() && std::filesystem::is_directory(listing.students[0].entry)) {
    const std::filesystem::path inner = listing.students[0].entry;
    std::vector<std::filesystem::directory_entry> inside;
    for (const auto& entry : std::filesystem::directory_iterator(inner))
      if (entry.path().filename().string()[0] != '.') inside.push_back(entry);
    std::sort(inside.begin(), inside.end());
    const std::optional<StudentListing> nested = read_lms_layout(inside);
    if (nested && !nested->students.empty() && !nested->students[0].lms_id.empty())
      throw kit::Error(dir.string() + " holds one folder, " + inner.filename().string() + "/, which is a " + nested->summary() +
                       ": give --submissions " + inner.string());
  }
  return listing;
}

std::vector<Student> list_students(const std::filesystem::path& dir, std::vector<std::string>& skipped) {
  StudentListing listing = read_submissions(dir);
  skipped.insert(skipped.end(), listing.skipped.begin(), listing.skipped.end());
  return std::move(listing.students);
}

std::filesystem::path submission_root(const Student& student, const std::filesystem::path& scratch) {
  if (student.files.empty() && std::filesystem::is_directory(student.entry)) return student.entry;
  std::filesystem::remove_all(scratch);
  if (student.files.empty()) {
    extract_archive(student.entry, scratch);
    return scratch;
  }
  std::filesystem::create_directories(scratch);
  Copied copied;
  for (const SubmittedFile& f : student.files) {
    const std::filesystem::path to = f.name.empty() ? scratch : scratch / f.name;
    if (std::filesystem::is_directory(f.source)) {
      copy_tree(f.source, to, copied);
    } else if (is_archive(f.name)) {
      std::filesystem::path target = scratch / archive_stem(f.name);
      while (std::filesystem::exists(target)) target += "-archive";
      extract_archive(f.source, target);
    } else {
      copy_file_limited(f.source, to, f.source.filename().string(), copied);
    }
  }
  return scratch;
}

}  // namespace grader
