#pragma once
// The batch's journal: every finished student x lab result is appended (and flushed to disk) the
// moment it is known, so a killed batch rerun with the same output folder redoes nothing.
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "core/results.hpp"

namespace grader {

class Journal {
 public:
  // One line: the result, and the record as written (with "graded_at" and "kit_version").
  struct Line {
    LabResult result;
    json record;
    std::string graded_at() const;  // "2026-12-01T23:59:00Z"; "" in a line without one
  };
  explicit Journal(std::filesystem::path file);
  // Results already in the journal, by (student, lab): the last line of each counts. A last line
  // cut short by a kill is skipped.
  std::map<std::pair<std::string, std::string>, LabResult> load() const;
  std::map<std::pair<std::string, std::string>, Line> load_lines() const;  // the same, with the records
  std::size_t damaged_lines() const { return damaged_; }
  // Thread-safe. `fields`: more of the record, e.g. what the result was graded from (batch/graded_hash.hpp).
  void append(const LabResult& result, const json& fields = json::object());
  void append_record(const json& record);  // a record of another journal as it is (its graded_at kept)

 private:
  std::filesystem::path file_;
  mutable std::size_t damaged_ = 0;
  std::mutex mutex_;
};

}  // namespace grader
