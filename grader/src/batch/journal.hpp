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
  explicit Journal(std::filesystem::path file);
  // Results already in the journal, by (student, lab). A last line cut short by a kill is skipped.
  std::map<std::pair<std::string, std::string>, LabResult> load() const;
  std::size_t damaged_lines() const { return damaged_; }
  void append(const LabResult& result);  // thread-safe

 private:
  std::filesystem::path file_;
  mutable std::size_t damaged_ = 0;
  std::mutex mutex_;
};

}  // namespace grader
