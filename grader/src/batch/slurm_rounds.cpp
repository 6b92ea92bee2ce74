#include "batch/slurm_rounds.hpp"

#include <algorithm>
#include <cstdlib>

namespace grader {
namespace {

namespace fs = std::filesystem;

// "round-12" -> 12, "task-3" -> 3 (0 for another name): folders in the order they were made.
long folder_number(const fs::path& p) {
  const std::string name = p.filename().string();
  const std::size_t dash = name.rfind('-');
  return dash == std::string::npos ? 0 : std::strtol(name.c_str() + dash + 1, nullptr, 10);
}

std::vector<fs::path> numbered_folders(const fs::path& dir) {
  std::vector<fs::path> folders;
  if (fs::is_directory(dir))
    for (const auto& f : fs::directory_iterator(dir))
      if (f.is_directory()) folders.push_back(f.path());
  std::sort(folders.begin(), folders.end(), [](const fs::path& a, const fs::path& b) { return folder_number(a) < folder_number(b); });
  return folders;
}

}  // namespace

std::vector<fs::path> slurm_task_dirs(const fs::path& out) {
  std::vector<fs::path> dirs;
  for (const fs::path& round : numbered_folders(out / "slurm"))
    for (const fs::path& task : numbered_folders(round)) dirs.push_back(task);
  return dirs;
}

SlurmLines all_slurm_results(const fs::path& out) {
  SlurmLines newest;
  const auto take = [&](const fs::path& file) {
    for (auto& [key, line] : Journal(file).load_lines()) {
      if (needs_retry(line.result) || line.record.contains(kCopiedForRegrade)) continue;
      const auto it = newest.find(key);
      if (it == newest.end() || line.graded_at() > it->second.graded_at()) newest[key] = std::move(line);
    }
  };
  take(out / "journal.jsonl");
  for (const fs::path& task : slurm_task_dirs(out))
    if (fs::exists(task / "journal.jsonl")) take(task / "journal.jsonl");
  return newest;
}

ResultMap results_of(const SlurmLines& lines) {
  ResultMap results;
  for (const auto& [key, line] : lines) results[key] = line.result;
  return results;
}

}  // namespace grader
