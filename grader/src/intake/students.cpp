// The students of a submissions folder, the versions each handed in (name, name-v2, ...; the
// newest counts), when it was handed in, and the --deadline it is held to.
#include "intake/students.hpp"

#include <algorithm>
#include <ctime>
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
  // file_time_type's clock and the system clock differ by a fixed offset, taken once.
  static const auto system_now = std::chrono::system_clock::now();
  static const auto file_now = std::filesystem::file_time_type::clock::now();
  return file_now + std::chrono::duration_cast<std::filesystem::file_time_type::duration>(
                        std::chrono::system_clock::from_time_t(t) - system_now);
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
