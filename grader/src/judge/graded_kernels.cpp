#include "judge/graded_kernels.hpp"

#include <system_error>

#include "core/files.hpp"
#include "kit/kernel_code.hpp"
#include "kit/program.hpp"

namespace grader {

std::string code_without_comments(const std::string& source) { return kit::code_without_comments(source); }

bool same_as_starter(const std::string& source, const std::filesystem::path& kernel, const std::filesystem::path& starter) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(starter, ec) || std::filesystem::equivalent(kernel, starter, ec)) return false;
  return code_without_comments(read_file(starter)) == code_without_comments(source);
}

bool quotes_the_file(const LabResult& r, const std::string& shown_as) {
  if (r.status == LabStatus::BuildError) return true;
  const std::string position = shown_as + ":";
  if (r.message.find(position) != std::string::npos) return true;
  for (const CaseResult& c : r.cases)
    if (c.message.find(position) != std::string::npos || c.hint.find(position) != std::string::npos) return true;
  return false;
}

std::optional<LabResult> GradedKernels::find_or_claim(const Key& key) {
  std::unique_lock<std::mutex> lock(mutex_);
  const std::string k = id(key);
  for (;;) {
    for (const Graded& g : done_[k])
      if (g.bytes == key.bytes || !quotes_the_file(g.result, key.shown_as)) {
        ++reused_;
        return g.result;
      }
    if (!grading_.count(k)) break;
    changed_.wait(lock);
  }
  grading_.insert(k);
  return std::nullopt;
}

void GradedKernels::publish(const Key& key, const LabResult& result) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_[id(key)].push_back({key.bytes, result});
  abandon_locked(key);
}

void GradedKernels::abandon(const Key& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  abandon_locked(key);
}

void GradedKernels::abandon_locked(const Key& key) {
  grading_.erase(id(key));
  changed_.notify_all();
}

std::size_t GradedKernels::reused() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reused_;
}

}  // namespace grader
