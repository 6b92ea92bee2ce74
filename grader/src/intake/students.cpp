// The students of a submissions folder, the versions each handed in (name, name-v2, ...; the
// newest counts) and when it was handed in.
#include "intake/students.hpp"

#include <algorithm>
#include <map>
#include <regex>

#include "intake/archive.hpp"
#include "kit/errors.hpp"

namespace grader {

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

std::vector<Student> list_students(const std::filesystem::path& dir, std::vector<std::string>& skipped) {
  if (!std::filesystem::is_directory(dir)) throw kit::Error("submissions folder " + dir.string() + " does not exist");
  std::map<std::string, std::map<int, std::filesystem::path>> by_name;  // student -> version -> entry
  std::vector<std::filesystem::directory_entry> entries(std::filesystem::directory_iterator(dir), {});
  std::sort(entries.begin(), entries.end());
  for (const auto& entry : entries) {
    const std::string file = entry.path().filename().string();
    if (file.empty() || file[0] == '.') continue;
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
  std::vector<Student> students;
  for (const auto& [name, versions] : by_name) {
    Student s{name, versions.rbegin()->second, {}};
    for (const auto& [version, path] : versions)
      if (path != s.entry) s.earlier.push_back(path.filename().string());
    students.push_back(s);
  }
  return students;
}

}  // namespace grader
